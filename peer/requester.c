/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The requester of RPC-over-RDMA v1 (RFC 8166) with NFSv3-shaped calls
 * (RFC 1813): never more calls outstanding than the credits granted
 * (§3.3.1), calls inline when they fit the call threshold (RFC 8797
 * §3.1), WRITE data by a read chunk at its XDR position (§3.4.5), READ
 * data asked for in a write chunk (§3.4.6), Long Calls as RDMA_NOMSG with a
 * position-zero read chunk, a reply chunk offered when the reply may exceed
 * the reply threshold (§3.4.7); replies checked against what was sent.
 */
#define _DEFAULT_SOURCE
#include "engine-int.h"

static struct call *call_new(struct engine *e)
{
	for (unsigned i = 0; i < MAX_CALLS; i++)
		if (!e->calls[i].used) {
			struct call *c = &e->calls[i];
			memset(c, 0, sizeof(*c));
			c->used = true;
			return c;
		}
	return NULL;
}

static uint32_t reg(struct engine *e, struct call *c, void *buf, uint32_t len,
		    uint64_t *va)
{
	uint32_t key = xp_reg(e->x, buf, len, va);
	if (key && c)
		c->keys[c->nkeys++] = key;
	return key;
}

/*
 * Offers buf as segments of at most SEG_MAX bytes under one key, as one
 * contiguous FRWR registration does.
 */
static void offer_chunk(struct engine *e, struct call *c, struct rr_rpcrdma *h,
			uint8_t list, uint8_t chunk, uint32_t position,
			uint8_t *buf, uint32_t len)
{
	uint64_t va;
	uint32_t key = reg(e, c, buf, len, &va);
	for (uint32_t done = 0; done < len;) {
		uint32_t n = len - done > SEG_MAX ? SEG_MAX : len - done;
		rr_rpcrdma_add_segment(h, list, chunk, position, key, n, va + done);
		done += n;
	}
}

/* The file's handle, or with dir its directory's: a real server's when
 * the configuration has them, else the peer's own responder's one. */
static void put_fh(struct rr_buf *b, const struct engine *e, bool dir)
{
	const struct pe_handles *h = e->cfg.handles;
	if (!h)
		rr_put_xdr_opaque(b, pe_file_fh, sizeof(pe_file_fh));
	else if (dir)
		rr_put_xdr_opaque(b, h->dir, h->dir_len);
	else
		rr_put_xdr_opaque(b, h->file, h->file_len);
}

enum op { OP_NULL, OP_GETATTR, OP_LOOKUP, OP_READ, OP_WRITE, OP_LONG,
	  OP_RDP_CHUNK, OP_RDP_RRC };

static enum op next_op(const struct engine *e, uint32_t i)
{
	static const enum op mixed[] = { OP_NULL, OP_GETATTR, OP_LOOKUP,
					 OP_READ, OP_WRITE, OP_LONG,
					 OP_RDP_CHUNK, OP_RDP_RRC };
	static const enum op small[] = { OP_NULL, OP_GETATTR, OP_LOOKUP };
	/* the scenarios of one operation */
	static const struct { const char *name; enum op op; } only[] = {
		{ "null", OP_NULL },         { "read", OP_READ },
		{ "write", OP_WRITE },       { "long-call", OP_LONG },
		{ "reply-chunk", OP_RDP_CHUNK },
		{ "reliable-reply", OP_RDP_RRC },
	};
	const char *s = e->cfg.scenario;
	if (!strcmp(s, "inline"))
		return small[i % 3];
	for (size_t k = 0; k < sizeof(only) / sizeof(only[0]); k++)
		if (!strcmp(s, only[k].name))
			return only[k].op;
	enum op o = mixed[i % 8];
	if (o == OP_RDP_RRC && !e->cfg.reliable_reply)
		o = OP_RDP_CHUNK;
	return o;
}

