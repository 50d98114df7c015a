/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NFSv4 COMPOUND arguments, RFC 7530 §16.2 and RFC 8881 §16.2.1:
 *
 *   tag<> | minorversion | numops | (opnum | arguments) ...
 *
 * and a callback's CB_COMPOUND arguments, RFC 8881 §19.2.1:
 *
 *   tag<> | minorversion | callback_ident | numops | (opnum | arguments) ...
 *
 * Each operation's arguments are stepped over by a shape (RFC 8881 §18,
 * RFC 7862 §15, RFC 8276 §8.4), or by code where a union decides what
 * follows.  A data item a read chunk carries is not in the inline stream:
 * its length word stays, its bytes and their roundup do not (RFC 8166
 * §3.4.5, §3.5.3).
 */
#include <rpcrdma/nfs4.h>

#include "cursor.h"

#define RR_X_CASE(sym, val, str) case (val): return (str);

const char *rr_nfs4_op_str(unsigned op)
{
	switch (op) { RR_NFS4_OP_LIST(RR_X_CASE) default: return NULL; }
}

const char *rr_nfs4_cb_op_str(unsigned op)
{
	switch (op) { RR_NFS4_CB_OP_LIST(RR_X_CASE) default: return NULL; }
}

const char *rr_nfs4_compound_op_str(const struct rr_nfs4_compound *cp, uint32_t i)
{
	if (i >= cp->named || i >= RR_NFS4_OPS_KEPT)
		return NULL;
	return cp->callback ? rr_nfs4_cb_op_str(cp->op[i]) : rr_nfs4_op_str(cp->op[i]);
}

const char *rr_nfs4_op_slot_str(unsigned slot)
{
	const char *name = slot < RR_NFS4_OP_OTHER ? rr_nfs4_op_str(slot) : NULL;
	return name ? name : "other";
}

struct walk {
	struct rr_cur c;
	uint32_t stream_base;  /* where XDR position 0 is in msg */
	uint32_t moved_before; /* stream bytes read chunks took, so far */
	const struct rr_nfs4_moved *moved;
	unsigned nmoved;
};

/* opaque<> and string<> (RFC 4506 §4.10, §4.11). */
static bool opaque(struct walk *w)
{
	uint32_t n = cur_be32(&w->c, "nfs4 opaque length");
	if (!cur_ok(&w->c))
		return false;
	uint32_t at = w->c.pos - w->stream_base + w->moved_before;
	for (unsigned i = 0; n && i < w->nmoved; i++)
		if (w->moved[i].position == at) {
			w->moved_before += (uint32_t)xdr_padded(n);
			return true;
		}
	if (n > cur_left_wire(&w->c))
		return cur_fail(&w->c, RR_MALFORMED, RR_PROBLEM_BAD_LENGTH,
				"nfs4 opaque");
	return cur_skip(&w->c, (uint32_t)xdr_padded(n), "nfs4 opaque");
}

/* The count of a counted array (RFC 4506 §4.13): each element takes a
 * word at least, so a count the message cannot hold is malformed. */
static bool counted(struct walk *w, uint32_t *n)
{
	*n = cur_be32(&w->c, "nfs4 array length");
	if (!cur_ok(&w->c))
		return false;
	if (*n > cur_left_wire(&w->c) / 4)
		return cur_fail(&w->c, RR_MALFORMED, RR_PROBLEM_BAD_LENGTH,
				"nfs4 array");
	return true;
}

/* bitmap4 (RFC 8881 §3.3.7): a counted array of words. */
static bool bitmap(struct walk *w)
{
	uint32_t n;
	return counted(w, &n) && cur_skip(&w->c, 4 * n, "nfs4 bitmap");
}

/*
 * Shapes, one letter per item:
 *   u 4 bytes (uint32, enum, bool)      h 8 (uint64, clientid, verifier)
 *   s 16 (stateid4, sessionid4, deviceid4)  t 12 (nfstime4)
 *   o opaque<> or string<>   b bitmap4   f fattr4 (b then o)
 *   k state_owner4 (h then o)
 */
