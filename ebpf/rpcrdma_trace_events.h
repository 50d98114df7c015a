/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The kernel events the trace source follows, once for both of its paths:
 * the BPF programs that add them up in the kernel (rpcrdma_trace.bpf.c)
 * and, where those cannot load, the reading of each record through perf
 * (trace/trace.c).  Only macros: the BPF target, the loader
 * and the tools include it alike.
 *
 * X(symbol, subsystem, event, read record by record, key field, field
 * slots 0..7; "" for none).  A field named "addr" is a string
 * (__data_loc); the others are numbers.  The record-by-record path reads
 * the events whose fourth column is 1: the totals of rr_tp_stats.  The key
 * field is one without which the event's counts would be a guess: a
 * kernel whose event lacks it is treated as lacking the event (Linux
 * 5.10's post_send names its send context's address, not its cq_id).
 */
#ifndef RPCRDMA_TRACE_EVENTS_H
#define RPCRDMA_TRACE_EVENTS_H

/* svcrdma_decode_rqst's proc: RPC-over-RDMA version 1's procedures
 * (RFC 8166 §4.2.4), as rr_rdma_proc's RR_RDMA_PROCS counts them */
#define RR_TPB_RDMA_PROCS 5

#define RR_TP_EVENT_LIST(X) \
	X(RR_TP_MARSHAL, "rpcrdma", "xprtrdma_marshal", 1, "", "client_id", "rtype", "wtype", "task_id", "", "", "", "") \
	X(RR_TP_REPLY, "rpcrdma", "xprtrdma_reply", 1, "", "client_id", "credits", "", "", "", "", "", "") \
	X(RR_TP_CHUNK_READ, "rpcrdma", "xprtrdma_chunk_read", 1, "", "client_id", "length", "", "", "", "", "", "") \
	X(RR_TP_CHUNK_WRITE, "rpcrdma", "xprtrdma_chunk_write", 1, "", "client_id", "length", "", "", "", "", "", "") \
	X(RR_TP_CHUNK_REPLY, "rpcrdma", "xprtrdma_chunk_reply", 1, "", "client_id", "length", "", "", "", "", "", "") \
	X(RR_TP_ERR_VERS, "rpcrdma", "xprtrdma_err_vers", 0, "", "client_id", "", "", "", "", "", "", "") \
	X(RR_TP_ERR_CHUNK, "rpcrdma", "xprtrdma_err_chunk", 0, "", "client_id", "", "", "", "", "", "", "") \
	X(RR_TP_ERR_UNRECOGNIZED, "rpcrdma", "xprtrdma_err_unrecognized", 0, "", "client_id", "", "", "", "", "", "", "") \
	X(RR_TP_CONNECT, "rpcrdma", "xprtrdma_connect", 0, "", "rc", "addr", "port", "", "", "", "", "") \
	X(RR_TP_DISCONNECT, "rpcrdma", "xprtrdma_disconnect", 0, "", "rc", "addr", "port", "", "", "", "", "") \
	X(RR_TP_LATENCY, "sunrpc", "rpc_stats_latency", 0, "", "client_id", "version", "progname", "procname", "rtt", "task_id", "backlog", "execute") \
	X(RR_TP_SVC_RQST, "rpcrdma", "svcrdma_decode_rqst", 1, "", "cq_id", "proc", "credits", "xid", "", "", "", "") \
	X(RR_TP_SVC_RSEG, "rpcrdma", "svcrdma_decode_rseg", 1, "", "cq_id", "length", "", "", "", "", "", "") \
	X(RR_TP_SVC_WSEG, "rpcrdma", "svcrdma_decode_wseg", 1, "", "cq_id", "length", "", "", "", "", "", "") \
	X(RR_TP_SVC_LATENCY, "sunrpc", "svc_stats_latency", 0, "", "xid", "execute", "procedure", "", "", "", "", "") \
	X(RR_TP_NFS_STATUS, "nfs", "nfs_xdr_status", 0, "", "client_id", "task_id", "error", "", "version", "program", "procedure", "") \
	X(RR_TP_NFS4_STATUS, "nfs4", "nfs4_xdr_status", 0, "", "client_id", "task_id", "error", "op", "", "", "", "") \
	X(RR_TP_NFSD_STATUS, "nfsd", "nfsd_compound_status", 0, "", "resp_opcnt", "status", "name", "", "", "", "", "") \
	X(RR_TP_POST_SEND, "rpcrdma", "xprtrdma_post_send", 0, "cq_id", "client_id", "cq_id", "", "", "", "", "", "")
#define RR_TP_X_ENUM(sym, sys, name, by_record, key, f0, f1, f2, f3, f4, f5, f6, f7) sym,
enum rr_tp_event { RR_TP_EVENT_LIST(RR_TP_X_ENUM) RR_TP_EVENTS };
#define RR_TP_SLOTS 8

#endif
