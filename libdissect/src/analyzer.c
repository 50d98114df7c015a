/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The stateful analyzer.  Per connection it follows the negotiation
 * (RFC 8797 §3.1), credits (RFC 8166 §3.3.1, RFC 8167 §4.1), calls and
 * replies, and the RDMA traffic of each chunk (§3.4), and raises the
 * findings of RR_FINDING_LIST.
 *
 * Every table is allocated once from the limits.  Connections and calls
 * are found through open hash chains; a full table evicts the oldest
 * entry and counts it.
 */
#include <rpcrdma/analyzer.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>

#include "cursor.h"
#include "mpa.h"

#define NONE UINT32_MAX
#define NO_SLOT UINT16_MAX
#define POOL_PAGE 4096u       /* rebuilt messages take whole pages */
#define HDR_KEEP 4096u        /* bytes of a reassembled SEND kept: headers */
#define RECENT 256u           /* completed xids remembered for RDMA_DONE */
#define SENT_XIDS 1024  /* forward calls remembered for resends: 12 KiB */
#define SENT_HASH 2048  /* their index by (connection, xid): 4 KiB */

#define RR_X_FINDING_INFO(sym, id, sev, ref, msg) [sym] = { id, sev, ref, msg },
static const struct rr_finding_info finding_infos[RR_FINDING_COUNT] = {
	RR_FINDING_LIST(RR_X_FINDING_INFO)
};

#define RR_X_CASE(sym, val, str) case (val): return (str);
const char *rr_severity_str(unsigned v)
{
	switch (v) { RR_SEVERITY_LIST(RR_X_CASE) default: return NULL; }
}

const char *rr_reply_status_str(unsigned v)
{
	if (v < RR_REPLY_DENIED)
		return rr_rpc_accept_stat_str(v);
	if (v < RR_REPLY_UNSEEN)
		return rr_rpc_reject_stat_str(v - RR_REPLY_DENIED);
	return v == RR_REPLY_UNSEEN ? "unseen" : NULL;
}

enum rr_reply_status rr_reply_status_of(const struct rr_rpc *reply)
{
	if (reply->reply_stat == RR_RPC_MSG_ACCEPTED &&
	    reply->accept_stat < RR_REPLY_DENIED)
		return (enum rr_reply_status)(RR_REPLY_ACCEPTED + reply->accept_stat);
	if (reply->reply_stat == RR_RPC_MSG_DENIED &&
	    reply->reject_stat < RR_REPLY_UNSEEN - RR_REPLY_DENIED)
		return (enum rr_reply_status)(RR_REPLY_DENIED + reply->reject_stat);
	return RR_REPLY_UNSEEN;
}

const char *rr_chunk_kind_str(unsigned v)
{
	switch (v) { RR_CHUNK_KIND_LIST(RR_X_CASE) default: return NULL; }
}

const char *rr_access_str(unsigned v)
{
	switch (v) { RR_ACCESS_LIST(RR_X_CASE) default: return NULL; }
}

const struct rr_finding_info *rr_finding_info(unsigned id)
{
	return id < RR_FINDING_COUNT ? &finding_infos[id] : NULL;
}

const char *rr_dir_str(unsigned v)
{
	static const char *const names[] = { "call", "reply", "backward call",
					     "backward reply", "unknown" };
	return v <= RR_DIR_UNKNOWN ? names[v] : NULL;
}

const char *rr_dir_id(unsigned v)
{
	static const char *const ids[] = { "call", "reply", "backward_call",
					   "backward_reply", "unknown" };
	return v <= RR_DIR_UNKNOWN ? ids[v] : NULL;
}

void rr_analyzer_limits_init(struct rr_analyzer_limits *lim)
{
	lim->max_connections = 4096;
	lim->max_calls = 65536;
	lim->max_segments = 262144;
	lim->max_message = 262144;
	lim->send_keep = HDR_KEEP;
	lim->reassembly_slots = 256;
	lim->tcp_streams = 16;
	lim->call_timeout_ms = 60000;
	lim->rebuild_slots = 256;
	lim->rebuild_bytes = 8u << 20;
	lim->max_rebuild = 1u << 20;
}

/* The programs whose procedures have a slot of their own in rr_stats, in
 * slot order (NFSv4: NULL and COMPOUND; its operations are counted apart).
 * What none takes counts under the last slot. */
static const struct proc_range {
	uint32_t prog, vers, procs;
} proc_ranges[] = {
	{ RR_PROG_NFS, 3, 22 },
	{ RR_PROG_NFS, 4, 2 },
	{ RR_PROG_NFS4_CB, 1, 2 },
	{ RR_PROG_NFS_ACL, 3, 3 },
	{ RR_PROG_MOUNT, 3, 6 },
	{ RR_PROG_PORTMAP, 2, 6 },
	{ RR_PROG_NLM, 4, 24 },
	{ RR_PROG_NFS, 2, 18 },
};
_Static_assert(22 + 2 + 2 + 3 + 6 + 6 + 24 + 18 + 1 == RR_PROC_SLOTS,
	       "one slot per procedure of proc_ranges, and other");

unsigned rr_analyzer_proc_slot(uint32_t prog, uint32_t vers, uint32_t proc)
{
	unsigned base = 0;
	for (size_t i = 0; i < sizeof(proc_ranges) / sizeof(proc_ranges[0]); i++) {
		const struct proc_range *r = &proc_ranges[i];
		/* callbacks are matched by program alone: its version varies */
		if (r->prog == prog && (r->vers == vers || prog == RR_PROG_NFS4_CB))
			return proc < r->procs ? base + proc : RR_PROC_SLOTS - 1;
		base += r->procs;
	}
	return RR_PROC_SLOTS - 1;
}

struct rr_proc_slot_info rr_analyzer_proc_slot_info(unsigned slot)
{
	unsigned base = 0;
	for (size_t i = 0; i < sizeof(proc_ranges) / sizeof(proc_ranges[0]); i++) {
		const struct proc_range *r = &proc_ranges[i];
		if (slot < base + r->procs) {
			const char *name = rr_rpc_proc_str(r->prog, r->vers,
							   slot - base);
			return (struct rr_proc_slot_info){
				rr_rpc_program_str(r->prog), r->vers,
				name ? name : "unknown" };
		}
		base += r->procs;
	}
	return (struct rr_proc_slot_info){ "other", 0, "other" };
}

/* ---- tables ---------------------------------------------------------- */

/* One end of a connection: where its messages arrive. */
struct side {
	uint8_t addr[16];
	uint32_t id;          /* QPN, or TCP port */
	bool known;
	bool psn_seen;        /* IB: next_psn follows the last request */
	bool psn_exact;       /* IB: and no Read Request made it a floor */
	/* reassembly of the SEND arriving at this side */
	uint32_t slot;        /* reassembly slot, NONE when idle */
	uint32_t next_psn;    /* IB: PSN of the next request packet */
	uint32_t msn;         /* iWARP: MSN of the message */
	bool marker_set;      /* iWARP: markers from this sequence number */
	uint32_t marker_seq0;
	uint32_t stream;      /* iWARP: TCP reassembly of what this side sends */
	/* IB: the frames of the last request packets sent to this side, to
	 * name what a retransmission repeats */
	struct { uint32_t psn, frame; } recent[4];
	uint8_t recent_next;
};

/*
 * A connection's place in one of the lists that find it in constant time:
 * the use order (the least recently used is evicted), and three hash
 * chains: connections with one side's QPN still unknown (by the two
 * addresses), connections with calls (by requester and responder, to find
 * the one a reconnect replaced), and IB CM communication IDs.
 */
enum { LIST_LRU, LIST_HALF, LIST_PAIR, LIST_COMM, LISTS };
struct link {
	uint32_t prev, next;
};

struct conn {
	struct rr_conn_info info;
	struct side side[2];  /* [0] requester, [1] responder */
	uint32_t hnext[2];    /* endpoint hash chains, per side */
	uint32_t comm_id;     /* IB CM: the REQ's communication ID */
	struct link link[LISTS];
	uint32_t calls;       /* its calls, linked by call.conn_link */
	uint8_t listed;       /* 1 << LIST_*: on that list */
	uint8_t half_side;    /* LIST_HALF: the side whose QPN is unknown */
	/* bits: a connection's size counts (bench/analyzer-memory) */
	bool used : 1;
	bool rpcrdma : 1;     /* known to carry RPC-over-RDMA */
	bool markers : 1;     /* iWARP negotiation */
	bool crc : 1;
	bool setup_cut : 1;   /* the capture cut its setup: R bits unknown */
	bool previous_known : 1; /* info.previous looked for */
};

struct seg {
	uint32_t handle, length;
	uint64_t offset;
	uint32_t call;        /* owner */
	uint32_t next;        /* next segment of the same call */
	uint32_t hnext;       /* handle hash chain */
	uint8_t list;         /* enum rr_chunk_list; RRC read segments too */
	bool position_zero;   /* a read segment of a Long Call's message */
	bool rrc;             /* advertised by the reply: responder's read chunk */
};

/*
 * An RDMA Read or a multi-packet RDMA Write whose data packets are still
 * to come.  IB data packets carry no address after the first: a Write's
 * follow by PSN (IBA vol. 1 §9.7.5.1.1), a Read's responses take the
 * request's PSNs (§9.7.5.1.3).  iWARP Read Responses are tagged with the
 * request's sink STag and TO (RFC 5040 §4.5).  `pos` is where the next
 * byte lands in the owning call's chunk space.
 */
#define RDMA_OPS 32
struct rdma_op {
	bool used, read;
	uint8_t data_side;    /* the side that sends the data */
	uint32_t conn, call, xid, seg;
	uint32_t pos, left;
	uint32_t next_psn;    /* IB */
	uint32_t sink_stag;   /* iWARP Read */
	uint64_t sink_to;
};

/*
 * An RPC message being rebuilt (RFC 8166 §3.5).  Chunk data lands in the
 * call's "chunk space": its segments laid end to end in the order the
 * headers listed them (the call's, then a reply's responder-provided read
 * chunk).  A call with read chunks at positions past zero keeps its inline
 * payload after the chunk space, to splice them in.
 */
struct rebuild {
	uint32_t call;        /* NONE when free */
	uint32_t page, size;  /* its bytes in the pool */
	uint32_t read_have, write_have, rrc_have;
	uint32_t inline_at, inline_len;
	bool lost;            /* a piece cannot be had */
	bool call_done, rrc_done;
	uint32_t positions[RR_MAX_SEGMENTS]; /* of the call's segments */
};

struct call {
	uint32_t xid, conn;
	uint8_t dir;          /* RR_DIR_FWD_CALL or RR_DIR_BWD_CALL */
	bool used, has_reply_chunk, rrc_pending, answered;
	bool counted;         /* in the connection's calls in flight */
	uint16_t slot;
	uint32_t prog, vers, proc;
	uint32_t frame;       /* low bits of the call's frame number */
	uint64_t ts_ns;
	uint32_t segs;        /* first segment, chained by seg.next */
	uint32_t hnext;       /* (conn, dir, xid) hash chain */
	struct link conn_link; /* the connection's calls */
	struct link age;       /* all calls, oldest first */
	/* what this RPC moved: its SENDs, and RDMA on its chunks */
	uint32_t bytes_inline;
	uint16_t rebuild;     /* slot, NO_SLOT when none */
	bool rebuild_lost;    /* needed a slot and found none */
	bool status_counted;  /* its reply's status is in the statistics */
	/* the result's data, which a write chunk carries, is the reply's last
	 * item: NFSv3 READ or READLINK, or an NFSv4 COMPOUND whose last
	 * operation is one of them (set with the call, data_last_of) */
	bool data_last;
	/* the reply's status read from the head of its reply chunk when the
	 * message is not rebuilt, plus one (0: not seen) */
	uint8_t head_status;
	uint64_t bytes_read, bytes_write;
};

#define STREAM_BUF 65536u
#define OOO_SLOTS 4
#define OOO_BYTES 65536u   /* a loopback GSO segment */

/* One direction of an iWARP TCP connection, reassembled (RFC 9293 §3.10). */
struct stream {
	bool used, synced;
	uint32_t next_seq;    /* sequence number of the next byte wanted */
	uint32_t len;         /* bytes held, markers removed */
	struct { bool used; uint32_t seq, len; uint8_t data[OOO_BYTES]; } ooo[OOO_SLOTS];
	uint8_t buf[STREAM_BUF];
};

struct rsm {                /* a SEND being reassembled */
	uint32_t len, kept;
	bool used;
	uint8_t *bytes;       /* send_keep bytes of rsm_bytes */
};

struct rr_analyzer {
	struct rr_config cfg;
	struct rr_analyzer_limits lim;
	rr_event_fn fn;
	void *ctx;
	struct rr_stats st;
	uint64_t frame_no, now_ns;
	/* connections and their endpoint hash */
	struct conn *conns;
	uint32_t nconns, conn_hash_size;
	uint32_t *conn_hash;
	/* heads of the connections' lists: LIST_LRU's first is the most
	 * recently used, lru_last the least; the chains' by hash */
	uint32_t lru_first, lru_last;
	uint32_t list_hash_size;
	uint32_t *list_heads[LISTS];
	/* the two endpoints last found: a connection's two directions */
	struct { uint8_t addr[16]; uint32_t id, conn; int side; } ep_seen[2];
	unsigned ep_seen_next;
	/* calls */
	struct call *calls;
	uint32_t call_hash_size, *call_hash, free_call;
	uint32_t oldest_call, newest_call;
	/* segments and their handle hash */
	struct seg *segs;
	uint32_t seg_hash_size, *seg_hash, free_seg;
	/* reassembly */
	struct rsm *rsm;
	uint8_t *rsm_bytes;
	uint32_t free_rsm_hint;
	struct stream *streams;
	struct rr_frame fpdu;   /* a unit decoded from a reassembled stream */
	struct rdma_op ops[RDMA_OPS];
	unsigned ops_next, ops_live;
	struct rebuild *rebuilds;
	uint8_t *pool;          /* rebuild_bytes, in pages */
	uint64_t *pool_used;    /* a bit per page */
	uint32_t pool_pages, pool_hint;
	uint8_t *rebuilt;       /* the message handed out, max_rebuild */
	/* the last forward calls' xids, to know one resent after a reconnect */
	struct { uint32_t xid, conn, frame; } sent[SENT_XIDS];
	unsigned sent_next;
	uint16_t sent_index[SENT_HASH]; /* slot in sent plus one, 0: none */
	/* RDMA_DONE: xids of recently completed calls */
	uint32_t recent[RECENT];
	uint32_t recent_at;
	struct rr_frame f;
	struct rr_frame_summary last;
	struct rr_rpcrdma hdr;
	struct rr_rpc rpc;
	struct rr_note note;
	uint8_t scratch[65536]; /* iWARP marker removal */
	size_t memory;
};

static void *alloc(struct rr_analyzer *a, size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	a->memory += n * size;
	return p;
}

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 64;
	while (p < n && p < (1u << 30))
		p <<= 1;
	return p;
}

