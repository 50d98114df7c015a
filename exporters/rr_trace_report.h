/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel's view (rpcrdma_trace_view.h) rendered: rpcrdma-top's text and JSON
 * snapshots and rpcrdma-exporter's metrics, from the same totals and
 * per-connection detail.
 */
#ifndef RR_TRACE_REPORT_H
#define RR_TRACE_REPORT_H

#include <stdio.h>

#include "rr_prom.h"
#include "rpcrdma_trace_view.h"

/* "inline", "pullup", "mapped", "read list", "*read list" (a Long Call),
 * "write list", "reply chunk", as Linux 5.10 to 6.12 name them. */
const char *rr_tp_chunk_type_str(unsigned t);
/* A procedure's mean of one of its summed times (queue_us, rtt_us,
 * execute_us) over its calls, as nfsiostat divides mountstats' sums. */
uint64_t rr_tp_proc_mean_us(const struct rr_tp_proc *p, uint64_t sum_us);
/* A failed reply's status by name (its number in num when unnamed), and
 * the NFSv4 operation that failed ("" for other versions). */
const char *rr_tp_status_str(const struct rr_tp_status *e, char *num, size_t n);
const char *rr_tp_status_op_str(const struct rr_tp_status *e);
/* A failed NFSv4 reply's status on the server, by name (or number). */
const char *rr_tp_server_status_str(const struct rr_tp_server_status *e, char *num,
				    size_t n);
/* A snapshot; rates over dt seconds since prev.  d NULL: totals only. */
void rr_trace_report_text(FILE *out, const struct rr_tp_stats *s,
			  const struct rr_tp_stats *prev,
			  const struct rr_tp_detail *d, double dt);
/* One JSON line (docs/json-schema.md, top_tracepoints). */
void rr_trace_report_json(FILE *out, const struct rr_tp_stats *s,
			  const struct rr_tp_detail *d);
/* The rpcrdma_trace_* totals, and with d the packet path's per-procedure
 * and per-connection metrics that the kernel's events can give. */
void rr_trace_report_prom(struct rr_prom *w, const struct rr_tp_stats *s,
			  const struct rr_tp_detail *d);

#endif
