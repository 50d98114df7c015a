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

/*
 * Per connection, when BPF programs add the events up in the kernel
 * (ebpf/rpcrdma_trace.bpf.c); without them only the totals above exist.
 */
#define RR_TP_CHUNK_TYPES 8
struct rr_tp_client {              /* an rpc_clnt of xprtrdma */
	uint32_t id;               /* its client_id, as the events print it */
	char peer[64];             /* "addr:port" of its transport, "" unknown */
	uint64_t calls, replies;
	uint64_t read_segments, write_segments, reply_segments;
	uint64_t read_bytes, write_bytes, reply_bytes;
	/* calls by how the call was sent (rtype) and the reply asked (wtype):
	 * enum rpcrdma_chunktype, rr_tp_chunk_type_str */
	uint64_t rtype[RR_TP_CHUNK_TYPES], wtype[RR_TP_CHUNK_TYPES];
	uint64_t rdma_errors, unrecognized;
	uint32_t credits, credits_max;
	struct rr_latency latency; /* its procedures' together */
};
struct rr_tp_proc {
	uint32_t client_id, version;
	char program[16], procedure[24];
	uint64_t calls;            /* RPC tasks completed, answered or not */
	struct rr_latency latency; /* the kernel's round trip (rtt) of those
				    * answered */
};
struct rr_tp_server {              /* an svcrdma connection */
	uint32_t cq_id;            /* its receive completion queue's id */
	uint64_t requests, by_proc[5];
	uint64_t read_segments, write_segments, segment_bytes;
	uint32_t credits, credits_max;
	uint64_t calls;            /* RPC calls served (its procedures') */
	struct rr_latency latency; /* its procedures' together */
};
struct rr_tp_peer {
	char addr[48], port[8];
	uint64_t connects, connect_failures, disconnects;
};
struct rr_tp_detail {
	unsigned nclients, nprocs, nservers, nserver_procs, npeers; /* sorted */
	unsigned cap_clients, cap_procs, cap_servers, cap_server_procs,
		cap_peers; /* allocated */
	struct rr_tp_client *clients;
	struct rr_tp_proc *procs;
	struct rr_tp_server *servers;
	/* procedures served over each svcrdma connection: client_id is its
	 * cq_id, no program or version (the kernel's event names the
	 * procedure only), every call answered, and as latency the server's
	 * time from receiving the call to sending its reply (execute) */
	struct rr_tp_proc *server_procs;
	struct rr_tp_peer *peers;
};
/* "inline", "pullup", "mapped", "read list", "*read list" (a Long Call),
 * "write list", "reply chunk", as Linux 5.10 to 6.12 name them. */
const char *rr_tp_chunk_type_str(unsigned t);

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
