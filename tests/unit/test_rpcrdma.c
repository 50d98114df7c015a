/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RPC-over-RDMA v1 header (RFC 8166 §4), ONC RPC header (RFC 5531 §9) and
 * RFC 8797 private data, from byte vectors written out of the RFC layouts;
 * each is also rebuilt with the encoder and must come out byte for byte.
 */
#include <stdlib.h>
#include <string.h>

#include <rpcrdma/analyzer.h>
#include <rpcrdma/encode.h>

#include "check.h"

/* libdissect's table-driven CRCs, internal to the library */
uint32_t rr_crc32_portable(uint32_t crc, const void *buf, size_t len);
uint32_t rr_crc32_pair(uint32_t crc, const void *a, size_t alen,
		       const void *b, size_t blen);
uint32_t rr_crc32c_portable(uint32_t crc, const void *buf, size_t len);

/* Words in network order, as the RFC draws them. */
static size_t words(uint8_t *out, const uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		out[4 * i] = (uint8_t)(w[i] >> 24);
		out[4 * i + 1] = (uint8_t)(w[i] >> 16);
		out[4 * i + 2] = (uint8_t)(w[i] >> 8);
		out[4 * i + 3] = (uint8_t)w[i];
	}
	return 4 * n;
}

static struct rr_rpcrdma h;
static struct rr_note note;

static enum rr_status decode(const uint8_t *p, size_t len)
{
	return rr_rpcrdma_decode(p, 0, (uint32_t)len, (uint32_t)len, &h, &note);
}

/* decode(bytes) then encode(decoded) must give the same bytes back. */
static void roundtrip(const uint8_t *p, size_t hdr_len)
{
	uint8_t out[2048];
	struct rr_buf b;
	rr_buf_init(&b, out, sizeof(out));
	CHECK(rr_rpcrdma_encode(&b, &h));
	CHECK_EQ(b.len, hdr_len);
	CHECK(memcmp(out, p, hdr_len) == 0);
}

#define XID 0x0badcafe
#define H(off) (uint32_t)(off >> 32), (uint32_t)(off & 0xffffffff)

static void test_msg_empty_lists(void)
{
	check_ctx = "RDMA_MSG, empty lists";
	/* xid vers credits proc | 0 0 0 | RPC call: xid CALL 2 prog vers proc */
	const uint32_t w[] = { XID, 1, 32, 0, 0, 0, 0,
			       XID, 0, 2, 100003, 3, 0, 0, 0, 0, 0 };
	uint8_t p[128];
	size_t n = words(p, w, sizeof(w) / 4);
	CHECK_EQ(decode(p, n), RR_COMPLETE);
	CHECK_EQ(h.xid, XID);
	CHECK_EQ(h.vers, 1);
	CHECK_EQ(h.credits, 32);
	CHECK_EQ(h.proc, RR_RDMA_MSG);
	CHECK_EQ(h.nsegs, 0);
	CHECK(!h.has_reply_chunk);
	CHECK_EQ(h.payload.off, 28);
	CHECK_EQ(h.payload.len, n - 28);
	CHECK_EQ(h.len, 28);
	CHECK_EQ(h.confidence, RR_CONF_XID);
	roundtrip(p, 28);

	struct rr_rpc r;
	struct rr_note rn;
	CHECK_EQ(rr_rpc_decode(p, 28, (uint32_t)n - 28, (uint32_t)n - 28, &r, &rn),
		 RR_COMPLETE);
	CHECK_EQ(r.xid, XID);
	CHECK_EQ(r.msg_type, RR_RPC_CALL);
	CHECK_EQ(r.prog, 100003);
	CHECK_EQ(r.vers, 3);
	CHECK_EQ(r.proc, 0);
	CHECK_EQ(r.body.off, n);
	CHECK(strcmp(rr_rpc_proc_str(r.prog, r.vers, r.proc), "NULL") == 0);

	/* the RPC xid differs: still the shape, no longer XID confidence */
	p[28] ^= 1;
	CHECK_EQ(decode(p, n), RR_COMPLETE);
	CHECK_EQ(h.confidence, RR_CONF_SHAPE);
}

