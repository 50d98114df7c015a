/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Shared between the tracepoint programs and their loader: the events
 * followed, where each field they read lies in the event's record (read at
 * run time from the kernel's format files: layouts differ between kernel
 * generations), and the per-connection aggregates the programs keep.
 */
#ifndef RPCRDMA_TRACE_H
#define RPCRDMA_TRACE_H

#include <linux/types.h>
#include <rpcrdma/latency-bucket.h>

#include "rpcrdma_trace_events.h"

/* A field of a record: offset and size in bytes; size 0 when the kernel's
 * event has no such field.  A string's value is its __data_loc word. */
struct rr_tpb_field {
	__u16 offset;
	__u16 size;
};

struct rr_tpb_config {
	struct rr_tpb_field field[RR_TP_EVENTS][RR_TP_SLOTS];
};

/* The client's side (xprtrdma), per rpc_clnt (its client_id). */
#define RR_TPB_CHUNK_TYPES 8   /* enum rpcrdma_chunktype, 7 in Linux 6.x */
struct rr_tpb_client {
	__u64 calls, replies;
	__u64 read_segments, write_segments, reply_segments;
	__u64 read_bytes, write_bytes, reply_bytes;
	__u64 rtype[RR_TPB_CHUNK_TYPES], wtype[RR_TPB_CHUNK_TYPES];
	__u64 rdma_errors;      /* RDMA_ERROR replies: ERR_VERS, ERR_CHUNK */
	__u64 unrecognized;     /* replies of a procedure it does not know */
	__u32 credits, credits_max;
};

/* A client's sends by the connection that carried them: its send
 * completion queue (xprtrdma_post_send's cq_id, Linux 5.11 on), one a
 * transport (nconnect makes several for a mount) and a new one each time
 * a transport connects again.  The value a count. */
struct rr_tpb_transport_key {
	__u32 client_id;
	__u32 cq_id;
};

/* RPC latency by client, program, version and procedure (the kernel's
 * own round trip, rpc_stats_latency's rtt), as an rr_latency histogram
 * (rpcrdma/latency.h: the same layout, filled by the same bucket rule).
 * The server's by connection and procedure have the same key, client_id
 * being the connection's cq_id and program and version left empty (its
 * time from receiving a call to sending the reply, svc_stats_latency's
 * execute, names only the procedure). */
#define RR_TPB_NAME 24
struct rr_tpb_proc_key {
	__u32 client_id;
	__u32 version;
	char program[16];
	char procedure[RR_TPB_NAME];
};
struct rr_tpb_latency {
	__u64 count, sum_ns, min_ns, max_ns;
	__u64 bucket[RR_LAT_BUCKETS];
	__u64 le[RR_LAT_BOUNDS + 1];
};
struct rr_tpb_proc {
	__u64 calls;                  /* tasks completed, answered or not */
	struct rr_tpb_latency latency; /* those answered (rtt > 0); the
					* server's: every call */
	/* the client's: rpc_stats_latency's three times summed over every
	 * task, as mountstats sums them (queue: sent less started; rtt;
	 * execute: done less started), and the tasks that ended on an NFS
	 * status other than OK (nfs_xdr_status, nfs4_xdr_status of their
	 * last reply), as mountstats counts errors */
	__u64 queue_us, rtt_us, execute_us;
	__u64 errors;
};

/* An RPC task marshalled by xprtrdma, until its statistics come: only
 * those are counted by procedure (client ids are reused, and one id may
 * have served a TCP or UDP client before). */
struct rr_tpb_task {
	__u32 client_id, task_id;
};
/* What the task's last reply said, once decoded: its NFS status
 * (nfsstat3, RFC 1813 §2.6; nfsstat4, RFC 8881 §15.1), 0 from each
 * sending until a status other than OK comes. */
struct rr_tpb_task_reply {
	__u32 status;
};

/* NFS replies that failed, by procedure (NFSv3's as the client names it;
 * NFSv4's COMPOUND), the operation that failed and the status; the value
 * a count. */
struct rr_tpb_status_key {
	struct rr_tpb_proc_key proc;
	__u32 op;     /* NFSv4: the operation that failed; else 0 */
	__u32 status;
};

/* The server's side (svcrdma), per receive completion queue: one per
 * connection. */
struct rr_tpb_server {
	__u64 requests, by_proc[RR_TPB_RDMA_PROCS];
	__u64 read_segments, write_segments, segment_bytes;
	__u32 credits, credits_max;
};

