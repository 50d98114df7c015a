/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * JSON renderings (json-c) of what libdissect and its analyzer report,
 * following docs/json-schema.md.  Each function returns a new reference
 * the caller puts with json_object_put().
 */
#ifndef RR_JSON_H
#define RR_JSON_H

#include <json-c/json.h>

#include <rpcrdma/analyzer.h>

#define RR_JSON_SCHEMA 1

json_object *rr_json_message(const struct rr_event *ev,
			     const struct rr_rpcrdma *hdr,
			     const struct rr_rpc *rpc,
			     const struct rr_event *completed,
			     const uint16_t *findings, unsigned nfindings);
json_object *rr_json_finding(const struct rr_event *ev);
/* A CM message or MPA frame, as decoded in f. */
json_object *rr_json_setup(const struct rr_frame *f, uint64_t frame,
			   uint64_t ts_ns);
json_object *rr_json_negotiated(const struct rr_event *ev,
				const struct rr_conn_info *c);
json_object *rr_json_stats(const struct rr_analyzer *a);

#endif
