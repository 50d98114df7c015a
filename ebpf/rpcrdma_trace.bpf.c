// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Programs on the kernel's rpcrdma and sunrpc tracepoints that add up, in
 * the kernel, what the NFS client (xprtrdma) and server (svcrdma) do, per
 * connection, as libbpf-tools do: user space reads the maps, not one record
 * per RPC.  Where each field lies in a record is given by the loader
 * (config), read from the event's format file on the running kernel, so
 * one object serves kernels whose layouts differ (Linux 5.10 to 6.12).
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

#include "rpcrdma_trace.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by the loader before the programs are loaded (the skeleton's rodata). */
const volatile struct rr_tpb_config config = { 0 };

/*
 * Preallocated maps only: a tracepoint may fire where allocating is not
 * safe, and Linux 5.10's verifier warns (a kernel WARNING) on a tracing
 * program that uses a map allocated at run time.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RR_TPB_MAX_CLIENTS);
	__type(key, __u32);
	__type(value, struct rr_tpb_client);
} clients SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RR_TPB_MAX_TRANSPORTS);
	__type(key, struct rr_tpb_transport_key);
	__type(value, __u64);
} transports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RR_TPB_MAX_PROCS);
	__type(key, struct rr_tpb_proc_key);
	__type(value, struct rr_tpb_proc);
} procs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, RR_TPB_MAX_TASKS);
	__type(key, struct rr_tpb_task);
	__type(value, struct rr_tpb_task_reply);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RR_TPB_MAX_STATUSES);
	__type(key, struct rr_tpb_status_key);
	__type(value, __u64);
} statuses SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RR_TPB_MAX_SERVERS);
	__type(key, __u32);
	__type(value, struct rr_tpb_server);
} servers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, RR_TPB_MAX_REQUESTS);
	__type(key, __u32); /* xid */
	__type(value, struct rr_tpb_request);
} requests SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RR_TPB_MAX_PROCS);
	__type(key, struct rr_tpb_proc_key);
	__type(value, struct rr_tpb_proc);
} server_procs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RR_TPB_MAX_PEERS);
	__type(key, struct rr_tpb_peer_key);
	__type(value, struct rr_tpb_peer);
} peers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, RR_TPB_MAX_STATUSES);
	__type(key, struct rr_tpb_server_status_key);
	__type(value, __u64);
} server_statuses SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, RR_TPB_MAX_THREADS);
	__type(key, __u32); /* the nfsd thread's pid */
	__type(value, struct rr_tpb_thread_status);
} threads SEC(".maps");

/* New entries start from these (too large for the BPF stack). */
static const struct rr_tpb_client client_zero;
static const struct rr_tpb_proc proc_zero;
static const struct rr_tpb_server server_zero;
static const struct rr_tpb_peer peer_zero;
static const __u64 count_zero;

/* Field slot s of event e in the record at ctx; 0 when the kernel's event
 * has no such field. */
static __always_inline __u64 field(void *ctx, int e, int s)
{
	__u16 off = config.field[e][s].offset, size = config.field[e][s].size;
	__u64 v = 0;
	if (size == 8)
		bpf_probe_read_kernel(&v, 8, (char *)ctx + off);
	else if (size == 4)
		bpf_probe_read_kernel(&v, 4, (char *)ctx + off);
	else if (size == 2)
		bpf_probe_read_kernel(&v, 2, (char *)ctx + off);
	else if (size == 1)
		bpf_probe_read_kernel(&v, 1, (char *)ctx + off);
	return v;
}

/* A string field (__data_loc: its offset in the low 16 bits of the word). */
static __always_inline void field_str(void *ctx, int e, int s, char *buf, __u32 len)
{
	if (config.field[e][s].size != 4)
		return;
	__u32 loc = (__u32)field(ctx, e, s);
	bpf_probe_read_kernel_str(buf, len, (char *)ctx + (loc & 0xffff));
}

static __always_inline void *entry(void *map, const void *key, const void *zero)
{
	void *v = bpf_map_lookup_elem(map, key);
	if (v)
		return v;
	bpf_map_update_elem(map, key, zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, key);
}

static __always_inline struct rr_tpb_client *client(void *ctx, int e)
{
	__u32 id = (__u32)field(ctx, e, 0);
	return entry(&clients, &id, &client_zero);
}

static __always_inline struct rr_tpb_server *server(void *ctx, int e)
{
	__u32 id = (__u32)field(ctx, e, 0);
	return entry(&servers, &id, &server_zero);
}

/* A last-value gauge and its high mark: plain stores (a race between two
 * CPUs leaves one of their values). */
static __always_inline void gauge(__u32 *last, __u32 *max, __u32 v)
{
	*last = v;
	if (v > *max)
		*max = v;
}

