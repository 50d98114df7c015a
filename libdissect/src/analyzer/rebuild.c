/* SPDX-License-Identifier: BSD-2-Clause */
/* RPC messages rebuilt from chunk data (RFC 8166 §3.5): Long Calls and
 * Replies, read chunks put back at their positions, write chunk data after
 * the inline reply, into pages of a pool allocated once. */
#include <stdlib.h>

#include "analyzer-int.h"
#include "cursor.h"

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
uint64_t rra_seg_base(const struct rr_analyzer *a, uint32_t si)
{
	uint64_t base = 0;
	bool rrc = a->segs[si].rrc;
	for (uint32_t s = a->segs[si].next; s != NONE; s = a->segs[s].next)
		if (a->segs[s].rrc == rrc)
			base += a->segs[s].length;
	return base;
}

/* A slot of `size` bytes for the call's chunk space, or the one it has. */
struct rebuild *rra_rebuild_get(struct rr_analyzer *a, uint32_t ci,
				uint64_t size)
{
	struct call *c = &a->calls[ci];
	if (c->rebuild != NO_REBUILD)
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
uint64_t rra_chunk_space(const struct rr_analyzer *a, const struct call *c,
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

void rra_rebuild_put(struct rr_analyzer *a, struct call *c)
{
	struct rebuild *r = &a->rebuilds[c->rebuild];
	/* what was awaited and never came */
	if (!r->call_done && c->dir == RR_DIR_FWD_CALL && has_reads(a, c, false))
		a->st.rebuild_incomplete++;
	if (!r->rrc_done && has_reads(a, c, true))
		a->st.rebuild_incomplete++;
	pages_mark(a, r->page, (r->size + POOL_PAGE - 1) / POOL_PAGE, false);
	r->call = NONE;
	c->rebuild = NO_REBUILD;
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
	/* a Long Call's operations, all of them now */
	struct rr_nfs4_compound ops;
	bool named_ops = false;
	if (dir == RR_DIR_FWD_CALL && source == RR_KIND_PZRC) {
		rra_long_call_whole(a, &a->calls[ci], m, len);
		named_ops = rra_call_ops(c, &ops);
	}
	struct rr_event ev = { .kind = RR_EV_RPC_MESSAGE, .conn = c->conn, .dir = dir,
			       .rebuilt = { .xid = c->xid, .rpc = rp, .data = m,
					    .data_len = len, .source = (uint8_t)source,
					    .prog = c->prog, .vers = c->vers,
					    .proc = c->proc,
					    .nfs4 = named_ops ? &ops : NULL,
					    .call_ts_ns = dir == RR_DIR_FWD_CALL ||
							  dir == RR_DIR_BWD_CALL ? c->ts_ns : 0 } };
	rra_emit(a, &ev);
	if (rp && (dir == RR_DIR_FWD_REPLY || dir == RR_DIR_BWD_REPLY)) {
		rra_record_status(a, &a->calls[ci], rp);
		rra_report_reply_status(a, c->xid, rra_reply_status(c, rp));
	}
	struct rr_nfs_reply nfs;
	if ((dir == RR_DIR_FWD_REPLY || dir == RR_DIR_BWD_REPLY) &&
	    rra_nfs_reply(a, &a->calls[ci], rp, m, len, &nfs))
		rra_report_reply_nfs(a, a->calls[ci].xid, &nfs);
	if (rp && rp->xid != c->xid)
		rra_finding(a, c->conn, RR_FIND_XID_MISMATCH, rr_chunk_kind_str(source));
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
	if (c->rebuild == NO_REBUILD)
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
void rra_reply_rebuild(struct rr_analyzer *a, uint32_t ci,
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
	struct rebuild *r = c->rebuild != NO_REBUILD ? &a->rebuilds[c->rebuild] : NULL;
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
		uint64_t base = rra_seg_base(a, si);
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
void rra_place(struct rr_analyzer *a, uint32_t si, uint64_t pos,
	       const uint8_t *p, uint32_t have, uint32_t len)
{
	const struct seg *g = &a->segs[si];
	struct call *c = &a->calls[g->call];
	if (!a->lim.rebuild_slots || c->answered != g->rrc)
		return; /* writes after the reply, reads of a settled call */
	/* the chunk space is summed once, when the slot is taken */
	struct rebuild *r = c->rebuild != NO_REBUILD ? &a->rebuilds[c->rebuild] :
			    rra_rebuild_get(a, g->call, rra_chunk_space(a, c, g->rrc));
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

/* A call with read chunks keeps what rebuilding its message needs. */
void rra_call_rebuild_setup(struct rr_analyzer *a, uint32_t ci,
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
	uint64_t inline_at = xdr_padded(space);
	struct rebuild *r = rra_rebuild_get(a, ci, positional ?
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

/* Data of an RDMA op: n bytes (have captured) at offset `at` of it. */
void rra_op_data(struct rr_analyzer *a, struct rdma_op *o, uint32_t at,
		 const uint8_t *p, uint32_t have, uint32_t n)
{
	const struct seg *g = &a->segs[o->seg];
	uint64_t pos = (uint64_t)o->pos + at;
	if (o->read && g->position_zero && !g->rrc && pos == 0)
		rra_name_long_call(a, o->call, p, have);
	rra_place(a, o->seg, pos, p, have, n);
	if (o->read)
		reads_landed(a, o->seg);
}

/* A call ends (answered, replaced, evicted or aged out): its rebuild
 * slot goes back to the pool, then the call and its segments. */
void rra_call_end(struct rr_analyzer *a, uint32_t ci)
{
	struct call *c = &a->calls[ci];
	if (c->rebuild != NO_REBUILD)
		rra_rebuild_put(a, c);
	rra_call_free(a, ci);
}