static void test_read_list_chunks(void)
{
	check_ctx = "read list: two chunks, one with two segments";
	/* RFC 8166 §4.3.1: read list 1 PHLOO 1 PHLOO 1 PHLOO 0 */
	const uint32_t w[] = { XID, 1, 8, 1,
			       1, 0, 0xa1, 100, H(0x1000ull),
			       1, 0, 0xa2, 200, H(0x2000ull),
			       1, 128, 0xa3, 300, H(0x7f0000003000ull),
			       0, 0, 0 };
	uint8_t p[256];
	size_t n = words(p, w, sizeof(w) / 4);
	CHECK_EQ(decode(p, n), RR_COMPLETE);
	CHECK_EQ(h.proc, RR_RDMA_NOMSG);
	CHECK_EQ(h.nsegs, 3);
	CHECK_EQ(h.nread_chunks, 2);
	CHECK(h.pzrc);
	CHECK_EQ(h.segs[0].chunk, 0);
	CHECK_EQ(h.segs[1].chunk, 0);
	CHECK_EQ(h.segs[2].chunk, 1);
	CHECK_EQ(h.segs[2].position, 128);
	CHECK_EQ(h.segs[2].handle, 0xa3);
	CHECK_EQ(h.segs[2].length, 300);
	CHECK_EQ(h.segs[2].offset, 0x7f0000003000ull);
	CHECK_EQ(h.segs[0].off, 20);   /* position word of the first entry */
	CHECK_EQ(h.segs[1].off, 44);
	CHECK_EQ(h.read_list_off, 16);
	CHECK_EQ(h.write_list_off, 16 + 3 * 24 + 4); /* entries, terminator */
	CHECK_EQ(h.confidence, RR_CONF_SHAPE);
	roundtrip(p, n);
}

static void test_write_list_and_reply(void)
{
	check_ctx = "write list of 3+2 segments and a 2-segment reply chunk";
	/* 1 3 HLOO HLOO HLOO 1 2 HLOO HLOO 0, then reply 1 2 HLOO HLOO */
	const uint32_t w[] = { XID, 1, 64, 0, 0,
			       1, 3, 0xb1, 1, H(1ull), 0xb2, 2, H(2ull),
			       0xb3, 3, H(3ull),
			       1, 2, 0xb4, 4, H(4ull), 0xb5, 5, H(5ull),
			       0,
			       1, 2, 0xc1, 6, H(6ull), 0xc2, 7, H(7ull),
			       XID, 1, 0, 0, 0, 0 };
	uint8_t p[512];
	size_t n = words(p, w, sizeof(w) / 4);
	CHECK_EQ(decode(p, n), RR_COMPLETE);
	CHECK_EQ(h.nsegs, 7);
	CHECK_EQ(h.nwrite_chunks, 2);
	CHECK(h.has_reply_chunk);
	CHECK_EQ(h.segs[3].list, RR_LIST_WRITE);
	CHECK_EQ(h.segs[3].chunk, 1);
	CHECK_EQ(h.segs[5].list, RR_LIST_REPLY);
	CHECK_EQ(h.segs[6].handle, 0xc2);
	CHECK_EQ(h.segs[6].length, 7);
	CHECK_EQ(h.confidence, RR_CONF_XID);
	CHECK_EQ(h.payload.off, n - 24);
	roundtrip(p, n - 24);
}