static bool shape(struct walk *w, const char *s)
{
	for (; *s && cur_ok(&w->c); s++) {
		switch (*s) {
		case 'u': cur_skip(&w->c, 4, "nfs4 argument"); break;
		case 'h': cur_skip(&w->c, 8, "nfs4 argument"); break;
		case 't': cur_skip(&w->c, 12, "nfs4 nfstime4"); break;
		case 's': cur_skip(&w->c, 16, "nfs4 stateid"); break;
		case 'o': opaque(w); break;
		case 'b': bitmap(w); break;
		case 'f': if (bitmap(w)) opaque(w); break;
		case 'k': if (cur_skip(&w->c, 8, "nfs4 clientid")) opaque(w); break;
		}
	}
	return cur_ok(&w->c);
}

/* A counted array whose elements step by one shape. */
static bool array_of(struct walk *w, const char *element)
{
	uint32_t n;
	if (!counted(w, &n))
		return false;
	for (uint32_t i = 0; i < n && shape(w, element); i++)
		;
	return cur_ok(&w->c);
}

/* callback_sec_parms4 (RFC 8881 §18.36): AUTH_NONE, AUTH_SYS (stamp,
 * machine name, uid, gid, gids<>) or RPCSEC_GSS (service, two handles). */
static bool sec_parms(struct walk *w)
{
	uint32_t n;
	if (!counted(w, &n))
		return false;
	for (uint32_t i = 0; i < n && cur_ok(&w->c); i++) {
		uint32_t flavor = cur_be32(&w->c, "nfs4 callback flavor");
		if (flavor == RR_AUTH_SYS)
			(void)(shape(w, "uouu") && array_of(w, "u"));
		else if (flavor == RR_AUTH_RPCSEC_GSS)
			shape(w, "uoo");
		else if (flavor != RR_AUTH_NONE)
			return false;
	}
	return cur_ok(&w->c);
}

/* netloc4 (RFC 7862 §4.9): a name, a URL, or a netaddr4. */
static bool netloc(struct walk *w)
{
	uint32_t type = cur_be32(&w->c, "nfs4 netloc type");
	return type == 3 ? shape(w, "oo") : shape(w, "o");
}

/* The operations whose arguments a union shapes. */
static bool open_args(struct walk *w)
{
	if (!shape(w, "uuuk"))
		return false;
	if (cur_be32(&w->c, "nfs4 opentype") == 1) { /* OPEN4_CREATE */
		switch (cur_be32(&w->c, "nfs4 createmode")) {
		case 0: case 1: shape(w, "f"); break;  /* UNCHECKED, GUARDED */
		case 2: shape(w, "h"); break;          /* EXCLUSIVE */
		case 3: shape(w, "hf"); break;         /* EXCLUSIVE4_1 */
		default: return false;
		}
	}
	switch (cur_be32(&w->c, "nfs4 open claim")) {
	case 0: case 3: return shape(w, "o");  /* NULL, DELEGATE_PREV */
	case 1: return shape(w, "u");          /* PREVIOUS */
	case 2: return shape(w, "so");         /* DELEGATE_CUR */
	case 4: case 6: return cur_ok(&w->c);  /* FH, DELEG_PREV_FH */
	case 5: return shape(w, "s");          /* DELEG_CUR_FH */
	default: return false;
	}
}

static bool create_args(struct walk *w)
{
	switch (cur_be32(&w->c, "nfs4 create type")) {
	case 5: opaque(w); break;              /* NF4LNK: link data */
	case 3: case 4: shape(w, "uu"); break; /* NF4BLK, NF4CHR */
	default: break;
	}
	return shape(w, "of");
}

static bool lock_args(struct walk *w)
{
	if (!shape(w, "uuhh"))
		return false;
	return cur_be32(&w->c, "nfs4 new_lock_owner") ? shape(w, "usuk") :
							 shape(w, "su");
}

static bool exchange_id_args(struct walk *w)
{
	if (!shape(w, "hou"))
		return false;
	switch (cur_be32(&w->c, "nfs4 state_protect")) {
	case 0: break;                         /* SP4_NONE */
	case 1: shape(w, "bb"); break;         /* SP4_MACH_CRED */
	default: return false;                 /* SP4_SSV */
	}
	return array_of(w, "oot");             /* client_impl_id<1> */
}

static bool create_session_args(struct walk *w)
{
	if (!shape(w, "huu"))
		return false;
	for (int i = 0; i < 2; i++) /* fore and back channel_attrs4 */
		if (!shape(w, "uuuuuu") || !array_of(w, "u"))
			return false;
	return shape(w, "u") && sec_parms(w);
}