static void issue(struct engine *e)
{
	struct call *c = call_new(e);
	if (!c) {
		pe_fail(e, "too many calls outstanding", 0);
		return;
	}
	enum op o = next_op(e, e->issued);
	uint32_t xid = e->next_xid++;
	uint8_t payload[16384];
	struct rr_buf b;
	struct rr_rpcrdma h;
	uint32_t position = 0;

	pe_hdr_init(&h, xid, e->cfg.credits, RR_RDMA_MSG);
	c->xid = xid;
	c->start_us = now_us();
	rr_buf_init(&b, payload, sizeof(payload));
	uint32_t rpc_xid = xid;
	if (pe_fault_once(e, FAULT_XID_MISMATCH)) {
		rpc_xid = xid ^ 0x00ff0000;
	}
	if (pe_fault_once(e, FAULT_WRONG_VERS)) {
		h.vers = 2;
		c->expect_error = true;
		o = OP_NULL;
	}
	if (e->issued >= 2 && pe_fault_once(e, FAULT_MSGP)) {
		/* RFC 8166 §4.6.1: RDMA_MSGP is no longer to be sent; the
		 * responder answers ERR_CHUNK.  RFC 5666's padding fields. */
		h.proc = RR_RDMA_MSGP;
		h.align = 4096;
		h.thresh = 1024;
		c->expect_error = true;
		o = OP_NULL;
	}
	switch (o) {
	case OP_NULL:
		c->proc = NFS3_NULL;
		pe_rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_NULL);
		break;
	case OP_GETATTR:
		c->proc = NFS3_GETATTR;
		pe_rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_GETATTR);
		put_fh(&b, e, false);
		break;
	case OP_LOOKUP:
		c->proc = NFS3_LOOKUP;
		pe_rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_LOOKUP);
		put_fh(&b, e, true);
		rr_put_xdr_opaque(&b, PE_FILE_NAME, sizeof(PE_FILE_NAME) - 1);
		break;
	case OP_READ: {
		c->proc = NFS3_READ;
		c->count = e->cfg.io_size;
		c->offset = (uint64_t)(e->issued * 4096u) % (FILE_SIZE - c->count);
		c->data = malloc(c->count);
		if (!c->data)
			abort();
		pe_rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_READ);
		put_fh(&b, e, false);
		rr_put_be64(&b, c->offset);
		rr_put_be32(&b, c->count);
		/* §3.4.6: the result data is DDP-eligible */
		offer_chunk(e, c, &h, RR_LIST_WRITE, 0, 0, c->data, c->count);
		e->st.write_chunks++;
		break;
	}
	case OP_WRITE: {
		c->proc = NFS3_WRITE;
		c->count = e->cfg.io_size - 2192;
		c->offset = (uint64_t)(e->issued * 8192u) % (FILE_SIZE - c->count);
		c->data = malloc(c->count);
		if (!c->data)
			abort();
		memcpy(c->data, pe_file_image() + c->offset, c->count);
		pe_rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_WRITE);
		put_fh(&b, e, false);
		rr_put_be64(&b, c->offset);
		rr_put_be32(&b, c->count);
		rr_put_be32(&b, 2);          /* FILE_SYNC */
		rr_put_be32(&b, c->count);   /* data<>: the bytes go by chunk */
		/* §3.4.5: the chunk sits at the data's position in the payload */
		position = (uint32_t)b.len;
		offer_chunk(e, c, &h, RR_LIST_READ, 0, position, c->data,
			    c->count);
		e->st.read_chunks++;
		break;
	}
	case OP_LONG: {
		/* a symlink target longer than the call threshold */
		c->proc = NFS3_SYMLINK;
		pe_rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_SYMLINK);
		put_fh(&b, e, true);
		uint32_t tlen = e->th.call + 256;
		if (e->cfg.handles) {
			/* a real server's directory: a name of its own for
			 * each call, and a target Linux's nfsd can decode (it
			 * takes at most one page; RFC 1813 sets no limit) */
			char name[24];
			int n = snprintf(name, sizeof(name), "link-%08x", xid);
			rr_put_xdr_opaque(&b, name, (uint32_t)n);
			if (tlen > SYMLINK_TARGET_MAX)
				tlen = SYMLINK_TARGET_MAX;
		} else {
			rr_put_xdr_opaque(&b, "link", 4);
		}
		for (int i = 0; i < 6; i++)
			rr_put_be32(&b, 0);  /* sattr3: nothing set */
		char *target = malloc(tlen);
		if (!target)
			abort();
		for (uint32_t i = 0; i < tlen; i++)
			target[i] = (char)('a' + i % 26);
		rr_put_xdr_opaque(&b, target, tlen);
		free(target);
		break;
	}
	case OP_RDP_CHUNK:
	case OP_RDP_RRC:
		c->proc = NFS3_READDIRPLUS;
		pe_rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_READDIRPLUS);
		put_fh(&b, e, true);
		rr_put_be64(&b, 0);
		rr_put_be64(&b, 0);
		rr_put_be32(&b, 4096);
		rr_put_be32(&b, 8192);
		if (o == OP_RDP_CHUNK) {
			/* the reply may pass the reply threshold (§3.4.7) */
			c->reply_buf_len = 8192 + 512;
			if (pe_fault_once(e, FAULT_REPLY_CHUNK_SMALL)) {
				c->reply_buf_len = 512;
				c->expect_error = true;
			}
			c->reply_buf = malloc(c->reply_buf_len);
			if (!c->reply_buf)
				abort();
			offer_chunk(e, c, &h, RR_LIST_REPLY, 0, 0, c->reply_buf,
				    c->reply_buf_len);
			e->st.reply_chunks++;
		}
		break;
	}
	if (b.overflow) {
		pe_fail(e, "call does not fit the buffer", xid);
		c->used = false;
		return;
	}

	/* Too large to send inline: a Long Call (RFC 8166 §3.5.3) */
	uint8_t hdr_bytes[2048];
	struct rr_buf hb;
	rr_buf_init(&hb, hdr_bytes, sizeof(hdr_bytes));
	rr_rpcrdma_encode(&hb, &h);
	bool force_inline = pe_fault_due(e, FAULT_INLINE_TOO_BIG) &&
			    o == OP_LONG;
	if (hb.len + b.len > e->th.call && !force_inline) {
		c->msg = malloc(b.len);
		if (!c->msg)
			abort();
		memcpy(c->msg, payload, b.len);
		/*
		 * The whole call moves by one position-zero read chunk; the
		 * write and reply chunks it offered stay (§3.5.3).
		 */
		struct rr_rpcrdma lc;
		uint64_t va;
		uint32_t key = reg(e, c, c->msg, (uint32_t)b.len, &va);
		pe_hdr_init(&lc, xid, h.credits, RR_RDMA_NOMSG);
		lc.vers = h.vers;
		rr_rpcrdma_add_segment(&lc, RR_LIST_READ, 0, 0, key, (uint32_t)b.len, va);
		for (unsigned i = 0; i < h.nsegs; i++)
			if (h.segs[i].list != RR_LIST_READ)
				lc.segs[lc.nsegs++] = h.segs[i];
		h = lc;
		e->st.long_calls++;
		pe_send_msg(e, &h, NULL, 0, 0);
	} else {
		if (force_inline)
			pe_fault_committed(e, FAULT_INLINE_TOO_BIG);
		pe_send_msg(e, &h, payload, (uint32_t)b.len, 0);
	}
	for (unsigned i = 0; i < h.nsegs; i++)
		if (h.segs[i].list == RR_LIST_READ)
			e->st.read_bytes += h.segs[i].length;
	e->st.calls++;
	e->st.by_proc[c->proc]++;
	e->issued++;
	e->in_flight++;
}

