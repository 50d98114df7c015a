/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Connections: found by endpoint (QPN or TCP port and address), by the two
 * addresses while one side's QPN is unknown, by IB CM communication ID;
 * evicted least recently used first; a reconnect names the connection it
 * replaced (RFC 8166 §3.3 leaves retransmission to the upper layer: Linux
 * resends unanswered calls on a new connection).
 */
#include "analyzer-int.h"

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
		if (k->used && k->side[s].known && side_id(k, s) == id &&
		    addr_eq(side_addr(k, s), addr) &&
		    (!peer || (k->side[1 - s].known && side_id(k, 1 - s) == peer_id &&
			       addr_eq(side_addr(k, 1 - s), peer)))) {
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
uint32_t rra_tcp_conn_find(struct rr_analyzer *a, const uint8_t *src,
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
	uint32_t h = ep_hash(a, side_addr(k, s), side_id(k, s));
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
	uint32_t *pp = &a->conn_hash[ep_hash(a, side_addr(k, s), side_id(k, s))];
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
		return chain(a, l, pair_hash(side_addr(k, k->half_side),
					     side_addr(k, 1 - k->half_side)));
	if (l == LIST_PAIR)
		return chain(a, l, pair_hash(k->info.requester_addr,
					     k->info.responder_addr));
	return chain(a, l, comm_hash(k->comm_id));
}

void rra_list_add(struct rr_analyzer *a, unsigned l, uint32_t c)
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

void rra_list_del(struct rr_analyzer *a, unsigned l, uint32_t c)
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
void rra_conn_touch(struct rr_analyzer *a, uint32_t c)
{
	a->conns[c].info.last_ns = a->now_ns;
	if (a->lru_first != c) {
		rra_list_del(a, LIST_LRU, c);
		rra_list_add(a, LIST_LRU, c);
	}
}

/* Side s has an address and no QPN yet (a REQ's responder; the sender of
 * traffic seen one way only): found by the addresses until it has one. */
void rra_half_add(struct rr_analyzer *a, uint32_t c, int s)
{
	struct conn *k = &a->conns[c];
	rra_list_del(a, LIST_HALF, c);
	k->half_side = (uint8_t)s;
	rra_list_add(a, LIST_HALF, c);
}

/* How far a chain is followed: a flood of connections between two hosts
 * must not make a frame's cost grow (the newest come first). */
#define CHAIN_WALK 16

/* A side's address is part of the pair chain's key: off the chain while
 * it changes.  (The half chain's too: its callers take care of that.) */
void rra_side_addr_put(struct rr_analyzer *a, uint32_t c, int s,
		       const uint8_t *addr)
{
	struct conn *k = &a->conns[c];
	uint8_t *at = s ? k->info.responder_addr : k->info.requester_addr;
	if (addr_eq(at, addr))
		return;
	bool pair = k->listed & (1u << LIST_PAIR);
	rra_list_del(a, LIST_PAIR, c);
	memcpy(at, addr, 16);
	k->client_row = 0;
	if (pair)
		rra_list_add(a, LIST_PAIR, c);
}

void rra_side_set(struct rr_analyzer *a, uint32_t c, int s,
		  const uint8_t *addr, uint32_t id)
{
	struct conn *k = &a->conns[c];
	struct side *sd = &k->side[s];
	if (sd->known)
		ep_del(a, c, s);
	/* the unknown side is known now; or the other's address, part of the
	 * chain's key, may change: off the chain before it does */
	bool half = k->listed & (1u << LIST_HALF);
	rra_list_del(a, LIST_HALF, c);
	rra_side_addr_put(a, c, s, addr);
	if (s)
		k->info.responder_qpn = id;
	else
		k->info.requester_qpn = id;
	sd->known = true;
	ep_add(a, c, s);
	if (half && k->half_side != s)
		rra_list_add(a, LIST_HALF, c);
}

/* The fabric counters follow their sides, in the totals too. */
static void fabric_swap(struct rr_analyzer *a, struct conn *k)
{
	struct rr_conn_stats *cs = &k->info.st;
	for (unsigned c = 0; c < RR_FABRIC_COUNT; c++) {
		uint64_t t = cs->fabric[0][c];
		if (k->rpcrdma) {
			a->st.total.fabric[0][c] += cs->fabric[1][c] - t;
			a->st.total.fabric[1][c] += t - cs->fabric[1][c];
		}
		cs->fabric[0][c] = cs->fabric[1][c];
		cs->fabric[1][c] = t;
	}
	uint32_t timer = cs->rnr_timer_us_last[0];
	cs->rnr_timer_us_last[0] = cs->rnr_timer_us_last[1];
	cs->rnr_timer_us_last[1] = timer;
}

/* Requester and responder change places: the first call showed which is
 * which (RFC 8166 §3.1: the requester sends calls). */
void rra_sides_swap(struct rr_analyzer *a, uint32_t c)
{
	struct conn *k = &a->conns[c];
	bool half = k->listed & (1u << LIST_HALF);
	bool pair = k->listed & (1u << LIST_PAIR);
	rra_list_del(a, LIST_HALF, c);
	rra_list_del(a, LIST_PAIR, c);
	ep_del(a, c, 0);
	ep_del(a, c, 1);
	struct side t = k->side[0];
	k->side[0] = k->side[1];
	k->side[1] = t;
	uint8_t addr[16];
	memcpy(addr, k->info.requester_addr, 16);
	memcpy(k->info.requester_addr, k->info.responder_addr, 16);
	memcpy(k->info.responder_addr, addr, 16);
	uint32_t id = k->info.requester_qpn;
	k->info.requester_qpn = k->info.responder_qpn;
	k->info.responder_qpn = id;
	k->info.heard = (uint8_t)(((k->info.heard & 1u) << 1) | ((k->info.heard >> 1) & 1u));
	fabric_swap(a, k);
	k->client_row = 0;
	for (int s = 0; s < 2; s++)
		if (k->side[s].known)
			ep_add(a, c, s);
	if (pair)
		rra_list_add(a, LIST_PAIR, c);
	if (half)
		rra_half_add(a, c, 1 - k->half_side);
}

/* The connection a new one replaces when the table is full: the least
 * recently used.  NONE while there is room. */
uint32_t rra_conn_victim(const struct rr_analyzer *a)
{
	return a->nconns < a->lim.max_connections ? NONE : a->lru_last;
}

/* A connection evicted: off every lookup and list, counted.  Its calls
 * were ended before, by the layer that knows what they hold; its slot
 * goes to the next rra_conn_new. */
void rra_conn_evict(struct rr_analyzer *a, uint32_t c)
{
	ep_del(a, c, 0);
	ep_del(a, c, 1);
	for (unsigned l = 0; l < LISTS; l++)
		rra_list_del(a, l, c);
	a->conns[c].used = false;
	a->st.connections_evicted++;
}

/* A new connection in slot c (an evicted one's), or in a slot never used
 * when c is NONE; NONE when there is none. */
uint32_t rra_conn_new(struct rr_analyzer *a, uint32_t c, uint8_t transport)
{
	if (c == NONE) {
		if (a->nconns >= a->lim.max_connections)
			return NONE;
		c = a->nconns++;
	}
	struct conn *k = &a->conns[c];
	memset(k, 0, sizeof(*k));
	k->used = true;
	k->calls = NONE;
	rra_conn_touch(a, c);
	k->side[0].slot = k->side[1].slot = NONE;
	k->side[0].stream = k->side[1].stream = NONE;
	k->info.transport = transport;
	k->info.previous = RR_CONN_NONE;
	k->info.first_ns = a->now_ns;
	k->info.id = (uint32_t)a->st.connections;
	k->info.st.grant = 1;        /* RFC 8166 §3.3.3 */
	k->info.st.grant_min = UINT32_MAX;
	k->info.st.bc_grant = 1;
	rr_inline_thresholds(NULL, NULL, &k->info.thresholds);
	a->st.connections++;
	a->st.other_upper_layer.connections++; /* until it shows RPC-over-RDMA */
	struct rr_event ev = { .kind = RR_EV_CONN_OPEN, .conn = c };
	rra_emit(a, &ev);
	return c;
}

void rra_conn_rpcrdma(struct rr_analyzer *a, uint32_t cn)
{
	struct conn *k = &a->conns[cn];
	if (k->rpcrdma)
		return;
	k->rpcrdma = true;
	struct rr_other_upper_layer *o = &a->st.other_upper_layer;
	o->connections--;
	o->packets -= k->other_packets;
	o->bytes -= k->other_bytes;
	/* what it carried before it said so: a capture that began after its
	 * setup sees RDMA Reads and Writes before the next SEND */
	a->st.total.bytes_read += k->info.st.bytes_read;
	a->st.total.bytes_write += k->info.st.bytes_write;
	a->st.total.retransmissions += k->info.st.retransmissions;
	for (int sd = 0; sd < 2; sd++)
		for (unsigned c = 0; c < RR_FABRIC_COUNT; c++)
			a->st.total.fabric[sd][c] += k->info.st.fabric[sd][c];
}


/* Both sides' setup seen (an IB CM REP, an MPA Reply): what the two
 * agreed on is known unless the capture cut part of it. */
void rra_negotiated(struct rr_analyzer *a, uint32_t cn)
{
	a->conns[cn].info.negotiated = !a->conns[cn].setup_cut;
	struct rr_event ev = { .kind = RR_EV_NEGOTIATED, .conn = cn };
	rra_emit(a, &ev);
}

static void conn_thresholds(struct conn *k)
{
	rr_inline_thresholds(k->info.have_private[0] ? &k->info.priv[0] : NULL,
			     k->info.have_private[1] ? &k->info.priv[1] : NULL,
			     &k->info.thresholds);
}

/* The connection this one replaced: the last one before it with calls
 * between the same requester and responder, its close seen by then and
 * not replaced already (the Linux client reconnects after an error and
 * resends what was unanswered); its id.  One still open is another
 * transport beside it (nconnect, another mount), and one replaced before
 * came back already: neither is this one's.  A connection whose first call
 * is a NULL (procedure 0, RFC 5531 §12.1) replaces none: an RPC client
 * pings its server so when it starts (a new mount: Linux's rpc_create),
 * where a reconnecting one sends on its calls.  Looked for once, at the
 * connection's first call, when both ends are known. */
static uint32_t previous_conn(struct rr_analyzer *a, uint32_t cn,
			      bool first_is_null)
{
	struct conn *k = &a->conns[cn];
	if (k->previous_known)
		return k->info.previous;
	k->previous_known = true;
	rra_list_add(a, LIST_PAIR, cn);
	k->info.previous = RR_CONN_NONE;
	if (first_is_null)
		return RR_CONN_NONE;
	uint32_t best = RR_CONN_NONE;
	/* the connections with calls between the same two ends, newest first */
	uint32_t i = *list_head(a, LIST_PAIR, k);
	for (unsigned n = 0; i != NONE && n < CHAIN_WALK;
	     n++, i = a->conns[i].link[LIST_PAIR].next) {
		const struct conn *o = &a->conns[i];
		if (i == cn || o->info.transport != k->info.transport ||
		    !o->info.closed || o->replaced || o->info.first_ns > k->info.first_ns ||
		    memcmp(o->info.requester_addr, k->info.requester_addr, 16) ||
		    memcmp(o->info.responder_addr, k->info.responder_addr, 16))
			continue;
		if (best == RR_CONN_NONE ||
		    o->info.first_ns >= a->conns[best].info.first_ns)
			best = i;
	}
	if (best != RR_CONN_NONE) {
		k->info.previous = a->conns[best].info.id;
		a->conns[best].replaced = true;
		a->st.reconnects++;
	}
	return k->info.previous;
}

/* The index of the connection cn replaced (info.previous), NONE where
 * there is none or it was evicted. */
uint32_t rra_previous_index(struct rr_analyzer *a, uint32_t cn)
{
	const struct conn *k = &a->conns[cn];
	if (k->info.previous == RR_CONN_NONE)
		return NONE;
	uint32_t i = *list_head(a, LIST_PAIR, k);
	for (unsigned n = 0; i != NONE && n < CHAIN_WALK;
	     n++, i = a->conns[i].link[LIST_PAIR].next)
		if (a->conns[i].used && a->conns[i].info.id == k->info.previous)
			return i;
	return NONE;
}

/* A forward call's xid carried before on the connection this one
 * replaced: the frame that first carried it (a call resent after two
 * reconnects names its first sending), else 0, and whether it was
 * answered there.  Then remembers it, by that first frame.  Both named by
 * id: an evicted connection's index may serve another.  is_null: the call
 * is a NULL (previous_conn). */
static unsigned sent_hash(uint32_t conn, uint32_t xid)
{
	return ((xid * 2654435761u) ^ (conn * 40503u)) % SENT_HASH;
}

struct sent_before rra_resent_of(struct rr_analyzer *a, uint32_t cn, uint32_t xid,
				 bool is_null)
{
	uint32_t prev = previous_conn(a, cn, is_null), id = a->conns[cn].info.id;
	uint64_t first = 0;
	uint32_t answered = 0;
	if (prev != RR_CONN_NONE) {
		/* the newest call with that xid on it, unless a later call
		 * took its place in the index or the ring went past it */
		unsigned i = a->sent_index[sent_hash(prev, xid)];
		if (i && a->sent[i - 1].frame && a->sent[i - 1].xid == xid &&
		    a->sent[i - 1].conn == prev) {
			first = a->frame_no -
				(uint32_t)((uint32_t)a->frame_no - a->sent[i - 1].frame);
			answered = a->sent[i - 1].answered;
		}
	}
	a->sent[a->sent_next].xid = xid;
	a->sent[a->sent_next].conn = id;
	a->sent[a->sent_next].frame = (uint32_t)(first ? first : a->frame_no);
	a->sent[a->sent_next].answered = 0;
	a->sent_index[sent_hash(id, xid)] = (uint16_t)(a->sent_next + 1);
	a->sent_next = (a->sent_next + 1) % SENT_XIDS;
	if (first)
		a->st.calls_resent++;
	return (struct sent_before){ first, answered };
}

/* A forward call of connection cn answered with status: so remembered,
 * should its xid come again on the next connection. */
void rra_sent_answered(struct rr_analyzer *a, uint32_t cn, uint32_t xid,
		       enum rr_reply_status status)
{
	uint32_t id = a->conns[cn].info.id;
	unsigned i = a->sent_index[sent_hash(id, xid)];
	if (i && a->sent[i - 1].xid == xid && a->sent[i - 1].conn == id)
		a->sent[i - 1].answered = (uint32_t)status + 1;
}

/* ---- transports ------------------------------------------------------- */

/* An IPv4 address in a 16-byte slot, zeros after it, in two 8-byte
 * stores: the lookups' 8-byte loads that follow at once take them from
 * the store buffer (a load spanning stores of other sizes waits for them
 * to be written). */
static void addr4(uint8_t out[16], const uint8_t *p)
{
	uint64_t lo = 0, hi = 0;
	memcpy(&lo, p, 4);
	memcpy(out, &lo, 8);
	memcpy(out + 8, &hi, 8);
}

void rra_frame_addrs(const struct rr_frame *f, uint8_t src[16],
		     uint8_t dst[16])
{
	if (rr_has(f, RR_LAYER_IPV4) || rr_has(f, RR_LAYER_IPV6)) {
		/* copies of known size, inlined: this runs for every frame */
		if (f->ip.addr_len == 4) {
			addr4(src, f->data + f->ip.src_off);
			addr4(dst, f->data + f->ip.dst_off);
		} else {
			memcpy(src, f->data + f->ip.src_off, 16);
			memcpy(dst, f->data + f->ip.dst_off, 16);
		}
		return;
	}
	memset(src, 0, 16);
	memset(dst, 0, 16);
	if (rr_has(f, RR_LAYER_GRH)) {
		memcpy(src, f->data + f->grh.sgid_off, 16);
		memcpy(dst, f->data + f->grh.dgid_off, 16);
	} else if (rr_has(f, RR_LAYER_LRH)) {
		src[0] = (uint8_t)(f->lrh.slid >> 8);
		src[1] = (uint8_t)f->lrh.slid;
		dst[0] = (uint8_t)(f->lrh.dlid >> 8);
		dst[1] = (uint8_t)f->lrh.dlid;
	}
}

void rra_set_private(struct rr_analyzer *a, uint32_t cn, int side,
		     const struct rr_frame *f)
{
	struct conn *k = &a->conns[cn];
	k->info.heard |= (uint8_t)(1u << side);
	if (f->status == RR_TRUNCATED &&
	    (!rr_has(f, RR_LAYER_CM_PRIVATE) ||
	     f->cm_private.status == RR_TRUNCATED)) {
		/* cut by the capture, not malformed: what it said is unknown */
		k->setup_cut = true;
		k->info.negotiated = false;
		return;
	}
	if (!rr_has(f, RR_LAYER_CM_PRIVATE))
		return;
	if (f->cm_private.status != RR_COMPLETE) {
		/* RFC 8797 §4: unusable, so the defaults apply (counted as absent) */
		rra_finding(a, cn, RR_FIND_CM_PRIVATE,
			    rr_status_str(f->cm_private.status));
		return;
	}
	k->info.priv[side] = f->cm_private;
	k->info.have_private[side] = true;
	rra_conn_rpcrdma(a, cn);
	conn_thresholds(k);
}

/* The connection an IB CM communication ID names: the newest with it. */
uint32_t rra_conn_by_comm(struct rr_analyzer *a, uint32_t comm)
{
	uint32_t i = *chain(a, LIST_COMM, comm_hash(comm));
	for (unsigned n = 0; i != NONE && n < CHAIN_WALK; n++, i = a->conns[i].link[LIST_COMM].next)
		if (a->conns[i].comm_id == comm)
			return i;
	return NONE;
}

/*
 * The connection and receiving side of a packet to (dst, id) from src.
 * Unknown endpoints are linked to a connection still missing its other
 * side between the same addresses; NONE when there is none.
 */
uint32_t rra_conn_find(struct rr_analyzer *a, uint8_t transport,
		       const uint8_t *src, uint32_t src_id,
		       const uint8_t *dst, uint32_t dst_id, bool src_id_known,
		       int *to)
{
	uint32_t cn = transport == RR_TRANSPORT_IWARP ?
		rra_tcp_conn_find(a, src, src_id, dst, dst_id, to) :
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
		    !k->side[s].known && addr_eq(side_addr(k, s), dst) &&
		    k->side[1 - s].known && addr_eq(side_addr(k, 1 - s), src) &&
		    (!src_id_known || side_id(k, 1 - s) == src_id)) {
			rra_side_set(a, i, s, dst, dst_id);
			*to = s;
			return i;
		}
		i = next;
	}
	return NONE;
}

