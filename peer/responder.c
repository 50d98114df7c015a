/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The responder of RPC-over-RDMA v1 (RFC 8166) for the NFSv3 server of
 * nfs3.c: read chunks pulled with RDMA READ, results pushed with RDMA
 * WRITE, the reply chunk used or, with reliable reply on, a read chunk of
 * its own released by RDMA_DONE (draft-cel-nfsv4-rpcrdma-reliable-reply),
 * ERR_VERS and ERR_CHUNK answered (§4.5); before every eighth reply a
 * call of the backward direction (backchannel.c).
 */
#define _DEFAULT_SOURCE
#include "engine-int.h"

/* The write-wrong-stag fault's key: the chunk's own with another
 * generation byte, a stale key of the same registration slot. */
#define WRONG_STAG_BITS 0x0000FF00u

uint32_t pe_grant(struct engine *e)
{
	if (e->replies_sent == 3 && pe_fault_once(e, FAULT_ZERO_CREDIT))
		return 0;
	if (e->cfg.vary_credits && (e->replies_sent / 16) % 2)
		return e->cfg.credits / 2 ? e->cfg.credits / 2 : 1;
	return e->cfg.credits;
}

void pe_reply_error(struct engine *e, uint32_t xid, uint32_t vers,
			uint32_t err)
{
	struct rr_rpcrdma h;
	pe_hdr_init(&h, xid, pe_grant(e), RR_RDMA_ERROR);
	h.vers = vers;  /* §4.5: echo the caller's version */
	h.err = err;
	h.vers_low = h.vers_high = 1;
	pe_send_msg(e, &h, NULL, 0, 0);
	e->replies_sent++;
}

/* Send With Invalidate: only when both set R (RFC 8797 §4.2), or forced. */
static uint32_t invalidate_key(struct engine *e, const struct rr_rpcrdma *call)
{
	bool forced = pe_fault_due(e, FAULT_SWI_WITHOUT_R);
	if (!e->th.remote_invalidation && !forced)
		return 0;
	for (unsigned i = 0; i < call->nsegs; i++)
		if (call->segs[i].list != RR_LIST_READ) {
			if (forced)
				pe_fault_committed(e, FAULT_SWI_WITHOUT_R);
			e->st.invalidations++;
			return call->segs[i].handle;
		}
	return 0;
}

/* Sends a reply built in rpc[len], choosing how it travels. */
static void send_reply(struct engine *e, const struct rr_rpcrdma *call,
		       const uint8_t *rpc, uint32_t len,
		       struct rr_rpcrdma *h)
{
	uint8_t hdr_bytes[2048];
	struct rr_buf hb;
	rr_buf_init(&hb, hdr_bytes, sizeof(hdr_bytes));
	rr_rpcrdma_encode(&hb, h);
	uint32_t inv = invalidate_key(e, call);
	if (hb.len + len <= e->th.reply) {
		pe_send_msg(e, h, rpc, len, inv);
		e->replies_sent++;
		return;
	}
	/* §3.4.7: a reply chunk large enough takes the whole reply */
	uint32_t room = 0;
	for (unsigned i = 0; i < call->nsegs; i++)
		if (call->segs[i].list == RR_LIST_REPLY)
			room += call->segs[i].length;
	if (call->has_reply_chunk && room >= len) {
		uint32_t done = 0;
		h->proc = RR_RDMA_NOMSG;
		for (unsigned i = 0; i < call->nsegs; i++) {
			const struct rr_rdma_seg *s = &call->segs[i];
			if (s->list != RR_LIST_REPLY)
				continue;
			uint32_t n = len - done < s->length ? len - done : s->length;
			if (n)
				xp_write(e->x, s->handle, s->offset, rpc + done, n);
			e->st.write_bytes += n;
			rr_rpcrdma_add_segment(h, RR_LIST_REPLY, 0, 0, s->handle, n, s->offset);
			done += n;
		}
		pe_send_msg(e, h, NULL, 0, inv);
		e->replies_sent++;
		return;
	}
	if (e->cfg.reliable_reply) {
		/* draft-cel-nfsv4-rpcrdma-reliable-reply: our own read chunk */
		struct rrc *r = NULL;
		for (unsigned i = 0; i < MAX_RRC && !r; i++)
			if (!e->rrc[i].used)
				r = &e->rrc[i];
		if (r) {
			r->used = true;
			r->xid = h->xid;
			r->buf = malloc(len);
			if (!r->buf)
				abort();
			memcpy(r->buf, rpc, len);
			uint64_t va;
			r->key = xp_reg(e->x, r->buf, len, &va);
			r->deadline = now_ms() + e->cfg.rrc_timeout_ms;
			h->proc = RR_RDMA_NOMSG;
			rr_rpcrdma_add_segment(h, RR_LIST_READ, 0, 0, r->key, len, va);
			pe_send_msg(e, h, NULL, 0, inv);
			e->st.rrc++;
			e->replies_sent++;
			return;
		}
	}
	pe_reply_error(e, h->xid, 1, RR_ERR_CHUNK);
	e->st.errors_chunk++;
}

