/* SPDX-License-Identifier: BSD-2-Clause */
/* Calls in flight and the chunk segments they advertised (RFC 8166
 * §3.4), and the RDMA operations moving data into those segments. */
#include "analyzer-int.h"

/* ---- calls and segments ---------------------------------------------- */

static uint32_t call_hash(const struct rr_analyzer *a, uint32_t conn,
			  uint8_t dir, uint32_t xid)
{
	uint32_t h = (xid * 2654435761u) ^ (conn * 40503u) ^ dir;
	return h & (a->call_hash_size - 1);
}

uint32_t rra_call_find(const struct rr_analyzer *a, uint32_t conn,
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

/* The call's slot and segments free again; what it held of a rebuild is
 * rebuild.c's to give back first (rra_call_end). */
void rra_call_free(struct rr_analyzer *a, uint32_t ci)
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

/* A call slot freed before, else one never used, else NONE: slots are
 * taken in index order first, so that a short capture touches few pages
 * of the table. */
static uint32_t call_slot(struct rr_analyzer *a)
{
	uint32_t ci = a->free_call;
	if (ci != NONE) {
		a->free_call = a->calls[ci].hnext;
		return ci;
	}
	return a->calls_taken < a->lim.max_calls ? a->calls_taken++ : NONE;
}

/* A call, NONE when the table is full: the caller, which knows what a
 * call holds, ends the oldest (a->oldest_call) to make room. */
uint32_t rra_call_new(struct rr_analyzer *a, uint32_t conn, uint8_t dir,
		      uint32_t xid)
{
	uint32_t ci = call_slot(a);
	if (ci == NONE)
		return NONE;
	struct call *c = &a->calls[ci];
	memset(c, 0, sizeof(*c));
	c->used = true;
	c->xid = xid;
	c->conn = conn;
	c->dir = dir;
	c->segs = NONE;
	c->rebuild = NO_REBUILD;
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

bool rra_seg_room(const struct rr_analyzer *a)
{
	return a->free_seg != NONE || a->segs_taken < a->lim.max_segments;
}

void rra_seg_add(struct rr_analyzer *a, uint32_t ci,
		 const struct rr_rdma_seg *s, uint8_t list)
{
	uint32_t si = a->free_seg;
	if (si != NONE)
		a->free_seg = a->segs[si].next;
	else if (a->segs_taken < a->lim.max_segments)
		si = a->segs_taken++; /* in index order first, as calls */
	else
		return; /* remembered no further; counted via calls_evicted */
	struct seg *g = &a->segs[si];
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
uint32_t rra_seg_find(const struct rr_analyzer *a, uint32_t conn,
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

unsigned rra_log2_bucket(uint64_t v, unsigned n)
{
	unsigned b = 0;
	while (v > 1 && b + 1 < n) {
		v >>= 1;
		b++;
	}
	return b;
}

struct rdma_op *rra_op_new(struct rr_analyzer *a, uint32_t cn, uint32_t si,
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
bool rra_read_wanted(const struct rr_analyzer *a, uint32_t si, uint64_t va)
{
	const struct seg *g = &a->segs[si];
	if (va < g->offset)
		return false;
	return a->lim.rebuild_slots ||
	       (g->position_zero && !g->rrc && va == g->offset &&
		a->calls[g->call].slot == RR_PROC_SLOTS - 1);
}

/* An op whose call and segment are still the ones it was made for. */
bool rra_op_live(const struct rr_analyzer *a, const struct rdma_op *o)
{
	const struct call *c = &a->calls[o->call];
	return c->used && c->xid == o->xid && c->conn == o->conn &&
	       a->segs[o->seg].call == o->call;
}

void rra_op_end(struct rr_analyzer *a, struct rdma_op *o)
{
	o->used = false;
	a->ops_live--;
}
