/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the peer's roles share, below them and the engine (engine-int.h):
 * the faults of the plan and their commitment, a failure's record, the
 * RPC-over-RDMA and RPC headers they build, NFSv3 attributes, the one
 * file's bytes, and a message sent.
 */
#define _DEFAULT_SOURCE
#include "engine-int.h"

static uint8_t pattern(uint64_t off)
{
	return (uint8_t)(off * 131u ^ (off >> 9));
}

/* The file's bytes, made once: READ serves them, WRITE and READ check them. */
const uint8_t *pe_file_image(void)
{
	static uint8_t *image;
	if (!image) {
		image = malloc(FILE_SIZE);
		if (!image)
			abort();
		for (uint32_t i = 0; i < FILE_SIZE; i++)
			image[i] = pattern(i);
	}
	return image;
}

bool pe_fault(const struct engine *e, enum fault f)
{
	return (e->cfg.faults >> f) & 1u;
}

bool pe_fault_due(const struct engine *e, enum fault f)
{
	return pe_fault(e, f) && !((e->faults_done >> f) & 1u);
}

void pe_fault_committed(struct engine *e, enum fault f)
{
	e->faults_done |= 1u << f;
}

bool pe_fault_once(struct engine *e, enum fault f)
{
	if (!pe_fault_due(e, f))
		return false;
	pe_fault_committed(e, f);
	return true;
}

void pe_fail(struct engine *e, const char *why, uint32_t xid)
{
	e->st.failures++;
	if (!e->failure[0])
		snprintf(e->failure, sizeof(e->failure), "%s (xid 0x%08x)", why,
			 xid);
	if (e->cfg.verbose)
		fprintf(stderr, "rpcrdma-peer: %s (xid 0x%08x)\n", why, xid);
}

/* ---- building messages ---------------------------------------------------- */

void pe_hdr_init(struct rr_rpcrdma *h, uint32_t xid, uint32_t credits,
		     uint32_t proc)
{
	memset(h, 0, sizeof(*h));
	h->xid = xid;
	h->vers = 1;
	h->credits = credits;
	h->proc = proc;
}

void pe_rpc_call(struct rr_buf *b, uint32_t xid, uint32_t prog,
		     uint32_t vers, uint32_t proc)
{
	static const uint8_t auth_sys[] = {
		0, 0, 0, 0, 0, 0, 0, 4, 'p', 'e', 'e', 'r',
		0, 0, 0x03, 0xe8, 0, 0, 0x03, 0xe8, 0, 0, 0, 0,
	};
	struct rr_rpc r = { .xid = xid, .msg_type = RR_RPC_CALL, .rpcvers = 2,
			    .prog = prog, .vers = vers, .proc = proc,
			    .cred_flavor = prog == RR_PROG_NFS4_CB ? RR_AUTH_NONE :
							    RR_AUTH_SYS,
			    .cred_len = prog == RR_PROG_NFS4_CB ? 0 : sizeof(auth_sys) };
	rr_rpc_encode(b, &r, auth_sys, NULL);
}

void pe_rpc_reply(struct rr_buf *b, uint32_t xid)
{
	struct rr_rpc r = { .xid = xid, .msg_type = RR_RPC_REPLY };
	rr_rpc_encode(b, &r, NULL, NULL);
}

const uint8_t pe_file_fh[32] = { 1, 0, 7, 0, 0x2d, 0x11, 0x93, 0x8c, 1 };

static void put_fattr3(struct rr_buf *b, uint32_t type, uint32_t mode,
		       uint32_t nlink, uint64_t size, uint64_t fileid)
{
	uint32_t w[] = { type, mode, nlink, 1000, 1000 };
	for (unsigned i = 0; i < 5; i++)
		rr_put_be32(b, w[i]);
	rr_put_be64(b, size);
	rr_put_be64(b, size);
	rr_put_be64(b, 0);
	rr_put_be64(b, 0x1234);
	rr_put_be64(b, fileid);
	for (int i = 0; i < 3; i++) {
		rr_put_be32(b, 1767225600);
		rr_put_be32(b, 0);
	}
}

void pe_put_fattr3(struct rr_buf *b, uint32_t type, uint64_t size)
{
	put_fattr3(b, type, 0644, 1, size, 0x2001);
}

void pe_put_dir_fattr3(struct rr_buf *b)
{
	put_fattr3(b, 2 /* NF3DIR */, 0777, 2, 4096, 0x2000);
}

/* Sends a header followed by body bytes as one message. */
void pe_send_msg(struct engine *e, const struct rr_rpcrdma *h,
		     const uint8_t *body, uint32_t body_len, uint32_t inv)
{
	uint8_t hdr[2048];
	struct rr_buf b;
	rr_buf_init(&b, hdr, sizeof(hdr));
	if (!rr_rpcrdma_encode(&b, h)) {
		pe_fail(e, "RPC-over-RDMA header does not encode", h->xid);
		return;
	}
	uint8_t *m = malloc(b.len + body_len);
	if (!m)
		abort();
	memcpy(m, hdr, b.len);
	if (body_len)
		memcpy(m + b.len, body, body_len);
	xp_send(e->x, m, (uint32_t)(b.len + body_len), inv);
	e->st.inline_bytes += b.len + body_len;
	free(m);
}
