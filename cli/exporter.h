/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-exporter's parts: its command line (exporter-options.c), its
 * HTTP server (exporter-web.c, web-config.c), its OTLP push
 * (exporter-otlp.c) and its pages and reading loop (rpcrdma-exporter.c).
 */
#ifndef RR_EXPORTER_H
#define RR_EXPORTER_H

#include <stdbool.h>
#include <stdio.h>

#include "exporter-otlp.h"
#include "live-source.h"

/* What the exporter serves, each turned on or off as node_exporter's
 * collectors are (--collector.NAME, --no-collector.NAME):
 * X(symbol, name, on unless told, what it serves). */
#define RR_COLLECTOR_LIST(X) \
	X(RR_COLLECTOR_PACKETS, "packets", true, \
	  "the analyzer's metrics of the frames read (-e, -i, -r, --rdma)") \
	X(RR_COLLECTOR_TRACEPOINTS, "tracepoints", false, \
	  "the kernel's rpcrdma and sunrpc tracepoints (as -t)") \
	X(RR_COLLECTOR_MOUNTSTATS, "mountstats", true, \
	  "the NFS client's RDMA transports (--mountstats)") \
	X(RR_COLLECTOR_SVC_RDMA, "svc_rdma", true, \
	  "the NFS server's RDMA counters (--svc-rdma)") \
	X(RR_COLLECTOR_PROCESS, "process", true, \
	  "the exporter's own process_* metrics")
#define RR_COLLECTOR_X_ENUM(sym, name, on, help) sym,
enum rr_collector { RR_COLLECTOR_LIST(RR_COLLECTOR_X_ENUM) RR_COLLECTORS };

/* Free in Prometheus' list of exporter ports when chosen (9100-9999 is
 * taken); README says so. */
#define RR_EXPORTER_DEFAULT_PORT 10186

enum { EXIT_USAGE = 1, EXIT_INPUT = 2 };

struct opts {
	struct rr_live_opts src;
	bool collector[RR_COLLECTORS];
	const char *listen;            /* -l, --web.listen-address */
	bool systemd_socket;           /* --web.systemd-socket */
	const char *web_config;        /* --web.config.file: TLS, users */
	const char *telemetry_path;    /* --web.telemetry-path: /metrics */
	long max_requests;             /* --web.max-requests: 40 */
	bool no_exporter_metrics;      /* --web.disable-exporter-metrics */
	const char *mountstats, *svc_rdma;
	long max_series;
	struct rr_otlp_opts otlp;      /* --otlp.*: endpoint NULL, none */
};

/* The command line into o: -1 after saying what is wrong on stderr; -h
 * and -V print and exit. */
int exporter_parse_args(int argc, char **argv, struct opts *o);
void exporter_usage(FILE *to);

#endif