static void test_msgp_done_error(void)
{
	uint8_t p[128];
	size_t n;

	check_ctx = "RDMA_MSGP";
	const uint32_t msgp[] = { XID, 1, 4, 2, 4096, 1024, 0, 0, 0,
				  XID, 1, 0, 0, 0, 0 };
	n = words(p, msgp, sizeof(msgp) / 4);
	CHECK_EQ(decode(p, n), RR_COMPLETE);
	CHECK_EQ(h.proc, RR_RDMA_MSGP);
	CHECK_EQ(h.align, 4096);
	CHECK_EQ(h.thresh, 1024);
	CHECK_EQ(h.payload.off, 36);
	CHECK_EQ(h.confidence, RR_CONF_XID);
	roundtrip(p, 36);

	check_ctx = "RDMA_DONE";
	const uint32_t done[] = { XID, 1, 4, 3 };
	n = words(p, done, 4);
	CHECK_EQ(decode(p, n), RR_COMPLETE);
	CHECK_EQ(h.proc, RR_RDMA_DONE);
	CHECK_EQ(h.confidence, RR_CONF_SHAPE);
	roundtrip(p, 16);
	/* anything after it: noted, and no longer trusted as RPC-over-RDMA */
	memset(p + 16, 0, 4);
	CHECK_EQ(decode(p, 20), RR_COMPLETE);
	CHECK_EQ(note.problem, RR_PROBLEM_TRAILING_BYTES);
	CHECK_EQ(h.confidence, RR_CONF_NONE);

	check_ctx = "RDMA_ERROR ERR_CHUNK";
	const uint32_t chunk[] = { XID, 1, 4, 4, 2 };
	n = words(p, chunk, 5);
	CHECK_EQ(decode(p, n), RR_COMPLETE);
	CHECK_EQ(h.err, RR_ERR_CHUNK);
	CHECK_EQ(h.confidence, RR_CONF_SHAPE);
	roundtrip(p, n);

	check_ctx = "RDMA_ERROR ERR_VERS echoing version 2 (RFC 8166 §4.5)";
	const uint32_t vers[] = { XID, 2, 4, 4, 1, 1, 1 };
	n = words(p, vers, 7);
	CHECK_EQ(decode(p, n), RR_COMPLETE);
	CHECK(h.body_decoded);
	CHECK_EQ(h.vers, 2);
	CHECK_EQ(h.err, RR_ERR_VERS);
	CHECK_EQ(h.vers_low, 1);
	CHECK_EQ(h.vers_high, 1);
	CHECK_EQ(h.confidence, RR_CONF_SHAPE);
	roundtrip(p, n);

	check_ctx = "version 2 RDMA_MSG: first words only";
	const uint32_t v2[] = { XID, 2, 4, 0, 0, 0, 0 };
	n = words(p, v2, 7);
	CHECK_EQ(decode(p, n), RR_COMPLETE);
	CHECK(!h.body_decoded);
	CHECK_EQ(note.problem, RR_PROBLEM_BAD_VERSION);
	CHECK_EQ(note.off, 4);
	CHECK_EQ(h.confidence, RR_CONF_NONE);
}