void engine_kick(struct engine *e, uint64_t now)
{
	if (!e->cfg.requester || e->disconnected)
		return;
	while (e->issued < e->cfg.calls) {
		uint32_t allowed = e->granted ? e->granted : 1;
		if (e->in_flight == allowed && pe_fault_once(e, FAULT_OVER_CREDIT)) {
			/* one call more than granted, once */
			allowed++;
		}
		if (e->in_flight >= allowed)
			break;
		if (e->cfg.rate) {
			if (now < e->next_issue_ms)
				break;
			e->next_issue_ms = now + 1000u / e->cfg.rate;
		}
		issue(e);
		if (e->cfg.rate)
			break;
	}
	if (e->completed > 0 && pe_fault_once(e, FAULT_DONE_UNKNOWN)) {
		struct rr_rpcrdma d;
		pe_hdr_init(&d, 0xdead0001, e->cfg.credits, RR_RDMA_DONE);
		pe_send_msg(e, &d, NULL, 0, 0);
		e->st.dones++;
	}
}

static struct call *call_find(struct engine *e, uint32_t xid)
{
	for (unsigned i = 0; i < MAX_CALLS; i++)
		if (e->calls[i].used && e->calls[i].xid == xid)
			return &e->calls[i];
	return NULL;
}

void pe_call_finish(struct engine *e, struct call *c)
{
	uint64_t us = now_us() - c->start_us;
	if (e->st.nlat < LAT_MAX)
		e->st.lat_us[e->st.nlat++] = (uint32_t)(us > UINT32_MAX ?
							 UINT32_MAX : us);
	for (unsigned i = 0; i < c->nkeys; i++)
		xp_dereg(e->x, c->keys[i]);
	free(c->msg);
	free(c->data);
	free(c->reply_buf);
	memset(c, 0, sizeof(*c));
	e->in_flight--;
	e->completed++;
	e->st.replies++;
}

