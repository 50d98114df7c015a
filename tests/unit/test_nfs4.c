/* SPDX-License-Identifier: BSD-2-Clause */
/* NFSv4 COMPOUND arguments (rpcrdma/nfs4.h): the operations named across
 * unions, data a read chunk carries, cut and hostile messages. */
#include <string.h>
#include <rpcrdma/nfs.h>
#include <rpcrdma/nfs4.h>

#include "check.h"

static uint8_t buf[2048];
static uint32_t len;

static void put32(uint32_t v)
{
	buf[len++] = (uint8_t)(v >> 24);
	buf[len++] = (uint8_t)(v >> 16);
	buf[len++] = (uint8_t)(v >> 8);
	buf[len++] = (uint8_t)v;
}

static void zeros(uint32_t n)
{
	memset(buf + len, 0, n);
	len += n;
}

/* n bytes 1, 2, 3 ...: a file handle whose CRC-32 (zlib's, Wireshark's
 * nfs.fh.hash) the checks below name */
static void counting(uint32_t n)
{
	for (uint32_t i = 1; i <= n; i++)
		buf[len++] = (uint8_t)i;
}

static void opaque(uint32_t n)
{
	put32(n);
	zeros((n + 3) & ~3u);
}

/* tag "t1", minorversion 1, numops: what the ops after it start with */
static void compound(uint32_t numops)
{
	len = 0;
	zeros(40); /* an RPC call header with AUTH_NONE: position 0 is buf[0] */
	opaque(2);
	put32(1);
	put32(numops);
}

static struct rr_nfs4_compound cp;
static struct rr_note note;

static unsigned decode(const struct rr_nfs4_moved *moved, unsigned n,
		       uint32_t captured)
{
	return rr_nfs4_compound_decode(buf, 0, 40, captured, len, moved, n,
				       &cp, &note);
}

/* SEQUENCE, PUTFH, WRITE whose data went by a read chunk, GETATTR: as
 * Linux sends a WRITE (the length word inline, the bytes in the chunk). */
static void write_with_read_chunk(void)
{
	check_ctx = "write";
	compound(4);
	put32(RR_OP_SEQUENCE); zeros(16); put32(1); put32(0); put32(0); put32(0);
	put32(RR_OP_PUTFH); put32(28); counting(28);
	put32(RR_OP_WRITE); zeros(16); put32(0); put32(8192); put32(2);
	put32(4097);                     /* data<>: 4,097 bytes in the chunk */
	struct rr_nfs4_moved moved = { len, 4097 };
	put32(RR_OP_GETATTR); put32(2); put32(0x10); put32(0x20);
	CHECK_EQ(decode(&moved, 1, len), RR_COMPLETE);
	/* what it writes: PUTFH's handle, WRITE's offset and data length */
	CHECK(cp.target.fh_known && cp.target.fh_hash == 0x582a244cu);
	CHECK(cp.target.range_known && cp.target.offset == 8192 &&
	      cp.target.count == 4097);
	CHECK_EQ(cp.minorversion, 1);
	CHECK_EQ(cp.numops, 4);
	CHECK_EQ(cp.named, 4);
	CHECK_EQ(cp.op[2], RR_OP_WRITE);
	CHECK_EQ(cp.op[3], RR_OP_GETATTR);
	/* without the chunk the data should be inline: the bytes end first */
	CHECK_EQ(decode(NULL, 0, len), RR_MALFORMED);
	CHECK_EQ(cp.named, 3);
}

/* OPEN with a union on each side (EXCLUSIVE4_1, CLAIM_NULL), then a LOCK
 * with a new lock owner, an EXCHANGE_ID with SP4_NONE and an impl id. */
static void unions(void)
{
	check_ctx = "unions";
	compound(4);
	put32(RR_OP_OPEN); put32(0); put32(2); put32(0);
	zeros(8); opaque(24);            /* open_owner4 */
	put32(1); put32(3); zeros(8);    /* CREATE, EXCLUSIVE4_1: verifier */
	put32(1); put32(4); opaque(4);   /* fattr4 */
	put32(0); opaque(5);             /* CLAIM_NULL name */
	put32(RR_OP_LOCK); put32(2); put32(0); zeros(16);
	put32(1); put32(0); zeros(16); put32(0); zeros(8); opaque(20);
	put32(RR_OP_EXCHANGE_ID); zeros(8); opaque(40); put32(0x101);
	put32(0);                        /* SP4_NONE */
	put32(1); opaque(10); opaque(30); zeros(12);
	put32(RR_OP_RECLAIM_COMPLETE); put32(0);
	CHECK_EQ(decode(NULL, 0, len), RR_COMPLETE);
	CHECK_EQ(cp.named, 4);
	CHECK_EQ(cp.op[3], RR_OP_RECLAIM_COMPLETE);
}

