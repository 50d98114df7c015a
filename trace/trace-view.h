/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel's view, as the trace source hands it to its renderers
 * (exporters/rr_trace_report.h): the totals the events add up to, and per
 * connection what the BPF programs added up in the kernel.
 */
#ifndef RR_TRACE_VIEW_H
#define RR_TRACE_VIEW_H

#include <stdint.h>

#include <rpcrdma/latency.h>

#include "rpcrdma_trace_events.h"

/* What the events followed (rpcrdma_trace_events.h) add up to. */
struct rr_tp_stats {
	uint64_t events[RR_TP_EVENTS];
	/* client (xprtrdma) */
	uint64_t calls, replies;
	uint32_t credits;              /* the last grant a reply carried */
	uint64_t read_segments, write_segments, reply_segments, segment_bytes;
	/* server (svcrdma) */
	uint64_t requests, requests_by_proc[RR_TPB_RDMA_PROCS];
	uint32_t requested_credits;    /* the last a request carried */
	uint64_t server_read_segments, server_write_segments, server_segment_bytes;
	/* events the kernel raised and did not hand over: a BPF program it
	 * skipped (another ran on that CPU: the programs' recursion_misses,
	 * counted from Linux 5.12), a record lost from a full perf ring.  The
	 * counts above are short by up to that many. */
	uint64_t events_missed;
};

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
	 * enum rpcrdma_chunktype, rr_tp_chunk_type_str (rr_trace_report.h) */
	uint64_t rtype[RR_TP_CHUNK_TYPES], wtype[RR_TP_CHUNK_TYPES];
	uint64_t rdma_errors, unrecognized;
	uint32_t credits, credits_max;
	struct rr_latency latency; /* its procedures' together */
	/* the connections its calls went out on (nconnect: one a transport),
	 * rows of rr_tp_detail's transports from first_transport; 0 where
	 * the kernel's xprtrdma_post_send names no cq_id (before 5.11) */
	unsigned transports, first_transport;
	/* a client whose id the kernel gave another (told by the server
	 * debugfs names): its counts as last read, none in flight */
	bool gone;
};
/* The client_id of sends no rpc_clnt made (the kernel's -1): on an NFSv4.1
 * client, the backchannel's replies to the server's callbacks (RFC 8167). */
#define RR_TP_NO_CLIENT 0xffffffffu

/* A client's sends over one connection, by its send completion queue. */
struct rr_tp_transport {
	uint32_t client_id, cq_id;
	uint64_t sends;
};
struct rr_tp_proc {
	uint32_t client_id, version;
	char program[16], procedure[24];
	uint64_t calls;            /* RPC tasks completed, answered or not */
	struct rr_latency latency; /* the kernel's round trip (rtt) of those
				    * answered */
	/* the client's: the three times of every task summed, as mountstats
	 * sums them (nfsiostat's avg queue, RTT and exe are these over
	 * calls), and the tasks that ended on an NFS error (their last reply
	 * carried one), as mountstats counts errors */
	uint64_t queue_us, rtt_us, execute_us;
	uint64_t errors;
};
/* NFS replies that failed, as the client decoded them, each one (a task
 * sent again counts each failed reply): by procedure (NFSv3's as the
 * kernel names it, NFSv4's COMPOUND), the NFSv4 operation that failed (0
 * for other versions) and the status. */
struct rr_tp_status {
	uint32_t client_id, version;
	char program[16], procedure[24];
	uint32_t op, status;
	uint64_t count;
};
/* NFSv4 replies the server sent that failed, by connection, operation
 * (nfsd's name less its "OP_") and status (nfsd_compound_status; nfsd
 * has no such event for NFSv3). */
struct rr_tp_server_status {
	uint32_t cq_id;
	char operation[24];
	uint32_t status;
	uint64_t count;
};
struct rr_tp_server {              /* an svcrdma connection */
	uint32_t cq_id;            /* its receive completion queue's id */
	uint64_t requests, by_proc[RR_TPB_RDMA_PROCS];
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
	unsigned nclients, nprocs, nservers, nserver_procs, npeers,
		nstatuses, nserver_statuses, ntransports; /* sorted */
	unsigned cap_clients, cap_procs, cap_servers, cap_server_procs,
		cap_peers, cap_statuses, cap_server_statuses,
		cap_transports; /* allocated */
	struct rr_tp_client *clients;
	struct rr_tp_proc *procs;
	struct rr_tp_server *servers;
	/* procedures served over each svcrdma connection: client_id is its
	 * cq_id, no program or version (the kernel's event names the
	 * procedure only), every call answered, and as latency the server's
	 * time from receiving the call to sending its reply (execute), and
	 * as errors the NFSv4 replies that failed */
	struct rr_tp_proc *server_procs;
	struct rr_tp_peer *peers;
	struct rr_tp_status *statuses;
	struct rr_tp_server_status *server_statuses;
	struct rr_tp_transport *transports; /* by client, then cq_id */
	/* the transports' rows of RR_TP_NO_CLIENT: the backchannel's sends by
	 * connection, the last rows (the client_id sorts last) */
	unsigned first_backchannel, nbackchannel;
};

#endif
