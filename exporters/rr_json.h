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

/* A finding that names no message (RR_EV_FINDING); a message's own are
 * in its line. */
json_object *rr_json_finding(const struct rr_event *ev);
/* The chunk an RDMA Read or Write packet serves (RR_EV_CHUNK_DATA). */
json_object *rr_json_chunk_data(const struct rr_event *ev);
/* The end of a connection (RR_EV_CONN_CLOSE): CM DREQ, TCP FIN or RST. */
json_object *rr_json_close(const struct rr_event *ev);
/* An IB/RoCE request packet seen again (RR_EV_RETRANSMISSION). */
/* A CM message or MPA frame, as decoded in f, of connection conn
 * (rr_frame_summary.conn; RR_CONN_NONE for none). */
json_object *rr_json_setup(const struct rr_frame *f, uint64_t frame,
			   uint64_t ts_ns, uint32_t conn);
/* Both sides' setup seen (RR_EV_NEGOTIATED, its connection not NULL). */
json_object *rr_json_negotiated(const struct rr_event *ev);
json_object *rr_json_stats(const struct rr_analyzer *a);
/* The diagnosis, worst first (rpcrdma/diagnosis.h): the array of
 * --stats=json's "diagnosis", and of rpcrdma-top -j's. */
json_object *rr_json_diagnosis(const struct rr_analyzer *a);
/* The json-c this program runs with, as "json-c X.Y". */
const char *rr_json_library_version(void);

/*
 * The lines of messages (RR_EV_MESSAGE of report r, with its completion
 * and the findings it raised) and of RPC messages rebuilt from chunk data
 * (RR_EV_RPC_MESSAGE, with the RPC header decoded from them), written as
 * text without json-c (rr_json_lines.c).  The text returned lives until
 * the next call; NULL when memory ran out.
 */
struct rr_json_writer;
struct rr_json_writer *rr_json_writer_new(void);
void rr_json_writer_free(struct rr_json_writer *w);
const char *rr_json_writer_message(struct rr_json_writer *w,
				   const struct rr_frame_report *r,
				   const struct rr_event *ev);
const char *rr_json_writer_rpc_message(struct rr_json_writer *w,
				       const struct rr_event *ev);
/* An IB/RoCE request packet sent again (RR_EV_RETRANSMISSION), with the
 * header of the message it starts, if any. */
const char *rr_json_writer_retransmission(struct rr_json_writer *w,
					  const struct rr_event *ev);
/* An answered call (RR_EV_RPC_DONE) as rpcrdma-dump --slow lists it:
 * caller, callee, procedure, file handle hash, range, latency, status. */
const char *rr_json_writer_slow_call(struct rr_json_writer *w,
				     const struct rr_event *ev);
/* The length of the last text returned. */
size_t rr_json_writer_len(const struct rr_json_writer *w);

#endif