/* Where the capture stops, the operations so far are named. */
static void cut(void)
{
	check_ctx = "cut";
	compound(3);
	put32(RR_OP_PUTROOTFH);
	put32(RR_OP_GETFH);
	uint32_t at = len;
	put32(RR_OP_GETATTR); put32(1); put32(3);
	CHECK_EQ(decode(NULL, 0, at + 2), RR_TRUNCATED);
	CHECK_EQ(cp.named, 2);
	CHECK_EQ(decode(NULL, 0, len), RR_COMPLETE);
	CHECK_EQ(cp.named, 3);
}

/* An operation the walker cannot step over ends the naming, not the
 * message; a numops the message cannot hold is malformed. */
static void unknown_and_hostile(void)
{
	check_ctx = "unknown";
	compound(3);
	put32(RR_OP_PUTROOTFH);
	put32(99);
	put32(RR_OP_GETFH);
	CHECK_EQ(decode(NULL, 0, len), RR_COMPLETE);
	CHECK_EQ(cp.named, 2);
	CHECK_EQ(cp.op[1], 99);
	CHECK_EQ(rr_nfs4_op_slot(99), RR_NFS4_OP_OTHER);
	CHECK_EQ(rr_nfs4_op_slot(RR_OP_ILLEGAL), RR_NFS4_OP_OTHER);
	CHECK(!strcmp(rr_nfs4_op_str(RR_OP_SEQUENCE), "SEQUENCE"));

	check_ctx = "hostile";
	compound(0xffffffffu);
	put32(RR_OP_GETFH);
	CHECK_EQ(decode(NULL, 0, len), RR_MALFORMED);
	CHECK_EQ(cp.numops, 0);
	compound(1);
	put32(RR_OP_PUTFH); put32(0x7ffffff0); /* a handle longer than the rest */
	CHECK_EQ(decode(NULL, 0, len), RR_MALFORMED);
	CHECK_EQ(cp.named, 1);
}

/* What an NFS reply begins with (rr_nfs_reply_decode): NFSv3's status,
 * none for NULL; a COMPOUND4res's status and results count past its tag;
 * a status whose tag the capture cut; a callback's CB_COMPOUND4res as a
 * COMPOUND's; NFS_ACL's and MOUNT v3 MNT's status first; NLM v4's after
 * the cookie, none for an asynchronous _MSG; names as the RFCs give them. */
