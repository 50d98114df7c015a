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

/* The events followed, and what they add up to. */
#define RR_TP_EVENT_LIST(X) \
	X(RR_TP_MARSHAL, "xprtrdma_marshal") \
	X(RR_TP_REPLY, "xprtrdma_reply") \
	X(RR_TP_CHUNK_READ, "xprtrdma_chunk_read") \
	X(RR_TP_CHUNK_WRITE, "xprtrdma_chunk_write") \
	X(RR_TP_CHUNK_REPLY, "xprtrdma_chunk_reply") \
	X(RR_TP_SVC_RQST, "svcrdma_decode_rqst") \
	X(RR_TP_SVC_RSEG, "svcrdma_decode_rseg") \
	X(RR_TP_SVC_WSEG, "svcrdma_decode_wseg")
#define RR_TP_X_ENUM(sym, name) sym,
enum rr_tp_event { RR_TP_EVENT_LIST(RR_TP_X_ENUM) RR_TP_EVENTS };

struct rr_tp_stats {
	uint64_t events[RR_TP_EVENTS];
	/* client (xprtrdma) */
	uint64_t calls, replies;
	uint32_t credits;              /* the last grant a reply carried */
	uint64_t read_segments, write_segments, reply_segments, segment_bytes;
	/* server (svcrdma) */
	uint64_t requests, requests_by_proc[5];
	uint32_t requested_credits;    /* the last a request carried */
	uint64_t server_read_segments, server_write_segments, server_segment_bytes;
};

/* One record of event e: adds it up. */
void rr_tp_account(struct rr_tp_stats *s, enum rr_tp_event e,
		   const struct rr_tp_layout *l, const uint8_t *rec, size_t len);

struct rr_trace;
/* Opens every event found under tracefs (NULL and a reason in msg when the
 * tracepoints are not there, as on kernels without the rpcrdma module). */
struct rr_trace *rr_trace_open(char *msg, size_t msglen);
int rr_trace_poll(struct rr_trace *t, int timeout_ms);
const struct rr_tp_stats *rr_trace_stats(const struct rr_trace *t);
void rr_trace_close(struct rr_trace *t);

#endif