struct rr_analyzer *rr_analyzer_new(const struct rr_config *cfg,
				    const struct rr_analyzer_limits *lim,
				    rr_event_fn fn, void *ctx)
{
	struct rr_analyzer *a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->memory = sizeof(*a);
	a->cfg = *cfg;
	if (lim)
		a->lim = *lim;
	else
		rr_analyzer_limits_init(&a->lim);
	a->fn = fn;
	a->ctx = ctx;
	a->conn_hash_size = pow2_at_least(a->lim.max_connections * 2);
	a->call_hash_size = pow2_at_least(a->lim.max_calls);
	a->seg_hash_size = pow2_at_least(a->lim.max_segments);
	a->conns = alloc(a, a->lim.max_connections, sizeof(struct conn));
	a->conn_hash = alloc(a, a->conn_hash_size, sizeof(uint32_t));
	a->list_hash_size = pow2_at_least(a->lim.max_connections);
	for (unsigned l = LIST_HALF; l < LISTS; l++)
		a->list_heads[l] = alloc(a, a->list_hash_size, sizeof(uint32_t));
	a->calls = alloc(a, a->lim.max_calls, sizeof(struct call));
	a->call_hash = alloc(a, a->call_hash_size, sizeof(uint32_t));
	a->segs = alloc(a, a->lim.max_segments, sizeof(struct seg));
	a->seg_hash = alloc(a, a->seg_hash_size, sizeof(uint32_t));
	if (!a->lim.send_keep)
		a->lim.send_keep = HDR_KEEP;
	a->rsm = alloc(a, a->lim.reassembly_slots, sizeof(struct rsm));
	a->rsm_bytes = alloc(a, a->lim.reassembly_slots, a->lim.send_keep);
	a->streams = alloc(a, a->lim.tcp_streams, sizeof(struct stream));
	a->pool_pages = a->lim.rebuild_bytes / POOL_PAGE;
	if (!a->lim.max_rebuild || !a->pool_pages)
		a->lim.rebuild_slots = 0;
	if (a->lim.rebuild_slots >= NO_SLOT)
		a->lim.rebuild_slots = NO_SLOT - 1;
	if (!a->lim.rebuild_slots)
		a->pool_pages = 0;
	a->rebuilds = alloc(a, a->lim.rebuild_slots, sizeof(struct rebuild));
	a->pool = alloc(a, a->pool_pages, POOL_PAGE);
	a->pool_used = alloc(a, (a->pool_pages + 63) / 64, sizeof(uint64_t));
	a->rebuilt = alloc(a, a->lim.rebuild_slots ? a->lim.max_rebuild : 0, 1);
	if (!a->conns || !a->conn_hash || !a->list_heads[LIST_HALF] ||
	    !a->list_heads[LIST_PAIR] || !a->list_heads[LIST_COMM] ||
	    !a->calls || !a->call_hash ||
	    !a->segs || !a->seg_hash || !a->rsm || !a->rsm_bytes || !a->streams ||
	    !a->rebuilds || !a->pool || !a->pool_used || !a->rebuilt) {
		rr_analyzer_free(a);
		return NULL;
	}
	for (uint32_t i = 0; i < a->conn_hash_size; i++)
		a->conn_hash[i] = NONE;
	for (unsigned l = LIST_HALF; l < LISTS; l++)
		for (uint32_t i = 0; i < a->list_hash_size; i++)
			a->list_heads[l][i] = NONE;
	a->lru_first = a->lru_last = NONE;
	a->oldest_call = a->newest_call = NONE;
	a->ep_seen[0].conn = a->ep_seen[1].conn = NONE;
	for (uint32_t i = 0; i < a->call_hash_size; i++)
		a->call_hash[i] = NONE;
	for (uint32_t i = 0; i < a->seg_hash_size; i++)
		a->seg_hash[i] = NONE;
	/* free lists through the chain fields */
	for (uint32_t i = 0; i < a->lim.max_calls; i++)
		a->calls[i].hnext = i + 1 < a->lim.max_calls ? i + 1 : NONE;
	for (uint32_t i = 0; i < a->lim.rebuild_slots; i++)
		a->rebuilds[i].call = NONE;
	for (uint32_t i = 0; i < a->lim.max_segments; i++)
		a->segs[i].next = i + 1 < a->lim.max_segments ? i + 1 : NONE;
	a->free_call = a->lim.max_calls ? 0 : NONE;
	a->free_seg = a->lim.max_segments ? 0 : NONE;
	for (unsigned i = 0; i < RECENT; i++)
		a->recent[i] = 0;
	for (uint32_t i = 0; i < a->lim.reassembly_slots; i++)
		a->rsm[i].bytes = a->rsm_bytes + (size_t)i * a->lim.send_keep;
	return a;
}

void rr_analyzer_free(struct rr_analyzer *a)
{
	if (!a)
		return;
	free(a->conns);
	free(a->conn_hash);
	for (unsigned l = LIST_HALF; l < LISTS; l++)
		free(a->list_heads[l]);
	free(a->calls);
	free(a->call_hash);
	free(a->segs);
	free(a->seg_hash);
	free(a->rsm);
	free(a->rsm_bytes);
	free(a->streams);
	free(a->rebuilds);
	free(a->pool);
	free(a->pool_used);
	free(a->rebuilt);
	free(a);
}

const struct rr_stats *rr_analyzer_stats(const struct rr_analyzer *a)
{
	return &a->st;
}

uint32_t rr_analyzer_conn_count(const struct rr_analyzer *a)
{
	return a->nconns;
}

const struct rr_conn_info *rr_analyzer_conn(const struct rr_analyzer *a,
					    uint32_t i)
{
	return i < a->nconns && a->conns[i].used ? &a->conns[i].info : NULL;
}

const char *rr_conn_addr_str(const struct rr_conn_info *c, bool responder,
			     char *buf, size_t size)
{
	static const uint8_t zero[16];
	const uint8_t *p = responder ? c->responder_addr : c->requester_addr;
	if ((c->transport == RR_TRANSPORT_ROCEV2 ||
	     c->transport == RR_TRANSPORT_IWARP) && !memcmp(p + 4, zero, 12)) {
		inet_ntop(AF_INET, p, buf, (socklen_t)size);
	} else if (c->transport == RR_TRANSPORT_IB && !memcmp(p + 2, zero, 14)) {
		snprintf(buf, size, "lid 0x%04x", (unsigned)(p[0] << 8 | p[1]));
	} else {
		inet_ntop(AF_INET6, p, buf, (socklen_t)size);
	}
	return buf;
}

const struct rr_analyzer_limits *rr_analyzer_limits(const struct rr_analyzer *a)
{
	return &a->lim;
}

size_t rr_analyzer_memory(const struct rr_analyzer *a)
{
	return a->memory;
}

/* A 16-byte address mixed with a seed: two 64-bit multiplications, as
 * the endpoint hash runs for every frame. */
static uint32_t hash_addr(const uint8_t *p, uint64_t seed)
{
	uint64_t x, y;
	memcpy(&x, p, 8);
	memcpy(&y, p + 8, 8);
	uint64_t h = (x ^ seed) * 0x9e3779b97f4a7c15ull;
	h = (h ^ (h >> 29) ^ y) * 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(h ^ (h >> 32));
}

/* ---- events and findings --------------------------------------------- */

static void emit(struct rr_analyzer *a, struct rr_event *ev)
{
	ev->frame = a->frame_no;
	ev->ts_ns = a->now_ns;
	if (a->fn)
		a->fn(a->ctx, ev);
}

static void finding(struct rr_analyzer *a, uint32_t conn, enum rr_finding_id id,
		    const char *detail)
{
	a->st.findings[id]++;
	a->st.total.findings++;
	if (conn != NONE)
		a->conns[conn].info.st.findings++;
	struct rr_event ev = { .kind = RR_EV_FINDING, .conn = conn,
			       .finding = (uint16_t)id, .detail = detail };
	emit(a, &ev);
}

/* ---- connections ------------------------------------------------------- */

static uint32_t ep_hash(const struct rr_analyzer *a, const uint8_t *addr,
			uint32_t id)
{
	uint32_t h = hash_addr(addr, id);
	return h & (a->conn_hash_size - 1);
}

static bool addr_eq(const uint8_t *x, const uint8_t *y)
{
	return !memcmp(x, y, 16);
}

static void ep_seen_forget(struct rr_analyzer *a)
{
	a->ep_seen[0].conn = a->ep_seen[1].conn = NONE;
}

/* The connection and side whose endpoint is (addr, id). */
/* The connection and side whose endpoint is (addr, id) in its hash chain,
 * and whose other side is (peer, peer_id) when peer is given. */
static uint32_t ep_chain_find(const struct rr_analyzer *a, const uint8_t *addr,
			      uint32_t id, const uint8_t *peer,
			      uint32_t peer_id, int *side)
{
	for (uint32_t c = a->conn_hash[ep_hash(a, addr, id)]; c != NONE;) {
		const struct conn *k = &a->conns[c >> 1];
		int s = (int)(c & 1);
		if (k->used && k->side[s].known && k->side[s].id == id &&
		    addr_eq(k->side[s].addr, addr) &&
		    (!peer || (k->side[1 - s].known && k->side[1 - s].id == peer_id &&
			       addr_eq(k->side[1 - s].addr, peer)))) {
			*side = s;
			return c >> 1;
		}
		c = k->hnext[s];
	}
	return NONE;
}

/* The connection and side whose endpoint is (addr, id). */
static uint32_t ep_find(struct rr_analyzer *a, const uint8_t *addr,
			uint32_t id, int *side)
{
	for (unsigned i = 0; i < 2; i++)
		if (a->ep_seen[i].conn != NONE && a->ep_seen[i].id == id &&
		    addr_eq(a->ep_seen[i].addr, addr)) {
			*side = a->ep_seen[i].side;
			return a->ep_seen[i].conn;
		}
	uint32_t cn = ep_chain_find(a, addr, id, NULL, 0, side);
	if (cn != NONE) {
		unsigned i = a->ep_seen_next++ & 1;
		memcpy(a->ep_seen[i].addr, addr, 16);
		a->ep_seen[i].id = id;
		a->ep_seen[i].conn = cn;
		a->ep_seen[i].side = *side;
	}
	return cn;
}

/*
 * An iWARP connection is a TCP connection: its listener's endpoint is shared
 * by every connection to it, so only both endpoints name one.  The chain
 * walked is the other end's (an ephemeral port, in one connection only).
 * Returns the connection and the side that receives from src.
 */
static uint32_t tcp_conn_find(struct rr_analyzer *a, const uint8_t *src,
			      uint32_t sport, const uint8_t *dst,
			      uint32_t dport, int *to)
{
	bool to_listener = dport == a->cfg.iwarp_tcp_port;
	int s;
	uint32_t cn = to_listener ? ep_chain_find(a, src, sport, dst, dport, &s) :
				    ep_chain_find(a, dst, dport, src, sport, &s);
	if (cn != NONE)
		*to = to_listener ? 1 - s : s;
	return cn;
}

static void ep_add(struct rr_analyzer *a, uint32_t c, int s)
{
	struct conn *k = &a->conns[c];
	uint32_t h = ep_hash(a, k->side[s].addr, k->side[s].id);
	ep_seen_forget(a);
	k->hnext[s] = a->conn_hash[h];
	a->conn_hash[h] = c << 1 | (uint32_t)s;
}

static void ep_del(struct rr_analyzer *a, uint32_t c, int s)
{
	struct conn *k = &a->conns[c];
	ep_seen_forget(a);
	if (!k->side[s].known)
		return;
	uint32_t *pp = &a->conn_hash[ep_hash(a, k->side[s].addr, k->side[s].id)];
	while (*pp != NONE) {
		uint32_t e = *pp;
		if (e == (c << 1 | (uint32_t)s)) {
			*pp = k->hnext[s];
			return;
		}
		pp = &a->conns[e >> 1].hnext[e & 1];
	}
}

/* ---- the connections' lists (struct link) ----------------------------- */

static uint32_t pair_hash(const uint8_t *x, const uint8_t *y)
{
	return hash_addr(y, hash_addr(x, 0x5bd1e995u));
}

static uint32_t comm_hash(uint32_t comm)
{
	return comm * 2654435761u;
}

/* The first of a chain of list l. */
static uint32_t *chain(struct rr_analyzer *a, unsigned l, uint32_t hash)
{
	return &a->list_heads[l][hash & (a->list_hash_size - 1)];
}

/* The chain a connection is on in list l, from the key it has there
 * (which does not change while it is on it). */
static uint32_t *list_head(struct rr_analyzer *a, unsigned l,
			   const struct conn *k)
{
	if (l == LIST_HALF)
		return chain(a, l, pair_hash(k->side[k->half_side].addr,
					     k->side[1 - k->half_side].addr));
	if (l == LIST_PAIR)
		return chain(a, l, pair_hash(k->info.requester_addr,
					     k->info.responder_addr));
	return chain(a, l, comm_hash(k->comm_id));
}

static void list_add(struct rr_analyzer *a, unsigned l, uint32_t c)
{
	struct conn *k = &a->conns[c];
	if (k->listed & (1u << l))
		return;
	uint32_t *first = l == LIST_LRU ? &a->lru_first : list_head(a, l, k);
	k->link[l].prev = NONE;
	k->link[l].next = *first;
	if (*first != NONE)
		a->conns[*first].link[l].prev = c;
	else if (l == LIST_LRU)
		a->lru_last = c;
	*first = c;
	k->listed |= (uint8_t)(1u << l);
}

static void list_del(struct rr_analyzer *a, unsigned l, uint32_t c)
{
	struct conn *k = &a->conns[c];
	if (!(k->listed & (1u << l)))
		return;
	uint32_t prev = k->link[l].prev, next = k->link[l].next;
	if (prev != NONE)
		a->conns[prev].link[l].next = next;
	else
		*(l == LIST_LRU ? &a->lru_first : list_head(a, l, k)) = next;
	if (next != NONE)
		a->conns[next].link[l].prev = prev;
	else if (l == LIST_LRU)
		a->lru_last = prev;
	k->listed &= (uint8_t)~(1u << l);
}

/* A connection used now: first in the use order. */
static void conn_touch(struct rr_analyzer *a, uint32_t c)
{
	a->conns[c].info.last_ns = a->now_ns;
	if (a->lru_first != c) {
		list_del(a, LIST_LRU, c);
		list_add(a, LIST_LRU, c);
	}
}

/* Side s has an address and no QPN yet (a REQ's responder; the sender of
 * traffic seen one way only): found by the addresses until it has one. */
static void half_add(struct rr_analyzer *a, uint32_t c, int s)
{
	struct conn *k = &a->conns[c];
	list_del(a, LIST_HALF, c);
	k->half_side = (uint8_t)s;
	list_add(a, LIST_HALF, c);
}

/* How far a chain is followed: a flood of connections between two hosts
 * must not make a frame's cost grow (the newest come first). */
#define CHAIN_WALK 16

/* The public view of the two sides: requester [0], responder [1]. */
static void info_sides(struct rr_analyzer *a, uint32_t c)
{
	struct conn *k = &a->conns[c];
	/* the pair chain is keyed by these addresses */
	if ((k->listed & (1u << LIST_PAIR)) &&
	    (!addr_eq(k->info.requester_addr, k->side[0].addr) ||
	     !addr_eq(k->info.responder_addr, k->side[1].addr))) {
		list_del(a, LIST_PAIR, c);
		memcpy(k->info.requester_addr, k->side[0].addr, 16);
		memcpy(k->info.responder_addr, k->side[1].addr, 16);
		list_add(a, LIST_PAIR, c);
	}
	memcpy(k->info.requester_addr, k->side[0].addr, 16);
	memcpy(k->info.responder_addr, k->side[1].addr, 16);
	k->info.requester_qpn = k->side[0].id;
	k->info.responder_qpn = k->side[1].id;
}

static void side_set(struct rr_analyzer *a, uint32_t c, int s,
		     const uint8_t *addr, uint32_t id)
{
	struct side *sd = &a->conns[c].side[s];
	if (sd->known)
		ep_del(a, c, s);
	if (a->conns[c].half_side == s)
		list_del(a, LIST_HALF, c);
	memcpy(sd->addr, addr, 16);
	sd->id = id;
	sd->known = true;
	ep_add(a, c, s);
	info_sides(a, c);
}

static void call_free(struct rr_analyzer *a, uint32_t ci);
static void rebuild_put(struct rr_analyzer *a, struct call *c);

