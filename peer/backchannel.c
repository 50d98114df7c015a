/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The backward direction (RFC 8167): the responder calls the requester,
 * NFSv4.1 callbacks (CB_NULL and a CB_COMPOUND with one CB_RECALL, RFC
 * 8881 §20.2), inline and without chunks as Linux sends them (RFC 8167
 * allows chunks; a receiver without them answers ERR_CHUNK), within the
 * requester's backward credits; the requester answers each inline.
 */
#define _DEFAULT_SOURCE
#include "engine-int.h"

#define CB_COMPOUND 1
#define OP_CB_RECALL 4

void pe_bc_call(struct engine *e)
{
	if (!e->cfg.backchannel || e->bc_in_flight >= e->bc_granted)
		return;
	uint8_t body[512];
	struct rr_buf b;
	struct rr_rpcrdma h;
	uint32_t xid = e->bc_next_xid++;
	bool compound = e->bc_sent % 2;
	rr_buf_init(&b, body, sizeof(body));
	pe_rpc_call(&b, xid, RR_PROG_NFS4_CB, 1, compound ? CB_COMPOUND : 0);
	if (compound) {
		rr_put_xdr_opaque(&b, "", 0);   /* tag */
		rr_put_be32(&b, 1);             /* minorversion */
		rr_put_be32(&b, 1);             /* callback_ident */
		rr_put_be32(&b, 1);             /* one operation */
		rr_put_be32(&b, OP_CB_RECALL);
		rr_put_be32(&b, 1);             /* stateid seqid */
		rr_put_bytes(&b, "recallstate!", 12);
		rr_put_be32(&b, 0);             /* truncate */
		rr_put_xdr_opaque(&b, pe_file_fh, sizeof(pe_file_fh));
	}
	pe_hdr_init(&h, xid, e->cfg.bc_credits, RR_RDMA_MSG);
	if (pe_fault_once(e, FAULT_BC_CHUNKS)) {
		/* a chunk, which Linux takes in no backward call */
		static uint8_t dummy[256];
		uint64_t va;
		uint32_t key = xp_reg(e->x, dummy, sizeof(dummy), &va);
		rr_rpcrdma_add_segment(&h, RR_LIST_REPLY, 0, 0, key, sizeof(dummy), va);
	}
	pe_send_msg(e, &h, body, (uint32_t)b.len, 0);
	e->bc_in_flight++;
	e->bc_sent++;
	e->st.bc_calls++;
}

/* RFC 8167 §4: a CALL from the responder, or a REPLY from the requester. */
bool pe_bc_is_backward(const struct engine *e, const uint8_t *m,
		       const struct rr_rpcrdma *h)
{
	if (h->proc != RR_RDMA_MSG || h->payload.len < 8)
		return false;
	struct rr_xdr x;
	rr_xdr_init(&x, m + h->payload.off, 8);
	rr_xdr_u32(&x);
	uint32_t type = rr_xdr_u32(&x);
	return e->cfg.requester ? type == RR_RPC_CALL : type == RR_RPC_REPLY;
}

void pe_bc_receive(struct engine *e, const uint8_t *m, const struct rr_rpcrdma *h)
{
	if (!e->cfg.requester) {
		/* the reply frees a backward credit and grants anew */
		if (e->bc_in_flight)
			e->bc_in_flight--;
		e->bc_granted = h->credits ? h->credits : 1;
		e->st.bc_replies++;
		return;
	}
	/* answer the backward call inline, empty lists */
	uint8_t body[256];
	struct rr_buf b;
	struct rr_rpcrdma r;
	struct rr_rpc rpc;
	rr_rpc_decode(m, h->payload.off, h->payload.len, h->payload.len, &rpc,
		      &e->note);
	rr_buf_init(&b, body, sizeof(body));
	pe_rpc_reply(&b, rpc.xid);
	if (rpc.proc == CB_COMPOUND) {
		rr_put_be32(&b, 0);          /* NFS4_OK */
		rr_put_xdr_opaque(&b, "", 0);
		rr_put_be32(&b, 1);
		rr_put_be32(&b, OP_CB_RECALL);
		rr_put_be32(&b, 0);
	}
	pe_hdr_init(&r, h->xid, e->cfg.bc_credits, RR_RDMA_MSG);
	pe_send_msg(e, &r, body, (uint32_t)b.len, 0);
	e->st.bc_replies++;
}