static bool op_args(struct walk *w, uint32_t op)
{
	static const char *const shapes[RR_NFS4_OP_OTHER] = {
		[RR_OP_ACCESS] = "u",
		[RR_OP_CLOSE] = "us",
		[RR_OP_COMMIT] = "hu",
		[RR_OP_DELEGPURGE] = "h",
		[RR_OP_DELEGRETURN] = "s",
		[RR_OP_GETATTR] = "b",
		[RR_OP_GETFH] = "",
		[RR_OP_LINK] = "o",
		[RR_OP_LOCKT] = "uhhk",
		[RR_OP_LOCKU] = "uushh",
		[RR_OP_LOOKUP] = "o",
		[RR_OP_LOOKUPP] = "",
		[RR_OP_NVERIFY] = "f",
		[RR_OP_OPENATTR] = "u",
		[RR_OP_OPEN_CONFIRM] = "su",
		[RR_OP_OPEN_DOWNGRADE] = "suuu",
		[RR_OP_PUTFH] = "o",
		[RR_OP_PUTPUBFH] = "",
		[RR_OP_PUTROOTFH] = "",
		[RR_OP_READ] = "shu",
		[RR_OP_READDIR] = "hhuub",
		[RR_OP_READLINK] = "",
		[RR_OP_REMOVE] = "o",
		[RR_OP_RENAME] = "oo",
		[RR_OP_RENEW] = "h",
		[RR_OP_RESTOREFH] = "",
		[RR_OP_SAVEFH] = "",
		[RR_OP_SECINFO] = "o",
		[RR_OP_SETATTR] = "sf",
		[RR_OP_SETCLIENTID] = "houoou",
		[RR_OP_SETCLIENTID_CONFIRM] = "hh",
		[RR_OP_VERIFY] = "f",
		[RR_OP_WRITE] = "shuo",
		[RR_OP_RELEASE_LOCKOWNER] = "k",
		[RR_OP_BIND_CONN_TO_SESSION] = "suu",
		[RR_OP_DESTROY_SESSION] = "s",
		[RR_OP_FREE_STATEID] = "s",
		[RR_OP_GET_DIR_DELEGATION] = "ubttbb",
		[RR_OP_GETDEVICEINFO] = "suub",
		[RR_OP_GETDEVICELIST] = "uuhh",
		[RR_OP_LAYOUTGET] = "uuuhhhsu",
		[RR_OP_SECINFO_NO_NAME] = "u",
		[RR_OP_SEQUENCE] = "suuuu",
		[RR_OP_SET_SSV] = "oo",
		[RR_OP_DESTROY_CLIENTID] = "h",
		[RR_OP_RECLAIM_COMPLETE] = "u",
		[RR_OP_ALLOCATE] = "shh",
		[RR_OP_DEALLOCATE] = "shh",
		[RR_OP_IO_ADVISE] = "shhb",
		[RR_OP_LAYOUTSTATS] = "hhshhhhsuo",
		[RR_OP_OFFLOAD_CANCEL] = "s",
		[RR_OP_OFFLOAD_STATUS] = "s",
		[RR_OP_READ_PLUS] = "shu",
		[RR_OP_SEEK] = "shu",
		[RR_OP_CLONE] = "sshhh",
		[RR_OP_GETXATTR] = "o",
		[RR_OP_SETXATTR] = "uoo",
		[RR_OP_LISTXATTRS] = "hu",
		[RR_OP_REMOVEXATTR] = "o",
	};
	switch (op) {
	case RR_OP_CREATE: return create_args(w);
	case RR_OP_LOCK: return lock_args(w);
	case RR_OP_OPEN: return open_args(w);
	case RR_OP_BACKCHANNEL_CTL: return shape(w, "u") && sec_parms(w);
	case RR_OP_EXCHANGE_ID: return exchange_id_args(w);
	case RR_OP_CREATE_SESSION: return create_session_args(w);
	case RR_OP_LAYOUTCOMMIT:
		if (!shape(w, "hhus"))
			return false;
		if (cur_be32(&w->c, "nfs4 newoffset"))
			shape(w, "h");
		if (cur_be32(&w->c, "nfs4 newtime"))
			shape(w, "t");
		return shape(w, "uo");
	case RR_OP_LAYOUTRETURN:
		if (!shape(w, "uuu"))
			return false;
		return cur_be32(&w->c, "nfs4 layoutreturn type") == 1 ?
			       shape(w, "hhso") : cur_ok(&w->c);
	case RR_OP_TEST_STATEID: return array_of(w, "s");
	case RR_OP_WANT_DELEGATION:
		if (!shape(w, "u"))
			return false;
		return cur_be32(&w->c, "nfs4 deleg claim") == 1 ? shape(w, "u") :
								  cur_ok(&w->c);
	case RR_OP_COPY:
		if (!shape(w, "sshhhuu"))
			return false;
		uint32_t n;
		if (!counted(w, &n))
			return false;
		for (uint32_t i = 0; i < n && netloc(w); i++)
			;
		return cur_ok(&w->c);
	case RR_OP_COPY_NOTIFY: return shape(w, "s") && netloc(w);
	case RR_OP_LAYOUTERROR: return shape(w, "hhs") && array_of(w, "suu");
	case RR_OP_ILLEGAL: return true;
	default:
		return op < RR_NFS4_OP_OTHER && shapes[op] && shape(w, shapes[op]);
	}
}