static uint32_t conn_new(struct rr_analyzer *a, uint8_t transport)
{
	uint32_t c = NONE;
	if (a->nconns < a->lim.max_connections) {
		c = a->nconns++;
	} else {
		/* evict the least recently used connection, and its calls */
		c = a->lru_last;
		if (c == NONE)
			return NONE;
		ep_del(a, c, 0);
		ep_del(a, c, 1);
		for (int s = 0; s < 2; s++)
			if (a->conns[c].side[s].stream != NONE)
				a->streams[a->conns[c].side[s].stream].used = false;
		while (a->conns[c].calls != NONE)
			call_free(a, a->conns[c].calls);
		for (unsigned l = 0; l < LISTS; l++)
			list_del(a, l, c);
		a->st.connections_evicted++;
	}
	struct conn *k = &a->conns[c];
	memset(k, 0, sizeof(*k));
	k->used = true;
	k->calls = NONE;
	conn_touch(a, c);
	k->side[0].slot = k->side[1].slot = NONE;
	k->side[0].stream = k->side[1].stream = NONE;
	k->info.transport = transport;
	k->info.previous = RR_CONN_NONE;
	k->info.first_ns = a->now_ns;
	k->info.st.grant = 1;        /* RFC 8166 §3.3.3 */
	k->info.st.grant_min = UINT32_MAX;
	k->info.st.bc_grant = 1;
	rr_inline_thresholds(NULL, NULL, &k->info.thresholds);
	a->st.connections++;
	struct rr_event ev = { .kind = RR_EV_CONN_OPEN, .conn = c };
	emit(a, &ev);
	return c;
}

static void conn_thresholds(struct conn *k)
{
	rr_inline_thresholds(k->info.have_private[0] ? &k->info.priv[0] : NULL,
			     k->info.have_private[1] ? &k->info.priv[1] : NULL,
			     &k->info.thresholds);
}

/* ---- calls and segments ---------------------------------------------- */

static uint32_t call_hash(const struct rr_analyzer *a, uint32_t conn,
			  uint8_t dir, uint32_t xid)
{
	uint32_t h = (xid * 2654435761u) ^ (conn * 40503u) ^ dir;
	return h & (a->call_hash_size - 1);
}

static uint32_t call_find(const struct rr_analyzer *a, uint32_t conn,
			  uint8_t dir, uint32_t xid)
{
	for (uint32_t i = a->call_hash[call_hash(a, conn, dir, xid)]; i != NONE;
	     i = a->calls[i].hnext) {
		const struct call *c = &a->calls[i];
		if (c->xid == xid && c->conn == conn && c->dir == dir)
			return i;
	}
	return NONE;
}

static uint32_t seg_hash(const struct rr_analyzer *a, uint32_t handle)
{
	return (handle * 2654435761u) & (a->seg_hash_size - 1);
}

static void seg_unhash(struct rr_analyzer *a, uint32_t si)
{
	uint32_t *pp = &a->seg_hash[seg_hash(a, a->segs[si].handle)];
	while (*pp != NONE) {
		if (*pp == si) {
			*pp = a->segs[si].hnext;
			return;
		}
		pp = &a->segs[*pp].hnext;
	}
}

static void call_free(struct rr_analyzer *a, uint32_t ci)
{
	struct call *c = &a->calls[ci];
	if (c->counted) {
		/* evicted or aged out while in flight */
		struct rr_conn_stats *cs = &a->conns[c->conn].info.st;
		if (cs->in_flight)
			cs->in_flight--;
		if (a->st.total.in_flight)
			a->st.total.in_flight--;
		c->counted = false;
	}
	if (c->rebuild != NO_SLOT)
		rebuild_put(a, c);
	for (uint32_t s = c->segs; s != NONE;) {
		uint32_t next = a->segs[s].next;
		seg_unhash(a, s);
		a->segs[s].next = a->free_seg;
		a->free_seg = s;
		s = next;
	}
	uint32_t *pp = &a->call_hash[call_hash(a, c->conn, c->dir, c->xid)];
	while (*pp != NONE) {
		if (*pp == ci) {
			*pp = c->hnext;
			break;
		}
		pp = &a->calls[*pp].hnext;
	}
	/* off its connection's list and the age list */
	if (c->conn_link.prev != NONE)
		a->calls[c->conn_link.prev].conn_link.next = c->conn_link.next;
	else
		a->conns[c->conn].calls = c->conn_link.next;
	if (c->conn_link.next != NONE)
		a->calls[c->conn_link.next].conn_link.prev = c->conn_link.prev;
	if (c->age.prev != NONE)
		a->calls[c->age.prev].age.next = c->age.next;
	else
		a->oldest_call = c->age.next;
	if (c->age.next != NONE)
		a->calls[c->age.next].age.prev = c->age.prev;
	else
		a->newest_call = c->age.prev;
	c->used = false;
	c->hnext = a->free_call;
	a->free_call = ci;
}

/* Unanswered calls age out; with no room, the oldest call goes. */
static uint32_t call_new(struct rr_analyzer *a, uint32_t conn, uint8_t dir,
			 uint32_t xid)
{
	if (a->free_call == NONE) {
		/* calls are made in time order: the oldest heads the age list */
		uint32_t victim = a->oldest_call;
		if (victim == NONE)
			return NONE;
		call_free(a, victim);
		a->st.calls_evicted++;
	}
	uint32_t ci = a->free_call;
	struct call *c = &a->calls[ci];
	a->free_call = c->hnext;
	memset(c, 0, sizeof(*c));
	c->used = true;
	c->xid = xid;
	c->conn = conn;
	c->dir = dir;
	c->segs = NONE;
	c->rebuild = NO_SLOT;
	c->ts_ns = a->now_ns;
	c->frame = (uint32_t)a->frame_no;
	uint32_t h = call_hash(a, conn, dir, xid);
	c->hnext = a->call_hash[h];
	a->call_hash[h] = ci;
	/* first on its connection's list, last (newest) on the age list */
	struct conn *k = &a->conns[conn];
	c->conn_link.prev = NONE;
	c->conn_link.next = k->calls;
	if (k->calls != NONE)
		a->calls[k->calls].conn_link.prev = ci;
	k->calls = ci;
	c->age.prev = a->newest_call;
	c->age.next = NONE;
	if (a->newest_call != NONE)
		a->calls[a->newest_call].age.next = ci;
	else
		a->oldest_call = ci;
	a->newest_call = ci;
	return ci;
}

static void seg_add(struct rr_analyzer *a, uint32_t ci,
		    const struct rr_rdma_seg *s, uint8_t list)
{
	if (a->free_seg == NONE)
		return; /* remembered no further; counted via calls_evicted */
	uint32_t si = a->free_seg;
	struct seg *g = &a->segs[si];
	a->free_seg = g->next;
	g->handle = s->handle;
	g->length = s->length;
	g->offset = s->offset;
	g->call = ci;
	g->list = list;
	g->position_zero = list == RR_LIST_READ && s->position == 0;
	g->rrc = false;
	g->next = a->calls[ci].segs;
	a->calls[ci].segs = si;
	uint32_t h = seg_hash(a, s->handle);
	g->hnext = a->seg_hash[h];
	a->seg_hash[h] = si;
}

/* The segment of this connection that an RDMA access at (handle, va) hits. */
static uint32_t seg_find(const struct rr_analyzer *a, uint32_t conn,
			 uint32_t handle, uint64_t va)
{
	uint32_t near = NONE;
	for (uint32_t si = a->seg_hash[seg_hash(a, handle)]; si != NONE;
	     si = a->segs[si].hnext) {
		const struct seg *g = &a->segs[si];
		if (g->handle != handle || a->calls[g->call].conn != conn)
			continue;
		if (va >= g->offset && va - g->offset < (g->length ? g->length : 1))
			return si;
		if (va >= g->offset)
			near = si;
	}
	return near;
}

static unsigned log2_bucket(uint64_t v, unsigned n)
{
	unsigned b = 0;
	while (v > 1 && b + 1 < n) {
		v >>= 1;
		b++;
	}
	return b;
}

/* ---- RPC messages rebuilt from chunk data (RFC 8166 §3.5) ------------ */

static uint8_t *slot_bytes(const struct rr_analyzer *a, uint16_t slot)
{
	return a->pool + (size_t)a->rebuilds[slot].page * POOL_PAGE;
}

static bool page_used(const struct rr_analyzer *a, uint32_t p)
{
	return a->pool_used[p / 64] >> (p % 64) & 1;
}

static void pages_mark(struct rr_analyzer *a, uint32_t first, uint32_t n,
		       bool used)
{
	for (uint32_t p = first; p < first + n; p++) {
		uint64_t bit = (uint64_t)1 << (p % 64);
		a->pool_used[p / 64] = used ? a->pool_used[p / 64] | bit :
					      a->pool_used[p / 64] & ~bit;
	}
}

/* n free pages in a row, next fit from where the last run ended. */
static uint32_t pages_get(struct rr_analyzer *a, uint32_t n)
{
	uint32_t total = a->pool_pages, run = 0;
	for (uint32_t k = 0; k < total + n; k++) {
		uint32_t p = (a->pool_hint + k) % total;
		if (p == 0)
			run = 0; /* a run does not wrap */
		if (run == 0 && p % 64 == 0 && a->pool_used[p / 64] == UINT64_MAX &&
		    k + 64 < total + n) {
			k += 63; /* a full word */
			continue;
		}
		run = page_used(a, p) ? 0 : run + 1;
		if (run == n) {
			uint32_t first = p + 1 - n;
			pages_mark(a, first, n, true);
			a->pool_hint = (p + 1) % total;
			return first;
		}
	}
	return NONE;
}

/* The call's segments in the order the headers listed them (the chain
 * runs newest first). */
static unsigned call_segs(const struct rr_analyzer *a, const struct call *c,
			  uint32_t out[], unsigned max)
{
	unsigned n = 0;
	for (uint32_t s = c->segs; s != NONE; s = a->segs[s].next)
		n++;
	if (n > max)
		return 0;
	unsigned i = n;
	for (uint32_t s = c->segs; s != NONE; s = a->segs[s].next)
		out[--i] = s;
	return n;
}

/* Where segment si starts in its call's chunk space (a reply's
 * responder-provided read chunk has a space of its own). */
static uint64_t seg_base(const struct rr_analyzer *a, uint32_t si)
{
	uint64_t base = 0;
	bool rrc = a->segs[si].rrc;
	for (uint32_t s = a->segs[si].next; s != NONE; s = a->segs[s].next)
		if (a->segs[s].rrc == rrc)
			base += a->segs[s].length;
	return base;
}

/* A slot of `size` bytes for the call's chunk space, or the one it has. */
static struct rebuild *rebuild_get(struct rr_analyzer *a, uint32_t ci,
				   uint64_t size)
{
	struct call *c = &a->calls[ci];
	if (c->rebuild != NO_SLOT)
		return &a->rebuilds[c->rebuild];
	if (c->rebuild_lost || !a->lim.rebuild_slots)
		return NULL;
	uint32_t slot = NONE, page = NONE;
	if (size && size <= a->lim.max_rebuild)
		for (uint32_t i = 0; i < a->lim.rebuild_slots && slot == NONE; i++)
			if (a->rebuilds[i].call == NONE)
				slot = i;
	if (slot != NONE)
		page = pages_get(a, (uint32_t)((size + POOL_PAGE - 1) / POOL_PAGE));
	if (page == NONE) {
		c->rebuild_lost = true;
		a->st.rebuild_incomplete++;
		return NULL;
	}
	a->rebuilds[slot] = (struct rebuild){ .call = ci, .page = page,
					      .size = (uint32_t)size };
	c->rebuild = (uint16_t)slot;
	return &a->rebuilds[slot];
}

/* The bytes of a call's segments, its own or the reply's read chunk. */
static uint64_t chunk_space(const struct rr_analyzer *a, const struct call *c,
			    bool rrc)
{
	uint64_t n = 0;
	for (uint32_t s = c->segs; s != NONE; s = a->segs[s].next)
		if (a->segs[s].rrc == rrc)
			n += a->segs[s].length;
	return n;
}

static bool has_reads(const struct rr_analyzer *a, const struct call *c,
		      bool rrc)
{
	for (uint32_t s = c->segs; s != NONE; s = a->segs[s].next)
		if (a->segs[s].list == RR_LIST_READ && a->segs[s].rrc == rrc)
			return true;
	return false;
}

static void rebuild_put(struct rr_analyzer *a, struct call *c)
{
	struct rebuild *r = &a->rebuilds[c->rebuild];
	/* what was awaited and never came */
	if (!r->call_done && c->dir == RR_DIR_FWD_CALL && has_reads(a, c, false))
		a->st.rebuild_incomplete++;
	if (!r->rrc_done && has_reads(a, c, true))
		a->st.rebuild_incomplete++;
	pages_mark(a, r->page, (r->size + POOL_PAGE - 1) / POOL_PAGE, false);
	r->call = NONE;
	c->rebuild = NO_SLOT;
}

/* The reply's status, once a call: from its RPC header, inline or
 * rebuilt, else unseen. */
static void record_status(struct rr_analyzer *a, struct call *c, const struct rr_rpc *rpc)
{
	if (c->status_counted)
		return;
	c->status_counted = true;
	enum rr_reply_status s = rpc && rpc->msg_type == RR_RPC_REPLY ?
		rr_reply_status_of(rpc) :
		c->head_status ? (enum rr_reply_status)(c->head_status - 1) :
				 RR_REPLY_UNSEEN;
	a->st.rpc_replies[c->slot][s]++;
}

/* The message is len bytes at m: the slot itself when the chunk holds it
 * whole, else a->rebuilt. */
static void emit_rebuilt(struct rr_analyzer *a, uint32_t ci, uint8_t dir,
			 enum rr_chunk_kind source, const uint8_t *m,
			 uint32_t len)
{
	const struct call *c = &a->calls[ci];
	struct rr_rpc rpc;
	const struct rr_rpc *rp = NULL;
	if (rr_rpc_decode(m, 0, len, len, &rpc, &a->note) !=
		    RR_MALFORMED &&
	    rpc.msg_type <= RR_RPC_REPLY)
		rp = &rpc;
	a->st.messages_rebuilt++;
	struct rr_event ev = { .kind = RR_EV_RPC_MESSAGE, .conn = c->conn,
			       .dir = dir, .xid = c->xid, .rpc = rp,
			       .data = m, .data_len = len, .msg_len = len,
			       .source = (uint8_t)source,
			       .prog = c->prog, .vers = c->vers, .proc = c->proc };
	emit(a, &ev);
	if (rp && (dir == RR_DIR_FWD_REPLY || dir == RR_DIR_BWD_REPLY))
		record_status(a, &a->calls[ci], rp);
	if (rp && rp->xid != c->xid)
		finding(a, c->conn, RR_FIND_XID_MISMATCH, rr_chunk_kind_str(source));
}

/* Append n bytes of the slot's chunk space at pos to the message. */
static bool splice(const struct rr_analyzer *a, uint16_t slot, uint64_t pos,
		   uint32_t n, uint32_t *len)
{
	uint32_t size = a->rebuilds[slot].size;
	if (pos > size || n > size - pos || n > a->lim.max_rebuild - *len)
		return false;
	memcpy(a->rebuilt + *len, slot_bytes(a, slot) + pos, n);
	*len += n;
	return true;
}

static bool pad4(const struct rr_analyzer *a, uint32_t *len)
{
	while (*len % 4) {
		if (*len >= a->lim.max_rebuild)
			return false;
		a->rebuilt[(*len)++] = 0;
	}
	return true;
}

/*
 * A call's read chunks have all arrived: its message is the position-zero
 * chunk (a Long Call) or its inline payload, with each read chunk at a
 * position past zero put back at that position of the unreduced stream,
 * zero-padded to four bytes (RFC 8166 §3.5.3, §3.4.5).
 */