static void reply_status(void)
{
	check_ctx = "reply status";
	struct rr_nfs_reply r;
	len = 0;
	put32(RR_NFS3ERR_NOENT);
	CHECK(rr_nfs_reply_decode(buf, 0, len, RR_PROG_NFS, 3, 3 /* LOOKUP */, &r));
	CHECK(r.status == RR_NFS3ERR_NOENT && r.numres == 0);
	CHECK(!rr_nfs_reply_decode(buf, 0, len, RR_PROG_NFS, 3, 0 /* NULL */, &r));
	CHECK(!rr_nfs_reply_decode(buf, 0, 2, RR_PROG_NFS, 3, 3, &r));
	CHECK(!rr_nfs_reply_decode(buf, 0, len, RR_PROG_NFS, 2, 3 /* ROOT */, &r));
	/* NFS_ACL v3 GETACL; MOUNT v3 MNT, but not UMNT */
	CHECK(rr_nfs_reply_decode(buf, 0, len, RR_PROG_NFS_ACL, 3, 1, &r));
	CHECK(r.status == RR_NFS3ERR_NOENT);
	CHECK(rr_nfs_reply_decode(buf, 0, len, RR_PROG_MOUNT, 3, 1, &r));
	CHECK(r.status == RR_MNT3ERR_NOENT);
	CHECK(!rr_nfs_reply_decode(buf, 0, len, RR_PROG_MOUNT, 3, 3, &r));
	CHECK(!rr_nfs_reply_decode(buf, 0, len, RR_PROG_PORTMAP, 2, 3, &r));
	len = 0;
	put32(RR_NFS4ERR_NOENT);
	put32(5); zeros(8);               /* tag "xxxxx" */
	put32(3);                         /* SEQUENCE PUTFH LOOKUP: the third failed */
	CHECK(rr_nfs_reply_decode(buf, 0, len, RR_PROG_NFS, 4, 1, &r));
	CHECK(r.status == RR_NFS4ERR_NOENT && r.numres == 3);
	CHECK(rr_nfs_reply_decode(buf, 0, 8, RR_PROG_NFS, 4, 1, &r));
	CHECK(r.status == RR_NFS4ERR_NOENT && r.numres == 0);
	CHECK(!rr_nfs_reply_decode(buf, 0, len, RR_PROG_NFS, 4, 0, &r));
	/* numres cut by a byte; a tag longer than anything: the status alone */
	CHECK(rr_nfs_reply_decode(buf, 0, len - 1, RR_PROG_NFS, 4, 1, &r));
	CHECK(r.status == RR_NFS4ERR_NOENT && r.numres == 0);
	buf[4] = buf[5] = buf[6] = buf[7] = 0xff;
	CHECK(rr_nfs_reply_decode(buf, 0, len, RR_PROG_NFS, 4, 1, &r));
	CHECK(r.status == RR_NFS4ERR_NOENT && r.numres == 0);
	buf[4] = buf[5] = buf[6] = 0;
	buf[7] = 5;
	CHECK(rr_nfs_reply_decode(buf, 0, len, RR_PROG_NFS4_CB, 1, 1, &r));
	CHECK(r.status == RR_NFS4ERR_NOENT && r.numres == 3);
	CHECK(!rr_nfs_reply_decode(buf, 0, len, RR_PROG_NFS4_CB, 1, 0 /* CB_NULL */, &r));
	/* NLM v4 LOCK: cookie<> then status */
	len = 0;
	put32(6); zeros(8);               /* a six-byte cookie */
	put32(RR_NLM4_DENIED);
	CHECK(rr_nfs_reply_decode(buf, 0, len, RR_PROG_NLM, 4, 2, &r));
	CHECK(r.status == RR_NLM4_DENIED && r.numres == 0);
	CHECK(!rr_nfs_reply_decode(buf, 0, len - 1, RR_PROG_NLM, 4, 2, &r));
	buf[0] = buf[1] = buf[2] = buf[3] = 0xff;   /* a cookie past the bytes */
	CHECK(!rr_nfs_reply_decode(buf, 0, len, RR_PROG_NLM, 4, 2, &r));
	buf[0] = buf[1] = buf[2] = 0;
	buf[3] = 6;
	CHECK(!rr_nfs_reply_decode(buf, 0, len, RR_PROG_NLM, 4, 7 /* LOCK_MSG */, &r));
	CHECK(rr_nfs_reply_decode(buf, 0, len, RR_PROG_NLM, 4, 20 /* SHARE */, &r));
	CHECK(!strcmp(rr_nfs_status_str(RR_PROG_NFS, 3, 70), "NFS3ERR_STALE"));
	CHECK(!strcmp(rr_nfs_status_str(RR_PROG_NFS, 4, 10008), "NFS4ERR_DELAY"));
	CHECK(!strcmp(rr_nfs_status_str(RR_PROG_NFS, 2, 99), "NFSERR_WFLUSH"));
	CHECK(!rr_nfs_status_str(RR_PROG_NFS, 4, 10073)); /* unassigned */
	CHECK(!rr_nfs_status_str(RR_PROG_NFS, 5, 0));
	CHECK(!strcmp(rr_nfs_status_str(RR_PROG_NFS4_CB, 1, 10087), "NFS4ERR_DELEG_REVOKED"));
	CHECK(!strcmp(rr_nfs_status_str(RR_PROG_NFS_ACL, 3, 0), "NFS3_OK"));
	CHECK(!strcmp(rr_nfs_status_str(RR_PROG_MOUNT, 3, 10006), "MNT3ERR_SERVERFAULT"));
	CHECK(!strcmp(rr_nfs_status_str(RR_PROG_NLM, 4, 4), "NLM4_DENIED_GRACE_PERIOD"));
	CHECK(!rr_nfs_status_str(RR_PROG_NLM, 1, 4)); /* XNFS v1 names none here */
	CHECK(!rr_nfs_status_str(RR_PROG_PORTMAP, 2, 0));
}

/* What an NFSv2 or v3 call acts on (rr_nfs_call_target_decode): the
 * handle its arguments begin with, READ/WRITE/COMMIT's range; none for
 * NULL; a handle the capture cut is unknown, a range it cut too. */
