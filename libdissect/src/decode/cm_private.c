/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RPC-over-RDMA CM private data, RFC 8797 §4.
 *
 *  0                   1                   2                   3
 *  +---------------------------------------------------------------+
 *  |                 Format Identifier 0xF6AB0E18                  |
 *  +---------------+---------------+---------------+---------------+
 *  |    Version    |  Flags (R=1)  |   Send Size   | Receive Size  |
 *  +---------------+---------------+---------------+---------------+
 *
 * §4.1: receivers look for the identifier at any offset.  §4.2: a size is
 * encoded as bytes / 1024 - 1.
 */
#include "cursor.h"

#define RR_CM_PRIVATE_VERSION 1
#define RR_CM_PRIVATE_F_RINVAL 0x01

bool rr_cm_private_find(const uint8_t *msg, uint32_t base, uint32_t captured,
			uint32_t len, struct rr_cm_private *out)
{
	memset(out, 0, sizeof(*out));
	uint32_t end = base + (captured < len ? captured : len);
	uint32_t at;
	for (at = base; at + 4 <= end; at++)
		if (msg[at] == 0xF6 && rd_be32(msg + at) == RR_CM_PRIVATE_FORMAT)
			break;
	if (at + 4 > end)
		return false;

	struct rr_note note;
	struct rr_cur c;
	cur_init(&c, msg, at, end, base + len, &note);
	out->found = true;
	out->off = at;
	cur_skip(&c, 4, "format identifier");
	out->version = cur_u8(&c, "version");
	if (cur_ok(&c) && out->version != RR_CM_PRIVATE_VERSION) {
		c.pos--;
		cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_VERSION, "version");
	}
	out->flags = cur_u8(&c, "flags");
	out->send_raw = cur_u8(&c, "send size");
	out->recv_raw = cur_u8(&c, "receive size");
	out->status = note.status;
	out->rinval = (out->flags & RR_CM_PRIVATE_F_RINVAL) != 0;
	out->send_size = (out->send_raw + 1u) * 1024u;
	out->recv_size = (out->recv_raw + 1u) * 1024u;
	return true;
}

static bool usable(const struct rr_cm_private *p)
{
	return p && p->found && p->status == RR_COMPLETE;
}

/* RFC 8797 §3.1 and §4.2. */
void rr_inline_thresholds(const struct rr_cm_private *requester,
			  const struct rr_cm_private *responder,
			  struct rr_inline_thresholds *out)
{
	uint32_t req_send = usable(requester) ? requester->send_size : RR_INLINE_DEFAULT;
	uint32_t req_recv = usable(requester) ? requester->recv_size : RR_INLINE_DEFAULT;
	uint32_t rsp_send = usable(responder) ? responder->send_size : RR_INLINE_DEFAULT;
	uint32_t rsp_recv = usable(responder) ? responder->recv_size : RR_INLINE_DEFAULT;
	out->call = req_send < rsp_recv ? req_send : rsp_recv;
	out->reply = rsp_send < req_recv ? rsp_send : req_recv;
	out->remote_invalidation = usable(requester) && usable(responder) &&
				   requester->rinval && responder->rinval;
}

/* Record a block found in CM or MPA private data on the frame. */
void rr_frame_cm_private(struct rr_frame *f, uint32_t off, uint32_t len)
{
	uint32_t captured = f->caplen > off ? f->caplen - off : 0;
	struct rr_cm_private *p = &f->cm_private;
	if (!rr_cm_private_find(f->data, off, captured, len, p))
		return;
	enum rr_problem pr = p->status == RR_COMPLETE ? RR_PROBLEM_NONE :
			     p->status == RR_TRUNCATED ? RR_PROBLEM_SHORT :
			     p->version != RR_CM_PRIVATE_VERSION ?
				     RR_PROBLEM_BAD_VERSION :
				     RR_PROBLEM_BAD_LENGTH;
	frame_note(f, RR_LAYER_CM_PRIVATE, (enum rr_status)p->status, pr, p->off,
		   p->status == RR_COMPLETE ? NULL : "RFC 8797 block");
}