static void call_reads_done(struct rr_analyzer *a, uint32_t ci)
{
	struct call *c = &a->calls[ci];
	struct rebuild *r = &a->rebuilds[c->rebuild];
	uint32_t idx[RR_MAX_SEGMENTS];
	unsigned n = call_segs(a, c, idx, RR_MAX_SEGMENTS);
	uint64_t pos = 0, pz_len = 0;
	for (unsigned i = 0; i < n; i++)
		if (a->segs[idx[i]].list == RR_LIST_READ && !a->segs[idx[i]].rrc &&
		    a->segs[idx[i]].position_zero)
			pz_len += a->segs[idx[i]].length;
	/* the stream the other chunks go into: the inline payload */
	const uint8_t *src = NULL;
	uint32_t src_len = 0, used = 0, len = 0;
	if (pz_len && pz_len == r->read_have && pz_len <= r->size) {
		/* a Long Call and nothing more: the chunk is the message */
		r->call_done = true;
		emit_rebuilt(a, ci, RR_DIR_FWD_CALL, RR_KIND_PZRC,
			     slot_bytes(a, c->rebuild), (uint32_t)pz_len);
		return;
	}
	if (pz_len) {
		if (!splice(a, c->rebuild, 0, (uint32_t)pz_len, &len))
			goto lost;
	} else {
		src = slot_bytes(a, c->rebuild) + r->inline_at;
		src_len = r->inline_len;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct seg *g = &a->segs[idx[i]];
		uint64_t at = pos;
		pos += g->length;
		if (g->list != RR_LIST_READ || g->rrc || g->position_zero)
			continue;
		if (!src)
			goto lost; /* read chunks inside a Long Call: not rebuilt */
		uint32_t position = r->positions[i];
		bool more_of_chunk = i > 0 && a->segs[idx[i - 1]].list == RR_LIST_READ &&
				     r->positions[i - 1] == position;
		if (!more_of_chunk) {
			/* the unreduced stream up to the chunk's position */
			if (position < len || position - len > src_len - used)
				goto lost;
			uint32_t take = position - len;
			memcpy(a->rebuilt + len, src + used, take);
			len += take;
			used += take;
		}
		if (!splice(a, c->rebuild, at, g->length, &len))
			goto lost;
		/* a chunk of several segments is padded once, after its last */
		if ((i + 1 == n || a->segs[idx[i + 1]].list != RR_LIST_READ ||
		     r->positions[i + 1] != position) &&
		    !pad4(a, &len))
			goto lost;
	}
	if (src) {
		if (src_len - used > a->lim.max_rebuild - len)
			goto lost;
		memcpy(a->rebuilt + len, src + used, src_len - used);
		len += src_len - used;
	}
	r->call_done = true;
	emit_rebuilt(a, ci, RR_DIR_FWD_CALL, pz_len ? RR_KIND_PZRC : RR_KIND_READ,
		     a->rebuilt, len);
	return;
lost:
	r->lost = true;
}

/* The responder-provided read chunk has been read: it is the reply. */
static void rrc_reads_done(struct rr_analyzer *a, uint32_t ci, uint32_t total)
{
	struct call *c = &a->calls[ci];
	struct rebuild *r = &a->rebuilds[c->rebuild];
	if (total > r->size) {
		r->lost = true;
		return;
	}
	r->rrc_done = true;
	emit_rebuilt(a, ci, RR_DIR_FWD_REPLY, RR_KIND_RRC,
		     slot_bytes(a, c->rebuild), total);
}

/* Read data landed for segment si: is a message complete? */
static void reads_landed(struct rr_analyzer *a, uint32_t si)
{
	const struct seg *g = &a->segs[si];
	uint32_t ci = g->call;
	struct call *c = &a->calls[ci];
	if (c->rebuild == NO_SLOT)
		return;
	struct rebuild *r = &a->rebuilds[c->rebuild];
	if (r->lost)
		return;
	uint64_t want = 0;
	bool rrc = g->rrc;
	for (uint32_t s = c->segs; s != NONE; s = a->segs[s].next) {
		const struct seg *x = &a->segs[s];
		if (x->list == RR_LIST_READ && x->rrc == rrc)
			want += x->length;
	}
	if (rrc && !r->rrc_done && r->rrc_have >= want)
		rrc_reads_done(a, ci, (uint32_t)want);
	else if (!rrc && !r->call_done && r->read_have >= want &&
		 c->dir == RR_DIR_FWD_CALL)
		call_reads_done(a, ci);
}

/*
 * The reply arrived: a reply sent in its reply chunk (RDMA_NOMSG) is the
 * bytes written there, the lengths the reply reports (RFC 8166 §3.5.4); a
 * reply whose write chunk holds a result is rebuilt where the result's
 * place is known, the result's last item (call.data_last), with its
 * count left inline.
 */
static void reply_rebuild(struct rr_analyzer *a, uint32_t ci,
			  const struct rr_rpcrdma *h, const uint8_t *m,
			  uint32_t kept, uint32_t len)
{
	struct call *c = &a->calls[ci];
	bool reply_chunk = false, write_data = false;
	for (unsigned i = 0; i < h->nsegs; i++) {
		reply_chunk |= h->segs[i].list == RR_LIST_REPLY && h->segs[i].length;
		write_data |= h->segs[i].list == RR_LIST_WRITE && h->segs[i].length;
	}
	enum rr_list_want { NONE_WANTED, REPLY_CHUNK, WRITE_CHUNK } want = NONE_WANTED;
	if (h->proc == RR_RDMA_NOMSG && reply_chunk)
		want = REPLY_CHUNK;
	else if (h->proc == RR_RDMA_MSG && write_data)
		want = WRITE_CHUNK;
	if (want == NONE_WANTED || !a->lim.rebuild_slots)
		return;
	bool placeable = c->data_last;
	uint32_t out = 0;
	struct rebuild *r = c->rebuild != NO_SLOT ? &a->rebuilds[c->rebuild] : NULL;
	if (!r || r->lost || (want == WRITE_CHUNK && (!placeable || kept < len)))
		goto incomplete;
	if (want == WRITE_CHUNK) {
		uint32_t n = h->payload.len;
		if (n > a->lim.max_rebuild || h->payload.off > kept ||
		    n > kept - h->payload.off)
			goto incomplete;
		memcpy(a->rebuilt, m + h->payload.off, n);
		out = n;
	}
	/* a reply chunk filled in order is the message where it lies */
	uint64_t written = 0, first = UINT64_MAX, next = 0;
	bool in_place = want == REPLY_CHUNK;
	for (unsigned i = 0; i < h->nsegs; i++) {
		const struct rr_rdma_seg *s = &h->segs[i];
		uint8_t list = want == REPLY_CHUNK ? RR_LIST_REPLY : RR_LIST_WRITE;
		if (s->list != list || (list == RR_LIST_WRITE && s->chunk != 0) ||
		    !s->length)
			continue;
		/* the call's segment this one reports on */
		uint32_t si = NONE;
		for (uint32_t x = c->segs; x != NONE && si == NONE; x = a->segs[x].next)
			if (a->segs[x].list == list && a->segs[x].handle == s->handle &&
			    a->segs[x].offset == s->offset)
				si = x;
		if (si == NONE)
			goto incomplete;
		uint64_t base = seg_base(a, si);
		if (first == UINT64_MAX)
			first = next = base;
		if (in_place && base != next) {
			/* out of order after all: copy what was in place */
			in_place = false;
			if (!splice(a, c->rebuild, first, (uint32_t)(next - first),
				    &out))
				goto incomplete;
		}
		next = base + s->length;
		if (!in_place && !splice(a, c->rebuild, base, s->length, &out))
			goto incomplete;
		written += s->length;
	}
	if (r->write_have < written ||
	    (want == WRITE_CHUNK && !pad4(a, &out)))
		goto incomplete;
	if (in_place) {
		if (first == UINT64_MAX || next > r->size)
			goto incomplete;
		emit_rebuilt(a, ci, RR_DIR_FWD_REPLY, RR_KIND_REPLY,
			     slot_bytes(a, c->rebuild) + first, (uint32_t)written);
		return;
	}
	emit_rebuilt(a, ci, RR_DIR_FWD_REPLY,
		     want == REPLY_CHUNK ? RR_KIND_REPLY : RR_KIND_WRITE,
		     a->rebuilt, out);
	return;
incomplete:
	if (!c->rebuild_lost)
		a->st.rebuild_incomplete++;
}

/* Chunk data of segment si, `len` bytes of which `have` captured, for
 * chunk-space position pos. */
static void place(struct rr_analyzer *a, uint32_t si, uint64_t pos,
		  const uint8_t *p, uint32_t have, uint32_t len)
{
	const struct seg *g = &a->segs[si];
	struct call *c = &a->calls[g->call];
	if (!a->lim.rebuild_slots || c->answered != g->rrc)
		return; /* writes after the reply, reads of a settled call */
	/* the chunk space is summed once, when the slot is taken */
	struct rebuild *r = c->rebuild != NO_SLOT ? &a->rebuilds[c->rebuild] :
			    rebuild_get(a, g->call, chunk_space(a, c, g->rrc));
	if (!r)
		return;
	if (have < len || pos > r->size || len > r->size - pos) {
		r->lost = true;
		return;
	}
	memcpy(slot_bytes(a, c->rebuild) + pos, p, len);
	if (g->rrc)
		r->rrc_have += len;
	else if (g->list == RR_LIST_READ)
		r->read_have += len;
	else
		r->write_have += len;
}

/* An NFSv4 COMPOUND call's operations, counted as nfsstat counts them;
 * those that cannot be named (past a cut or an operation the walker does
 * not know) count under the last slot, so the counts add up to numops. */
static bool count_nfs4_ops(struct rr_analyzer *a, const uint8_t *m,
			   const struct rr_rpc *rpc, uint32_t kept, uint32_t end,
			   const struct rr_rpcrdma *h)
{
	struct rr_nfs4_moved moved[RR_MAX_CHUNKS];
	unsigned nmoved = 0;
	for (unsigned i = 0; h && i < h->nsegs; i++) {
		const struct rr_rdma_seg *g = &h->segs[i];
		if (g->list != RR_LIST_READ)
			continue;
		if (nmoved && moved[nmoved - 1].position == g->position)
			moved[nmoved - 1].length += g->length;
		else if (nmoved < RR_MAX_CHUNKS)
			moved[nmoved++] = (struct rr_nfs4_moved){ g->position,
								  g->length };
	}
	struct rr_nfs4_compound cp;
	struct rr_note note;
	rr_nfs4_compound_decode(m, rpc->off, rpc->body.off, kept, end, moved,
				nmoved, &cp, &note);
	for (uint32_t i = 0; i < cp.named && i < RR_NFS4_OPS_KEPT; i++)
		a->st.nfs4_ops[rr_nfs4_op_slot(cp.op[i])]++;
	/* past the kept ones, named or not, the slot is unknown */
	uint32_t kept_ops = cp.named < RR_NFS4_OPS_KEPT ? cp.named : RR_NFS4_OPS_KEPT;
	a->st.nfs4_ops[RR_NFS4_OP_OTHER] += cp.numops - kept_ops;
	/* READ (RFC 8881 §18.22.2) and READLINK (§18.24.2) end their
	 * results with the data a write chunk carries */
	uint16_t last = cp.named ? cp.op[(cp.named - 1) % RR_NFS4_OPS_KEPT] : 0;
	return cp.named == cp.numops && cp.named <= RR_NFS4_OPS_KEPT &&
	       (last == RR_OP_READ || last == RR_OP_READLINK);
}

static bool is_nfs4_compound(const struct rr_rpc *rpc)
{
	return rpc->prog == RR_PROG_NFS && rpc->vers == 4 &&
	       rpc->proc == 1; /* COMPOUND (RFC 8881 §16.2) */
}

/* A forward call's statistics of what it asks, and whether its reply
 * ends with the data a write chunk carries: the last item of an NFSv3
 * READ or READLINK result (RFC 1813 §3.3.6, §3.3.5), or of a COMPOUND's
 * last operation's. */
static bool data_last_of(struct rr_analyzer *a, const uint8_t *m,
			 const struct rr_rpc *rpc, uint32_t kept, uint32_t end,
			 const struct rr_rpcrdma *h)
{
	if (is_nfs4_compound(rpc))
		return count_nfs4_ops(a, m, rpc, kept, end, h);
	return rpc->prog == RR_PROG_NFS && rpc->vers == 3 &&
	       (rpc->proc == 6 || rpc->proc == 5);
}

/* The start of a Long Call's message names the call's procedure, slot or
 * not, so statistics count it under its name. */
static void name_long_call(struct rr_analyzer *a, uint32_t ci,
			   const uint8_t *p, uint32_t have)
{
	struct call *c = &a->calls[ci];
	struct rr_rpc rpc;
	if (c->slot != RR_PROC_SLOTS - 1 ||
	    rr_rpc_decode(p, 0, have, UINT32_MAX, &rpc, &a->note) == RR_MALFORMED ||
	    rpc.msg_type != RR_RPC_CALL || rpc.xid != c->xid)
		return;
	c->prog = rpc.prog;
	c->vers = rpc.vers;
	c->proc = rpc.proc;
	c->slot = (uint16_t)rr_analyzer_proc_slot(rpc.prog, rpc.vers, rpc.proc);
	/* on_call counted it as unknown */
	a->st.rpc_calls[RR_PROC_SLOTS - 1]--;
	a->st.rpc_calls[c->slot]++;
	if (c->dir == RR_DIR_FWD_CALL)
		c->data_last = data_last_of(a, p, &rpc, have, UINT32_MAX, NULL);
}

static struct rdma_op *op_new(struct rr_analyzer *a, uint32_t cn, uint32_t si,
			      bool read, int data_side, uint64_t pos,
			      uint32_t left)
{
	if (pos > UINT32_MAX)
		return NULL;
	struct rdma_op *o = &a->ops[a->ops_next++ % RDMA_OPS];
	const struct seg *g = &a->segs[si];
	if (!o->used)
		a->ops_live++;
	*o = (struct rdma_op){ .used = true, .read = read,
			       .data_side = (uint8_t)data_side, .conn = cn,
			       .call = g->call, .xid = a->calls[g->call].xid,
			       .seg = si, .pos = (uint32_t)pos, .left = left };
	return o;
}

/* Whether a read's data is wanted: to rebuild a message, or, rebuilding
 * or not, to name a Long Call from its first bytes. */
static bool read_wanted(const struct rr_analyzer *a, uint32_t si, uint64_t va)
{
	const struct seg *g = &a->segs[si];
	if (va < g->offset)
		return false;
	return a->lim.rebuild_slots ||
	       (g->position_zero && !g->rrc && va == g->offset &&
		a->calls[g->call].slot == RR_PROC_SLOTS - 1);
}

/* An op whose call and segment are still the ones it was made for. */
static bool op_live(const struct rr_analyzer *a, const struct rdma_op *o)
{
	const struct call *c = &a->calls[o->call];
	return c->used && c->xid == o->xid && c->conn == o->conn &&
	       a->segs[o->seg].call == o->call;
}

static void op_end(struct rr_analyzer *a, struct rdma_op *o)
{
	o->used = false;
	a->ops_live--;
}

static struct rdma_op *op_by_psn(struct rr_analyzer *a, uint32_t cn,
				 int sender, bool read, uint32_t psn)
{
	for (unsigned i = 0; i < RDMA_OPS && a->ops_live; i++) {
		struct rdma_op *o = &a->ops[i];
		if (o->used && o->conn == cn && o->data_side == sender &&
		    o->read == read && o->next_psn == psn)
			return op_live(a, o) ? o : NULL;
	}
	return NULL;
}

