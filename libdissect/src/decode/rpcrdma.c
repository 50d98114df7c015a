/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RPC-over-RDMA version 1 transport header, RFC 8166 §4.
 *
 *  0                   1                   2                   3
 *  +---------------------------------------------------------------+
 *  |                       rdma_xid  (§4.2.1)                      |
 *  |                       rdma_vers (§4.2.2)                      |
 *  |                       rdma_credit (§4.2.3)                    |
 *  |                       rdma_proc (§4.2.4)                      |
 *  +---------------------------------------------------------------+
 *  RDMA_MSG, RDMA_NOMSG:  read list | write list | reply chunk (§4.3)
 *                         then, for RDMA_MSG, the RPC message
 *  RDMA_MSGP (§4.6.1):    rdma_align | rdma_thresh | lists | RPC message
 *  RDMA_DONE (§4.6.2):    nothing
 *  RDMA_ERROR (§4.5):     rdma_err [ERR_VERS: rdma_vers_low rdma_vers_high]
 *
 *  read list:   { 1, position, handle, length, offset(64) } ... 0
 *  write list:  { 1, count, count x { handle, length, offset(64) } } ... 0
 *  reply chunk: 0 | 1, count, count x { handle, length, offset(64) }
 */
#include <stddef.h>

#include "cursor.h"

#define RR_FIXED_LEN 16

static bool add_segment(struct rr_cur *c, struct rr_rpcrdma *h, uint8_t list,
			uint32_t chunk, const char *field)
{
	if (h->nsegs >= RR_MAX_SEGMENTS)
		return cur_fail(c, RR_MALFORMED, RR_PROBLEM_OVER_CAP, field);
	struct rr_rdma_seg *s = &h->segs[h->nsegs];
	s->off = c->pos;
	s->list = list;
	s->chunk = (uint8_t)chunk;
	s->position = 0;
	if (list == RR_LIST_READ)
		s->position = cur_be32(c, "read segment position");
	s->handle = cur_be32(c, "segment handle");
	s->length = cur_be32(c, "segment length");
	s->offset = cur_be64(c, "segment offset");
	if (!cur_ok(c))
		return false;
	h->nsegs++;
	return true;
}

/* XDR optional-data discriminator: 0 ends the list, 1 an entry follows. */
static int discriminator(struct rr_cur *c, const char *field)
{
	uint32_t d = cur_be32(c, field);
	if (!cur_ok(c))
		return -1;
	if (d > 1) {
		c->pos -= 4;
		cur_fail(c, RR_MALFORMED, RR_PROBLEM_BAD_VALUE, field);
		return -1;
	}
	return (int)d;
}

/* RFC 8166 §4.3.1: read segments with equal positions form one chunk. */
static bool read_list(struct rr_cur *c, struct rr_rpcrdma *h)
{
	int more;
	h->read_list_off = c->pos;
	while ((more = discriminator(c, "read list discriminator")) == 1) {
		if (!cur_need(c, 4, "read segment position"))
			return false;
		uint32_t position = rd_be32(c->p + c->pos);
		if (position % 4) /* an XDR position is 4-aligned */
			return cur_fail(c, RR_MALFORMED,
					RR_PROBLEM_BAD_ALIGNMENT,
					"read segment position");
		bool new_chunk = h->nread_chunks == 0 ||
				 h->segs[h->nsegs - 1].position != position;
		if (new_chunk && h->nread_chunks >= RR_MAX_CHUNKS)
			return cur_fail(c, RR_MALFORMED, RR_PROBLEM_OVER_CAP,
					"read chunk count");
		if (new_chunk)
			h->nread_chunks++;
		if (!add_segment(c, h, RR_LIST_READ, h->nread_chunks - 1u,
				 "read segment"))
			return false;
		if (position == 0)
			h->pzrc = true;
	}
	return more == 0;
}