static void test_malformed(void)
{
	uint8_t p[4096];
	size_t n;

	check_ctx = "proc 5";
	const uint32_t proc[] = { XID, 1, 4, 5, 0, 0, 0 };
	n = words(p, proc, 7);
	CHECK_EQ(decode(p, n), RR_MALFORMED);
	CHECK_EQ(note.problem, RR_PROBLEM_BAD_VALUE);
	CHECK_EQ(note.off, 12);
	CHECK_EQ(h.confidence, RR_CONF_NONE);

	check_ctx = "discriminator 2";
	const uint32_t disc[] = { XID, 1, 4, 0, 2, 0, 0 };
	n = words(p, disc, 7);
	CHECK_EQ(decode(p, n), RR_MALFORMED);
	CHECK_EQ(note.off, 16);
	CHECK(strcmp(note.field, "read list discriminator") == 0);

	check_ctx = "read position not a multiple of 4";
	const uint32_t pos[] = { XID, 1, 4, 1, 1, 6, 1, 1, 0, 0, 0, 0, 0 };
	n = words(p, pos, 13);
	CHECK_EQ(decode(p, n), RR_MALFORMED);
	CHECK_EQ(note.problem, RR_PROBLEM_BAD_ALIGNMENT);

	check_ctx = "write chunk count over the cap";
	const uint32_t cap[] = { XID, 1, 4, 0, 0, 1, RR_MAX_SEGMENTS + 1 };
	n = words(p, cap, 7);
	memset(p + n, 0, sizeof(p) - n);
	CHECK_EQ(decode(p, sizeof(p)), RR_MALFORMED);
	CHECK_EQ(note.problem, RR_PROBLEM_OVER_CAP);
	CHECK_EQ(note.off, 24);

	check_ctx = "reply chunk count beyond the bytes";
	const uint32_t many[] = { XID, 1, 4, 1, 0, 0, 1, 40, 0, 0, 0, 0 };
	n = words(p, many, 12);
	CHECK_EQ(decode(p, n), RR_MALFORMED);
	CHECK_EQ(note.problem, RR_PROBLEM_COUNT_EXCEEDS_BYTES);
	CHECK_EQ(note.off, 28);

	check_ctx = "the same count on a cut capture is still malformed";
	CHECK_EQ(rr_rpcrdma_decode(p, 0, 32, (uint32_t)n, &h, &note),
		 RR_MALFORMED);

	check_ctx = "segment count over the cap across lists";
	uint32_t big[4 + 65 * 6 + 3];
	size_t k = 0;
	big[k++] = XID; big[k++] = 1; big[k++] = 4; big[k++] = 1;
	for (int i = 0; i < 65; i++) {
		big[k++] = 1; big[k++] = 0; big[k++] = (uint32_t)i;
		big[k++] = 1; big[k++] = 0; big[k++] = 0;
	}
	big[k++] = 0; big[k++] = 0; big[k++] = 0;
	n = words(p, big, k);
	CHECK_EQ(decode(p, n), RR_MALFORMED);
	CHECK_EQ(note.problem, RR_PROBLEM_OVER_CAP);
	CHECK_EQ(h.nsegs, RR_MAX_SEGMENTS);

	check_ctx = "NOMSG without a chunk is not RPC-over-RDMA's shape";
	const uint32_t nomsg[] = { XID, 1, 4, 1, 0, 0, 0 };
	n = words(p, nomsg, 7);
	CHECK_EQ(decode(p, n), RR_COMPLETE);
	CHECK_EQ(h.confidence, RR_CONF_NONE);
}

static void test_truncated_header(void)
{
	const uint32_t w[] = { XID, 1, 8, 1, 1, 0, 0xa1, 100, H(0x1000ull),
			       0, 0, 0 };
	uint8_t p[64];
	size_t n = words(p, w, sizeof(w) / 4);
	for (size_t cut = 0; cut < n; cut++) {
		check_ctx = "every cut of a read-list header";
		enum rr_status st = rr_rpcrdma_decode(p, 0, (uint32_t)cut,
						      (uint32_t)n, &h, &note);
		CHECK_EQ(st, RR_TRUNCATED);
		CHECK_EQ(note.problem, RR_PROBLEM_SHORT);
		CHECK(note.off <= cut);
		CHECK(note.field != NULL);
		/* a message that really is that short is malformed instead */
		st = rr_rpcrdma_decode(p, 0, (uint32_t)cut, (uint32_t)cut, &h,
				       &note);
		CHECK_EQ(st, RR_MALFORMED);
	}
}