/* Data of an RDMA op: n bytes (have captured) at offset `at` of it. */
static void op_data(struct rr_analyzer *a, struct rdma_op *o, uint32_t at,
		    const uint8_t *p, uint32_t have, uint32_t n)
{
	const struct seg *g = &a->segs[o->seg];
	uint64_t pos = (uint64_t)o->pos + at;
	if (o->read && g->position_zero && !g->rrc && pos == 0)
		name_long_call(a, o->call, p, have);
	place(a, o->seg, pos, p, have, n);
	if (o->read)
		reads_landed(a, o->seg);
}

/* ---- messages ----------------------------------------------------------- */

static uint32_t threshold_for(const struct conn *k, uint8_t dir)
{
	/* RFC 8167 §4.2: backward calls go like forward replies */
	return dir == RR_DIR_FWD_CALL || dir == RR_DIR_BWD_REPLY ?
		       k->info.thresholds.call : k->info.thresholds.reply;
}

static enum rr_chunk_kind call_kind(const struct rr_rpcrdma *h)
{
	if (h->pzrc)
		return RR_KIND_PZRC;
	if (h->nread_chunks)
		return RR_KIND_READ;
	if (h->nwrite_chunks)
		return RR_KIND_WRITE;
	if (h->has_reply_chunk)
		return RR_KIND_REPLY;
	return RR_KIND_INLINE;
}

static void remember_done_xid(struct rr_analyzer *a, uint32_t xid)
{
	a->recent[a->recent_at++ % RECENT] = xid;
}

static bool recently_done(const struct rr_analyzer *a, uint32_t xid)
{
	for (unsigned i = 0; i < RECENT; i++)
		if (a->recent[i] == xid && xid)
			return true;
	return false;
}

static void chunk_stats(struct rr_analyzer *a, const struct rr_rpcrdma *h)
{
	for (unsigned i = 0; i < h->nsegs;) {
		unsigned j = i;
		while (j < h->nsegs && h->segs[j].list == h->segs[i].list &&
		       h->segs[j].chunk == h->segs[i].chunk)
			j++;
		a->st.segments_per_chunk[log2_bucket(j - i, RR_SIZE_BUCKETS)]++;
		i = j;
	}
	for (unsigned i = 0; i < h->nsegs; i++) {
		a->st.segment_size[log2_bucket(h->segs[i].length,
					       RR_SIZE_BUCKETS)]++;
		a->st.segment_bytes += h->segs[i].length;
	}
	a->st.segments += h->nsegs;
}

static void count_chunk(struct rr_analyzer *a, struct conn *k,
			enum rr_chunk_kind kind)
{
	k->info.st.chunks[kind]++;
	a->st.total.chunks[kind]++;
}

/* A call with read chunks keeps what rebuilding its message needs. */
static void call_rebuild_setup(struct rr_analyzer *a, uint32_t ci,
			       const struct rr_rpcrdma *h, const uint8_t *m,
			       uint32_t kept, uint32_t len)
{
	uint64_t space = 0;
	bool positional = false;
	for (unsigned i = 0; i < h->nsegs; i++) {
		space += h->segs[i].length;
		positional |= h->segs[i].list == RR_LIST_READ &&
			      h->segs[i].position != 0;
	}
	positional &= !h->pzrc;
	/* the inline payload goes after the chunk space, word-aligned */
	uint64_t inline_at = (space + 3) & ~(uint64_t)3;
	struct rebuild *r = rebuild_get(a, ci, positional ?
				inline_at + h->payload.len : space);
	if (!r)
		return;
	for (unsigned i = 0; i < h->nsegs; i++)
		r->positions[i] = h->segs[i].position;
	if (!positional)
		return;
	if (kept < len || h->payload.off > kept ||
	    h->payload.len > kept - h->payload.off) {
		r->lost = true;
		return;
	}
	r->inline_at = (uint32_t)inline_at;
	r->inline_len = h->payload.len;
	memcpy(slot_bytes(a, (uint16_t)(r - a->rebuilds)) + inline_at,
	       m + h->payload.off, h->payload.len);
}

static void on_call(struct rr_analyzer *a, uint32_t cn, uint8_t dir,
		    const struct rr_rpcrdma *h, const struct rr_rpc *rpc,
		    const uint8_t *m, uint32_t kept, uint32_t len)
{
	struct conn *k = &a->conns[cn];
	struct rr_conn_stats *st = &k->info.st;
	if (dir == RR_DIR_BWD_CALL) {
		if (h->nsegs)
			finding(a, cn, RR_FIND_BC_CHUNKS, NULL);
		if (h->credits == 0)
			finding(a, cn, RR_FIND_BC_ZERO_CREDIT, NULL);
		st->bc_in_flight++;
	}
	uint32_t dup = call_find(a, cn, dir, h->xid);
	if (dup != NONE) {
		finding(a, cn, RR_FIND_DUP_XID, NULL);
		call_free(a, dup);
	}
	bool counted = dir == RR_DIR_FWD_CALL;
	if (counted) {
		st->in_flight++;
		a->st.total.in_flight++;
		if (st->in_flight > st->in_flight_max)
			st->in_flight_max = st->in_flight;
		if (st->in_flight > (st->grant ? st->grant : 1))
			finding(a, cn, RR_FIND_OVER_CREDIT, NULL);
	}
	st->calls++;
	a->st.total.calls++;
	uint32_t ci = call_new(a, cn, dir, h->xid);
	if (ci == NONE)
		return;
	struct call *c = &a->calls[ci];
	c->counted = counted;
	c->bytes_inline = len;
	c->has_reply_chunk = h->has_reply_chunk;
	if (rpc) {
		c->prog = rpc->prog;
		c->vers = rpc->vers;
		c->proc = rpc->proc;
		c->slot = (uint16_t)rr_analyzer_proc_slot(rpc->prog, rpc->vers,
							  rpc->proc);
	} else {
		c->slot = RR_PROC_SLOTS - 1;
	}
	/* backward calls (RFC 8167: NFSv4.1 callbacks) count by procedure as
	 * forward ones do, under their own program */
	a->st.rpc_calls[c->slot]++;
	if (dir == RR_DIR_FWD_CALL && rpc)
		c->data_last = data_last_of(a, m, rpc, kept,
					    h->payload.off + h->payload.len, h);
	if (dir == RR_DIR_FWD_CALL) {
		count_chunk(a, k, call_kind(h));
		if (h->nread_chunks && h->nwrite_chunks)
			count_chunk(a, k, RR_KIND_WRITE);
		if (h->has_reply_chunk && call_kind(h) != RR_KIND_REPLY)
			count_chunk(a, k, RR_KIND_REPLY);
	}
	for (unsigned i = 0; i < h->nsegs; i++)
		seg_add(a, ci, &h->segs[i], h->segs[i].list);
	chunk_stats(a, h);
	if (dir == RR_DIR_FWD_CALL && h->nread_chunks && a->lim.rebuild_slots)
		call_rebuild_setup(a, ci, h, m, kept, len);
}

/* RFC 8797 §4.1 ("Using the R Field"): Send With Invalidate only when both
 * peers set R; a capture that cut the setup cannot tell.  The finding
 * names the side that did not. */
static void check_swi_allowed(struct rr_analyzer *a, uint32_t cn)
{
	const struct conn *k = &a->conns[cn];
	if (k->info.thresholds.remote_invalidation || k->setup_cut)
		return;
	static const char *const cleared[2][2] = {
		{ "the requester sent no private data",
		  "the requester's private data cleared R" },
		{ "the responder sent no private data",
		  "the responder's private data cleared R" },
	};
	bool set[2];
	for (int s = 0; s < 2; s++)
		set[s] = k->info.have_private[s] && k->info.priv[s].rinval;
	const char *who = !k->info.have_private[0] && !k->info.have_private[1] ?
				  "no private data from either side" :
			  !set[0] && !set[1] ? "neither side set R" :
			  !set[1] ? cleared[1][k->info.have_private[1]] :
				    cleared[0][k->info.have_private[0]];
	finding(a, cn, RR_FIND_SWI_WITHOUT_R, who);
}

/* A call's round trip into its procedure's histogram; returns it in ns. */
static uint64_t record_latency(struct rr_analyzer *a, const struct call *c)
{
	uint64_t lat = a->now_ns - c->ts_ns;
	rr_latency_record(&a->st.latency[c->slot], lat);
	return lat;
}

static void on_reply(struct rr_analyzer *a, uint32_t cn, uint8_t dir,
		     const struct rr_rpcrdma *h, const struct rr_rpc *rpc,
		     uint32_t inv_key, const uint8_t *m, uint32_t kept, uint32_t len)
{
	struct conn *k = &a->conns[cn];
	struct rr_conn_stats *st = &k->info.st;
	uint8_t call_dir = dir == RR_DIR_FWD_REPLY ? RR_DIR_FWD_CALL :
						     RR_DIR_BWD_CALL;
	if (dir == RR_DIR_FWD_REPLY) {
		if (h->credits == 0)
			finding(a, cn, RR_FIND_ZERO_CREDIT, NULL);
		st->grant = h->credits;
		if (h->credits < st->grant_min)
			st->grant_min = h->credits;
		if (h->credits > st->grant_max)
			st->grant_max = h->credits;
	} else {
		if (h->nsegs)
			finding(a, cn, RR_FIND_BC_CHUNKS, NULL);
		if (h->credits == 0)
			finding(a, cn, RR_FIND_BC_ZERO_CREDIT, NULL);
		st->bc_grant = h->credits;
		if (st->bc_in_flight)
			st->bc_in_flight--;
	}
	st->replies++;
	a->st.total.replies++;
	uint32_t ci = call_find(a, cn, call_dir, h->xid);
	if (ci == NONE) {
		finding(a, cn, RR_FIND_REPLY_NO_CALL, NULL);
		return;
	}
	struct call *c = &a->calls[ci];
	if (inv_key) {
		/* RFC 8797 §4.1: both R, and a key of this xid's chunks */
		if (!k->info.thresholds.remote_invalidation) {
			check_swi_allowed(a, cn);
		} else {
			bool mine = false;
			for (uint32_t s = c->segs; s != NONE; s = a->segs[s].next)
				mine |= a->segs[s].handle == inv_key;
			if (!mine)
				finding(a, cn, RR_FIND_INV_OTHER_XID, NULL);
		}
	}
	if (h->proc == RR_RDMA_ERROR) {
		finding(a, cn, h->err == RR_ERR_VERS ? RR_FIND_ERR_VERS :
						       RR_FIND_ERR_CHUNK, NULL);
		if (h->err == RR_ERR_CHUNK && c->has_reply_chunk)
			finding(a, cn, RR_FIND_REPLY_CHUNK_UNUSABLE, NULL);
	}
	if (!c->answered) {
		if (dir == RR_DIR_FWD_REPLY) {
			if (c->counted && st->in_flight)
				st->in_flight--;
			if (c->counted && a->st.total.in_flight)
				a->st.total.in_flight--;
			c->counted = false;
		}
		/* forward and backward (RFC 8167) calls alike */
		uint64_t lat = record_latency(a, c);
		struct rr_event ev = { .kind = RR_EV_RPC_DONE, .conn = cn,
				       .dir = dir, .xid = c->xid,
				       .prog = c->prog, .vers = c->vers,
				       .proc = c->proc, .latency_ns = lat,
				       .bytes_inline = c->bytes_inline + len,
				       .bytes_read = c->bytes_read,
				       .bytes_write = c->bytes_write,
				       /* calls age out long before 2^32 frames */
				       .call_frame = a->frame_no -
					       (uint32_t)((uint32_t)a->frame_no - c->frame) };
		emit(a, &ev);
		/* a reply chunk rebuilt names the status first */
		if (dir == RR_DIR_FWD_REPLY)
			reply_rebuild(a, ci, h, m, kept, len);
		record_status(a, c, rpc);
	}
	c->answered = true;
	for (unsigned i = 0; i < h->nsegs; i++)
		if (h->segs[i].list == RR_LIST_READ && a->free_seg != NONE) {
			/* a responder-provided read chunk: keep until DONE */
			seg_add(a, ci, &h->segs[i], RR_LIST_READ);
			a->segs[c->segs].rrc = true;
			c->rrc_pending = true;
		}
	if (c->rrc_pending) {
		if (a->lim.rebuild_slots) {
			/* the call's own rebuilding is over: a fresh slot */
			if (c->rebuild != NO_SLOT)
				rebuild_put(a, c);
			c->rebuild_lost = false;
			rebuild_get(a, ci, chunk_space(a, c, true));
		}
		count_chunk(a, k, RR_KIND_RRC);
		chunk_stats(a, h);
		return;
	}
	remember_done_xid(a, c->xid);
	call_free(a, ci);
}

static void on_done(struct rr_analyzer *a, uint32_t cn,
		    const struct rr_rpcrdma *h, uint32_t inv_key)
{
	uint32_t ci = call_find(a, cn, RR_DIR_FWD_CALL, h->xid);
	if (ci != NONE && a->calls[ci].rrc_pending) {
		if (inv_key)
			check_swi_allowed(a, cn);
		remember_done_xid(a, h->xid);
		call_free(a, ci);
		return;
	}
	finding(a, cn, recently_done(a, h->xid) || ci != NONE ?
			       RR_FIND_DONE_NO_RRC : RR_FIND_DONE_UNKNOWN, NULL);
}

/* The connection this one replaced: the last one before it with calls
 * between the same requester and responder (the Linux client reconnects
 * after an error and resends what was unanswered).  Looked for once, at
 * the connection's first call, when both ends are known. */
static uint32_t previous_conn(struct rr_analyzer *a, uint32_t cn)
{
	struct conn *k = &a->conns[cn];
	if (k->previous_known)
		return k->info.previous;
	k->previous_known = true;
	uint32_t best = RR_CONN_NONE;
	/* the connections with calls between the same two ends, newest first */
	uint32_t i = *list_head(a, LIST_PAIR, k);
	for (unsigned n = 0; i != NONE && n < CHAIN_WALK;
	     n++, i = a->conns[i].link[LIST_PAIR].next) {
		const struct conn *o = &a->conns[i];
		if (i == cn || o->info.transport != k->info.transport ||
		    o->info.first_ns > k->info.first_ns ||
		    memcmp(o->info.requester_addr, k->info.requester_addr, 16) ||
		    memcmp(o->info.responder_addr, k->info.responder_addr, 16))
			continue;
		if (best == RR_CONN_NONE ||
		    o->info.first_ns >= a->conns[best].info.first_ns)
			best = i;
	}
	list_add(a, LIST_PAIR, cn);
	k->info.previous = best;
	if (best != RR_CONN_NONE)
		a->st.reconnects++;
	return best;
}

/* A forward call's xid carried before on the connection this one
 * replaced: the frame that carried it, else 0.  Then remembers it. */
static unsigned sent_hash(uint32_t conn, uint32_t xid)
{
	return ((xid * 2654435761u) ^ (conn * 40503u)) % SENT_HASH;
}

static uint64_t resent_of(struct rr_analyzer *a, uint32_t cn, uint32_t xid)
{
	uint32_t prev = previous_conn(a, cn);
	uint64_t first = 0;
	if (prev != RR_CONN_NONE) {
		/* the newest call with that xid on it, unless a later call
		 * took its place in the index or the ring went past it */
		unsigned i = a->sent_index[sent_hash(prev, xid)];
		if (i && a->sent[i - 1].frame && a->sent[i - 1].xid == xid &&
		    a->sent[i - 1].conn == prev)
			first = a->frame_no -
				(uint32_t)((uint32_t)a->frame_no - a->sent[i - 1].frame);
	}
	a->sent[a->sent_next].xid = xid;
	a->sent[a->sent_next].conn = cn;
	a->sent[a->sent_next].frame = (uint32_t)a->frame_no;
	a->sent_index[sent_hash(cn, xid)] = (uint16_t)(a->sent_next + 1);
	a->sent_next = (a->sent_next + 1) % SENT_XIDS;
	if (first)
		a->st.calls_resent++;
	return first;
}