/* A counted array of segments (§4.3.2 write chunk, §4.3.3 reply chunk). */
static bool counted_chunk(struct rr_cur *c, struct rr_rpcrdma *h, uint8_t list,
			  uint32_t chunk, const char *count_field)
{
	uint32_t count = cur_be32(c, count_field);
	if (!cur_ok(c))
		return false;
	c->pos -= 4;
	if (count > (uint32_t)(RR_MAX_SEGMENTS - h->nsegs))
		return cur_fail(c, RR_MALFORMED, RR_PROBLEM_OVER_CAP,
				count_field);
	if ((uint64_t)count * 16 > cur_left_wire(c) - 4)
		return cur_fail(c, RR_MALFORMED,
				RR_PROBLEM_COUNT_EXCEEDS_BYTES, count_field);
	c->pos += 4;
	for (uint32_t i = 0; i < count; i++)
		if (!add_segment(c, h, list, chunk, "segment"))
			return false;
	return true;
}

static bool write_list(struct rr_cur *c, struct rr_rpcrdma *h)
{
	int more;
	h->write_list_off = c->pos;
	while ((more = discriminator(c, "write list discriminator")) == 1) {
		if (h->nwrite_chunks >= RR_MAX_CHUNKS) {
			c->pos -= 4;
			return cur_fail(c, RR_MALFORMED, RR_PROBLEM_OVER_CAP,
					"write chunk count");
		}
		if (!counted_chunk(c, h, RR_LIST_WRITE, h->nwrite_chunks,
				   "write chunk segment count"))
			return false;
		h->nwrite_chunks++;
	}
	return more == 0;
}

static bool reply_chunk(struct rr_cur *c, struct rr_rpcrdma *h)
{
	h->reply_chunk_off = c->pos;
	int present = discriminator(c, "reply chunk discriminator");
	if (present <= 0)
		return present == 0;
	if (!counted_chunk(c, h, RR_LIST_REPLY, 0, "reply chunk segment count"))
		return false;
	h->has_reply_chunk = true;
	return true;
}

static bool chunk_lists(struct rr_cur *c, struct rr_rpcrdma *h)
{
	return read_list(c, h) && write_list(c, h) && reply_chunk(c, h);
}

/* Trailing bytes after a fixed-size message are noted, not fatal. */
static void note_trailing(struct rr_cur *c)
{
	if (cur_ok(c) && cur_left_wire(c) > 0) {
		c->note->problem = RR_PROBLEM_TRAILING_BYTES;
		c->note->off = c->pos;
		c->note->field = "after the header";
	}
}

static void decode_error(struct rr_cur *c, struct rr_rpcrdma *h)
{
	uint32_t err_off = c->pos;
	h->err = cur_be32(c, "rdma_err");
	if (!cur_ok(c))
		return;
	if (h->err == RR_ERR_VERS) {
		h->vers_low = cur_be32(c, "rdma_vers_low");
		h->vers_high = cur_be32(c, "rdma_vers_high");
	} else if (h->err != RR_ERR_CHUNK) {
		c->pos = err_off;
		cur_fail(c, RR_MALFORMED, RR_PROBLEM_BAD_VALUE, "rdma_err");
		return;
	}
	note_trailing(c);
}

/* Shape checks beyond parsing, for telling RPC-over-RDMA from others. */
static uint8_t shape_confidence(const struct rr_cur *c,
				const struct rr_rpcrdma *h)
{
	if (c->note->status == RR_MALFORMED)
		return RR_CONF_NONE;
	bool exact = c->note->problem != RR_PROBLEM_TRAILING_BYTES;
	switch (h->proc) {
	case RR_RDMA_NOMSG: /* §4.2.4: the payload is in a chunk */
		return h->nsegs > 0 && exact ? RR_CONF_SHAPE : RR_CONF_NONE;
	case RR_RDMA_DONE:
	case RR_RDMA_ERROR:
		return exact ? RR_CONF_SHAPE : RR_CONF_NONE;
	default:
		return RR_CONF_SHAPE;
	}
}

enum rr_status rr_rpcrdma_decode(const uint8_t *msg, uint32_t base,
				 uint32_t captured, uint32_t len,
				 struct rr_rpcrdma *h, struct rr_note *note)
{
	struct rr_cur c;
	cur_init(&c, msg, base, base + captured, base + len, note);
	h->off = base;
	h->confidence = RR_CONF_NONE;
	h->body_decoded = false;
	h->nsegs = 0;
	h->nread_chunks = h->nwrite_chunks = 0;
	h->has_reply_chunk = h->pzrc = false;
	h->read_list_off = h->write_list_off = h->reply_chunk_off = 0;
	h->payload.off = h->payload.len = 0;
	h->align = h->thresh = h->err = h->vers_low = h->vers_high = 0;