/* A connection opened for traffic between endpoints nothing named
 * before (no setup seen): the sender of its first packet to dst.  The
 * receiver's side: an iWARP sender on the NFS/RDMA port (20049, or the
 * one configured) is the server, which listens there, and so the
 * responder (0); otherwise the receiver is the responder (1) until a call
 * says otherwise. */
int rra_conn_inferred(struct rr_analyzer *a, uint32_t cn,
		      const uint8_t *src, uint32_t src_id,
		      const uint8_t *dst, uint32_t dst_id, bool src_id_known)
{
	struct conn *k = &a->conns[cn];
	k->info.inferred = true;
	uint32_t port = a->cfg.iwarp_tcp_port;
	if (k->info.transport == RR_TRANSPORT_IWARP && src_id_known &&
	    src_id == port && dst_id != port) {
		rra_side_set(a, cn, 1, src, src_id);
		rra_side_set(a, cn, 0, dst, dst_id);
		return 0;
	}
	bool receiver_listens = k->info.transport == RR_TRANSPORT_IWARP &&
				dst_id == port && src_id != port;
	k->info.roles_inferred = !receiver_listens;
	rra_side_set(a, cn, 1, dst, dst_id);
	rra_side_addr_put(a, cn, 0, src);
	if (src_id_known)
		rra_side_set(a, cn, 0, src, src_id);
	else
		rra_half_add(a, cn, 0);
	return 1;
}

/* The end of an iWARP connection: its TCP connection's FIN or RST (RFC
 * 9293 §3.6).  Reported once. */
void rra_conn_closed(struct rr_analyzer *a, uint32_t cn, bool reset)
{
	struct conn *k = &a->conns[cn];
	if (reset)
		k->info.reset = true;
	if (k->info.closed)
		return;
	k->info.closed = true;
	struct rr_event ev = { .kind = RR_EV_CONN_CLOSE, .conn = cn };
	rra_emit(a, &ev);
}