static void test_rpc(void)
{
	struct rr_rpc r, d;
	struct rr_note rn;
	uint8_t p[512], cred[20] = { 1, 2, 3 };
	struct rr_buf b;

	check_ctx = "RPC call with AUTH_SYS";
	memset(&r, 0, sizeof(r));
	r.xid = 7;
	r.rpcvers = 2;
	r.prog = 100005;
	r.vers = 3;
	r.proc = 1;
	r.cred_flavor = RR_AUTH_SYS;
	r.cred_len = 17; /* padded to 20 on the wire */
	rr_buf_init(&b, p, sizeof(p));
	CHECK(rr_rpc_encode(&b, &r, cred, NULL));
	CHECK_EQ(b.len, 24 + 8 + 20 + 8);
	CHECK_EQ(rr_rpc_decode(p, 0, (uint32_t)b.len, (uint32_t)b.len, &d, &rn),
		 RR_COMPLETE);
	CHECK_EQ(d.prog, 100005);
	CHECK_EQ(d.cred_flavor, RR_AUTH_SYS);
	CHECK_EQ(d.cred_len, 17);
	CHECK_EQ(d.verf_off, 24 + 8 + 20);
	CHECK(strcmp(rr_rpc_proc_str(100005, 3, 1), "MNT") == 0);

	check_ctx = "RPCSEC_GSS credential (RFC 2203 §5)";
	CHECK(!rr_rpc_body_wrapped(&d)); /* AUTH_SYS */
	uint8_t gss[24];
	/* version 1, RPCSEC_GSS_DATA, seq_num 42, rpc_gss_svc_integrity,
	 * a 4-byte context handle */
	words(gss, (const uint32_t[]){ 1, 0, 42, 2, 4, 0xdeadbeef }, 6);
	r.prog = 100003;
	r.vers = 4;
	r.cred_flavor = RR_AUTH_RPCSEC_GSS;
	r.cred_len = sizeof(gss);
	rr_buf_init(&b, p, sizeof(p));
	CHECK(rr_rpc_encode(&b, &r, gss, NULL));
	CHECK_EQ(rr_rpc_decode(p, 0, (uint32_t)b.len, (uint32_t)b.len, &d, &rn),
		 RR_COMPLETE);
	CHECK(d.gss);
	CHECK_EQ(d.gss_proc, 0);
	CHECK_EQ(d.gss_seq, 42);
	CHECK_EQ(d.gss_service, 2);
	CHECK(rr_rpc_body_wrapped(&d)); /* integrity: in rpc_gss_integ_data */
	d.gss_service = 3;
	CHECK(rr_rpc_body_wrapped(&d)); /* privacy: encrypted */
	d.gss_service = 1;
	CHECK(!rr_rpc_body_wrapped(&d)); /* none: the arguments as they are */
	d.gss_proc = 1;
	CHECK(rr_rpc_body_wrapped(&d)); /* RPCSEC_GSS_INIT: a GSS token */
	CHECK(!rr_rpc_body_integrity(&d));
	d.gss_proc = 0;
	d.gss_service = 2;
	CHECK(rr_rpc_body_integrity(&d));
	d.gss_service = 3;
	CHECK(!rr_rpc_body_integrity(&d)); /* privacy: not readable */

	check_ctx = "RPCSEC_GSS integrity body (RFC 2203 §5.3.2.2)";
	{
		/* 8 bytes before the body; databody_integ of 12 bytes (seq_num
		 * 42, 8 bytes of arguments), then a 4-byte checksum */
		uint8_t ib[32];
		words(ib, (const uint32_t[]){ 0, 0, 12, 42, 0x11111111, 0x22222222, 4, 0xc0ffee },
		      8);
		uint32_t inner, inner_end, seq;
		CHECK(rr_rpc_gss_integ_body(ib, 8, 24, &inner, &inner_end, &seq));
		CHECK(inner == 16 && inner_end == 24 && seq == 42);
		/* cut after the sequence number: the arguments' end is still
		 * where databody_integ says */
		CHECK(rr_rpc_gss_integ_body(ib, 8, 8, &inner, &inner_end, &seq));
		CHECK(inner == 16 && inner_end == 24);
		CHECK(!rr_rpc_gss_integ_body(ib, 8, 7, &inner, &inner_end, &seq)); /* no seq_num */
		words(ib + 8, (const uint32_t[]){ 13 }, 1); /* not XDR's length */
		CHECK(!rr_rpc_gss_integ_body(ib, 8, 24, &inner, &inner_end, &seq));
		words(ib + 8, (const uint32_t[]){ 0 }, 1); /* no room for seq_num */
		CHECK(!rr_rpc_gss_integ_body(ib, 8, 24, &inner, &inner_end, &seq));
	}
	/* a credential too short for its service: not read, the body not
	 * taken as the procedure's */
	r.cred_len = 8;
	rr_buf_init(&b, p, sizeof(p));
	CHECK(rr_rpc_encode(&b, &r, gss, NULL));
	CHECK_EQ(rr_rpc_decode(p, 0, (uint32_t)b.len, (uint32_t)b.len, &d, &rn),
		 RR_COMPLETE);
	CHECK(!d.gss);
	CHECK(rr_rpc_body_wrapped(&d));
	r.cred_flavor = RR_AUTH_SYS;
	r.cred_len = 17;
	rr_buf_init(&b, p, sizeof(p));
	CHECK(rr_rpc_encode(&b, &r, cred, NULL));

	check_ctx = "credential longer than 400 bytes";
	/* the credential length word follows the flavor at offset 24 */
	words(p + 28, (const uint32_t[]){ RR_RPC_MAX_AUTH + 1 }, 1);
	CHECK_EQ(rr_rpc_decode(p, 0, (uint32_t)b.len, (uint32_t)b.len, &d, &rn),
		 RR_MALFORMED);
	CHECK_EQ(rn.problem, RR_PROBLEM_OVER_CAP);

	check_ctx = "accepted reply PROG_MISMATCH";
	memset(&r, 0, sizeof(r));
	r.xid = 8;
	r.msg_type = RR_RPC_REPLY;
	r.accept_stat = RR_RPC_PROG_MISMATCH;
	r.mismatch_low = 2;
	r.mismatch_high = 4;
	rr_buf_init(&b, p, sizeof(p));
	CHECK(rr_rpc_encode(&b, &r, NULL, NULL));
	CHECK_EQ(rr_rpc_decode(p, 0, (uint32_t)b.len, (uint32_t)b.len, &d, &rn),
		 RR_COMPLETE);
	CHECK_EQ(d.accept_stat, RR_RPC_PROG_MISMATCH);
	CHECK_EQ(d.mismatch_low, 2);
	CHECK_EQ(d.mismatch_high, 4);

	check_ctx = "denied reply AUTH_ERROR";
	r.reply_stat = RR_RPC_MSG_DENIED;
	r.reject_stat = RR_RPC_AUTH_ERROR;
	r.auth_stat = RR_AUTH_TOOWEAK;
	rr_buf_init(&b, p, sizeof(p));
	CHECK(rr_rpc_encode(&b, &r, NULL, NULL));
	CHECK_EQ(rr_rpc_decode(p, 0, (uint32_t)b.len, (uint32_t)b.len, &d, &rn),
		 RR_COMPLETE);
	CHECK_EQ(d.reject_stat, RR_RPC_AUTH_ERROR);
	CHECK_EQ(d.auth_stat, RR_AUTH_TOOWEAK);

	check_ctx = "msg_type 2";
	p[7] = 2;
	CHECK_EQ(rr_rpc_decode(p, 0, (uint32_t)b.len, (uint32_t)b.len, &d, &rn),
		 RR_MALFORMED);
}

