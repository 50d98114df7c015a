/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RPC-over-RDMA v1 (RFC 8166) requester and responder carrying NFSv3-shaped
 * procedures (RFC 1813), with the backward direction of RFC 8167 and the
 * responder-provided read chunks of draft-cel-nfsv4-rpcrdma-reliable-reply.
 *
 * The requester never has more calls outstanding than the credits granted
 * (§3.3.1), sends calls inline when they fit the call threshold (RFC 8797
 * §3.1), moves WRITE data by a read chunk at its XDR position (§3.4.5),
 * asks for READ data in a write chunk (§3.4.6), sends Long Calls as
 * RDMA_NOMSG with a position-zero read chunk, and offers a reply chunk
 * when the reply may exceed the reply threshold (§3.4.7).  The responder
 * pulls read chunks with RDMA READ, pushes results with RDMA WRITE, uses
 * the reply chunk or, with reliable reply on, a read chunk of its own
 * released by RDMA_DONE, and answers ERR_VERS and ERR_CHUNK (§4.5).
 */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <string.h>

#include "engine.h"

#define NFS_VERS 3

#define NFS3_NULL 0
#define NFS3_GETATTR 1
#define NFS3_LOOKUP 3
#define NFS3_READ 6
#define NFS3_WRITE 7
#define NFS3_SYMLINK 10
#define NFS3_READDIRPLUS 17
#define NFS3ERR_IO 5
#define MAX_CALLS 512
#define MAX_SRV 512
#define MAX_RRC 64
#define SEG_MAX 4096u       /* bytes per chunk segment the requester offers */
#define FILE_SIZE (1u << 20)

#define FAULT_X_NAME(sym, name, what) name,
#define FAULT_X_WHAT(sym, name, what) what,
static const char *const fault_names[] = { FAULT_LIST(FAULT_X_NAME) };
static const char *const fault_whats[] = { FAULT_LIST(FAULT_X_WHAT) };

const char *fault_name(unsigned f)
{
	return f < FAULT_COUNT ? fault_names[f] : NULL;
}

const char *fault_what(unsigned f)
{
	return f < FAULT_COUNT ? fault_whats[f] : NULL;
}

int fault_by_name(const char *name)
{
	for (unsigned i = 0; i < FAULT_COUNT; i++)
		if (!strcmp(fault_names[i], name))
			return (int)i;
	return -1;
}

const struct scenario scenarios[] = {
	{ "mixed", "every message type and chunk shape: inline NULL, GETATTR "
		   "and LOOKUP; READ by write chunk; WRITE by read chunk; a "
		   "Long Call; READDIRPLUS by reply chunk and (with reliable "
		   "reply) by a responder-provided read chunk" },
	{ "inline", "small inline calls only (NULL, GETATTR, LOOKUP)" },
	{ "null", "NFS NULL calls only" },
	{ "read", "READ calls, data by write chunk" },
	{ "write", "WRITE calls, data by read chunk" },
	{ "long-call", "SYMLINK calls too large to send inline" },
	{ "reply-chunk", "READDIRPLUS with a reply chunk" },
	{ "reliable-reply", "READDIRPLUS with no reply chunk, answered through "
			    "a responder-provided read chunk" },
	{ NULL, NULL },
};