/* RFC 1813 §2.6: post_op_attr, a fattr3 when attributes_follow. */
static void skip_post_op_attr(struct rr_xdr *x)
{
	if (rr_xdr_u32(x))
		rr_xdr_skip(x, FATTR3_LEN);
}

/* The RPC reply, wherever it arrived: check what the procedure promised. */
void pe_check_reply(struct engine *e, struct call *c, const uint8_t *rpc,
			uint32_t len, const struct rr_rpcrdma *h)
{
	struct rr_rpc r;
	if (rr_rpc_decode(rpc, 0, len, len, &r, &e->note) != RR_COMPLETE ||
	    r.msg_type != RR_RPC_REPLY || r.reply_stat != RR_RPC_MSG_ACCEPTED ||
	    r.accept_stat != RR_RPC_SUCCESS) {
		pe_fail(e, "reply is not an accepted RPC reply", c->xid);
		return;
	}
	struct rr_xdr x;
	rr_xdr_init(&x, rpc + r.body.off, r.body.len);
	uint32_t status = c->proc == NFS3_NULL ? 0 : rr_xdr_u32(&x);
	if (status != 0) {
		pe_fail(e, "NFS status not OK", c->xid);
		return;
	}
	if (c->proc == NFS3_READ) {
		skip_post_op_attr(&x);
		uint32_t count = rr_xdr_u32(&x);
		rr_xdr_u32(&x);              /* eof */
		uint32_t datalen = rr_xdr_u32(&x);
		uint32_t written = 0;
		for (unsigned i = 0; i < h->nsegs; i++)
			if (h->segs[i].list == RR_LIST_WRITE)
				written += h->segs[i].length;
		if (x.error || count != c->count || datalen != c->count ||
		    written != c->count) {
			pe_fail(e, "READ reply counts do not match the write chunk",
			     c->xid);
			return;
		}
		if (memcmp(c->data, pe_file_image() + c->offset, c->count)) {
			pe_fail(e, "READ data differs from the file", c->xid);
			return;
		}
	}
	if (c->proc == NFS3_WRITE) {
		/* wcc_data: pre_op_attr, then post_op_attr */
		if (rr_xdr_u32(&x))
			rr_xdr_skip(&x, WCC_ATTR_LEN);
		skip_post_op_attr(&x);
		if (rr_xdr_u32(&x) != c->count || x.error)
			pe_fail(e, "WRITE reply count differs", c->xid);
	}
}

