/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-exporter's push of its metrics as OTLP/HTTP (protobuf) to an
 * OpenTelemetry receiver (--otlp.endpoint): a thread that every
 * interval renders what /metrics serves, turns it into an OTLP request
 * (exporters/rr_otlp.h) and POSTs it through libcurl, as an OpenTelemetry
 * SDK's periodic metric reader and OTLP exporter do; once more when the
 * exporter stops.
 */
#ifndef RR_EXPORTER_OTLP_H
#define RR_EXPORTER_OTLP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rr_otlp.h"
#include "rr_prom.h"

#define RR_OTLP_MAX_HEADERS 16

/* The command line's --otlp.* options, named after OpenTelemetry's
 * OTEL_EXPORTER_OTLP_METRICS_* settings. */
struct rr_otlp_opts {
	const char *endpoint;              /* the full URL posted to */
	double interval_s, timeout_s;      /* 60, 10 */
	const char *headers[RR_OTLP_MAX_HEADERS]; /* "Name: value" */
	unsigned nheaders;
	bool gzip;                         /* --otlp.compression gzip */
	const char *ca_file, *cert_file, *key_file;
	bool insecure;                     /* the server's certificate unchecked */
};

/* What the push sends: the exposition /metrics serves, rendered into out;
 * false when it could not be. */
typedef bool (*rr_otlp_render_fn)(void *ctx, struct rr_text *out);

struct rr_otlp_push;
/* Whether this build can push (it has libcurl). */
bool rr_otlp_push_available(void);
/* Starts the pushing thread; NULL with the reason in why. */
struct rr_otlp_push *rr_otlp_push_start(const struct rr_otlp_opts *o,
					const struct rr_otlp_resource *res,
					rr_otlp_render_fn render, void *ctx,
					char *why, size_t n);
/* Pushes once more, then stops the thread. */
void rr_otlp_push_stop(struct rr_otlp_push *p);
/* The requests the receiver took (2xx) and those that failed. */
void rr_otlp_push_counts(const struct rr_otlp_push *p, uint64_t *ok, uint64_t *failed);

#endif