/* Which way a whole message goes, from its sender's role and RPC type. */
static uint8_t direction(struct rr_analyzer *a, uint32_t cn, int sender,
			 const struct rr_rpcrdma *h, const struct rr_rpc *rpc)
{
	struct conn *k = &a->conns[cn];
	if (rpc && rpc->msg_type <= RR_RPC_REPLY) {
		bool call = rpc->msg_type == RR_RPC_CALL;
		if (k->info.roles_inferred && k->info.st.calls == 0 && call &&
		    sender != 0) {
			/* the first call names the requester: swap the sides */
			struct side t = k->side[0];
			bool half = k->listed & (1u << LIST_HALF);
			list_del(a, LIST_HALF, cn);
			ep_del(a, cn, 0);
			ep_del(a, cn, 1);
			k->side[0] = k->side[1];
			k->side[1] = t;
			for (int s = 0; s < 2; s++)
				if (k->side[s].known)
					ep_add(a, cn, s);
			info_sides(a, cn);
			if (half)
				half_add(a, cn, 1 - k->half_side);
			sender = 0;
		}
		if (sender == 0)
			return call ? RR_DIR_FWD_CALL : RR_DIR_BWD_REPLY;
		return call ? RR_DIR_BWD_CALL : RR_DIR_FWD_REPLY;
	}
	switch (h->proc) {
	case RR_RDMA_NOMSG:
		return sender == 0 ? RR_DIR_FWD_CALL : RR_DIR_FWD_REPLY;
	case RR_RDMA_ERROR:
		return RR_DIR_FWD_REPLY;
	default:
		return RR_DIR_UNKNOWN;
	}
}

/*
 * A whole SEND (its first `kept` bytes, `len` in all) arrived at side
 * `to` of connection cn.
 */
static void message(struct rr_analyzer *a, uint32_t cn, int to,
		    const uint8_t *m, uint32_t kept, uint32_t len,
		    uint32_t inv_key)
{
	struct conn *k = &a->conns[cn];
	struct rr_rpcrdma *h = &a->hdr;
	/* a multi-packet message: the header lies within what was kept */
	rr_rpcrdma_decode(m, 0, kept, kept < len ? UINT32_MAX : len, h,
			  &a->note);
	if (!k->rpcrdma) {
		/* traffic alone must show it is RPC-over-RDMA */
		if (h->confidence < RR_CONF_XID)
			return;
		k->rpcrdma = true;
	}
	if (a->note.status == RR_MALFORMED || !h->body_decoded) {
		if (h->vers == 1) {
			finding(a, cn, RR_FIND_MALFORMED,
				rr_problem_str(a->note.problem));
			return;
		}
		/* only the first words decode; a call still awaits its reply
		 * (an ERR_VERS echoing this version) */
		struct rr_event ev = { .kind = RR_EV_MESSAGE, .conn = cn,
				       .dir = to == 1 ? RR_DIR_FWD_CALL :
							RR_DIR_UNKNOWN,
				       .hdr = h, .msg_len = len, .data = m,
				       .data_len = kept };
		emit(a, &ev);
		finding(a, cn, RR_FIND_VERS, NULL);
		if (to == 1)
			on_call(a, cn, RR_DIR_FWD_CALL, h, NULL, m, kept, len);
		return;
	}
	const struct rr_rpc *rpc = NULL;
	if (h->payload.len && (h->proc == RR_RDMA_MSG || h->proc == RR_RDMA_MSGP)) {
		uint32_t cap = kept > h->payload.off ? kept - h->payload.off : 0;
		/* still arriving: the end is unknown, so bound it safely */
		if (rr_rpc_decode(m, h->payload.off, cap,
				  kept < len ? UINT32_MAX - h->payload.off :
					       h->payload.len,
				  &a->rpc, &a->note) != RR_MALFORMED &&
		    a->rpc.msg_type <= RR_RPC_REPLY)
			rpc = &a->rpc;
	}
	int sender = 1 - to;
	uint8_t dir = direction(a, cn, sender, h, rpc);
	struct rr_conn_stats *st = &k->info.st;
	st->messages[dir][h->proc <= 4 ? h->proc : 0]++;
	a->st.total.messages[dir][h->proc <= 4 ? h->proc : 0]++;
	st->bytes_send += len;
	a->st.total.bytes_send += len;

	/* the message first, then what is wrong with it */
	struct rr_event ev = { .kind = RR_EV_MESSAGE, .conn = cn, .dir = dir,
			       .hdr = h, .rpc = rpc, .msg_len = len,
			       .data = m, .data_len = kept, .inv_stag = inv_key };
	if (dir == RR_DIR_FWD_CALL)
		ev.resent_of = resent_of(a, cn, h->xid);
	emit(a, &ev);

	if (h->vers != 1 && !(h->proc == RR_RDMA_ERROR && h->err == RR_ERR_VERS))
		finding(a, cn, RR_FIND_VERS, NULL);
	if (rpc && rpc->xid != h->xid)
		finding(a, cn, RR_FIND_XID_MISMATCH, NULL);
	if (h->proc == RR_RDMA_MSGP)
		finding(a, cn, RR_FIND_MSGP, NULL);
	if (dir != RR_DIR_UNKNOWN && len > threshold_for(k, dir))
		finding(a, cn, RR_FIND_INLINE_TOO_BIG, NULL);

	switch (dir) {
	case RR_DIR_FWD_CALL:
	case RR_DIR_BWD_CALL:
		on_call(a, cn, dir, h, rpc, m, kept, len);
		break;
	case RR_DIR_FWD_REPLY:
	case RR_DIR_BWD_REPLY:
		on_reply(a, cn, dir, h, rpc, inv_key, m, kept, len);
		break;
	default:
		if (h->proc == RR_RDMA_DONE)
			on_done(a, cn, h, inv_key);
		break;
	}
}

/* ---- RDMA data traffic ------------------------------------------------ */

static enum rr_chunk_kind seg_kind(const struct seg *g)
{
	if (g->rrc)
		return RR_KIND_RRC;
	if (g->list == RR_LIST_READ)
		return g->position_zero ? RR_KIND_PZRC : RR_KIND_READ;
	return g->list == RR_LIST_WRITE ? RR_KIND_WRITE : RR_KIND_REPLY;
}

/* Which chunk an RDMA packet serves, and where in segment si its data
 * goes: RR_EV_CHUNK_DATA, when asked for. */
static void chunk_event(struct rr_analyzer *a, uint32_t cn, uint32_t si,
			enum rr_access access, uint64_t seg_offset, uint32_t len)
{
	const struct seg *g = &a->segs[si];
	const struct call *c = &a->calls[g->call];
	struct rr_event ev = { .kind = RR_EV_CHUNK_DATA, .conn = cn, .dir = c->dir,
			       .xid = c->xid, .source = (uint8_t)seg_kind(g),
			       .access = (uint8_t)access, .handle = g->handle,
			       .seg_offset = seg_offset, .data_len = len };
	emit(a, &ev);
}

/* A first packet, at seg_offset of segment si. */
static void chunk_data(struct rr_analyzer *a, uint32_t cn, uint32_t si,
		       enum rr_access access, uint64_t seg_offset, uint32_t len)
{
	if (a->cfg.flags & RR_CFG_CHUNK_EVENTS)
		chunk_event(a, cn, si, access, seg_offset, len);
}

/* A packet of op o, at `pos` of its call's chunk space (the segment's
 * base is summed only when the event is wanted). */
static void chunk_data_at(struct rr_analyzer *a, uint32_t cn,
			  const struct rdma_op *o, enum rr_access access,
			  uint64_t pos, uint32_t len)
{
	if (a->cfg.flags & RR_CFG_CHUNK_EVENTS)
		chunk_event(a, cn, o->seg, access, pos - seg_base(a, o->seg), len);
}

/* An RDMA Write (its first packet) to a chunk segment: the segment. */
static uint32_t rdma_write(struct rr_analyzer *a, uint32_t cn, uint32_t key,
			   uint64_t va, uint32_t len)
{
	struct conn *k = &a->conns[cn];
	k->info.st.bytes_write += len;
	a->st.total.bytes_write += len;
	if (!k->rpcrdma)
		return NONE;
	uint32_t si = seg_find(a, cn, key, va);
	if (si == NONE)
		return NONE;
	const struct seg *g = &a->segs[si];
	a->calls[g->call].bytes_write += len;
	if (va < g->offset || va - g->offset + len > g->length)
		finding(a, cn, RR_FIND_WRITE_BEYOND, NULL);
	return va >= g->offset ? si : NONE;
}

/* Not rebuilding (-q), the first bytes written to a reply chunk still
 * hold the reply's RPC header (RFC 8166 §3.5.4, RFC 5531 §9): its status
 * goes to the statistics when the reply comes. */
static void reply_chunk_head(struct rr_analyzer *a, uint32_t si, uint64_t va,
			     const uint8_t *p, uint32_t have)
{
	const struct seg *g = &a->segs[si];
	if (a->lim.rebuild_slots || g->list != RR_LIST_REPLY || va != g->offset)
		return;
	struct call *c = &a->calls[g->call];
	/* the chain runs from the last segment advertised to the first */
	uint32_t first = NONE;
	for (uint32_t x = c->segs; x != NONE; x = a->segs[x].next)
		if (a->segs[x].list == RR_LIST_REPLY)
			first = x;
	struct rr_rpc rpc;
	if (first != si ||
	    rr_rpc_decode(p, 0, have, UINT32_MAX, &rpc, &a->note) != RR_COMPLETE ||
	    rpc.msg_type != RR_RPC_REPLY || rpc.xid != c->xid)
		return;
	c->head_status = (uint8_t)(rr_reply_status_of(&rpc) + 1);
}

/* Where an access at va of segment si lands in its call's chunk space. */
static uint64_t chunk_pos(const struct rr_analyzer *a, uint32_t si, uint64_t va)
{
	return seg_base(a, si) + (va - a->segs[si].offset);
}

/* A Read Request names the source buffer: a read chunk segment. */
static uint32_t rdma_read(struct rr_analyzer *a, uint32_t cn, uint32_t key,
			  uint64_t va, uint32_t len)
{
	struct conn *k = &a->conns[cn];
	k->info.st.bytes_read += len;
	a->st.total.bytes_read += len;
	if (!k->rpcrdma)
		return NONE;
	uint32_t si = seg_find(a, cn, key, va);
	if (si != NONE)
		a->calls[a->segs[si].call].bytes_read += len;
	return si;
}

/* ---- transports ------------------------------------------------------- */

static void frame_addrs(const struct rr_frame *f, uint8_t src[16],
			uint8_t dst[16])
{
	memset(src, 0, 16);
	memset(dst, 0, 16);
	if (rr_has(f, RR_LAYER_IPV4) || rr_has(f, RR_LAYER_IPV6)) {
		memcpy(src, f->data + f->ip.src_off, f->ip.addr_len);
		memcpy(dst, f->data + f->ip.dst_off, f->ip.addr_len);
	} else if (rr_has(f, RR_LAYER_GRH)) {
		memcpy(src, f->data + f->grh.sgid_off, 16);
		memcpy(dst, f->data + f->grh.dgid_off, 16);
	} else if (rr_has(f, RR_LAYER_LRH)) {
		src[0] = (uint8_t)(f->lrh.slid >> 8);
		src[1] = (uint8_t)f->lrh.slid;
		dst[0] = (uint8_t)(f->lrh.dlid >> 8);
		dst[1] = (uint8_t)f->lrh.dlid;
	}
}

static void set_private(struct rr_analyzer *a, uint32_t cn, int side,
			const struct rr_frame *f)
{
	struct conn *k = &a->conns[cn];
	if (f->status == RR_TRUNCATED &&
	    (!rr_has(f, RR_LAYER_CM_PRIVATE) ||
	     f->cm_private.status == RR_TRUNCATED)) {
		/* cut by the capture, not malformed: what it said is unknown */
		k->setup_cut = true;
		return;
	}
	if (!rr_has(f, RR_LAYER_CM_PRIVATE))
		return;
	if (f->cm_private.status != RR_COMPLETE) {
		/* RFC 8797 §4: unusable, so the defaults apply (counted as absent) */
		finding(a, cn, RR_FIND_CM_PRIVATE,
			rr_status_str(f->cm_private.status));
		return;
	}
	k->info.priv[side] = f->cm_private;
	k->info.have_private[side] = true;
	k->rpcrdma = true;
	conn_thresholds(k);
}

/* The connection an IB CM communication ID names: the newest with it. */
static uint32_t conn_by_comm(struct rr_analyzer *a, uint32_t comm)
{
	uint32_t i = *chain(a, LIST_COMM, comm_hash(comm));
	for (unsigned n = 0; i != NONE && n < CHAIN_WALK; n++, i = a->conns[i].link[LIST_COMM].next)
		if (a->conns[i].comm_id == comm)
			return i;
	return NONE;
}

/* IB CM (IBA vol. 1 §12.6) on QP1: connections and their private data. */
static void cm(struct rr_analyzer *a, const struct rr_frame *f)
{
	uint8_t src[16], dst[16];
	frame_addrs(f, src, dst);
	const struct rr_cm *m = &f->cm;
	uint32_t cn = NONE;
	struct rr_event ev = { .kind = RR_EV_CONN_CLOSE };
	switch (m->attr_id) {
	case RR_CM_REQ:
		cn = conn_by_comm(a, m->local_comm_id);
		if (cn == NONE)
			cn = conn_new(a, f->transport);
		if (cn == NONE)
			break;
		if (!(a->conns[cn].listed & (1u << LIST_COMM))) {
			a->conns[cn].comm_id = m->local_comm_id;
			list_add(a, LIST_COMM, cn);
		}
		side_set(a, cn, 0, src, m->local_qpn);
		/* a known side is hashed by its address: never move it here */
		if (!a->conns[cn].side[1].known) {
			list_del(a, LIST_HALF, cn);
			memcpy(a->conns[cn].side[1].addr, dst, 16);
			info_sides(a, cn);
			half_add(a, cn, 1);
		}
		/* an NFS/RDMA service ID, or RFC 8797 data, marks it ours */
		if (rr_has(f, RR_LAYER_RDMA_CM) && f->rdma_cm.dst_port == RR_NFS_RDMA_PORT)
			a->conns[cn].rpcrdma = true;
		set_private(a, cn, 0, f);
		break;
	case RR_CM_REP:
		cn = conn_by_comm(a, m->remote_comm_id);
		if (cn == NONE)
			break;
		side_set(a, cn, 1, src, m->local_qpn);
		set_private(a, cn, 1, f);
		ev.kind = RR_EV_NEGOTIATED;
		ev.conn = cn;
		emit(a, &ev);
		break;
	case RR_CM_REJ:
		a->st.cm_rejects[m->reject_reason < RR_CM_REJ_REASONS ?
					 m->reject_reason : 0]++;
		cn = conn_by_comm(a, m->remote_comm_id);
		if (cn != NONE)
			set_private(a, cn, 1, f);
		break;
	case RR_CM_RTU:
		/* the requester's, under its own communication ID */
		cn = conn_by_comm(a, m->local_comm_id);
		break;
	case RR_CM_DREQ:
	case RR_CM_DREP:
		cn = conn_by_comm(a, m->attr_id == RR_CM_DREQ &&
					     conn_by_comm(a, m->local_comm_id) != NONE ?
				     m->local_comm_id : m->remote_comm_id);
		if (cn == NONE)
			cn = conn_by_comm(a, m->local_comm_id);
		if (cn != NONE && !a->conns[cn].info.closed) {
			a->conns[cn].info.closed = true;
			ev.conn = cn;
			emit(a, &ev);
		}
		break;
	default:
		break;
	}
	a->last.conn = cn;
}