void pe_send_done(struct engine *e, struct call *c)
{
	if (pe_fault(e, FAULT_MISSING_DONE))
		return;
	struct rr_rpcrdma d;
	pe_hdr_init(&d, c->xid, e->cfg.credits, RR_RDMA_DONE);
	/* draft §4: with both R bits, DONE may invalidate the responder's key */
	uint32_t inv = e->th.remote_invalidation ? c->rrc_key : 0;
	pe_send_msg(e, &d, NULL, 0, inv);
	e->st.dones++;
}

void pe_requester_reply(struct engine *e, const uint8_t *m,
			    const struct rr_rpcrdma *h)
{
	struct call *c = call_find(e, h->xid);
	if (!c) {
		pe_fail(e, "reply for no outstanding call", h->xid);
		return;
	}
	/* §3.3.1: every reply carries the grant; zero is taken as one */
	e->granted = h->credits ? h->credits : 1;
	if (h->proc == RR_RDMA_ERROR) {
		if (h->err == RR_ERR_VERS)
			e->st.errors_vers++;
		else
			e->st.errors_chunk++;
		if (!c->expect_error)
			pe_fail(e, "unexpected RDMA_ERROR", c->xid);
		pe_call_finish(e, c);
		return;
	}
	if (c->expect_error && !pe_fault(e, FAULT_REPLY_CHUNK_SMALL))
		pe_fail(e, "a call built to fail was answered", c->xid);
	if (h->proc == RR_RDMA_MSG) {
		for (unsigned i = 0; i < h->nsegs; i++)
			if (h->segs[i].list == RR_LIST_WRITE)
				e->st.write_bytes += h->segs[i].length;
		pe_check_reply(e, c, m + h->payload.off, h->payload.len, h);
		pe_call_finish(e, c);
		return;
	}
	if (h->proc != RR_RDMA_NOMSG) {
		pe_fail(e, "reply with an unexpected procedure", c->xid);
		pe_call_finish(e, c);
		return;
	}
	if (h->nread_chunks) {
		/* a responder-provided read chunk: pull the reply */
		uint32_t total = 0;
		for (unsigned i = 0; i < h->nsegs; i++)
			if (h->segs[i].list == RR_LIST_READ)
				total += h->segs[i].length;
		free(c->reply_buf);
		c->reply_buf = malloc(total ? total : 1);
		if (!c->reply_buf)
			abort();
		c->reply_buf_len = total;
		c->hdr = *h;
		c->rrc_pull = true;
		c->pulls = 0;
		for (unsigned i = 0, at = 0; i < h->nsegs; i++) {
			const struct rr_rdma_seg *s = &h->segs[i];
			if (s->list != RR_LIST_READ)
				continue;
			if (!c->rrc_key)
				c->rrc_key = s->handle;
			uint64_t cookie = (uint64_t)(c - e->calls) << 8 | 1u;
			xp_read(e->x, s->handle, s->offset, c->reply_buf + at,
				s->length, cookie);
			c->pulls++;
			at += s->length;
		}
		e->st.rrc++;
		return;
	}
	if (h->has_reply_chunk && c->reply_buf) {
		uint32_t n = 0;
		for (unsigned i = 0; i < h->nsegs; i++)
			if (h->segs[i].list == RR_LIST_REPLY)
				n += h->segs[i].length;
		e->st.write_bytes += n;
		if (n > c->reply_buf_len) {
			pe_fail(e, "reply chunk lengths exceed what was offered",
			     c->xid);
		} else {
			pe_check_reply(e, c, c->reply_buf, n, h);
		}
		pe_call_finish(e, c);
		return;
	}
	pe_fail(e, "RDMA_NOMSG reply without a usable chunk", c->xid);
	pe_call_finish(e, c);
}