static void test_cm_private(void)
{
	uint8_t pd[96];
	struct rr_cm_private c;

	check_ctx = "RFC 8797 at offset 0";
	const uint8_t wire[8] = { 0xf6, 0xab, 0x0e, 0x18, 1, 0x01, 3, 7 };
	memset(pd, 0, sizeof(pd));
	memcpy(pd, wire, 8);
	CHECK(rr_cm_private_find(pd, 0, sizeof(pd), sizeof(pd), &c));
	CHECK_EQ(c.status, RR_COMPLETE);
	CHECK_EQ(c.off, 0);
	CHECK_EQ(c.version, 1);
	CHECK(c.rinval);
	CHECK_EQ(c.send_size, 4096);
	CHECK_EQ(c.recv_size, 8192);
	uint8_t enc[8];
	rr_cm_private_encode(enc, 1, true, 4096, 8192);
	CHECK(memcmp(enc, wire, 8) == 0);

	check_ctx = "unaligned, after other bytes";
	memset(pd, 0x11, sizeof(pd));
	memcpy(pd + 39, wire, 8);
	CHECK(rr_cm_private_find(pd, 0, sizeof(pd), sizeof(pd), &c));
	CHECK_EQ(c.off, 39);
	CHECK_EQ(c.status, RR_COMPLETE);

	check_ctx = "absent";
	memset(pd, 0, sizeof(pd));
	CHECK(!rr_cm_private_find(pd, 0, sizeof(pd), sizeof(pd), &c));
	CHECK(!c.found);

	check_ctx = "cut off by the end of the private data";
	memcpy(pd + 90, wire, 6);
	CHECK(rr_cm_private_find(pd, 0, 96, 96, &c));
	CHECK_EQ(c.status, RR_MALFORMED);
	check_ctx = "cut off by the capture";
	CHECK(rr_cm_private_find(pd, 0, 96, 100, &c));
	CHECK_EQ(c.status, RR_TRUNCATED);

	check_ctx = "version 2";
	memset(pd, 0, sizeof(pd));
	memcpy(pd, wire, 8);
	pd[4] = 2;
	CHECK(rr_cm_private_find(pd, 0, sizeof(pd), sizeof(pd), &c));
	CHECK_EQ(c.status, RR_MALFORMED);

	check_ctx = "thresholds (RFC 8797 §3.1)";
	struct rr_cm_private req, rsp;
	struct rr_inline_thresholds t;
	rr_cm_private_encode(enc, 1, true, 16384, 4096);
	rr_cm_private_find(enc, 0, 8, 8, &req);
	rr_cm_private_encode(enc, 1, false, 8192, 2048);
	rr_cm_private_find(enc, 0, 8, 8, &rsp);
	rr_inline_thresholds(&req, &rsp, &t);
	CHECK_EQ(t.call, 2048);   /* min(requester send, responder recv) */
	CHECK_EQ(t.reply, 4096);  /* min(responder send, requester recv) */
	CHECK(!t.remote_invalidation);
	rr_inline_thresholds(&req, NULL, &t);
	CHECK_EQ(t.call, RR_INLINE_DEFAULT);
	CHECK_EQ(t.reply, RR_INLINE_DEFAULT);
	CHECK(!t.remote_invalidation);
	rr_inline_thresholds(&req, &req, &t);
	CHECK(t.remote_invalidation);
	CHECK_EQ(rr_cm_private_size_raw(1024), 0);
	CHECK_EQ(rr_cm_private_size_raw(262144), 255);
	CHECK_EQ(rr_cm_private_size_raw(1 << 30), 255);
}

