/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ONC RPC message header, RFC 5531 §9.
 *
 *  CALL:  xid | 0 | rpcvers=2 | prog | vers | proc | cred | verf | args
 *  REPLY: xid | 1 | MSG_ACCEPTED | verf | accept_stat [low high] | results
 *                 | MSG_DENIED   | RPC_MISMATCH low high
 *                                | AUTH_ERROR auth_stat
 *  opaque_auth (§8.2): flavor | length (<= 400) | body padded to 4
 *  RPCSEC_GSS credential body (RFC 2203 §5): version=1 | gss_proc |
 *      seq_num | service | handle<>
 *  RPCSEC_GSS integrity body (§5.3.2.2): databody_integ<> = seq_num |
 *      args or results; checksum<>
 */
#include "cursor.h"

static bool opaque_auth(struct rr_cur *c, uint32_t *flavor, uint32_t *len,
			uint32_t *off, const char *field)
{
	*off = c->pos;
	*flavor = cur_be32(c, field);
	*len = cur_be32(c, field);
	if (!cur_ok(c))
		return false;
	if (*len > RR_RPC_MAX_AUTH) {
		c->pos -= 4;
		return cur_fail(c, RR_MALFORMED, RR_PROBLEM_OVER_CAP, field);
	}
	return cur_skip(c, (uint32_t)xdr_padded(*len), field);
}

/* The RPCSEC_GSS fields of a call's credential, read whole by then
 * (opaque_auth skipped its body within the capture). */
static void gss_credential(const uint8_t *msg, struct rr_rpc *r)
{
	const uint8_t *body = msg + r->cred_off + 8;
	if (r->cred_flavor != RR_AUTH_RPCSEC_GSS || r->cred_len < 16 ||
	    rd_be32(body) != 1) /* RPCSEC_GSS_VERS_1 */
		return;
	r->gss = true;
	r->gss_proc = rd_be32(body + 4);
	r->gss_seq = rd_be32(body + 8);
	r->gss_service = rd_be32(body + 12);
}

bool rr_rpc_body_wrapped(const struct rr_rpc *call)
{
	if (call->cred_flavor != RR_AUTH_RPCSEC_GSS)
		return false;
	/* RPCSEC_GSS_DATA with rpc_gss_svc_none: the body as is */
	return !call->gss || call->gss_proc != RR_GSS_DATA || call->gss_service != RR_GSS_SVC_NONE;
}

bool rr_rpc_body_integrity(const struct rr_rpc *call)
{
	/* gss: an RPCSEC_GSS credential read (gss_credential) */
	return call->gss && call->gss_proc == RR_GSS_DATA &&
	       call->gss_service == RR_GSS_SVC_INTEGRITY;
}

bool rr_rpc_gss_integ_body(const uint8_t *msg, uint32_t off, uint32_t have,
			   uint32_t *inner, uint32_t *inner_end, uint32_t *seq)
{
	if (!msg || have < 8)
		return false;
	uint32_t len = rd_be32(msg + off);
	if (len < 4 || len % 4)
		return false;
	*seq = rd_be32(msg + off + 4);
	*inner = off + 8;
	uint64_t end = (uint64_t)off + 4 + len;
	*inner_end = end > UINT32_MAX ? UINT32_MAX : (uint32_t)end;
	return true;
}

enum rr_status rr_rpc_decode(const uint8_t *msg, uint32_t base,
			     uint32_t captured, uint32_t len, struct rr_rpc *r,
			     struct rr_note *note)
{
	struct rr_cur c;
	cur_init(&c, msg, base, base + captured, base + len, note);
	memset(r, 0, sizeof(*r));
	r->off = base;
	r->xid = cur_be32(&c, "rpc xid");
	r->msg_type = cur_be32(&c, "rpc msg_type");
	if (!cur_ok(&c))
		return (enum rr_status)note->status;

	if (r->msg_type == RR_RPC_CALL) {
		r->rpcvers = cur_be32(&c, "rpcvers");
		if (cur_ok(&c) && r->rpcvers != 2) {
			c.pos -= 4;
			cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_VERSION,
				 "rpcvers");
			return (enum rr_status)note->status;
		}
		r->prog = cur_be32(&c, "prog");
		r->vers = cur_be32(&c, "vers");
		r->proc = cur_be32(&c, "proc");
		r->named = cur_ok(&c);
		if (!opaque_auth(&c, &r->cred_flavor, &r->cred_len,
				 &r->cred_off, "credential") ||
		    !opaque_auth(&c, &r->verf_flavor, &r->verf_len,
				 &r->verf_off, "verifier"))
			return (enum rr_status)note->status;
		gss_credential(msg, r);
	} else if (r->msg_type == RR_RPC_REPLY) {
		r->reply_stat = cur_be32(&c, "reply_stat");
		if (!cur_ok(&c))
			return (enum rr_status)note->status;
		if (r->reply_stat == RR_RPC_MSG_ACCEPTED) {
			if (!opaque_auth(&c, &r->verf_flavor, &r->verf_len,
					 &r->verf_off, "verifier"))
				return (enum rr_status)note->status;
			r->stat_off = c.pos;
			r->accept_stat = cur_be32(&c, "accept_stat");
			if (r->accept_stat == RR_RPC_PROG_MISMATCH) {
				r->mismatch_low = cur_be32(&c, "low");
				r->mismatch_high = cur_be32(&c, "high");
			}
		} else if (r->reply_stat == RR_RPC_MSG_DENIED) {
			r->stat_off = c.pos;
			r->reject_stat = cur_be32(&c, "reject_stat");
			if (!cur_ok(&c))
				return (enum rr_status)note->status;
			if (r->reject_stat == RR_RPC_MISMATCH) {
				r->mismatch_low = cur_be32(&c, "low");
				r->mismatch_high = cur_be32(&c, "high");
			} else if (r->reject_stat == RR_RPC_AUTH_ERROR) {
				r->auth_stat = cur_be32(&c, "auth_stat");
			} else {
				c.pos -= 4;
				cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_VALUE,
					 "reject_stat");
			}
		} else {
			c.pos -= 4;
			cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_VALUE,
				 "reply_stat");
		}
	} else {
		c.pos -= 4;
		cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_VALUE, "rpc msg_type");
	}
	if (cur_ok(&c)) {
		r->body.off = c.pos;
		r->body.len = c.lim - c.pos;
	}
	return (enum rr_status)note->status;
}

void rr_rpc_rebase(struct rr_rpc *to, const struct rr_rpc *from, uint32_t base)
{
	*to = *from;
	to->off = rr_off_rebase(from->off, base);
	to->cred_off = rr_off_rebase(from->cred_off, base);
	to->verf_off = rr_off_rebase(from->verf_off, base);
	to->stat_off = rr_off_rebase(from->stat_off, base);
	to->body.off = rr_off_rebase(from->body.off, base);
}
