/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel NFS client's and server's own view, for RNICs whose traffic
 * never reaches a netdev: the rpcrdma module's tracepoints
 * (include/trace/events/rpcrdma.h).  Their layouts change between kernel
 * versions, so each is read at run time from its tracefs format file
 * (libtraceevent parses it) and fields are found by name, never by a fixed
 * offset.
 */
#ifndef RR_TRACE_H
#define RR_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rpcrdma/latency.h>

#include "rpcrdma_trace_events.h"
#include "trace-view.h"
#include "trace-format.h"

/* One record of event e: adds it up. */
void rr_tp_account(struct rr_tp_stats *s, enum rr_tp_event e,
		   const struct rr_tp_layout *l, const uint8_t *rec, size_t len);

struct rr_trace;
/* Opens every event found under tracefs (NULL and a reason in msg when the
 * tracepoints are not there, as on kernels without the rpcrdma module). */
struct rr_trace *rr_trace_open(char *msg, size_t msglen);
/* Waits up to timeout_ms for records and counts them; with the BPF
 * programs the kernel counts, and this only waits. */
int rr_trace_poll(struct rr_trace *t, int timeout_ms);
/* Brings the totals and the per-connection view up to date (reads the BPF
 * programs' maps): before each report, not each poll. */
void rr_trace_refresh(struct rr_trace *t);
const struct rr_tp_stats *rr_trace_stats(const struct rr_trace *t);
/* The per-connection view as of the last refresh; NULL when the events are
 * read one by one (BPF programs could not be loaded: msg said why). */
const struct rr_tp_detail *rr_trace_detail(const struct rr_trace *t);
void rr_trace_close(struct rr_trace *t);

#endif