static void test_crc(void)
{
	check_ctx = "CRC check values";
	/* the standard check value of "123456789" for both polynomials */
	CHECK_EQ(rr_crc32(0, "123456789", 9), 0xCBF43926u);
	CHECK_EQ(rr_crc32c(0, "123456789", 9), 0xE3069283u);
	/* chaining equals one pass */
	CHECK_EQ(rr_crc32(rr_crc32(0, "1234", 4), "56789", 5), 0xCBF43926u);

	/* the hardware paths (PCLMULQDQ, SSE4.2) agree with the tables */
	check_ctx = "hardware CRC against the portable tables";
	static uint8_t buf[4300];
	uint32_t seed = 12345;
	for (size_t i = 0; i < sizeof(buf); i++) {
		seed = seed * 1103515245u + 12345u;
		buf[i] = (uint8_t)(seed >> 16);
	}
	unsigned mismatches = 0;
	for (size_t len = 0; len <= 4200; len++)
		for (size_t off = 0; off < 4; off++) {
			const uint8_t *p = buf + off;
			mismatches += rr_crc32(0x5a5a5a5a, p, len) !=
				      rr_crc32_portable(0x5a5a5a5a, p, len);
			mismatches += rr_crc32c(7, p, len) !=
				      rr_crc32c_portable(7, p, len);
		}
	CHECK_EQ(mismatches, 0);

	/* a run in two parts (the ICRC's headers, then its payload where it
	 * lies) as one: parts of whole blocks, and others (chained) */
	check_ctx = "CRC of two parts against one run";
	mismatches = 0;
	for (size_t alen = 0; alen <= 112; alen += 4)
		for (size_t blen = 0; blen <= 1100; blen += alen % 16 ? 20 : 4) {
			uint32_t want = rr_crc32_portable(0x5a5a5a5a, buf, alen + blen);
			mismatches += rr_crc32_pair(0x5a5a5a5a, buf, alen,
						    buf + alen, blen) != want;
			/* b apart from a, as a payload is from the headers */
			mismatches += rr_crc32_pair(0x5a5a5a5a, buf, alen,
						    buf + 2000 + (alen + blen) % 7,
						    blen) !=
				      rr_crc32_portable(rr_crc32_portable(0x5a5a5a5a, buf, alen),
							buf + 2000 + (alen + blen) % 7, blen);
		}
	CHECK_EQ(mismatches, 0);
}