/*
 * The connection and receiving side of a packet to (dst, id) from src.
 * Unknown endpoints are linked to a connection still missing its other
 * side between the same addresses, else open a connection of their own.
 */
static uint32_t conn_for(struct rr_analyzer *a, uint8_t transport,
			 const uint8_t *src, uint32_t src_id,
			 const uint8_t *dst, uint32_t dst_id, bool src_id_known,
			 int *to)
{
	uint32_t cn = transport == RR_TRANSPORT_IWARP ?
		tcp_conn_find(a, src, src_id, dst, dst_id, to) :
		ep_find(a, dst, dst_id, to);
	if (cn != NONE)
		return cn;
	/* a connection that knows the sender's end and the receiver's address,
	 * not yet its QPN (newest first) */
	uint32_t i = *chain(a, LIST_HALF, pair_hash(dst, src));
	for (unsigned n = 0; i != NONE && n < CHAIN_WALK; n++) {
		struct conn *k = &a->conns[i];
		uint32_t next = k->link[LIST_HALF].next;
		int s = k->half_side;
		if (!k->info.closed && k->info.transport == transport &&
		    !k->side[s].known && addr_eq(k->side[s].addr, dst) &&
		    k->side[1 - s].known && addr_eq(k->side[1 - s].addr, src) &&
		    (!src_id_known || k->side[1 - s].id == src_id)) {
			side_set(a, i, s, dst, dst_id);
			*to = s;
			return i;
		}
		i = next;
	}
	cn = conn_new(a, transport);
	if (cn == NONE)
		return NONE;
	struct conn *k = &a->conns[cn];
	k->info.inferred = true;
	k->info.roles_inferred = true;
	/* until a call says otherwise, the receiver is the responder */
	side_set(a, cn, 1, dst, dst_id);
	memcpy(k->side[0].addr, src, 16);
	if (src_id_known)
		side_set(a, cn, 0, src, src_id);
	else
		half_add(a, cn, 0);
	info_sides(a, cn);
	*to = 1;
	return cn;
}

static struct rsm *rsm_get(struct rr_analyzer *a, struct side *sd)
{
	if (sd->slot != NONE)
		return &a->rsm[sd->slot];
	for (uint32_t n = 0; n < a->lim.reassembly_slots; n++) {
		uint32_t i = (a->free_rsm_hint + n) % a->lim.reassembly_slots;
		if (!a->rsm[i].used) {
			a->rsm[i].used = true;
			a->rsm[i].len = a->rsm[i].kept = 0;
			sd->slot = i;
			a->free_rsm_hint = i + 1;
			return &a->rsm[i];
		}
	}
	a->st.reassembly_dropped++;
	return NULL;
}

static void rsm_put(struct rr_analyzer *a, struct side *sd)
{
	if (sd->slot != NONE) {
		a->rsm[sd->slot].used = false;
		sd->slot = NONE;
	}
}

static void rsm_append(const struct rr_analyzer *a, struct rsm *r,
		       const uint8_t *p, uint32_t n)
{
	uint32_t room = a->lim.send_keep - r->kept;
	uint32_t take = n < room ? n : room;
	memcpy(r->bytes + r->kept, p, take);
	r->kept += take;
	r->len += n;
}

/*
 * What the responder sent went missing from the capture: replies may be
 * lost.  Later ones still match, but none of the calls now out counts
 * against the credits any more.
 */
static void replies_lost(struct rr_analyzer *a, uint32_t cn)
{
	struct rr_conn_stats *cs = &a->conns[cn].info.st;
	for (uint32_t i = a->conns[cn].calls; i != NONE; i = a->calls[i].conn_link.next)
		a->calls[i].counted = false;
	if (a->st.total.in_flight >= cs->in_flight)
		a->st.total.in_flight -= cs->in_flight;
	cs->in_flight = 0;
}

/* Request packets: they take the sender's PSNs one by one (a Read
 * Request takes one per response packet, a number the capture does not
 * tell). */
static bool rc_request(uint8_t op)
{
	return op <= RR_OP_RC_READ_REQUEST || op == RR_OP_RC_CMP_SWAP ||
	       op == RR_OP_RC_FETCH_ADD || op == RR_OP_RC_SEND_LAST_INV ||
	       op == RR_OP_RC_SEND_ONLY_INV;
}

/* RC traffic on IB or RoCE (IBA vol. 1 §9). */
static void ib_packet(struct rr_analyzer *a, const struct rr_frame *f)
{
	uint8_t src[16], dst[16];
	uint8_t op = f->bth.opcode;
	if (op >= 0x20)
		return; /* RPC-over-RDMA runs on RC only */
	frame_addrs(f, src, dst);
	int to;
	uint32_t cn = conn_for(a, f->transport, src, 0, dst, f->bth.dqpn, false,
			       &to);
	if (cn == NONE)
		return;
	struct conn *k = &a->conns[cn];
	conn_touch(a, cn);
	a->last.rpcrdma += k->rpcrdma;
	struct side *sd = &k->side[to];
	const uint8_t *pl = f->data + f->payload.off;
	uint32_t plen = f->payload.len;
	uint32_t have = f->caplen > f->payload.off ? f->caplen - f->payload.off : 0;
	if (have > plen)
		have = plen;
	bool gap = false;
	if (rc_request(op)) {
		uint32_t psn = f->bth.psn;
		uint32_t ahead = (psn - sd->next_psn) & 0xFFFFFF;
		if (sd->psn_seen && ahead >= 0x800000) {
			/* behind: a retransmission, which the receiver
			 * drops as a duplicate (IBA vol. 1 §9.7.5.1.2) */
			k->info.st.retransmissions++;
			a->st.total.retransmissions++;
			struct rr_event ev = { .kind = RR_EV_RETRANSMISSION,
					       .conn = cn, .dir = RR_DIR_UNKNOWN,
					       .opcode = op, .psn = psn };
			for (unsigned i = 0; i < 4; i++)
				if (sd->recent[i].frame && sd->recent[i].psn == psn)
					ev.original_frame = a->frame_no -
						(uint32_t)((uint32_t)a->frame_no - sd->recent[i].frame);
			emit(a, &ev);
			return;
		}
		if (sd->psn_seen && sd->psn_exact && ahead) {
			/* ahead: packets lost before the capture saw them */
			gap = true;
			a->st.psn_gaps++;
			if (to == 0)
				replies_lost(a, cn);
		}
		sd->psn_seen = true;
		sd->psn_exact = op != RR_OP_RC_READ_REQUEST;
		sd->next_psn = (psn + 1) & 0xFFFFFF;
		sd->recent[sd->recent_next].psn = psn;
		sd->recent[sd->recent_next].frame = (uint32_t)a->frame_no;
		sd->recent_next = (sd->recent_next + 1) % 4;
	}
	switch (op) {
	case RR_OP_RC_SEND_ONLY:
	case RR_OP_RC_SEND_ONLY_IMM:
	case RR_OP_RC_SEND_ONLY_INV:
		rsm_put(a, sd);
		message(a, cn, to, pl, have, plen,
			f->ext.present & RR_EXT_IETH ? f->ext.ieth.rkey : 0);
		break;
	case RR_OP_RC_SEND_FIRST: {
		rsm_put(a, sd);
		struct rsm *r = rsm_get(a, sd);
		if (r) {
			rsm_append(a, r, pl, have);
			r->len += plen - have;
		}
		break;
	}
	case RR_OP_RC_SEND_MIDDLE:
	case RR_OP_RC_SEND_LAST:
	case RR_OP_RC_SEND_LAST_IMM:
	case RR_OP_RC_SEND_LAST_INV: {
		if (sd->slot == NONE)
			break; /* its FIRST is not in the capture */
		struct rsm *r = &a->rsm[sd->slot];
		if (gap) {
			rsm_put(a, sd); /* its middle is lost */
			break;
		}
		rsm_append(a, r, pl, have);
		r->len += plen - have;
		if (op != RR_OP_RC_SEND_MIDDLE) {
			message(a, cn, to, r->bytes, r->kept, r->len,
				f->ext.present & RR_EXT_IETH ? f->ext.ieth.rkey : 0);
			rsm_put(a, sd);
		}
		break;
	}
	case RR_OP_RC_WRITE_FIRST:
	case RR_OP_RC_WRITE_ONLY:
	case RR_OP_RC_WRITE_ONLY_IMM: {
		uint32_t si = rdma_write(a, cn, f->ext.reth.rkey, f->ext.reth.va,
					 f->ext.reth.dma_len);
		if (si == NONE)
			break;
		chunk_data(a, cn, si, RR_ACCESS_WRITE,
			   f->ext.reth.va - a->segs[si].offset, plen);
		reply_chunk_head(a, si, f->ext.reth.va, pl, have);
		if (!a->lim.rebuild_slots)
			break;
		struct rdma_op *o = op_new(a, cn, si, false, 1 - to,
					   chunk_pos(a, si, f->ext.reth.va),
					   f->ext.reth.dma_len);
		if (!o)
			break;
		op_data(a, o, 0, pl, have, plen);
		o->pos += plen;
		o->next_psn = (f->bth.psn + 1) & 0xFFFFFF;
		if (op != RR_OP_RC_WRITE_FIRST)
			op_end(a, o);
		break;
	}
	case RR_OP_RC_WRITE_MIDDLE:
	case RR_OP_RC_WRITE_LAST:
	case RR_OP_RC_WRITE_LAST_IMM:
	case RR_OP_RC_READ_RESP_FIRST:
	case RR_OP_RC_READ_RESP_MIDDLE:
	case RR_OP_RC_READ_RESP_LAST:
	case RR_OP_RC_READ_RESP_ONLY: {
		bool read = op >= RR_OP_RC_READ_RESP_FIRST;
		struct rdma_op *o = op_by_psn(a, cn, 1 - to, read, f->bth.psn);
		if (!o)
			break;
		chunk_data_at(a, cn, o, read ? RR_ACCESS_READ_RESPONSE : RR_ACCESS_WRITE,
			      o->pos, plen);
		op_data(a, o, 0, pl, have, plen);
		o->pos += plen;
		o->next_psn = (f->bth.psn + 1) & 0xFFFFFF;
		if (op == RR_OP_RC_WRITE_LAST || op == RR_OP_RC_WRITE_LAST_IMM ||
		    op == RR_OP_RC_READ_RESP_LAST || op == RR_OP_RC_READ_RESP_ONLY)
			op_end(a, o);
		break;
	}
	case RR_OP_RC_READ_REQUEST: {
		/* RETH names the source buffer (IBA vol. 1 §9.4.5), at the
		 * receiver of the request, which sends the data back */
		uint32_t si = rdma_read(a, cn, f->ext.reth.rkey, f->ext.reth.va,
					f->ext.reth.dma_len);
		if (si != NONE && f->ext.reth.va >= a->segs[si].offset)
			chunk_data(a, cn, si, RR_ACCESS_READ_REQUEST,
				   f->ext.reth.va - a->segs[si].offset,
				   f->ext.reth.dma_len);
		if (si == NONE || !read_wanted(a, si, f->ext.reth.va))
			break;
		struct rdma_op *o = op_new(a, cn, si, true, to,
					   chunk_pos(a, si, f->ext.reth.va),
					   f->ext.reth.dma_len);
		if (o)
			o->next_psn = f->bth.psn;
		break;
	}
	default:
		break;
	}
}

/* ---- iWARP ----------------------------------------------------------------- */

static struct stream *stream_of(struct rr_analyzer *a, struct side *sd)
{
	if (sd->stream != NONE)
		return &a->streams[sd->stream];
	for (uint32_t i = 0; i < a->lim.tcp_streams; i++)
		if (!a->streams[i].used) {
			struct stream *st = &a->streams[i];
			st->used = true;
			st->synced = false;
			st->len = 0;
			for (unsigned k = 0; k < OOO_SLOTS; k++)
				st->ooo[k].used = false;
			sd->stream = i;
			return st;
		}
	a->st.reassembly_dropped++;
	return NULL;
}

/*
 * Bytes of the stream were lost.  Lost replies would leave their calls in
 * flight for ever, so after a gap in the responder's direction the calls
 * then outstanding no longer count against the credits.
 */
static void stream_gap(struct rr_analyzer *a, uint32_t cn, bool responder,
		       struct stream *st)
{
	st->synced = false;
	st->len = 0;
	for (unsigned k = 0; k < OOO_SLOTS; k++)
		st->ooo[k].used = false;
	a->st.tcp_resyncs++;
	if (responder)
		replies_lost(a, cn);
}

static void iwarp_ddp(struct rr_analyzer *a, uint32_t cn, int to,
		      const struct rr_frame *f);

/* FPDUs whole in the stream: decode and use them (RFC 5044 §6). */
static void stream_drain(struct rr_analyzer *a, uint32_t cn, int to,
			 struct stream *st)
{
	struct conn *k = &a->conns[cn];
	struct rr_config cfg = a->cfg;
	/* with markers the CRC covers them; this copy has none */
	if (k->markers)
		cfg.flags &= ~(uint32_t)RR_CFG_VERIFY_CRC32C;
	uint32_t used = 0;
	while (st->len - used >= 2) {
		uint32_t total = rr_fpdu_total_len(st->buf + used);
		if (total > STREAM_BUF) {
			stream_gap(a, cn, to == 0, st);
			return;
		}
		if (total > st->len - used)
			break;
		struct rr_frame *u = &a->fpdu;
		rr_decode_fpdu(&cfg, st->buf + used, total,
			       k->crc && !k->markers, u);
		if (u->fpdu.crc_state == RR_CRC_BAD)
			finding(a, cn, RR_FIND_CRC32C, NULL);
		else if (u->status == RR_MALFORMED)
			finding(a, cn, RR_FIND_MALFORMED,
				rr_layer_str(u->bad_layer));
		if (u->status != RR_MALFORMED ||
		    u->note[RR_LAYER_DDP].problem == RR_PROBLEM_BAD_CRC32C)
			iwarp_ddp(a, cn, to, u);
		used += total;
	}
	memmove(st->buf, st->buf + used, st->len - used);
	st->len -= used;
}

/* Bytes [seq, seq + n) of the stream that side `from` sends. */
static void stream_append(struct rr_analyzer *a, uint32_t cn, int to,
			  struct stream *st, const uint8_t *p, uint32_t seq,
			  uint32_t n)
{
	const struct side *from = &a->conns[cn].side[1 - to];
	bool markers = a->conns[cn].markers;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t q = seq + i;
		if (markers && from->marker_set && mpa_in_marker(q, from->marker_seq0))
			continue;
		if (st->len == STREAM_BUF) {
			stream_gap(a, cn, to == 0, st);
			return;
		}
		st->buf[st->len++] = p[i];
	}
	st->next_seq = seq + n;
}