/* What the first PUTFH, whose arguments start at msg[at] and were
 * stepped over whole, tells of the COMPOUND's target: its handle (RFC
 * 8881 §18.19.1). */
static void note_handle(const uint8_t *msg, uint32_t at, uint32_t cap, uint32_t op,
			struct rr_nfs_target *t)
{
	if (op != RR_OP_PUTFH || t->fh_known)
		return;
	uint32_t len = rd_be32(msg + at);
	if (len > cap - at - 4)
		return;
	t->fh_known = true;
	t->fh_hash = rr_crc32(0, msg + at + 4, len);
}

/* What the first READ, WRITE or COMMIT tells of the target: its offset
 * and count (§18.22.1, §18.32.1, §18.3.1; a stateid4 is 16 bytes), read
 * once those words are captured, before its arguments are stepped over:
 * a WRITE's data may lie past what was captured (a Long Call named from
 * its first packet, a frame cut short), its count says how much. */
static void note_range(const uint8_t *msg, uint32_t at, uint32_t cap, uint32_t op,
		       struct rr_nfs_target *t)
{
	uint32_t need = op == RR_OP_READ ? 28 : op == RR_OP_WRITE ? 32 :
			op == RR_OP_COMMIT ? 12 : 0;
	if (!need || t->range_known || at > cap || need > cap - at)
		return;
	switch (op) {
	case RR_OP_READ: /* stateid | offset | count */
		t->offset = rd_be64(msg + at + 16);
		t->count = rd_be32(msg + at + 24);
		break;
	case RR_OP_WRITE: /* stateid | offset | stable | data<> */
		t->offset = rd_be64(msg + at + 16);
		t->count = rd_be32(msg + at + 28);
		break;
	default: /* COMMIT: offset | count */
		t->offset = rd_be64(msg + at);
		t->count = rd_be32(msg + at + 8);
		break;
	}
	t->range_known = true;
}

/* layoutrecall4 (RFC 8881 §20.3.1): a file's range, an fsid, or all. */
static bool layoutrecall(struct walk *w)
{
	switch (cur_be32(&w->c, "nfs4 layoutrecall type")) {
	case 1: return shape(w, "ohhs"); /* LAYOUTRECALL4_FILE */
	case 2: return shape(w, "hh");   /* LAYOUTRECALL4_FSID */
	case 3: return cur_ok(&w->c);    /* LAYOUTRECALL4_ALL */
	default: return false;
	}
}

/* CB_SEQUENCE4args (RFC 8881 §20.9.1): sessionid, sequenceid, slotid,
 * highest_slotid, cachethis, referring_call_list4<> (a sessionid and
 * referring_call4<> of sequenceid and slotid each). */
static bool cb_sequence_args(struct walk *w)
{
	uint32_t n;
	if (!shape(w, "suuuu") || !counted(w, &n))
		return false;
	for (uint32_t i = 0; i < n && shape(w, "s") && array_of(w, "uu"); i++)
		;
	return cur_ok(&w->c);
}

/* CB_OFFLOAD4args (RFC 7862 §16.1.1): fh, stateid, offload_info4, by its
 * status: write_response4 (callback id<1>, count, committed, verifier)
 * or the bytes copied. */
static bool cb_offload_args(struct walk *w)
{
	if (!shape(w, "os"))
		return false;
	if (cur_be32(&w->c, "nfs4 offload status") != 0)
		return shape(w, "h");
	return array_of(w, "s") && shape(w, "huh");
}