/* Every value of every list has a name; values outside have none. */
#define X_NAMED(sym, val, str) CHECK(fn(val) && strcmp(fn(val), str) == 0);
static void test_names(void)
{
	check_ctx = "names";
#define fn rr_rdma_proc_str
	RR_RDMA_PROC_LIST(X_NAMED)
#undef fn
#define fn rr_bth_opcode_str
	RR_BTH_OPCODE_LIST(X_NAMED)
#undef fn
#define fn rr_cm_attr_str
	RR_CM_ATTR_LIST(X_NAMED)
#undef fn
#define fn rr_rdmap_opcode_str
	RR_RDMAP_OPCODE_LIST(X_NAMED)
#undef fn
#define fn rr_problem_str
	RR_PROBLEM_LIST(X_NAMED)
#undef fn
	CHECK(rr_rdma_proc_str(5) == NULL);
	CHECK(rr_bth_opcode_str(0x15) == NULL);
	CHECK(rr_rpc_proc_str(100003, 3, 22) == NULL);
	CHECK(strcmp(rr_rpc_proc_str(100003, 3, 17), "READDIRPLUS") == 0);
	CHECK(strcmp(rr_rpc_proc_str(0x40000000, 1, 1), "CB_COMPOUND") == 0);
	CHECK(strcmp(rr_rpc_proc_str(100021, 4, 2), "LOCK") == 0);
	CHECK(strcmp(rr_layer_str(RR_LAYER_RPCRDMA), "RPC-over-RDMA") == 0);
	CHECK(rr_layer_str(RR_LAYER_COUNT) == NULL);
	CHECK(strcmp(rr_rpc_proc_str(100003, 2, 17), "STATFS") == 0);
	CHECK(rr_rpc_proc_str(100003, 2, 18) == NULL);
}

/* Every program the project names has a statistics row per procedure,
 * each slot once, its name the one rr_rpc_proc_str gives. */
static void test_proc_slots(void)
{
	check_ctx = "proc slots";
	static const struct { uint32_t prog, vers, procs; } progs[] = {
		{ 100003, 2, 18 }, { 100003, 3, 22 }, { 100003, 4, 2 },
		{ 0x40000000, 1, 2 }, { 100227, 3, 3 }, { 100005, 3, 6 },
		{ 100000, 2, 6 }, { 100021, 4, 24 },
	};
	static bool taken[RR_PROC_SLOTS];
	unsigned named = 0, clashes = 0, misnamed = 0;
	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++)
		for (uint32_t p = 0; p < progs[i].procs; p++) {
			unsigned slot = rr_analyzer_proc_slot(progs[i].prog,
							      progs[i].vers, p);
			const char *want = rr_rpc_proc_str(progs[i].prog, progs[i].vers, p);
			struct rr_proc_slot_info si = rr_analyzer_proc_slot_info(slot);
			if (slot >= RR_PROC_SLOTS - 1 || taken[slot])
				clashes++;
			else
				taken[slot] = true;
			if (want && (strcmp(si.procedure, want) ||
				     si.version != progs[i].vers))
				misnamed++;
			named++;
		}
	CHECK_EQ(named, RR_PROC_SLOTS - 1);
	CHECK_EQ(clashes, 0);
	CHECK_EQ(misnamed, 0);
	CHECK_EQ(rr_analyzer_proc_slot(100003, 2, 18), RR_PROC_SLOTS - 1);
	CHECK_EQ(rr_analyzer_proc_slot(100003, 5, 0), RR_PROC_SLOTS - 1);
	CHECK(strcmp(rr_analyzer_proc_slot_info(RR_PROC_SLOTS - 1).procedure,
		     "other") == 0);
}

int main(void)
{
	test_msg_empty_lists();
	test_read_list_chunks();
	test_write_list_and_reply();
	test_msgp_done_error();
	test_malformed();
	test_truncated_header();
	test_rpc();
	test_cm_private();
	test_crc();
	test_names();
	test_proc_slots();
	return check_done();
}
