/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel NFS client's and server's own view, for RNICs whose traffic
 * never reaches a netdev: the rpcrdma module's tracepoints
 * (include/trace/events/rpcrdma.h).  Their layouts change between kernel
 * versions, so each is read at run time from its tracefs format file
 * (libtraceevent parses it) and fields are found by name, never by a fixed
 * offset.
 */
#ifndef RR_TRACE_SOURCE_H
#define RR_TRACE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rpcrdma/latency.h>

#include "rpcrdma_trace_events.h"
#include "rpcrdma_trace_view.h"

struct tep_handle;
struct tep_event;

/* One event's record layout, parsed by libtraceevent. */
struct rr_tp_layout {
	char name[48];
	uint32_t id;
	unsigned nfields;          /* common fields included */
	struct tep_handle *tep;    /* owns event */
	struct tep_event *event;
};

/* A tracefs format file ("name:", "ID:", "format:" and its "field:"
 * lines); false when it is not one.  rr_tp_layout_free releases it. */
bool rr_tp_parse_format(const char *text, struct rr_tp_layout *out);
void rr_tp_layout_free(struct rr_tp_layout *l);
/* A field's value in a record of that layout, in the host's byte order as
 * the kernel wrote it; false when the layout has no such field or the
 * record is too short. */
bool rr_tp_get(const struct rr_tp_layout *l, const uint8_t *rec, size_t len,
	       const char *field, uint64_t *value);
/* Where a field lies in a record of that layout (a string's __data_loc
 * word, for a string); false when the layout has no such field. */
bool rr_tp_place(const struct rr_tp_layout *l, const char *field,
		 unsigned *offset, unsigned *size);
/* The format file ROOT/SYSTEM/NAME/format parsed (ROOT NULL: tracefs's
 * events folder); false when there is no such event. */
bool rr_tp_load(const char *root, const char *system, const char *name,
		struct rr_tp_layout *out);

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