void pe_rrc_release(struct engine *e, struct rrc *r)
{
	xp_dereg(e->x, r->key);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

/*
 * A result's DDP-eligible data (its length word, then the bytes): pushed
 * into the call's first write chunk, whose segments the reply reports with
 * the lengths used (§3.4.6), or inline when the call offered none.  False
 * when the chunk is too small.
 */
static bool place_data(struct engine *e, const struct rr_rpcrdma *call,
		       struct rr_rpcrdma *h, struct rr_buf *b,
		       const uint8_t *data, uint32_t count)
{
	uint32_t done = 0;
	bool have_chunk = false;
	for (unsigned i = 0; i < call->nsegs; i++) {
		const struct rr_rdma_seg *sg = &call->segs[i];
		if (sg->list != RR_LIST_WRITE || sg->chunk != 0)
			continue;
		have_chunk = true;
		uint32_t n = count - done < sg->length ? count - done : sg->length;
		uint32_t wire_n = n;
		bool more_segs = i + 1 < call->nsegs &&
				 call->segs[i + 1].list == RR_LIST_WRITE &&
				 call->segs[i + 1].handle == sg->handle;
		if (n && more_segs && pe_fault_once(e, FAULT_WRITE_BEYOND)) {
			/*
			 * 100 bytes past the segment, still inside the key's
			 * registration (the next segment, written again right
			 * after), so only the one rule breaks
			 */
			static uint8_t beyond[SEG_MAX + 100];
			memcpy(beyond, data + done, n);
			memset(beyond + n, 0xEE, 100);
			xp_write(e->x, sg->handle, sg->offset, beyond, n + 100);
			wire_n = n + 100;
		} else if (n && pe_fault_once(e, FAULT_WRITE_WRONG_STAG)) {
			/* a key the requester never registered: its RC
			 * answers with a NAK remote access error, and both
			 * QPs go to the error state */
			xp_write(e->x, sg->handle ^ WRONG_STAG_BITS, sg->offset,
				 data + done, n);
		} else if (n) {
			xp_write(e->x, sg->handle, sg->offset, data + done, n);
		}
		e->st.write_bytes += wire_n;
		rr_rpcrdma_add_segment(h, RR_LIST_WRITE, 0, 0, sg->handle, n,
				       sg->offset);
		done += n;
	}
	if (!have_chunk) {
		rr_put_xdr_opaque(b, data, count);
		return true;
	}
	rr_put_be32(b, count);  /* data<>: in the write chunk */
	return done >= count;
}

static void run_call(struct engine *e, const struct rr_rpcrdma *call,
		     const uint8_t *rpc, uint32_t len)
{
	struct rr_rpc r;
	struct rr_rpcrdma h;
	pe_hdr_init(&h, call->xid, pe_grant(e), RR_RDMA_MSG);
	if (rr_rpc_decode(rpc, 0, len, len, &r, &e->note) != RR_COMPLETE ||
	    r.msg_type != RR_RPC_CALL) {
		pe_reply_error(e, call->xid, 1, RR_ERR_CHUNK);
		return;
	}
	if (r.prog == RR_PROG_NFS && r.proc < 32)
		e->st.by_proc[r.proc]++;
	e->st.calls++;
	/* a backward call before every eighth reply */
	if (e->st.calls % 8 == 0)
		pe_bc_call(e);

	static uint8_t out[16384];
	struct rr_buf b;
	struct rr_xdr x;
	rr_buf_init(&b, out, sizeof(out));
	rr_xdr_init(&x, rpc + r.body.off, r.body.len);
	pe_rpc_reply(&b, r.xid);
	struct pe_nfs3_result res = { .unavailable = true };
	if (r.prog == RR_PROG_NFS)
		pe_nfs3_execute(r.proc, &x, &b, &res);
	if (res.bad_args) {
		pe_reply_error(e, call->xid, 1, RR_ERR_CHUNK);
		return;
	}
	if (res.unavailable) {
		struct rr_rpc rep = { .xid = r.xid, .msg_type = RR_RPC_REPLY,
				      .accept_stat = RR_RPC_PROC_UNAVAIL };
		b.len = 0;
		rr_rpc_encode(&b, &rep, NULL, NULL);
	}
	if (res.data && !place_data(e, call, &h, &b, res.data, res.data_len)) {
		pe_reply_error(e, call->xid, 1, RR_ERR_CHUNK);
		return;
	}
	/* §4.3.2: the reply carries the call's write list, lengths used */
	bool has_write = false;
	for (unsigned i = 0; i < h.nsegs; i++)
		has_write |= h.segs[i].list == RR_LIST_WRITE;
	if (has_write)
		h.nwrite_chunks = 1;
	send_reply(e, call, out, (uint32_t)b.len, &h);
}

/* A slow server holds each call reply_delay_ms, in arrival order; a call
 * past a full ring runs at once. */
static void execute(struct engine *e, struct srv_call *s, const uint8_t *rpc,
		    uint32_t len)
{
	if (!e->cfg.reply_delay_ms || e->held_count == MAX_SRV) {
		run_call(e, &s->hdr, rpc, len);
		return;
	}
	struct held_call *h = &e->held[(e->held_first + e->held_count) % MAX_SRV];
	h->rpc = malloc(len ? len : 1);
	if (!h->rpc)
		abort();
	memcpy(h->rpc, rpc, len);
	h->len = len;
	h->hdr = s->hdr;
	h->due_ms = now_ms() + e->cfg.reply_delay_ms;
	e->held_count++;
}

void pe_run_held(struct engine *e, uint64_t now)
{
	while (e->held_count && e->held[e->held_first].due_ms <= now) {
		struct held_call *h = &e->held[e->held_first];
		e->held_first = (e->held_first + 1) % MAX_SRV;
		e->held_count--;
		run_call(e, &h->hdr, h->rpc, h->len);
		free(h->rpc);
		h->rpc = NULL;
	}
}

/* All read chunks are in: rebuild the call (§3.4.5) and run it. */
void pe_srv_complete(struct engine *e, struct srv_call *s)
{
	const struct rr_rpcrdma *h = &s->hdr;
	if (h->pzrc) {
		execute(e, s, s->pulled, s->pulled_len);
	} else {
		/* insert the chunk data, padded to 4, at its position */
		uint32_t pos = h->segs[0].position;
		const uint8_t *inl = s->msg + h->payload.off;
		uint32_t inl_len = h->payload.len;
		if (pos > inl_len) {
			pe_reply_error(e, h->xid, 1, RR_ERR_CHUNK);
		} else {
			uint32_t pad = (4 - s->pulled_len % 4) % 4;
			uint32_t total = inl_len + s->pulled_len + pad;
			uint8_t *rpc = calloc(1, total);
			if (!rpc)
				abort();
			memcpy(rpc, inl, pos);
			memcpy(rpc + pos, s->pulled, s->pulled_len);
			memcpy(rpc + pos + s->pulled_len + pad, inl + pos,
			       inl_len - pos);
			execute(e, s, rpc, total);
			free(rpc);
		}
	}
	free(s->msg);
	free(s->pulled);
	memset(s, 0, sizeof(*s));
}

void pe_responder_call(struct engine *e, uint8_t *m, uint32_t len,
			   const struct rr_rpcrdma *h)
{
	if (h->nread_chunks == 0) {
		struct srv_call tmp = { .hdr = *h, .msg = NULL };
		execute(e, &tmp, m + h->payload.off, h->payload.len);
		free(m);
		return;
	}
	struct srv_call *s = NULL;
	for (unsigned i = 0; i < MAX_SRV && !s; i++)
		if (!e->srv[i].used)
			s = &e->srv[i];
	if (!s) {
		pe_reply_error(e, h->xid, 1, RR_ERR_CHUNK);
		free(m);
		return;
	}
	s->used = true;
	s->msg = m;
	s->len = len;
	s->hdr = *h;
	uint32_t total = 0;
	for (unsigned i = 0; i < h->nsegs; i++)
		if (h->segs[i].list == RR_LIST_READ && h->segs[i].chunk == 0) {
			s->seg_at[i] = total;
			total += h->segs[i].length;
		}
	s->pulled = malloc(total ? total : 1);
	if (!s->pulled)
		abort();
	s->pulled_len = total;
	for (unsigned i = 0; i < h->nsegs; i++) {
		const struct rr_rdma_seg *sg = &h->segs[i];
		if (sg->list != RR_LIST_READ || sg->chunk != 0)
			continue;
		uint64_t cookie = (uint64_t)(s - e->srv) << 8 | 2u;
		xp_read(e->x, sg->handle, sg->offset, s->pulled + s->seg_at[i],
			sg->length, cookie);
		e->st.read_bytes += sg->length;
		s->pending++;
	}
}