static void stream_feed(struct rr_analyzer *a, uint32_t cn, int to,
			const uint8_t *p, uint32_t seq, uint32_t n,
			uint32_t wire_n)
{
	struct conn *k = &a->conns[cn];
	struct side *from = &k->side[1 - to];
	struct stream *st = stream_of(a, from);
	if (!st || !st->synced)
		return;
	int32_t ahead = (int32_t)(seq - st->next_seq);
	if (ahead > 0) {
		/* out of order: hold it while there is room */
		for (unsigned i = 0; i < OOO_SLOTS; i++)
			if (!st->ooo[i].used && n <= OOO_BYTES && n == wire_n) {
				st->ooo[i].used = true;
				st->ooo[i].seq = seq;
				st->ooo[i].len = n;
				memcpy(st->ooo[i].data, p, n);
				return;
			}
		stream_gap(a, cn, to == 0, st);
		return;
	}
	/* retransmitted or overlapping bytes: keep what is new */
	uint32_t skip = st->next_seq - seq;   /* modulo 2^32, as TCP counts */
	if (skip >= wire_n)
		return;
	if (n < wire_n && !skip && !st->len && !k->markers && n >= 2 &&
	    rr_fpdu_total_len(p) == wire_n) {
		/*
		 * Cut by the capture, but one whole FPDU that starts the
		 * segment (RFC 5044 §7 aligns them): its headers are here,
		 * and the stream stays in step.
		 */
		struct rr_config cfg = a->cfg;
		rr_decode_fpdu_cut(&cfg, p, n, wire_n, k->crc, &a->fpdu);
		if (a->fpdu.status != RR_MALFORMED)
			iwarp_ddp(a, cn, to, &a->fpdu);
		st->next_seq = seq + wire_n;
		return;
	}
	if (skip < n)
		stream_append(a, cn, to, st, p + skip, seq + skip, n - skip);
	if (n < wire_n) {
		/* the capture cut the segment: the rest is lost */
		stream_gap(a, cn, to == 0, st);
		return;
	}
	/* held segments that now follow on */
	for (bool progress = true; progress;) {
		progress = false;
		for (unsigned i = 0; i < OOO_SLOTS; i++) {
			if (!st->ooo[i].used)
				continue;
			int32_t d = (int32_t)(st->ooo[i].seq - st->next_seq);
			if (d > 0)
				continue;
			uint32_t sk = (uint32_t)-d;
			if (sk < st->ooo[i].len)
				stream_append(a, cn, to, st,
					      st->ooo[i].data + sk,
					      st->ooo[i].seq + sk,
					      st->ooo[i].len - sk);
			st->ooo[i].used = false;
			progress = true;
		}
	}
	stream_drain(a, cn, to, st);
}

/* MPA Request or Reply (RFC 5044 §7.1, RFC 6581): setup; FPDUs follow. */
static void iwarp_mpa(struct rr_analyzer *a, const struct rr_frame *f)
{
	uint8_t src[16], dst[16];
	frame_addrs(f, src, dst);
	int to;
	const struct rr_mpa *m = &f->mpa;
	uint32_t cn = tcp_conn_find(a, src, f->tcp.sport, dst, f->tcp.dport, &to);
	if (!m->reply && cn == NONE) {
		cn = conn_new(a, RR_TRANSPORT_IWARP);
		if (cn == NONE)
			return;
		side_set(a, cn, 1, dst, f->tcp.dport);
		side_set(a, cn, 0, src, f->tcp.sport);
		to = 1;
	}
	if (cn == NONE)
		return;
	a->last.conn = cn;
	struct conn *k = &a->conns[cn];
	set_private(a, cn, 1 - to, f);
	k->info.mpa_revision = m->revision;
	if (m->has_ird_ord) {
		k->info.ird = m->ird;
		k->info.ord = m->ord;
	}
	k->markers |= m->marker;
	k->crc |= m->crc;
	if (f->tcp.dport == a->cfg.iwarp_tcp_port ||
	    f->tcp.sport == a->cfg.iwarp_tcp_port)
		k->rpcrdma = true;
	/* the sender's FPDUs start right after this frame */
	struct side *sender = &k->side[1 - to];
	uint32_t mpa_len = 20u + m->pd_len;
	sender->marker_set = true;
	sender->marker_seq0 = f->tcp.seq + mpa_len;
	struct stream *st = stream_of(a, sender);
	if (st) {
		st->synced = true;
		st->len = 0;
		st->next_seq = sender->marker_seq0;
	}
	if (m->reply) {
		struct rr_event ev = { .kind = RR_EV_NEGOTIATED, .conn = cn };
		emit(a, &ev);
	}
	uint32_t have = f->caplen > f->tcp.payload.off ?
				f->caplen - f->tcp.payload.off : 0;
	if (f->tcp.payload.len > mpa_len && have > mpa_len)
		stream_feed(a, cn, to, f->data + f->tcp.payload.off + mpa_len,
			    sender->marker_seq0,
			    (have < f->tcp.payload.len ? have : f->tcp.payload.len) -
				    mpa_len,
			    f->tcp.payload.len - mpa_len);
}

/* The end of an iWARP connection: its TCP connection's FIN or RST (RFC
 * 9293 §3.6).  Reported once. */
static void conn_closed(struct rr_analyzer *a, uint32_t cn, bool reset)
{
	struct conn *k = &a->conns[cn];
	if (reset)
		k->info.reset = true;
	if (k->info.closed)
		return;
	k->info.closed = true;
	struct rr_event ev = { .kind = RR_EV_CONN_CLOSE, .conn = cn };
	emit(a, &ev);
}

/* A TCP FIN or RST: the end of the iWARP connection it belongs to. */
static void tcp_end(struct rr_analyzer *a, const struct rr_frame *f)
{
	uint8_t src[16], dst[16];
	frame_addrs(f, src, dst);
	int to;
	uint32_t cn = tcp_conn_find(a, src, f->tcp.sport, dst, f->tcp.dport, &to);
	bool ours = cn != NONE && a->conns[cn].info.transport == RR_TRANSPORT_IWARP;
	/* a reset from or to the RPC-over-RDMA port: with no connection, one
	 * refused (nothing listening) */
	if ((f->tcp.flags & RR_TCP_RST) &&
	    (ours || f->tcp.sport == a->cfg.iwarp_tcp_port ||
	     f->tcp.dport == a->cfg.iwarp_tcp_port))
		a->st.tcp_resets++;
	if (ours)
		conn_closed(a, cn, f->tcp.flags & RR_TCP_RST);
}

/*
 * A TCP segment of an iWARP connection goes to its stream.  A connection
 * seen only mid-stream starts at a segment that begins with a whole FPDU.
 * Returns false when the segment is not iWARP this analyzer follows.
 */
static bool iwarp_segment(struct rr_analyzer *a, const struct rr_frame *f)
{
	uint8_t src[16], dst[16];
	frame_addrs(f, src, dst);
	int to;
	uint32_t cn = tcp_conn_find(a, src, f->tcp.sport, dst, f->tcp.dport, &to);
	bool aligned = rr_has(f, RR_LAYER_DDP) && f->unit_index == 0 &&
		       f->fpdu.off == f->tcp.payload.off &&
		       f->note[RR_LAYER_DDP].status == RR_COMPLETE &&
		       f->note[RR_LAYER_DDP].problem == RR_PROBLEM_NONE;
	if (cn == NONE || a->conns[cn].info.transport != RR_TRANSPORT_IWARP) {
		if (!aligned)
			return false;
		cn = conn_for(a, RR_TRANSPORT_IWARP, src, f->tcp.sport, dst,
			      f->tcp.dport, true, &to);
		if (cn == NONE)
			return false;
	}
	struct conn *k = &a->conns[cn];
	conn_touch(a, cn);
	struct side *from = &k->side[1 - to];
	struct stream *st = stream_of(a, from);
	if (!st)
		return true;
	if (!st->synced && aligned) {
		st->synced = true;
		st->len = 0;
		st->next_seq = f->tcp.seq;
	}
	uint32_t off = f->tcp.payload.off;
	uint32_t have = f->caplen > off ? f->caplen - off : 0;
	if (have > f->tcp.payload.len)
		have = f->tcp.payload.len;
	stream_feed(a, cn, to, f->data + off, f->tcp.seq, have,
		    f->tcp.payload.len);
	return true;
}

/* One DDP message segment (RFC 5041 §5, RFC 5040 §4) sent to side `to`. */
static void iwarp_ddp(struct rr_analyzer *a, uint32_t cn, int to,
		      const struct rr_frame *f)
{
	struct conn *k = &a->conns[cn];
	conn_touch(a, cn);
	a->last.rpcrdma += k->rpcrdma;
	const struct rr_ddp *d = &f->ddp;
	struct side *sd = &k->side[to];
	const uint8_t *pl = f->unit_data + f->payload.off;
	uint32_t plen = f->payload.len;
	uint32_t have = f->unit_cap > f->payload.off ? f->unit_cap - f->payload.off : 0;
	if (have > plen)
		have = plen;
	switch (d->opcode) {
	case RR_RDMAP_WRITE: {
		/* every DDP segment is tagged with its own STag and TO */
		uint32_t si = rdma_write(a, cn, d->stag, d->to, plen);
		if (si != NONE) {
			chunk_data(a, cn, si, RR_ACCESS_WRITE,
				   d->to - a->segs[si].offset, plen);
			reply_chunk_head(a, si, d->to, pl, have);
		}
		if (si != NONE && a->lim.rebuild_slots)
			place(a, si, chunk_pos(a, si, d->to), pl, have, plen);
		break;
	}
	case RR_RDMAP_READ_REQUEST: {
		uint32_t si = rdma_read(a, cn, d->src_stag, d->src_to,
					d->read_size);
		if (si != NONE && d->src_to >= a->segs[si].offset)
			chunk_data(a, cn, si, RR_ACCESS_READ_REQUEST,
				   d->src_to - a->segs[si].offset, d->read_size);
		if (si == NONE || !read_wanted(a, si, d->src_to))
			break;
		struct rdma_op *o = op_new(a, cn, si, true, to,
					   chunk_pos(a, si, d->src_to),
					   d->read_size);
		if (o) {
			o->sink_stag = d->sink_stag;
			o->sink_to = d->sink_to;
		}
		break;
	}
	case RR_RDMAP_READ_RESPONSE:
		for (unsigned i = 0; i < RDMA_OPS && a->ops_live; i++) {
			struct rdma_op *o = &a->ops[i];
			if (!o->used || !o->read || o->conn != cn ||
			    o->data_side != 1 - to || o->sink_stag != d->stag ||
			    d->to < o->sink_to || d->to - o->sink_to > o->left ||
			    plen > o->left - (d->to - o->sink_to))
				continue;
			if (op_live(a, o)) {
				uint32_t at = (uint32_t)(d->to - o->sink_to);
				chunk_data_at(a, cn, o, RR_ACCESS_READ_RESPONSE,
					      (uint64_t)o->pos + at, plen);
				op_data(a, o, at, pl, have, plen);
			}
			if (d->last)
				op_end(a, o);
			break;
		}
		break;
	case RR_RDMAP_SEND:
	case RR_RDMAP_SEND_INV:
	case RR_RDMAP_SEND_SE:
	case RR_RDMAP_SEND_SE_INV: {
		if (d->qn != 0)
			break;
		bool inv = d->opcode == RR_RDMAP_SEND_INV ||
			   d->opcode == RR_RDMAP_SEND_SE_INV;
		if (d->mo == 0 && d->last) {
			rsm_put(a, sd);
			message(a, cn, to, pl, have, plen, inv ? d->inv_stag : 0);
			break;
		}
		if (d->mo == 0) {
			rsm_put(a, sd);
			if (rsm_get(a, sd))
				sd->msn = d->msn;
		}
		if (sd->slot == NONE || d->msn != sd->msn)
			break;
		struct rsm *r = &a->rsm[sd->slot];
		if (d->mo != r->len) {
			rsm_put(a, sd);
			break;
		}
		rsm_append(a, r, pl, have);
		r->len += plen - have;
		if (d->last) {
			message(a, cn, to, r->bytes, r->kept, r->len,
				inv ? d->inv_stag : 0);
			rsm_put(a, sd);
		}
		break;
	}
	default:
		break;
	}
}

static void frame_findings(struct rr_analyzer *a, const struct rr_frame *f)
{
	if (rr_has(f, RR_LAYER_ICRC) && f->icrc.state == RR_CRC_BAD)
		finding(a, NONE, RR_FIND_ICRC, NULL);
	else if (rr_has(f, RR_LAYER_DDP) && f->fpdu.crc_state == RR_CRC_BAD)
		finding(a, NONE, RR_FIND_CRC32C, NULL);
	else if (f->status == RR_MALFORMED && f->bad_layer != RR_LAYER_CM_PRIVATE)
		finding(a, NONE, RR_FIND_MALFORMED,
			rr_layer_str(f->bad_layer));
}

void rr_analyzer_frame(struct rr_analyzer *a, uint32_t link, uint64_t ts_ns,
		       const uint8_t *data, uint32_t caplen, uint32_t wirelen)
{
	a->frame_no++;
	a->now_ns = ts_ns;
	a->st.frames++;
	struct rr_frame *f = &a->f;
	bool counted_trunc = false, counted_bad = false, streamed = false;
	memset(&a->last, 0, sizeof(a->last));
	a->last.conn = RR_CONN_NONE;
	for (bool more = rr_decode_frame(&a->cfg, link, data, caplen, wirelen,
					 NULL, f);
	     more; more = rr_decode_next_unit(&a->cfg, f)) {
		if (rr_has(f, RR_LAYER_ICRC)) {
			a->last.icrc_good += f->icrc.state == RR_CRC_GOOD;
			a->last.icrc_bad += f->icrc.state == RR_CRC_BAD;
		}
		a->last.cm += rr_has(f, RR_LAYER_CM);
		a->last.mpa += rr_has(f, RR_LAYER_MPA);
		if (rr_has(f, RR_LAYER_TCP) && f->unit_index == 0 &&
		    (f->tcp.flags & (RR_TCP_FIN | RR_TCP_RST)))
			tcp_end(a, f);
		if (f->transport == RR_TRANSPORT_IWARP && !rr_has(f, RR_LAYER_MPA)) {
			/* FPDUs come from the reassembled stream, not this
			 * segment alone: only its own layers count here */
			if (!streamed)
				streamed = iwarp_segment(a, f);
			if (streamed) {
				/* a cut segment is a truncated frame (its
				 * stream has a gap); the rest is the stream's */
				if (caplen < wirelen) {
					a->st.frames_truncated++;
					if (!(a->cfg.flags & RR_CFG_CUTS_EXPECTED))
						finding(a, NONE, RR_FIND_TRUNCATED, "TCP");
				} else if (f->status == RR_MALFORMED &&
					   f->bad_layer < RR_LAYER_MPA) {
					a->st.frames_malformed++;
					frame_findings(a, f);
				}
				break;
			}
		}
		if (f->status == RR_TRUNCATED && !counted_trunc) {
			counted_trunc = true;
			a->st.frames_truncated++;
			if (!(a->cfg.flags & RR_CFG_CUTS_EXPECTED))
				finding(a, NONE, RR_FIND_TRUNCATED,
					rr_layer_str(f->bad_layer));
		}
		if (f->status == RR_MALFORMED && !counted_bad) {
			counted_bad = true;
			a->st.frames_malformed++;
			frame_findings(a, f);
		}
		if (rr_has(f, RR_LAYER_CM))
			cm(a, f);
		else if (rr_has(f, RR_LAYER_BTH))
			ib_packet(a, f);
		else if (rr_has(f, RR_LAYER_MPA))
			iwarp_mpa(a, f);
	}
}

const struct rr_frame_summary *rr_analyzer_last_summary(const struct rr_analyzer *a)
{
	return &a->last;
}

const struct rr_frame *rr_analyzer_last_frame(const struct rr_analyzer *a)
{
	return &a->f;
}

void rr_analyzer_dropped(struct rr_analyzer *a, uint64_t n)
{
	a->st.frames_dropped += n;
}

void rr_analyzer_finish(struct rr_analyzer *a)
{
	for (uint32_t i = 0; i < a->lim.max_calls; i++) {
		struct call *c = &a->calls[i];
		if (!c->used)
			continue;
		if (c->rrc_pending)
			finding(a, c->conn, RR_FIND_RRC_NOT_RELEASED, NULL);
		else if (!c->answered && c->dir == RR_DIR_FWD_CALL)
			a->conns[c->conn].info.st.unmatched++;
		call_free(a, i);
	}
}
