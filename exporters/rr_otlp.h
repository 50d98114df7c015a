/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The exporter's metrics as an OTLP/HTTP request body: an
 * ExportMetricsServiceRequest (OpenTelemetry protocol 1.x, metrics/v1) in
 * its protobuf encoding (Content-Type application/x-protobuf, the one
 * every OTLP receiver takes), packed by protobuf-c from the schema in
 * proto/otlp-metrics.proto.  Made from the same Prometheus text
 * exposition the exporter serves, so that a family is the same whether
 * scraped or pushed: a counter becomes a cumulative monotonic Sum named
 * without its "_total" (a receiver that speaks Prometheus adds it back),
 * a gauge (or untyped) a Gauge, a histogram a Histogram with its explicit
 * bounds and per-bucket counts; labels become string attributes, an RPC's
 * program, procedure and version (a series that names both of the first)
 * under OpenTelemetry's semantic conventions for ONC RPC:
 * onc_rpc.program.name, onc_rpc.procedure.name, onc_rpc.version (an int).
 */
#ifndef RR_OTLP_H
#define RR_OTLP_H

#include <stddef.h>
#include <stdint.h>

#define RR_OTLP_CONTENT_TYPE "application/x-protobuf"

/* Who pushes: the resource's attributes (service.name, service.version,
 * service.instance.id, host.name) and the start of the cumulative sums. */
struct rr_otlp_resource {
	const char *service_name, *service_version, *instance, *host;
	uint64_t start_ns;
};

/*
 * The exposition text (len bytes, Prometheus' text format 0.0.4) as one
 * OTLP request of *out_len bytes, its data points stamped now_ns; NULL
 * when memory runs out.  Free it.  Lines it cannot read (another
 * format's) are left out and counted in *skipped when skipped is not NULL.
 */
uint8_t *rr_otlp_encode(const char *text, size_t len, const struct rr_otlp_resource *res,
			uint64_t now_ns, size_t *out_len, unsigned *skipped);

#endif
