/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel's view (trace/trace-view.h) rendered: rpcrdma-top's text and JSON
 * snapshots and rpcrdma-exporter's metrics, from the same totals and
 * per-connection detail.
 */
#ifndef RR_TRACE_REPORT_H
#define RR_TRACE_REPORT_H

#include <stdio.h>

#include "rr_prom.h"
#include "trace-view.h"

/* "inline", "pullup", "mapped", "read list", "*read list" (a Long Call),
 * "write list", "reply chunk", as Linux 5.10 to 6.12 name them. */
const char *rr_tp_chunk_type_str(unsigned t);
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
