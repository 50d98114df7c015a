/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Checks the RPC messages the analyzer rebuilds from chunk data against
 * what the reference peer put in them, parsing each as NFSv3 (RFC 1813):
 * a WRITE call's data and a READ reply's data are the peer's file bytes
 * at the offset asked for, a SYMLINK call's target is its alphabet, a
 * READDIRPLUS reply lists its 40 entries and ends at eof, and every
 * message ends exactly where its XDR does; a rebuilt call carries its
 * SEND's time stamp, a rebuilt reply none.  Prints, per capture, how many
 * messages each kind of chunk gave; exits 1 on any wrong byte.
 * usage: rebuild-check CAPTURE... (captures of rpcrdma-peer)
 */
#define _DEFAULT_SOURCE
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#include <rpcrdma/analyzer.h>
#include <rpcrdma/xdr.h>

#define NFS_PROG 100003u
#define READ_OFFSETS 4096

struct read_offset {
	uint32_t xid;
	uint64_t offset;
};

struct check {
	const char *capture;
	unsigned long by_source[RR_KIND_COUNT], bad;
	/* READ calls: the offset each asked for, by xid */
	struct read_offset reads[READ_OFFSETS];
	/* calls: when each one's SEND arrived, by xid */
	struct { uint32_t xid; uint64_t ts_ns; } sent[READ_OFFSETS];
};

/* The peer's file: byte i of it (peer/engine.c, pattern). */
static uint8_t file_byte(uint64_t off)
{
	return (uint8_t)(off * 131u ^ (off >> 9));
}

static bool file_bytes(const uint8_t *p, uint32_t n, uint64_t off)
{
	for (uint32_t i = 0; i < n; i++)
		if (p[i] != file_byte(off + i))
			return false;
	return true;
}

static void bad(struct check *c, const struct rr_event *ev, const char *why)
{
	uint32_t xid = ev->kind == RR_EV_MESSAGE ? ev->msg.hdr->xid : ev->rebuilt.xid;
	const char *source = ev->kind == RR_EV_MESSAGE ? "inline" :
						       rr_chunk_kind_str(ev->rebuilt.source);
	fprintf(stderr, "%s: frame %" PRIu64 " xid 0x%08" PRIx32 " (%s): %s\n",
		c->capture, ev->frame, xid, source, why);
	c->bad++;
}

static void skip_fattr3(struct rr_xdr *x)
{
	/* type mode nlink uid gid; size used rdev fsid fileid; 3 times */
	for (int i = 0; i < 5; i++)
		rr_xdr_u32(x);
	for (int i = 0; i < 5; i++)
		rr_xdr_u64(x);
	for (int i = 0; i < 6; i++)
		rr_xdr_u32(x);
}

static const char *check_call(const struct rr_rpc *r, struct rr_xdr *x)
{
	uint32_t n;
	if (r->proc == 7) { /* WRITE3args */
		rr_xdr_opaque(x, 64, &n);
		uint64_t off = rr_xdr_u64(x);
		uint32_t count = rr_xdr_u32(x);
		rr_xdr_u32(x);
		const uint8_t *data = rr_xdr_opaque(x, 1u << 20, &n);
		if (x->error || n != count)
			return "WRITE arguments do not parse";
		if (!file_bytes(data, n, off))
			return "WRITE data differs from the file";
	} else if (r->proc == 10) { /* SYMLINK3args */
		rr_xdr_opaque(x, 64, &n);
		rr_xdr_opaque(x, 255, &n);
		for (int i = 0; i < 6; i++)
			rr_xdr_u32(x);
		const uint8_t *t = rr_xdr_opaque(x, 1u << 20, &n);
		if (x->error || n == 0)
			return "SYMLINK arguments do not parse";
		for (uint32_t i = 0; i < n; i++)
			if (t[i] != 'a' + i % 26)
				return "SYMLINK target differs";
	}
	return NULL;
}

static const char *check_reply(struct check *c, uint32_t xid,
			       const struct rr_ev_rpc_message *ev, struct rr_xdr *x)
{
	uint32_t n;
	if (rr_xdr_u32(x) != 0)
		return "NFS status not OK";
	if (ev->proc == 6) { /* READ3resok */
		if (rr_xdr_u32(x))
			skip_fattr3(x);
		uint32_t count = rr_xdr_u32(x);
		rr_xdr_u32(x);
		const uint8_t *data = rr_xdr_opaque(x, 1u << 20, &n);
		if (x->error || n != count)
			return "READ results do not parse";
		if (c->reads[xid % READ_OFFSETS].xid != xid)
			return "READ reply with no call seen";
		return file_bytes(data, n, c->reads[xid % READ_OFFSETS].offset) ?
			       NULL : "READ data differs from the file";
	}
	if (ev->proc == 17) { /* READDIRPLUS3resok */
		if (rr_xdr_u32(x))
			skip_fattr3(x);
		rr_xdr_u64(x);
		unsigned entries = 0;
		while (rr_xdr_u32(x) == 1 && !x->error) {
			rr_xdr_u64(x);
			rr_xdr_opaque(x, 255, &n);
			rr_xdr_u64(x);
			if (rr_xdr_u32(x))
				skip_fattr3(x);
			if (rr_xdr_u32(x))
				rr_xdr_opaque(x, 64, &n);
			entries++;
		}
		if (rr_xdr_u32(x) != 1 || x->error || entries != 40)
			return "READDIRPLUS results do not parse";
	}
	return NULL;
}

