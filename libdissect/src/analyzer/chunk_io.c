/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RDMA Writes and Reads on chunk segments (RFC 8166 §3.4), as a transport
 * hands them over in three calls: a Write landed, a Read was requested,
 * an operation's later data arrived.  Each finds the segment it serves,
 * counts it, reports it (RR_EV_CHUNK_DATA when asked for) and gives its
 * data to the message being rebuilt.  How a later packet names its
 * operation (IB: PSN; iWARP: STag and TO) stays the transport's.
 */
#include "analyzer-int.h"

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
			       .chunk = { .xid = c->xid, .source = (uint8_t)seg_kind(g),
					  .access = (uint8_t)access, .handle = g->handle,
					  .seg_offset = seg_offset, .data_len = len } };
	rra_emit(a, &ev);
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
		chunk_event(a, cn, o->seg, access, pos - rra_seg_base(a, o->seg), len);
}

/* An RDMA access of len bytes at (key, va) of connection cn, counted as
 * read or written, on the connection and on the call whose chunk segment
 * it hits: that segment (or the nearest below va), NONE when none. */
static uint32_t rdma_access(struct rr_analyzer *a, uint32_t cn, bool read,
			    uint32_t key, uint64_t va, uint32_t len)
{
	struct conn *k = &a->conns[cn];
	*(read ? &k->info.st.bytes_read : &k->info.st.bytes_write) += len;
	/* another upper layer's: counted apart, its packets' payload */
	if (!k->rpcrdma)
		return NONE;
	*(read ? &a->st.total.bytes_read : &a->st.total.bytes_write) += len;
	uint32_t si = rra_seg_find(a, cn, key, va);
	if (si != NONE) {
		struct call *c = &a->calls[a->segs[si].call];
		uint32_t *moved = read ? &c->bytes_read : &c->bytes_write;
		*moved = add_saturated(*moved, len);
	}
	return si;
}

/* An RDMA Write (its first packet) to a chunk segment: the segment. */
static uint32_t rdma_write(struct rr_analyzer *a, uint32_t cn, uint32_t key,
			   uint64_t va, uint32_t len)
{
	uint32_t si = rdma_access(a, cn, false, key, va, len);
	if (si == NONE)
		return NONE;
	const struct seg *g = &a->segs[si];
	/* with its call's lists cut, va may lie in a segment not held */
	if ((va < g->offset || va - g->offset + len > g->length) &&
	    !a->calls[g->call].segs_cut)
		rra_finding(a, cn, RR_FIND_WRITE_BEYOND, NULL);
	return va >= g->offset ? si : NONE;
}

/* Not rebuilding (-q), the first bytes written to a reply chunk still
 * hold the reply's RPC header (RFC 8166 §3.5.4, RFC 5531 §9) and, after
 * it, the NFS status (rr_nfs_reply_decode): both go to the statistics and
 * the reply's report when the reply comes. */
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
	struct rr_nfs_reply nfs;
	if (rra_reply_results(c, &rpc, p, have, &nfs)) {
		c->head_nfs = true;
		c->head_nfs_status = nfs.status;
		c->head_nfs_numres = (uint16_t)(nfs.numres < UINT16_MAX ? nfs.numres : UINT16_MAX);
	}
}

/* Where an access at va of segment si lands in its call's chunk space. */
static uint64_t chunk_pos(const struct rr_analyzer *a, uint32_t si, uint64_t va)
{
	return rra_seg_base(a, si) + (va - a->segs[si].offset);
}

/*
 * An RDMA Write's first packet (IB) or one of its DDP segments (iWARP)
 * landed at (key, va) of connection cn, written by side `to`'s peer: len
 * bytes asked for in all, plen carried here (have captured).  With
 * `follow`, the transport names later packets by the operation returned
 * (IB: they carry no address); else each carries its own.
 */
struct rdma_op *rra_write_landed(struct rr_analyzer *a, uint32_t cn, int to,
				 uint32_t key, uint64_t va, uint32_t len,
				 const uint8_t *p, uint32_t have, uint32_t plen,
				 bool follow)
{
	uint32_t si = rdma_write(a, cn, key, va, len);
	if (si == NONE)
		return NULL;
	chunk_data(a, cn, si, RR_ACCESS_WRITE, va - a->segs[si].offset, plen);
	reply_chunk_head(a, si, va, p, have);
	if (!a->lim.rebuild_slots)
		return NULL;
	if (!follow) {
		rra_place(a, si, chunk_pos(a, si, va), p, have, plen);
		return NULL;
	}
	struct rdma_op *o = rra_op_new(a, cn, si, false, 1 - to,
				       chunk_pos(a, si, va), len);
	if (!o)
		return NULL;
	rra_op_data(a, o, 0, p, have, plen);
	o->pos += plen;
	return o;
}

/* A Read Request sent to side `to` names (key, va, len), the source of
 * the data that side sends back: the operation its responses will fill,
 * when their data is wanted (NULL otherwise). */
struct rdma_op *rra_read_requested(struct rr_analyzer *a, uint32_t cn, int to,
				   uint32_t key, uint64_t va, uint32_t len)
{
	/* a Read Request names the source buffer: a read chunk segment */
	uint32_t si = rdma_access(a, cn, true, key, va, len);
	if (si != NONE && va >= a->segs[si].offset)
		chunk_data(a, cn, si, RR_ACCESS_READ_REQUEST,
			   va - a->segs[si].offset, len);
	if (si == NONE || !rra_read_wanted(a, si, va))
		return NULL;
	return rra_op_new(a, cn, si, true, to, chunk_pos(a, si, va), len);
}

/* Later data of a live operation o (a Read Response, an IB Write's
 * middle or last packet): plen bytes, have captured, at offset `at` past
 * o->pos. */
void rra_op_landed(struct rr_analyzer *a, uint32_t cn, struct rdma_op *o,
		   enum rr_access access, uint32_t at, const uint8_t *p,
		   uint32_t have, uint32_t plen)
{
	chunk_data_at(a, cn, o, access, (uint64_t)o->pos + at, plen);
	rra_op_data(a, o, at, p, have, plen);
}

bool rra_chunk_of_key(const struct rr_analyzer *a, uint32_t cn, uint32_t key,
		      uint32_t *xid, enum rr_chunk_kind *kind)
{
	/* any segment of the key: the one reaching highest */
	uint32_t si = rra_seg_find(a, cn, key, UINT64_MAX);
	if (si == NONE)
		return false;
	*xid = a->calls[a->segs[si].call].xid;
	*kind = seg_kind(&a->segs[si]);
	return true;
}