	h->xid = cur_be32(&c, "rdma_xid");
	h->vers = cur_be32(&c, "rdma_vers");
	h->credits = cur_be32(&c, "rdma_credit");
	h->proc = cur_be32(&c, "rdma_proc");
	if (!cur_ok(&c))
		goto out;

	if (h->vers != 1) {
		/* §4.5: RDMA_ERROR echoes the caller's version. */
		if (h->proc == RR_RDMA_ERROR && cur_left(&c) >= 4 &&
		    rd_be32(msg + c.pos) == RR_ERR_VERS) {
			decode_error(&c, h);
			h->body_decoded = cur_ok(&c);
			if (cur_ok(&c) && c.note->problem == RR_PROBLEM_NONE)
				h->confidence = RR_CONF_SHAPE;
			goto out;
		}
		/* Version-independent words only (§4.2): the rest is v2+. */
		note->problem = RR_PROBLEM_BAD_VERSION;
		note->off = base + 4;
		note->field = "rdma_vers";
		goto out;
	}

	h->body_decoded = true;
	switch (h->proc) {
	case RR_RDMA_MSGP:
		h->align = cur_be32(&c, "rdma_align");
		h->thresh = cur_be32(&c, "rdma_thresh");
		/* fall through */
	case RR_RDMA_MSG:
	case RR_RDMA_NOMSG:
		if (!chunk_lists(&c, h))
			break;
		if (h->proc == RR_RDMA_NOMSG) {
			note_trailing(&c);
		} else {
			h->payload.off = c.pos;
			h->payload.len = c.lim - c.pos;
		}
		break;
	case RR_RDMA_DONE:
		note_trailing(&c);
		break;
	case RR_RDMA_ERROR:
		decode_error(&c, h);
		break;
	default:
		c.pos = base + 12;
		cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_VALUE, "rdma_proc");
		h->body_decoded = false;
		goto out;
	}
	h->confidence = shape_confidence(&c, h);
	/* RFC 8166 §4.2.1: the RPC message starts with the same XID. */
	if (h->confidence && (h->proc == RR_RDMA_MSG || h->proc == RR_RDMA_MSGP) &&
	    cur_ok(&c) && cur_left(&c) >= 8 && rd_be32(msg + c.pos) == h->xid &&
	    rd_be32(msg + c.pos + 4) <= RR_RPC_REPLY)
		h->confidence = RR_CONF_XID;
out:
	h->len = (c.pos > base ? c.pos : base) - base;
	if (h->payload.len)
		h->len = h->payload.off - base;
	return (enum rr_status)note->status;
}

void rr_rpcrdma_rebase(struct rr_rpcrdma *to, const struct rr_rpcrdma *from,
		       uint32_t base)
{
	memcpy(to, from, offsetof(struct rr_rpcrdma, segs));
	to->off = rr_off_rebase(from->off, base);
	to->read_list_off = rr_off_rebase(from->read_list_off, base);
	to->write_list_off = rr_off_rebase(from->write_list_off, base);
	to->reply_chunk_off = rr_off_rebase(from->reply_chunk_off, base);
	for (uint16_t i = 0; i < from->nsegs; i++) {
		to->segs[i] = from->segs[i];
		to->segs[i].off = rr_off_rebase(from->segs[i].off, base);
	}
	to->payload.off = rr_off_rebase(from->payload.off, base);
}

size_t rr_rpcrdma_size(const struct rr_rpcrdma *h)
{
	return offsetof(struct rr_rpcrdma, segs) + h->nsegs * sizeof(h->segs[0]);
}

bool rr_rpcrdma_recognised(const struct rr_rpcrdma *h, enum rr_status status)
{
	if (status == RR_MALFORMED)
		return false;
	if (h->confidence >= RR_CONF_XID)
		return true;
	bool no_rpc = h->proc == RR_RDMA_NOMSG || h->proc == RR_RDMA_DONE ||
		      h->proc == RR_RDMA_ERROR;
	bool err_vers = h->proc == RR_RDMA_ERROR && h->err == RR_ERR_VERS;
	return no_rpc && h->confidence >= RR_CONF_SHAPE && (h->vers == 1 || err_vers) &&
	       status == RR_COMPLETE && h->body_decoded;
}