/* One time into a histogram, by rr_latency_record's rule. */
static __always_inline void latency_add(struct rr_tpb_latency *h, __u64 ns)
{
	/* plain stores: a race between two CPUs leaves one of their values */
	if (!h->count || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	__sync_fetch_and_add(&h->count, 1);
	__sync_fetch_and_add(&h->sum_ns, ns);
	__sync_fetch_and_add(&h->bucket[rr_latency_bucket_of(ns) & (RR_LAT_BUCKETS - 1)], 1);
	unsigned b = rr_latency_bound_of(ns);
	if (b <= RR_LAT_BOUNDS)
		__sync_fetch_and_add(&h->le[b], 1);
}

SEC("tracepoint")
int xprtrdma_marshal(void *ctx)
{
	struct rr_tpb_client *c = client(ctx, RR_TP_MARSHAL);
	if (!c)
		return 0;
	__sync_fetch_and_add(&c->calls, 1);
	struct rr_tpb_task task = {
		.client_id = (__u32)field(ctx, RR_TP_MARSHAL, 0),
		.task_id = (__u32)field(ctx, RR_TP_MARSHAL, 3),
	};
	/* sent again (a retry): only its last reply's status counts, as
	 * mountstats counts a task once, when it ends */
	struct rr_tpb_task_reply sent = { 0 };
	bpf_map_update_elem(&tasks, &task, &sent, BPF_ANY);
	__u32 r = (__u32)field(ctx, RR_TP_MARSHAL, 1);
	__u32 w = (__u32)field(ctx, RR_TP_MARSHAL, 2);
	__sync_fetch_and_add(&c->rtype[r & (RR_TPB_CHUNK_TYPES - 1)], 1);
	__sync_fetch_and_add(&c->wtype[w & (RR_TPB_CHUNK_TYPES - 1)], 1);
	return 0;
}

SEC("tracepoint")
int xprtrdma_reply(void *ctx)
{
	struct rr_tpb_client *c = client(ctx, RR_TP_REPLY);
	if (!c)
		return 0;
	__sync_fetch_and_add(&c->replies, 1);
	gauge(&c->credits, &c->credits_max, (__u32)field(ctx, RR_TP_REPLY, 1));
	return 0;
}

SEC("tracepoint")
int xprtrdma_post_send(void *ctx)
{
	struct rr_tpb_transport_key k = {
		.client_id = (__u32)field(ctx, RR_TP_POST_SEND, 0),
		.cq_id = (__u32)field(ctx, RR_TP_POST_SEND, 1),
	};
	__u64 *sends = entry(&transports, &k, &count_zero);
	if (sends)
		__sync_fetch_and_add(sends, 1);
	return 0;
}

static __always_inline int chunk(void *ctx, int e)
{
	struct rr_tpb_client *c = client(ctx, e);
	if (!c)
		return 0;
	__u64 len = field(ctx, e, 1);
	if (e == RR_TP_CHUNK_READ) {
		__sync_fetch_and_add(&c->read_segments, 1);
		__sync_fetch_and_add(&c->read_bytes, len);
	} else if (e == RR_TP_CHUNK_WRITE) {
		__sync_fetch_and_add(&c->write_segments, 1);
		__sync_fetch_and_add(&c->write_bytes, len);
	} else {
		__sync_fetch_and_add(&c->reply_segments, 1);
		__sync_fetch_and_add(&c->reply_bytes, len);
	}
	return 0;
}

SEC("tracepoint")
int xprtrdma_chunk_read(void *ctx) { return chunk(ctx, RR_TP_CHUNK_READ); }
SEC("tracepoint")
int xprtrdma_chunk_write(void *ctx) { return chunk(ctx, RR_TP_CHUNK_WRITE); }
SEC("tracepoint")
int xprtrdma_chunk_reply(void *ctx) { return chunk(ctx, RR_TP_CHUNK_REPLY); }

static __always_inline int rdma_error(void *ctx, int e)
{
	struct rr_tpb_client *c = client(ctx, e);
	if (!c)
		return 0;
	if (e == RR_TP_ERR_UNRECOGNIZED)
		__sync_fetch_and_add(&c->unrecognized, 1);
	else
		__sync_fetch_and_add(&c->rdma_errors, 1);
	return 0;
}

SEC("tracepoint")
int xprtrdma_err_vers(void *ctx) { return rdma_error(ctx, RR_TP_ERR_VERS); }
SEC("tracepoint")
int xprtrdma_err_chunk(void *ctx) { return rdma_error(ctx, RR_TP_ERR_CHUNK); }
SEC("tracepoint")
int xprtrdma_err_unrecognized(void *ctx) { return rdma_error(ctx, RR_TP_ERR_UNRECOGNIZED); }

static __always_inline int connection(void *ctx, int e)
{
	struct rr_tpb_peer_key k = { 0 };
	field_str(ctx, e, 1, k.addr, sizeof(k.addr));
	field_str(ctx, e, 2, k.port, sizeof(k.port));
	struct rr_tpb_peer *p = entry(&peers, &k, &peer_zero);
	if (!p)
		return 0;
	int rc = (int)field(ctx, e, 0);
	if (e == RR_TP_DISCONNECT)
		__sync_fetch_and_add(&p->disconnects, 1);
	else if (rc)
		__sync_fetch_and_add(&p->connect_failures, 1);
	else
		__sync_fetch_and_add(&p->connects, 1);
	return 0;
}

SEC("tracepoint")
int xprtrdma_connect(void *ctx) { return connection(ctx, RR_TP_CONNECT); }
SEC("tracepoint")
int xprtrdma_disconnect(void *ctx) { return connection(ctx, RR_TP_DISCONNECT); }

/* Every RPC client's tasks report here: only those xprtrdma marshalled
 * are kept, each once however often it was sent. */
SEC("tracepoint")
int rpc_stats_latency(void *ctx)
{
	struct rr_tpb_task task = {
		.client_id = (__u32)field(ctx, RR_TP_LATENCY, 0),
		.task_id = (__u32)field(ctx, RR_TP_LATENCY, 5),
	};
	struct rr_tpb_task_reply *t = bpf_map_lookup_elem(&tasks, &task);
	if (!t)
		return 0;
	struct rr_tpb_task_reply reply = *t;
	bpf_map_delete_elem(&tasks, &task);
	struct rr_tpb_status_key k = { 0 };
	k.proc.client_id = task.client_id;
	k.proc.version = (__u32)field(ctx, RR_TP_LATENCY, 1);
	field_str(ctx, RR_TP_LATENCY, 2, k.proc.program, sizeof(k.proc.program));
	field_str(ctx, RR_TP_LATENCY, 3, k.proc.procedure, sizeof(k.proc.procedure));
	struct rr_tpb_proc *p = entry(&procs, &k.proc, &proc_zero);
	if (!p)
		return 0;
	__sync_fetch_and_add(&p->calls, 1);
	/* microseconds, as the event gives them */
	__u64 rtt = field(ctx, RR_TP_LATENCY, 4);
	__sync_fetch_and_add(&p->rtt_us, rtt);
	__sync_fetch_and_add(&p->queue_us, field(ctx, RR_TP_LATENCY, 6));
	__sync_fetch_and_add(&p->execute_us, field(ctx, RR_TP_LATENCY, 7));
	if (rtt) /* else no reply: no round trip */
		latency_add(&p->latency, rtt * 1000);
	if (reply.status) /* the task ended on an NFS error, as mountstats
			   * counts its errors */
		__sync_fetch_and_add(&p->errors, 1);
	return 0;
}

/* A reply's NFS status other than OK, as the client decodes it, for a
 * task the client sent over RDMA: counted by status at once, as the wire
 * shows every such reply (one the task sends again may end well), and
 * kept with the task until its statistics. */
static __always_inline int nfs_status(void *ctx, int e)
{
	struct rr_tpb_task task = {
		.client_id = (__u32)field(ctx, e, 0),
		.task_id = (__u32)field(ctx, e, 1),
	};
	struct rr_tpb_task_reply *t = bpf_map_lookup_elem(&tasks, &task);
	if (!t)
		return 0;
	t->status = (__u32)field(ctx, e, 2);
	struct rr_tpb_status_key k = { 0 };
	k.proc.client_id = task.client_id;
	k.status = t->status;
	if (e == RR_TP_NFS4_STATUS) {
		/* the event names the operation that failed, not the
		 * client's procedure: on the wire it is a COMPOUND */
		k.proc.version = 4;
		__builtin_memcpy(k.proc.program, "nfs", 4);
		__builtin_memcpy(k.proc.procedure, "COMPOUND", 9);
		k.op = (__u32)field(ctx, e, 3);
	} else {
		k.proc.version = (__u32)field(ctx, e, 4);
		field_str(ctx, e, 5, k.proc.program, sizeof(k.proc.program));
		field_str(ctx, e, 6, k.proc.procedure, sizeof(k.proc.procedure));
	}
	__u64 *n = entry(&statuses, &k, &count_zero);
	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;
}

SEC("tracepoint")
int nfs_xdr_status(void *ctx) { return nfs_status(ctx, RR_TP_NFS_STATUS); }
SEC("tracepoint")
int nfs4_xdr_status(void *ctx) { return nfs_status(ctx, RR_TP_NFS4_STATUS); }

SEC("tracepoint")
int svcrdma_decode_rqst(void *ctx)
{
	struct rr_tpb_server *s = server(ctx, RR_TP_SVC_RQST);
	if (!s)
		return 0;
	__sync_fetch_and_add(&s->requests, 1);
	__u32 proc = (__u32)field(ctx, RR_TP_SVC_RQST, 1);
	if (proc < RR_TPB_RDMA_PROCS)
		__sync_fetch_and_add(&s->by_proc[proc], 1);
	gauge(&s->credits, &s->credits_max, (__u32)field(ctx, RR_TP_SVC_RQST, 2));
	/* kept for svc_stats_latency, when the kernel has it (the loader's
	 * config is constant: the verifier drops this otherwise); a backward
	 * reply's xid stays until the LRU drops it */
	if (!config.field[RR_TP_SVC_LATENCY][0].size)
		return 0;
	__u32 xid = (__u32)field(ctx, RR_TP_SVC_RQST, 3);
	struct rr_tpb_request r = { .cq_id = (__u32)field(ctx, RR_TP_SVC_RQST, 0) };
	bpf_map_update_elem(&requests, &xid, &r, BPF_ANY);
	return 0;
}

static __always_inline int server_segment(void *ctx, int e)
{
	struct rr_tpb_server *s = server(ctx, e);
	if (!s)
		return 0;
	if (e == RR_TP_SVC_RSEG)
		__sync_fetch_and_add(&s->read_segments, 1);
	else
		__sync_fetch_and_add(&s->write_segments, 1);
	__sync_fetch_and_add(&s->segment_bytes, field(ctx, e, 1));
	return 0;
}

SEC("tracepoint")
int svcrdma_decode_rseg(void *ctx) { return server_segment(ctx, RR_TP_SVC_RSEG); }
SEC("tracepoint")
int svcrdma_decode_wseg(void *ctx) { return server_segment(ctx, RR_TP_SVC_WSEG); }

/* Every RPC server's calls report here once answered: only those svcrdma
 * received are kept, under their connection. */
SEC("tracepoint")
int svc_stats_latency(void *ctx)
{
	/* what the COMPOUND this thread just served left (taken whatever
	 * the call's transport: nothing stays for the thread's next call) */
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	struct rr_tpb_server_status_key sk = { 0 };
	struct rr_tpb_thread_status *t = bpf_map_lookup_elem(&threads, &pid);
	if (t) {
		sk.status = t->status;
		__builtin_memcpy(sk.op, t->op, sizeof(sk.op));
		bpf_map_delete_elem(&threads, &pid);
	}
	__u32 xid = (__u32)field(ctx, RR_TP_SVC_LATENCY, 0);
	struct rr_tpb_request *r = bpf_map_lookup_elem(&requests, &xid);
	if (!r)
		return 0;
	struct rr_tpb_proc_key k = { 0 };
	k.client_id = r->cq_id;
	bpf_map_delete_elem(&requests, &xid);
	field_str(ctx, RR_TP_SVC_LATENCY, 2, k.procedure, sizeof(k.procedure));
	struct rr_tpb_proc *p = entry(&server_procs, &k, &proc_zero);
	if (!p)
		return 0;
	__sync_fetch_and_add(&p->calls, 1);
	/* microseconds, rounded down: a call served in less is 0 */
	latency_add(&p->latency, field(ctx, RR_TP_SVC_LATENCY, 1) * 1000);
	if (!sk.status)
		return 0;
	sk.cq_id = k.client_id;
	__sync_fetch_and_add(&p->errors, 1);
	__u64 *n = entry(&server_statuses, &sk, &count_zero);
	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;
}

/* Each operation of a COMPOUND nfsd served, with its status: the first
 * starts the thread's record, a failed one (the last: RFC 8881 §16.2.3)
 * is kept in it until the call's statistics (svc_stats_latency). */
SEC("tracepoint")
int nfsd_compound_status(void *ctx)
{
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	__u32 status = (__u32)field(ctx, RR_TP_NFSD_STATUS, 1);
	if (field(ctx, RR_TP_NFSD_STATUS, 0) <= 1) {
		struct rr_tpb_thread_status start = { 0 };
		bpf_map_update_elem(&threads, &pid, &start, BPF_ANY);
	}
	if (!status)
		return 0;
	struct rr_tpb_thread_status *t = bpf_map_lookup_elem(&threads, &pid);
	if (!t)
		return 0;
	t->status = status;
	field_str(ctx, RR_TP_NFSD_STATUS, 2, t->op, sizeof(t->op));
	return 0;
}