static void call_target(void)
{
	check_ctx = "call target";
	struct rr_nfs_target t;
	len = 0;
	put32(8); counting(8);            /* nfs_fh3 */
	put32(1); put32(0);               /* offset 2^32 */
	put32(65536);                     /* count */
	CHECK(rr_nfs_call_target_decode(buf, 0, len, 3, 6 /* READ */, &t));
	CHECK(t.fh_known && t.fh_hash == 0x3fca88c5u);
	CHECK(t.range_known && t.offset == 0x100000000ull && t.count == 65536);
	CHECK(rr_nfs_call_target_decode(buf, 0, len, 3, 3 /* LOOKUP */, &t));
	CHECK(t.fh_known && !t.range_known);
	CHECK(rr_nfs_call_target_decode(buf, 0, 16, 3, 6, &t)); /* cut at the offset */
	CHECK(t.fh_known && !t.range_known && t.offset == 0);
	CHECK(!rr_nfs_call_target_decode(buf, 0, 10, 3, 6, &t)); /* cut in the handle */
	CHECK(!t.fh_known);
	CHECK(!rr_nfs_call_target_decode(buf, 0, len, 3, 0 /* NULL */, &t));
	len = 0;
	put32(65);                        /* longer than NFS3_FHSIZE */
	zeros(68);
	CHECK(!rr_nfs_call_target_decode(buf, 0, len, 3, 1, &t));
	len = 0;
	counting(32);                     /* fhandle[32] */
	put32(0); put32(4096); put32(0);  /* beginoffset, offset, totalcount */
	put32(1000); zeros(1000);         /* data<> */
	CHECK(rr_nfs_call_target_decode(buf, 0, len, 2, 8 /* WRITE */, &t));
	CHECK(t.fh_known && t.fh_hash == 0x87e6ec25u);
	CHECK(t.range_known && t.offset == 4096 && t.count == 1000);
	CHECK(!rr_nfs_call_target_decode(buf, 0, len, 2, 3 /* ROOT */, &t));
	CHECK(!rr_nfs_call_target_decode(buf, 0, 31, 2, 1, &t));
	len = 0;
	counting(32);                     /* fhandle[32] */
	put32(8192); put32(512); put32(0); /* offset, count, totalcount */
	CHECK(rr_nfs_call_target_decode(buf, 0, len, 2, 6 /* READ */, &t));
	CHECK(t.range_known && t.offset == 8192 && t.count == 512);
	CHECK(rr_nfs_call_target_decode(buf, 0, 39, 2, 6, &t)); /* cut in the count */
	CHECK(t.fh_known && !t.range_known && t.count == 0);
}

/* A callback's CB_COMPOUND (RFC 8881 §19.2): CB_SEQUENCE with a referring
 * call list, CB_LAYOUTRECALL of a file's range, CB_RECALL; then one cut
 * inside CB_RECALL, and CB_PUSH_DELEG, whose arguments are not stepped. */
static void callbacks(void)
{
	check_ctx = "callbacks";
	len = 0;
	opaque(0);                                /* tag */
	put32(1); put32(7); put32(3);             /* minorversion, ident, numops */
	put32(RR_CB_OP_SEQUENCE); zeros(16); put32(1); put32(0); put32(0); put32(0);
	put32(1); zeros(16); put32(2); put32(5); put32(0); put32(6); put32(1);
	put32(RR_CB_OP_LAYOUTRECALL); put32(1); put32(3); put32(0);
	put32(1); opaque(8); zeros(8); zeros(8); zeros(16);
	put32(RR_CB_OP_RECALL); zeros(16); put32(0); opaque(28);
	CHECK_EQ(rr_nfs4_cb_compound_decode(buf, 0, len, len, &cp, &note), RR_COMPLETE);
	CHECK(cp.callback);
	CHECK_EQ(cp.numops, 3);
	CHECK_EQ(cp.named, 3);
	CHECK(!strcmp(rr_nfs4_compound_op_str(&cp, 0), "CB_SEQUENCE"));
	CHECK(!strcmp(rr_nfs4_compound_op_str(&cp, 1), "CB_LAYOUTRECALL"));
	CHECK(!strcmp(rr_nfs4_compound_op_str(&cp, 2), "CB_RECALL"));
	CHECK(rr_nfs4_compound_op_str(&cp, 3) == NULL);
	/* cut in CB_RECALL's handle: named, the capture said cut */
	CHECK_EQ(rr_nfs4_cb_compound_decode(buf, 0, len - 8, len, &cp, &note), RR_TRUNCATED);
	CHECK_EQ(cp.named, 3);
	/* an operation it cannot step over: named, the rest not */
	len = 0;
	opaque(0);
	put32(1); put32(7); put32(2);
	put32(RR_CB_OP_PUSH_DELEG); opaque(8);
	put32(RR_CB_OP_RECALL); zeros(16); put32(0); opaque(28);
	CHECK_EQ(rr_nfs4_cb_compound_decode(buf, 0, len, len, &cp, &note), RR_COMPLETE);
	CHECK_EQ(cp.named, 1);
	CHECK(!strcmp(rr_nfs4_compound_op_str(&cp, 0), "CB_PUSH_DELEG"));
	/* the same numbers in a COMPOUND are the forward operations */
	cp.callback = false;
	CHECK(!strcmp(rr_nfs4_compound_op_str(&cp, 0), "DELEGPURGE"));
}

int main(void)
{
	callbacks();
	write_with_read_chunk();
	unions();
	cut();
	unknown_and_hostile();
	reply_status();
	call_target();
	return check_done();
}