static bool cb_op_args(struct walk *w, uint32_t op)
{
	switch (op) {
	case RR_CB_OP_GETATTR: return shape(w, "ob");
	case RR_CB_OP_RECALL: return shape(w, "suo");
	case RR_CB_OP_LAYOUTRECALL: return shape(w, "uuu") && layoutrecall(w);
	case RR_CB_OP_NOTIFY: return shape(w, "so") && array_of(w, "bo");
	case RR_CB_OP_RECALL_ANY:
	case RR_CB_OP_RECALLABLE_OBJ_AVAIL: return shape(w, "ub");
	case RR_CB_OP_RECALL_SLOT: return shape(w, "u");
	case RR_CB_OP_SEQUENCE: return cb_sequence_args(w);
	case RR_CB_OP_WANTS_CANCELLED: return shape(w, "uu");
	case RR_CB_OP_NOTIFY_LOCK: return shape(w, "ok");
	case RR_CB_OP_NOTIFY_DEVICEID: return array_of(w, "bo");
	case RR_CB_OP_OFFLOAD: return cb_offload_args(w);
	case RR_CB_OP_ILLEGAL: return true;
	default: return false; /* CB_PUSH_DELEG's open_delegation4, unknown numbers */
	}
}

/* COMPOUND4args (RFC 8881 §16.2.1) or a callback's CB_COMPOUND4args
 * (§19.2.1) at msg[off]: tag, minorversion, a callback's callback_ident,
 * then each operation's number and arguments as far as they can be
 * followed; a forward COMPOUND's target noted on the way. */
static void compound(struct walk *w, const uint8_t *msg, uint32_t off, bool callback,
		     struct rr_nfs4_compound *out)
{
	memset(out, 0, sizeof(*out));
	out->callback = callback;
	if (cur_need(&w->c, 4, "nfs4 tag length"))
		out->tag_len = rd_be32(msg + off);
	if (!opaque(w))
		return;
	out->minorversion = cur_be32(&w->c, "nfs4 minorversion");
	if (callback)
		(void)cur_be32(&w->c, "nfs4 callback_ident");
	out->numops = cur_be32(&w->c, "nfs4 numops");
	if (!cur_ok(&w->c))
		return;
	if (out->numops > cur_left_wire(&w->c) / 4) { /* an opnum each at least */
		w->c.pos -= 4;
		out->numops = 0;
		cur_fail(&w->c, RR_MALFORMED, RR_PROBLEM_OVER_CAP, "nfs4 numops");
		return;
	}
	while (out->named < out->numops) {
		uint32_t op = cur_be32(&w->c, "nfs4 opnum");
		if (!cur_ok(&w->c))
			break;
		if (out->named < RR_NFS4_OPS_KEPT)
			out->op[out->named] = (uint16_t)(op > UINT16_MAX ? UINT16_MAX : op);
		out->named++;
		uint32_t args = w->c.pos;
		if (!callback) /* the first I/O's range */
			note_range(msg, args, w->c.cap, op, &out->target);
		/* past an operation it cannot step over, the rest cannot be
		 * named: named < numops tells */
		if (!(callback ? cb_op_args(w, op) : op_args(w, op)))
			break;
		if (!callback)
			note_handle(msg, args, w->c.cap, op, &out->target);
	}
}

enum rr_status rr_nfs4_compound_decode(
	const uint8_t *msg, uint32_t stream_base, uint32_t off,
	uint32_t captured_end, uint32_t end,
	const struct rr_nfs4_moved *moved, unsigned nmoved,
	struct rr_nfs4_compound *out, struct rr_note *note)
{
	struct walk w = { .stream_base = stream_base, .moved = moved,
			  .nmoved = nmoved };
	cur_init(&w.c, msg, off, captured_end, end, note);
	compound(&w, msg, off, false, out);
	return (enum rr_status)note->status;
}

enum rr_status rr_nfs4_cb_compound_decode(
	const uint8_t *msg, uint32_t off, uint32_t captured_end, uint32_t end,
	struct rr_nfs4_compound *out, struct rr_note *note)
{
	struct walk w = { .stream_base = off };
	cur_init(&w.c, msg, off, captured_end, end, note);
	compound(&w, msg, off, true, out);
	return (enum rr_status)note->status;
}