const struct scenario *scenario_find(const char *name)
{
	for (const struct scenario *s = scenarios; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

void peer_config_defaults(struct peer_config *c, bool requester)
{
	memset(c, 0, sizeof(*c));
	c->requester = requester;
	c->credits = requester ? 128 : 64;
	c->bc_credits = 8;
	c->inline_send = c->inline_recv = 4096;
	c->rinval = true;
	c->send_private = true;
	c->backchannel = true;
	c->mtu = 1024;
	c->calls = 64;
	c->scenario = "mixed";
	c->rrc_timeout_ms = 500;
	c->io_size = 8192;
}

uint32_t peer_private_data(const struct peer_config *c, uint8_t out[8])
{
	if (!c->send_private)
		return 0;
	/* the Send With Invalidate fault comes from a side that clears R */
	bool r = c->rinval && !(c->faults & (1u << FAULT_SWI_WITHOUT_R));
	rr_cm_private_encode(out, 1, r, c->inline_send, c->inline_recv);
	return c->faults & (1u << FAULT_TRUNCATED_PD) ? 6 : 8;
}

static uint8_t pattern(uint64_t off)
{
	return (uint8_t)(off * 131u ^ (off >> 9));
}

/* The file's bytes, made once: READ serves them, WRITE and READ check them. */
static const uint8_t *file_image(void)
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

/* ---- engine state -------------------------------------------------------- */

struct call {
	bool used, rrc_pull, expect_error, reply_seen;
	uint32_t xid, proc;
	uint64_t start_us;
	uint64_t offset;
	uint32_t count;
	uint8_t *msg, *data, *reply_buf;
	uint32_t reply_buf_len;
	uint32_t keys[RR_MAX_SEGMENTS];
	unsigned nkeys;
	uint32_t pulls;          /* RDMA READs of the reply still running */
	uint32_t rrc_key;        /* responder's key to name in RDMA_DONE */
	struct rr_rpcrdma hdr;   /* the reply header, while pulling */
};

struct srv_call {
	bool used;
	uint8_t *msg;
	uint32_t len;
	struct rr_rpcrdma hdr;
	uint8_t *pulled;
	uint32_t pulled_len, pending;
	uint32_t seg_at[RR_MAX_SEGMENTS];
};

struct rrc {
	bool used;
	uint32_t xid, key;
	uint8_t *buf;
	uint64_t deadline;
};

struct engine {
	struct peer_config cfg;
	struct xport *x;
	struct rr_inline_thresholds th;
	uint32_t peer_credits_raw;
	/* requester */
	uint32_t granted, in_flight, issued, completed, next_xid;
	bool over_credit_done, vers_fault_done, xid_fault_done;
	bool inline_fault_done, small_chunk_done, done_unknown_done;
	uint64_t next_issue_ms;
	struct call calls[MAX_CALLS];
	/* responder */
	struct srv_call srv[MAX_SRV];
	struct rrc rrc[MAX_RRC];
	uint32_t replies_sent;
	bool zero_credit_done, write_beyond_done, swi_fault_done;
	bool bc_chunk_done;
	/* backward direction */
	uint32_t bc_next_xid, bc_in_flight, bc_granted;
	uint64_t bc_sent;
	bool disconnected;
	char failure[256];
	struct peer_stats st;
	struct rr_note note;
};

static bool fault(const struct engine *e, enum fault f)
{
	return (e->cfg.faults >> f) & 1u;
}

static void fail(struct engine *e, const char *why, uint32_t xid)
{
	e->st.failures++;
	if (!e->failure[0])
		snprintf(e->failure, sizeof(e->failure), "%s (xid 0x%08x)", why,
			 xid);
	if (e->cfg.verbose)
		fprintf(stderr, "rpcrdma-peer: %s (xid 0x%08x)\n", why, xid);
}

struct engine *engine_new(const struct peer_config *cfg, struct xport *x,
			  const uint8_t *peer_pd, uint32_t peer_pd_len)
{
	struct engine *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->cfg = *cfg;
	e->x = x;
	e->st.lat_us = calloc(LAT_MAX, sizeof(uint32_t));
	if (!e->st.lat_us) {
		free(e);
		return NULL;
	}
	/* RFC 8797 §3.1: thresholds from both blocks, defaults when absent */
	struct rr_cm_private mine, theirs;
	uint8_t pd[8];
	uint32_t n = peer_private_data(cfg, pd);
	bool have_mine = rr_cm_private_find(pd, 0, n, n, &mine);
	bool have_theirs = peer_pd_len &&
			   rr_cm_private_find(peer_pd, 0, peer_pd_len,
					      peer_pd_len, &theirs);
	const struct rr_cm_private *req = cfg->requester ?
		(have_mine ? &mine : NULL) : (have_theirs ? &theirs : NULL);
	const struct rr_cm_private *rsp = cfg->requester ?
		(have_theirs ? &theirs : NULL) : (have_mine ? &mine : NULL);
	rr_inline_thresholds(req, rsp, &e->th);
	e->granted = 1;      /* §3.3.3: one credit until the first reply */
	e->bc_granted = 1;
	e->next_xid = cfg->xid_seed ? cfg->xid_seed :
				      0x5a000001u ^ (uint32_t)now_ms();
	e->bc_next_xid = 0xb0000001u;
	return e;
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	for (unsigned i = 0; i < MAX_CALLS; i++) {
		free(e->calls[i].msg);
		free(e->calls[i].data);
		free(e->calls[i].reply_buf);
	}
	for (unsigned i = 0; i < MAX_SRV; i++) {
		free(e->srv[i].msg);
		free(e->srv[i].pulled);
	}
	for (unsigned i = 0; i < MAX_RRC; i++)
		free(e->rrc[i].buf);
	free(e->st.lat_us);
	free(e);
}

const struct peer_stats *engine_stats(const struct engine *e)
{
	return &e->st;
}

/* ---- building messages ---------------------------------------------------- */

static void hdr_init(struct rr_rpcrdma *h, uint32_t xid, uint32_t credits,
		     uint32_t proc)
{
	memset(h, 0, sizeof(*h));
	h->xid = xid;
	h->vers = 1;
	h->credits = credits;
	h->proc = proc;
}

static void rpc_call(struct rr_buf *b, uint32_t xid, uint32_t prog,
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

static void rpc_reply(struct rr_buf *b, uint32_t xid)
{
	struct rr_rpc r = { .xid = xid, .msg_type = RR_RPC_REPLY };
	rr_rpc_encode(b, &r, NULL, NULL);
}

static const uint8_t file_fh[32] = { 1, 0, 7, 0, 0x2d, 0x11, 0x93, 0x8c, 1 };

static void put_fattr3(struct rr_buf *b, uint32_t type, uint64_t size)
{
	uint32_t w[] = { type, 0644, 1, 1000, 1000 };
	for (unsigned i = 0; i < 5; i++)
		rr_put_be32(b, w[i]);
	rr_put_be64(b, size);
	rr_put_be64(b, size);
	rr_put_be64(b, 0);
	rr_put_be64(b, 0x1234);
	rr_put_be64(b, 0x2001);
	for (int i = 0; i < 3; i++) {
		rr_put_be32(b, 1767225600);
		rr_put_be32(b, 0);
	}
}

/* Sends a header followed by body bytes as one message. */
static void send_msg(struct engine *e, const struct rr_rpcrdma *h,
		     const uint8_t *body, uint32_t body_len, uint32_t inv)
{
	uint8_t hdr[2048];
	struct rr_buf b;
	rr_buf_init(&b, hdr, sizeof(hdr));
	if (!rr_rpcrdma_encode(&b, h)) {
		fail(e, "RPC-over-RDMA header does not encode", h->xid);
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

/* ---- requester --------------------------------------------------------- */

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

enum op { OP_NULL, OP_GETATTR, OP_LOOKUP, OP_READ, OP_WRITE, OP_LONG,
	  OP_RDP_CHUNK, OP_RDP_RRC };

static enum op next_op(const struct engine *e, uint32_t i)
{
	static const enum op mixed[] = { OP_NULL, OP_GETATTR, OP_LOOKUP,
					 OP_READ, OP_WRITE, OP_LONG,
					 OP_RDP_CHUNK, OP_RDP_RRC };
	static const enum op small[] = { OP_NULL, OP_GETATTR, OP_LOOKUP };
	const char *s = e->cfg.scenario;
	if (!strcmp(s, "inline"))
		return small[i % 3];
	if (!strcmp(s, "null"))
		return OP_NULL;
	if (!strcmp(s, "read"))
		return OP_READ;
	if (!strcmp(s, "write"))
		return OP_WRITE;
	if (!strcmp(s, "long-call"))
		return OP_LONG;
	if (!strcmp(s, "reply-chunk"))
		return OP_RDP_CHUNK;
	if (!strcmp(s, "reliable-reply"))
		return OP_RDP_RRC;
	enum op o = mixed[i % 8];
	if (o == OP_RDP_RRC && !e->cfg.reliable_reply)
		o = OP_RDP_CHUNK;
	return o;
}

static void issue(struct engine *e)
{
	struct call *c = call_new(e);
	if (!c) {
		fail(e, "too many calls outstanding", 0);
		return;
	}
	enum op o = next_op(e, e->issued);
	uint32_t xid = e->next_xid++;
	uint8_t payload[16384];
	struct rr_buf b;
	struct rr_rpcrdma h;
	uint32_t position = 0;

	hdr_init(&h, xid, e->cfg.credits, RR_RDMA_MSG);
	c->xid = xid;
	c->start_us = now_us();
	rr_buf_init(&b, payload, sizeof(payload));
	uint32_t rpc_xid = xid;
	if (fault(e, FAULT_XID_MISMATCH) && !e->xid_fault_done) {
		e->xid_fault_done = true;
		rpc_xid = xid ^ 0x00ff0000;
	}
	if (fault(e, FAULT_WRONG_VERS) && !e->vers_fault_done) {
		e->vers_fault_done = true;
		h.vers = 2;
		c->expect_error = true;
		o = OP_NULL;
	}
	switch (o) {
	case OP_NULL:
		c->proc = NFS3_NULL;
		rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_NULL);
		break;
	case OP_GETATTR:
		c->proc = NFS3_GETATTR;
		rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_GETATTR);
		rr_put_xdr_opaque(&b, file_fh, sizeof(file_fh));
		break;
	case OP_LOOKUP:
		c->proc = NFS3_LOOKUP;
		rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_LOOKUP);
		rr_put_xdr_opaque(&b, file_fh, sizeof(file_fh));
		rr_put_xdr_opaque(&b, "data.bin", 8);
		break;
	case OP_READ: {
		c->proc = NFS3_READ;
		c->count = e->cfg.io_size;
		c->offset = (uint64_t)(e->issued * 4096u) % (FILE_SIZE - c->count);
		c->data = malloc(c->count);
		if (!c->data)
			abort();
		rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_READ);
		rr_put_xdr_opaque(&b, file_fh, sizeof(file_fh));
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
		memcpy(c->data, file_image() + c->offset, c->count);
		rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_WRITE);
		rr_put_xdr_opaque(&b, file_fh, sizeof(file_fh));
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
		rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_SYMLINK);
		rr_put_xdr_opaque(&b, file_fh, sizeof(file_fh));
		rr_put_xdr_opaque(&b, "link", 4);
		for (int i = 0; i < 6; i++)
			rr_put_be32(&b, 0);  /* sattr3: nothing set */
		uint32_t tlen = e->th.call + 256;
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
		rpc_call(&b, rpc_xid, RR_PROG_NFS, NFS_VERS, NFS3_READDIRPLUS);
		rr_put_xdr_opaque(&b, file_fh, sizeof(file_fh));
		rr_put_be64(&b, 0);
		rr_put_be64(&b, 0);
		rr_put_be32(&b, 4096);
		rr_put_be32(&b, 8192);
		if (o == OP_RDP_CHUNK) {
			/* the reply may pass the reply threshold (§3.4.7) */
			c->reply_buf_len = 8192 + 512;
			if (fault(e, FAULT_REPLY_CHUNK_SMALL) &&
			    !e->small_chunk_done) {
				e->small_chunk_done = true;
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
		fail(e, "call does not fit the buffer", xid);
		c->used = false;
		return;
	}

	/* Too large to send inline: a Long Call (RFC 8166 §3.5.3) */
	uint8_t hdr_bytes[2048];
	struct rr_buf hb;
	rr_buf_init(&hb, hdr_bytes, sizeof(hdr_bytes));
	rr_rpcrdma_encode(&hb, &h);
	bool force_inline = fault(e, FAULT_INLINE_TOO_BIG) &&
			    !e->inline_fault_done && o == OP_LONG;
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
		hdr_init(&lc, xid, h.credits, RR_RDMA_NOMSG);
		lc.vers = h.vers;
		rr_rpcrdma_add_segment(&lc, RR_LIST_READ, 0, 0, key, (uint32_t)b.len, va);
		for (unsigned i = 0; i < h.nsegs; i++)
			if (h.segs[i].list != RR_LIST_READ)
				lc.segs[lc.nsegs++] = h.segs[i];
		h = lc;
		e->st.long_calls++;
		send_msg(e, &h, NULL, 0, 0);
	} else {
		if (force_inline)
			e->inline_fault_done = true;
		send_msg(e, &h, payload, (uint32_t)b.len, 0);
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
		if (fault(e, FAULT_OVER_CREDIT) && !e->over_credit_done &&
		    e->in_flight == allowed) {
			/* one call more than granted, once */
			e->over_credit_done = true;
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
	if (fault(e, FAULT_DONE_UNKNOWN) && !e->done_unknown_done &&
	    e->completed > 0) {
		struct rr_rpcrdma d;
		e->done_unknown_done = true;
		hdr_init(&d, 0xdead0001, e->cfg.credits, RR_RDMA_DONE);
		send_msg(e, &d, NULL, 0, 0);
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

static void call_finish(struct engine *e, struct call *c)
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

/* The RPC reply, wherever it arrived: check what the procedure promised. */
static void check_reply(struct engine *e, struct call *c, const uint8_t *rpc,
			uint32_t len, const struct rr_rpcrdma *h)
{
	struct rr_rpc r;
	if (rr_rpc_decode(rpc, 0, len, len, &r, &e->note) != RR_COMPLETE ||
	    r.msg_type != RR_RPC_REPLY || r.reply_stat != RR_RPC_MSG_ACCEPTED ||
	    r.accept_stat != RR_RPC_SUCCESS) {
		fail(e, "reply is not an accepted RPC reply", c->xid);
		return;
	}
	struct rr_xdr x;
	rr_xdr_init(&x, rpc + r.body.off, r.body.len);
	uint32_t status = c->proc == NFS3_NULL ? 0 : rr_xdr_u32(&x);
	if (status != 0) {
		fail(e, "NFS status not OK", c->xid);
		return;
	}
	if (c->proc == NFS3_READ) {
		rr_xdr_u32(&x);              /* post_op_attr absent */
		uint32_t count = rr_xdr_u32(&x);
		rr_xdr_u32(&x);              /* eof */
		uint32_t datalen = rr_xdr_u32(&x);
		uint32_t written = 0;
		for (unsigned i = 0; i < h->nsegs; i++)
			if (h->segs[i].list == RR_LIST_WRITE)
				written += h->segs[i].length;
		if (x.error || count != c->count || datalen != c->count ||
		    written != c->count) {
			fail(e, "READ reply counts do not match the write chunk",
			     c->xid);
			return;
		}
		if (memcmp(c->data, file_image() + c->offset, c->count)) {
			fail(e, "READ data differs from the file", c->xid);
			return;
		}
	}
	if (c->proc == NFS3_WRITE) {
		rr_xdr_u32(&x);              /* wcc before */
		rr_xdr_u32(&x);              /* wcc after */
		if (rr_xdr_u32(&x) != c->count || x.error)
			fail(e, "WRITE reply count differs", c->xid);
	}
}

static void send_done(struct engine *e, struct call *c)
{
	if (fault(e, FAULT_MISSING_DONE))
		return;
	struct rr_rpcrdma d;
	hdr_init(&d, c->xid, e->cfg.credits, RR_RDMA_DONE);
	/* draft §4: with both R bits, DONE may invalidate the responder's key */
	uint32_t inv = e->th.remote_invalidation ? c->rrc_key : 0;
	send_msg(e, &d, NULL, 0, inv);
	e->st.dones++;
}

static void requester_reply(struct engine *e, const uint8_t *m,
			    const struct rr_rpcrdma *h)
{
	struct call *c = call_find(e, h->xid);
	if (!c) {
		fail(e, "reply for no outstanding call", h->xid);
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
			fail(e, "unexpected RDMA_ERROR", c->xid);
		call_finish(e, c);
		return;
	}
	if (c->expect_error && !fault(e, FAULT_REPLY_CHUNK_SMALL))
		fail(e, "a call built to fail was answered", c->xid);
	if (h->proc == RR_RDMA_MSG) {
		for (unsigned i = 0; i < h->nsegs; i++)
			if (h->segs[i].list == RR_LIST_WRITE)
				e->st.write_bytes += h->segs[i].length;
		check_reply(e, c, m + h->payload.off, h->payload.len, h);
		call_finish(e, c);
		return;
	}
	if (h->proc != RR_RDMA_NOMSG) {
		fail(e, "reply with an unexpected procedure", c->xid);
		call_finish(e, c);
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
			fail(e, "reply chunk lengths exceed what was offered",
			     c->xid);
		} else {
			check_reply(e, c, c->reply_buf, n, h);
		}
		call_finish(e, c);
		return;
	}
	fail(e, "RDMA_NOMSG reply without a usable chunk", c->xid);
	call_finish(e, c);
}

/* ---- responder ----------------------------------------------------------- */

static uint32_t grant(struct engine *e)
{
	if (fault(e, FAULT_ZERO_CREDIT) && !e->zero_credit_done &&
	    e->replies_sent == 3) {
		e->zero_credit_done = true;
		return 0;
	}
	if (e->cfg.vary_credits && (e->replies_sent / 16) % 2)
		return e->cfg.credits / 2 ? e->cfg.credits / 2 : 1;
	return e->cfg.credits;
}

static void reply_error(struct engine *e, uint32_t xid, uint32_t vers,
			uint32_t err)
{
	struct rr_rpcrdma h;
	hdr_init(&h, xid, grant(e), RR_RDMA_ERROR);
	h.vers = vers;  /* §4.5: echo the caller's version */
	h.err = err;
	h.vers_low = h.vers_high = 1;
	send_msg(e, &h, NULL, 0, 0);
	e->replies_sent++;
}

/* Send With Invalidate: only when both set R (RFC 8797 §4.2), or forced. */
static uint32_t invalidate_key(struct engine *e, const struct rr_rpcrdma *call)
{
	bool forced = fault(e, FAULT_SWI_WITHOUT_R) && !e->swi_fault_done;
	if (!e->th.remote_invalidation && !forced)
		return 0;
	for (unsigned i = 0; i < call->nsegs; i++)
		if (call->segs[i].list != RR_LIST_READ) {
			if (forced)
				e->swi_fault_done = true;
			e->st.invalidations++;
			return call->segs[i].handle;
		}
	return 0;
}

/* READDIRPLUS3res for the one directory, built once. */
static void readdirplus_body(struct rr_buf *b);

static void readdirplus_reply(struct rr_buf *b, uint32_t xid)
{
	static uint8_t body[8192];
	static size_t body_len;
	if (!body_len) {
		struct rr_buf bb;
		rr_buf_init(&bb, body, sizeof(body));
		readdirplus_body(&bb);
		body_len = bb.len;
	}
	rpc_reply(b, xid);
	rr_put_bytes(b, body, body_len);
}

static void readdirplus_body(struct rr_buf *b)
{
	rr_put_be32(b, 0);
	rr_put_be32(b, 0);                   /* directory attributes absent */
	rr_put_be64(b, 0x0123456789abcdefull);
	for (int i = 0; i < 40; i++) {
		char name[24];
		int n = snprintf(name, sizeof(name), "file%03d.dat", i);
		rr_put_be32(b, 1);
		rr_put_be64(b, 0x3000u + (unsigned)i);
		rr_put_xdr_opaque(b, name, (uint32_t)n);
		rr_put_be64(b, (uint64_t)i + 1);
		rr_put_be32(b, 1);
		put_fattr3(b, 1, 4096u * (unsigned)i);
		rr_put_be32(b, 1);
		rr_put_xdr_opaque(b, file_fh, sizeof(file_fh));
	}
	rr_put_be32(b, 0);
	rr_put_be32(b, 1);                   /* eof */
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
		send_msg(e, h, rpc, len, inv);
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
		send_msg(e, h, NULL, 0, inv);
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
			send_msg(e, h, NULL, 0, inv);
			e->st.rrc++;
			e->replies_sent++;
			return;
		}
	}
	reply_error(e, h->xid, 1, RR_ERR_CHUNK);
	e->st.errors_chunk++;
}

static void rrc_release(struct engine *e, struct rrc *r)
{
	xp_dereg(e->x, r->key);
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

/* Backward direction (RFC 8167): the responder calls the requester. */
static void bc_call(struct engine *e)
{
	if (!e->cfg.backchannel || e->bc_in_flight >= e->bc_granted)
		return;
	uint8_t body[512];
	struct rr_buf b;
	struct rr_rpcrdma h;
	uint32_t xid = e->bc_next_xid++;
	bool compound = e->bc_sent % 2;
	rr_buf_init(&b, body, sizeof(body));
	rpc_call(&b, xid, RR_PROG_NFS4_CB, 1, compound ? 1 : 0);
	if (compound) {
		/* CB_COMPOUND with one CB_RECALL (RFC 8881 §20.2) */
		rr_put_xdr_opaque(&b, "", 0);   /* tag */
		rr_put_be32(&b, 1);             /* minorversion */
		rr_put_be32(&b, 1);             /* callback_ident */
		rr_put_be32(&b, 1);             /* one operation */
		rr_put_be32(&b, 4);             /* OP_CB_RECALL */
		rr_put_be32(&b, 1);             /* stateid seqid */
		rr_put_bytes(&b, "recallstate!", 12);
		rr_put_be32(&b, 0);             /* truncate */
		rr_put_xdr_opaque(&b, file_fh, sizeof(file_fh));
	}
	hdr_init(&h, xid, e->cfg.bc_credits, RR_RDMA_MSG);
	if (fault(e, FAULT_BC_CHUNKS) && !e->bc_chunk_done) {
		/* a chunk the bidirection draft forbids in this direction */
		static uint8_t dummy[256];
		uint64_t va;
		e->bc_chunk_done = true;
		uint32_t key = xp_reg(e->x, dummy, sizeof(dummy), &va);
		rr_rpcrdma_add_segment(&h, RR_LIST_REPLY, 0, 0, key, sizeof(dummy), va);
	}
	send_msg(e, &h, body, (uint32_t)b.len, 0);
	e->bc_in_flight++;
	e->bc_sent++;
	e->st.bc_calls++;
}

static void execute(struct engine *e, struct srv_call *s, const uint8_t *rpc,
		    uint32_t len)
{
	const struct rr_rpcrdma *call = &s->hdr;
	struct rr_rpc r;
	struct rr_rpcrdma h;
	hdr_init(&h, call->xid, grant(e), RR_RDMA_MSG);
	if (rr_rpc_decode(rpc, 0, len, len, &r, &e->note) != RR_COMPLETE ||
	    r.msg_type != RR_RPC_CALL) {
		reply_error(e, call->xid, 1, RR_ERR_CHUNK);
		return;
	}
	if (r.prog == RR_PROG_NFS && r.proc < 32)
		e->st.by_proc[r.proc]++;
	e->st.calls++;
	/* a backward call before every eighth reply */
	if (e->st.calls % 8 == 0)
		bc_call(e);

	static uint8_t out[16384];
	struct rr_buf b;
	struct rr_xdr x;
	rr_buf_init(&b, out, sizeof(out));
	rr_xdr_init(&x, rpc + r.body.off, r.body.len);
	rpc_reply(&b, r.xid);
	switch (r.prog == RR_PROG_NFS ? r.proc : 0xFFFF) {
	case NFS3_NULL:
		break;
	case NFS3_GETATTR:
		rr_put_be32(&b, 0);
		put_fattr3(&b, 1, FILE_SIZE);
		break;
	case NFS3_LOOKUP:
		rr_put_be32(&b, 0);
		rr_put_xdr_opaque(&b, file_fh, sizeof(file_fh));
		rr_put_be32(&b, 1);
		put_fattr3(&b, 1, FILE_SIZE);
		rr_put_be32(&b, 0);
		break;
	case NFS3_READ: {
		uint32_t fhlen;
		rr_xdr_opaque(&x, 64, &fhlen);
		uint64_t off = rr_xdr_u64(&x);
		uint32_t count = rr_xdr_u32(&x);
		if (x.error || off > FILE_SIZE || count > FILE_SIZE - off) {
			reply_error(e, call->xid, 1, RR_ERR_CHUNK);
			return;
		}
		const uint8_t *data = file_image() + off;
		rr_put_be32(&b, 0);
		rr_put_be32(&b, 0);
		rr_put_be32(&b, count);
		rr_put_be32(&b, 1);
		rr_put_be32(&b, count);  /* data<>: in the write chunk */
		/* §3.4.6: push into the first write chunk, report what fit */
		uint32_t done = 0;
		bool have_chunk = false;
		for (unsigned i = 0; i < call->nsegs; i++) {
			const struct rr_rdma_seg *sg = &call->segs[i];
			if (sg->list != RR_LIST_WRITE || sg->chunk != 0)
				continue;
			have_chunk = true;
			uint32_t n = count - done < sg->length ? count - done :
								   sg->length;
			uint32_t wire_n = n;
			bool more_segs = i + 1 < call->nsegs &&
					 call->segs[i + 1].list == RR_LIST_WRITE &&
					 call->segs[i + 1].handle == sg->handle;
			if (fault(e, FAULT_WRITE_BEYOND) && !e->write_beyond_done &&
			    n && more_segs) {
				/*
				 * 100 bytes past the segment, still inside the
				 * key's registration (the next segment, written
				 * again right after), so only the one rule breaks
				 */
				e->write_beyond_done = true;
				static uint8_t beyond[SEG_MAX + 100];
				memcpy(beyond, data + done, n);
				memset(beyond + n, 0xEE, 100);
				xp_write(e->x, sg->handle, sg->offset, beyond,
					 n + 100);
				wire_n = n + 100;
			} else if (n) {
				xp_write(e->x, sg->handle, sg->offset,
					 data + done, n);
			}
			e->st.write_bytes += wire_n;
			rr_rpcrdma_add_segment(&h, RR_LIST_WRITE, 0, 0, sg->handle, n,
				sg->offset);
			done += n;
		}
		if (!have_chunk) {
			/* no write chunk: the data goes inline */
			b.len -= 4;
			rr_put_xdr_opaque(&b, data, count);
		} else if (done < count) {
			reply_error(e, call->xid, 1, RR_ERR_CHUNK);
			return;
		}
		break;
	}
	case NFS3_WRITE: {
		uint32_t fhlen, dlen;
		rr_xdr_opaque(&x, 64, &fhlen);
		uint64_t off = rr_xdr_u64(&x);
		uint32_t count = rr_xdr_u32(&x);
		uint32_t stable = rr_xdr_u32(&x);
		const uint8_t *data = rr_xdr_opaque(&x, 1u << 20, &dlen);
		bool ok = !x.error && dlen == count && off <= FILE_SIZE &&
			  count <= FILE_SIZE - off &&
			  !memcmp(data, file_image() + off, count);
		rr_put_be32(&b, ok ? 0 : NFS3ERR_IO);
		rr_put_be32(&b, 0);
		rr_put_be32(&b, 0);
		if (ok) {
			rr_put_be32(&b, count);
			rr_put_be32(&b, stable);
			rr_put_be64(&b, 0x5eed5eed5eed5eedull);
		}
		break;
	}
	case NFS3_SYMLINK:
		rr_put_be32(&b, 0);
		rr_put_be32(&b, 1);
		rr_put_xdr_opaque(&b, file_fh, sizeof(file_fh));
		rr_put_be32(&b, 0);
		rr_put_be32(&b, 0);
		rr_put_be32(&b, 0);
		break;
	case NFS3_READDIRPLUS:
		b.len = 0;
		readdirplus_reply(&b, r.xid);
		break;
	default: {
		/* PROC_UNAVAIL */
		struct rr_rpc rep = { .xid = r.xid, .msg_type = RR_RPC_REPLY,
				      .accept_stat = RR_RPC_PROC_UNAVAIL };
		b.len = 0;
		rr_rpc_encode(&b, &rep, NULL, NULL);
		break;
	}
	}
	/* §4.3.2: the reply carries the call's write list, lengths used */
	bool has_write = false;
	for (unsigned i = 0; i < h.nsegs; i++)
		has_write |= h.segs[i].list == RR_LIST_WRITE;
	if (has_write)
		h.nwrite_chunks = 1;
	send_reply(e, call, out, (uint32_t)b.len, &h);
}

/* All read chunks are in: rebuild the call (§3.4.5) and run it. */
static void srv_complete(struct engine *e, struct srv_call *s)
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
			reply_error(e, h->xid, 1, RR_ERR_CHUNK);
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

static void responder_call(struct engine *e, uint8_t *m, uint32_t len,
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
		reply_error(e, h->xid, 1, RR_ERR_CHUNK);
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

/* ---- events ----------------------------------------------------------- */

static void on_read_done(struct engine *e, uint64_t cookie)
{
	uint32_t slot = (uint32_t)(cookie >> 8);
	if ((cookie & 0xFF) == 1 && slot < MAX_CALLS) {
		struct call *c = &e->calls[slot];
		if (!c->used || !c->rrc_pull || --c->pulls)
			return;
		e->st.read_bytes += c->reply_buf_len;
		check_reply(e, c, c->reply_buf, c->reply_buf_len, &c->hdr);
		send_done(e, c);
		call_finish(e, c);
	} else if ((cookie & 0xFF) == 2 && slot < MAX_SRV) {
		struct srv_call *s = &e->srv[slot];
		if (s->used && --s->pending == 0)
			srv_complete(e, s);
	}
}

/* RFC 8167 §4: a CALL from the responder, or a REPLY from the requester. */
static bool is_backward(const struct engine *e, const uint8_t *m,
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

static void on_recv(struct engine *e, uint8_t *m, uint32_t len)
{
	struct rr_rpcrdma h;
	enum rr_status st = rr_rpcrdma_decode(m, 0, len, len, &h, &e->note);
	if (st == RR_TRUNCATED || st == RR_MALFORMED) {
		if (!e->cfg.requester && len >= 16)
			reply_error(e, h.xid, 1, RR_ERR_CHUNK);
		else
			fail(e, "malformed RPC-over-RDMA header", h.xid);
		free(m);
		return;
	}
	if (!e->cfg.requester && h.vers != 1) {
		reply_error(e, h.xid, h.vers, RR_ERR_VERS);
		e->st.errors_vers++;
		free(m);
		return;
	}
	if (is_backward(e, m, &h)) {
		if (e->cfg.requester) {
			/* answer the backward call inline, empty lists */
			uint8_t body[256];
			struct rr_buf b;
			struct rr_rpcrdma r;
			struct rr_rpc rpc;
			rr_rpc_decode(m, h.payload.off, h.payload.len,
				      h.payload.len, &rpc, &e->note);
			rr_buf_init(&b, body, sizeof(body));
			rpc_reply(&b, rpc.xid);
			if (rpc.proc == 1) {
				rr_put_be32(&b, 0);          /* NFS4_OK */
				rr_put_xdr_opaque(&b, "", 0);
				rr_put_be32(&b, 1);
				rr_put_be32(&b, 4);          /* OP_CB_RECALL */
				rr_put_be32(&b, 0);
			}
			hdr_init(&r, h.xid, e->cfg.bc_credits, RR_RDMA_MSG);
			send_msg(e, &r, body, (uint32_t)b.len, 0);
			e->st.bc_replies++;
		} else {
			if (e->bc_in_flight)
				e->bc_in_flight--;
			e->bc_granted = h.credits ? h.credits : 1;
			e->st.bc_replies++;
		}
		free(m);
		return;
	}
	if (e->cfg.requester) {
		requester_reply(e, m, &h);
		free(m);
		return;
	}
	switch (h.proc) {
	case RR_RDMA_MSG:
	case RR_RDMA_NOMSG:
		responder_call(e, m, len, &h);
		return;
	case RR_RDMA_MSGP:
		reply_error(e, h.xid, 1, RR_ERR_CHUNK);
		break;
	case RR_RDMA_DONE:
		/* release the read chunk; unknown xids are dropped silently */
		for (unsigned i = 0; i < MAX_RRC; i++)
			if (e->rrc[i].used && e->rrc[i].xid == h.xid)
				rrc_release(e, &e->rrc[i]);
		e->st.dones++;
		break;
	default:
		break;
	}
	free(m);
}

void engine_event(struct engine *e, struct xev *ev)
{
	switch (ev->kind) {
	case XEV_RECV:
		on_recv(e, ev->data, ev->len);
		ev->data = NULL;
		break;
	case XEV_READ_DONE:
		on_read_done(e, ev->cookie);
		break;
	case XEV_DISCONNECTED:
		e->disconnected = true;
		break;
	case XEV_ERROR:
		fail(e, ev->why ? ev->why : "transport error", 0);
		break;
	}
}

void engine_tick(struct engine *e, uint64_t now)
{
	for (unsigned i = 0; i < MAX_RRC; i++)
		if (e->rrc[i].used && now >= e->rrc[i].deadline)
			rrc_release(e, &e->rrc[i]);
}

bool engine_done(const struct engine *e)
{
	if (e->cfg.requester)
		return e->issued >= e->cfg.calls && e->in_flight == 0;
	return e->disconnected;
}

bool engine_quiet(const struct engine *e)
{
	if (e->in_flight || e->bc_in_flight)
		return false;
	for (unsigned i = 0; i < MAX_SRV; i++)
		if (e->srv[i].used)
			return false;
	return true;
}

const char *engine_failure(const struct engine *e)
{
	if (e->failure[0])
		return e->failure;
	if (e->cfg.requester && e->completed < e->cfg.calls)
		return "not every call was answered";
	if (e->cfg.requester && e->cfg.backchannel && e->cfg.calls >= 8 &&
	    !strcmp(e->cfg.scenario, "mixed") && e->st.bc_replies == 0)
		return "no backward-direction call arrived";
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

void engine_print_summary(const struct engine *e, FILE *out, double secs)
{
	const struct peer_stats *s = &e->st;
	const struct xport_stats *x = &e->x->st;
	uint32_t *lat = malloc((s->nlat ? s->nlat : 1) * sizeof(*lat));
	if (!lat)
		return;
	memcpy(lat, s->lat_us, s->nlat * sizeof(*lat));
	qsort(lat, s->nlat, sizeof(*lat), cmp_u32);
#define PCT(p) (s->nlat ? lat[(uint32_t)((s->nlat - 1) * (p))] : 0)
	fprintf(out,
		"calls %llu  replies %llu  in %.3f s (%.0f calls/s)\n"
		"bytes: inline %llu  RDMA Read %llu  RDMA Write %llu\n"
		"chunks: write %llu  read %llu  long calls %llu  reply %llu  "
		"responder-provided %llu  RDMA_DONE %llu\n"
		"backward: calls %llu  replies %llu   errors: ERR_VERS %llu  "
		"ERR_CHUNK %llu\n"
		"latency us: p50 %u  p90 %u  p99 %u  max %u\n"
		"transport: packets %llu  retransmitted %llu  dropped %llu\n",
		(unsigned long long)s->calls, (unsigned long long)s->replies,
		secs, secs > 0 ? (double)s->replies / secs : 0.0,
		(unsigned long long)x->send_bytes,
		(unsigned long long)s->read_bytes,
		(unsigned long long)s->write_bytes,
		(unsigned long long)s->write_chunks,
		(unsigned long long)s->read_chunks,
		(unsigned long long)s->long_calls,
		(unsigned long long)s->reply_chunks,
		(unsigned long long)s->rrc, (unsigned long long)s->dones,
		(unsigned long long)s->bc_calls,
		(unsigned long long)s->bc_replies,
		(unsigned long long)s->errors_vers,
		(unsigned long long)s->errors_chunk, PCT(0.5), PCT(0.9),
		PCT(0.99), PCT(1.0), (unsigned long long)x->packets,
		(unsigned long long)x->retransmits,
		(unsigned long long)x->dropped);
#undef PCT
	free(lat);
	fprintf(out, "procedures:");
	for (unsigned p = 0; p < 32; p++)
		if (s->by_proc[p])
			fprintf(out, " %s %llu", rr_rpc_proc_str(RR_PROG_NFS, 3, p) ?
					       rr_rpc_proc_str(RR_PROG_NFS, 3, p) : "?",
				(unsigned long long)s->by_proc[p]);
	fprintf(out, "\n");
}