/* A request svcrdma received (svcrdma_decode_rqst), by xid, until the
 * server's statistics of it come (svc_stats_latency, which names neither
 * transport nor connection): only those are counted by procedure, under
 * the connection that brought them. */
struct rr_tpb_request {
	__u32 cq_id;
};

/* The server's NFSv4 replies that failed, by connection, the operation
 * that failed (nfsd's name, "OP_OPEN") and its status (nfsstat4, RFC 8881
 * §15.1); the value a count.  nfsd_compound_status names neither xid nor
 * connection: an nfsd thread serves one call at a time, so the status is
 * kept by thread until svc_stats_latency, in the same thread, names the
 * call. */
struct rr_tpb_server_status_key {
	__u32 cq_id;
	__u32 status;
	char op[RR_TPB_NAME];
};
struct rr_tpb_thread_status {
	__u32 status;
	char op[RR_TPB_NAME];
};

/* Connection attempts and losses by peer (xprtrdma_connect, _disconnect). */
struct rr_tpb_peer_key {
	char addr[48];
	char port[8];
};
struct rr_tpb_peer {
	__u64 connects, connect_failures, disconnects;
};

#define RR_TPB_MAX_CLIENTS 1024
#define RR_TPB_MAX_TRANSPORTS 4096
#define RR_TPB_MAX_PROCS 512      /* 8.5 KiB each, preallocated */
#define RR_TPB_MAX_SERVERS 1024
#define RR_TPB_MAX_PEERS 256
#define RR_TPB_MAX_TASKS 16384
#define RR_TPB_MAX_REQUESTS 16384
#define RR_TPB_MAX_STATUSES 512
#define RR_TPB_MAX_THREADS 4096

#ifndef __bpf__
/*
 * User space's side, the loader (rpcrdma_trace.c): the aggregators
 * loaded with libbpf from their skeleton, attached to each event the
 * running kernel has, read back map by map.  Where each field lies is the
 * caller's to say (the kernel's format files, read through libtraceevent
 * by trace/trace-format.c).
 */
#include <stdbool.h>
#include <stddef.h>

/* Names of event e: its subsystem, its own, the field it cannot do
 * without ("" none), its field in slot s ("" none). */
const char *rr_tpb_system(enum rr_tp_event e);
const char *rr_tpb_event_name(enum rr_tp_event e);
const char *rr_tpb_key_field(enum rr_tp_event e);
const char *rr_tpb_field_name(enum rr_tp_event e, unsigned s);

struct rr_tpb;
/* Loads the programs of the events present and, with attach, attaches
 * them; NULL with the reason (the verifier's, when it refused one) in msg. */
struct rr_tpb *rr_tpb_open(const struct rr_tpb_config *cfg,
			   const bool present[RR_TP_EVENTS], bool attach,
			   char *msg, size_t msglen);
void rr_tpb_close(struct rr_tpb *t);
/* Runs of the programs the kernel skipped since they were loaded, summed
 * over the programs (bpf_prog_info's recursion_misses: a tracing program
 * does not run while another runs on that CPU; Linux 5.12 on, 0 before). */
uint64_t rr_tpb_missed(const struct rr_tpb *t);

/* The maps, by the key and value each holds. */
enum rr_tpb_map {
	RR_TPB_CLIENTS,     /* __u32 client_id -> struct rr_tpb_client */
	RR_TPB_PROCS,       /* struct rr_tpb_proc_key -> struct rr_tpb_proc */
	RR_TPB_SERVERS,     /* __u32 cq_id -> struct rr_tpb_server */
	RR_TPB_PEERS,       /* struct rr_tpb_peer_key -> struct rr_tpb_peer */
	RR_TPB_SERVER_PROCS, /* struct rr_tpb_proc_key -> struct rr_tpb_proc */
	RR_TPB_STATUSES,    /* struct rr_tpb_status_key -> __u64 */
	RR_TPB_SERVER_STATUSES, /* struct rr_tpb_server_status_key -> __u64 */
	RR_TPB_TRANSPORTS,  /* struct rr_tpb_transport_key -> __u64 */
};
/* fn(ctx, key, value) for each entry of map m, in no order: how many, or
 * -1 when the map cannot be read. */
int rr_tpb_each(const struct rr_tpb *t, enum rr_tpb_map m,
		void (*fn)(void *ctx, const void *key, const void *value), void *ctx);
#endif /* __bpf__ */

#endif