static void take_event(struct check *c, const struct rr_event *ev)
{
	if ((ev->kind == RR_EV_MESSAGE && !ev->msg.data) ||
	    (ev->kind == RR_EV_RPC_MESSAGE && !ev->rebuilt.data)) {
		bad(c, ev, "the report kept no bytes");
		return;
	}
	const struct rr_ev_message *m = &ev->msg;
	if (ev->kind == RR_EV_MESSAGE && ev->dir == RR_DIR_FWD_CALL) {
		c->sent[m->hdr->xid % READ_OFFSETS].xid = m->hdr->xid;
		c->sent[m->hdr->xid % READ_OFFSETS].ts_ns = ev->ts_ns;
	}
	if (ev->kind == RR_EV_MESSAGE && m->rpc &&
	    m->rpc->msg_type == RR_RPC_CALL && m->rpc->prog == NFS_PROG &&
	    m->rpc->proc == 6 && m->rpc->body.off <= m->data_len) {
		/* READ3args: the offset the reply's data must come from */
		struct rr_xdr x;
		uint32_t n;
		rr_xdr_init(&x, m->data + m->rpc->body.off,
			    m->data_len - m->rpc->body.off);
		rr_xdr_opaque(&x, 64, &n);
		uint64_t off = rr_xdr_u64(&x);
		if (!x.error)
			c->reads[m->hdr->xid % READ_OFFSETS] =
				(struct read_offset){ m->hdr->xid, off };
		return;
	}
	if (ev->kind != RR_EV_RPC_MESSAGE)
		return;
	const struct rr_ev_rpc_message *rb = &ev->rebuilt;
	c->by_source[rb->source < RR_KIND_COUNT ? rb->source : 0]++;
	if (ev->dir == RR_DIR_FWD_CALL &&
	    (c->sent[rb->xid % READ_OFFSETS].xid != rb->xid ||
	     c->sent[rb->xid % READ_OFFSETS].ts_ns != rb->call_ts_ns))
		bad(c, ev, "the call's time stamp is not its SEND's");
	if (ev->dir == RR_DIR_FWD_REPLY && rb->call_ts_ns)
		bad(c, ev, "a reply carries a call's time stamp");
	const struct rr_rpc *r = rb->rpc;
	if (!r) {
		bad(c, ev, "not an RPC message");
		return;
	}
	if (r->xid != rb->xid)
		return; /* the xid-mismatch fault: a finding, checked elsewhere */
	struct rr_xdr x;
	rr_xdr_init(&x, rb->data + r->body.off, rb->data_len - r->body.off);
	const char *why;
	if (r->msg_type == RR_RPC_CALL) {
		if (r->prog != NFS_PROG || r->vers != 3) {
			bad(c, ev, "not an NFSv3 call");
			return;
		}
		why = check_call(r, &x);
	} else {
		if (r->reply_stat != RR_RPC_MSG_ACCEPTED ||
		    r->accept_stat != RR_RPC_SUCCESS) {
			bad(c, ev, "reply not accepted");
			return;
		}
		why = check_reply(c, r->xid, rb, &x);
	}
	if (!why && x.pos != x.len)
		why = "bytes left after the XDR";
	if (why)
		bad(c, ev, why);
}

int main(int argc, char **argv)
{
	static struct check c;
	int rc = 0;
	for (int i = 1; i < argc; i++) {
		char err[PCAP_ERRBUF_SIZE];
		pcap_t *p = pcap_open_offline(argv[i], err);
		if (!p) {
			fprintf(stderr, "rebuild-check: %s\n", err);
			return 2;
		}
		memset(&c, 0, sizeof(c));
		const char *slash = strrchr(argv[i], '/');
		c.capture = slash ? slash + 1 : argv[i];
		struct rr_config cfg;
		struct rr_analyzer_limits lim;
		rr_config_init(&cfg);
		rr_analyzer_limits_init(&lim);
		lim.report_bytes = 4u << 20; /* every rebuilt message's bytes */
		struct rr_analyzer *a = rr_analyzer_new(&cfg, &lim);
		if (!a) {
			fprintf(stderr, "rebuild-check: no memory for the analyzer\n");
			return 2;
		}
		struct pcap_pkthdr *h;
		const u_char *d;
		while (pcap_next_ex(p, &h, &d) == 1) {
			const struct rr_frame_report *r =
				rr_analyzer_frame(a, (uint32_t)pcap_datalink(p),
						  (uint64_t)h->ts.tv_sec * 1000000000u +
							  (uint64_t)h->ts.tv_usec * 1000u,
						  d, h->caplen, h->len);
			for (uint32_t e = 0; e < r->nevents; e++)
				take_event(&c, &r->events[e]);
			if (r->unreported || r->bytes_unkept)
				c.bad++;
		}
		while (rr_analyzer_finish(a))
			;
		const struct rr_stats *st = rr_analyzer_stats(a);
		printf("%s:", c.capture);
		for (unsigned k = 1; k < RR_KIND_COUNT; k++)
			printf(" %s %lu", rr_chunk_kind_str(k), c.by_source[k]);
		printf(" incomplete %" PRIu64 " wrong %lu\n", st->rebuild_incomplete,
		       c.bad);
		if (c.bad)
			rc = 1;
		rr_analyzer_free(a);
		pcap_close(p);
	}
	return rc;
}
