/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NFSv4 COMPOUND arguments (RFC 7530 §16.2, RFC 8881 §16.2): which
 * operations a call carries.  Statistics count operations as nfsstat does;
 * the arguments are stepped over, never kept.
 */
#ifndef RPCRDMA_NFS4_H
#define RPCRDMA_NFS4_H

#include <rpcrdma/dissect.h>
#include <rpcrdma/nfs.h>

#ifdef __cplusplus
extern "C" {
#endif

/* NFSv4.0-4.2 operation numbers (RFC 7530 §16, RFC 8881 §18, RFC 7862 §15,
 * RFC 8276 §8.4).  0-2 are unassigned. */
#define RR_NFS4_OP_LIST(X) \
	X(RR_OP_ACCESS, 3, "ACCESS") \
	X(RR_OP_CLOSE, 4, "CLOSE") \
	X(RR_OP_COMMIT, 5, "COMMIT") \
	X(RR_OP_CREATE, 6, "CREATE") \
	X(RR_OP_DELEGPURGE, 7, "DELEGPURGE") \
	X(RR_OP_DELEGRETURN, 8, "DELEGRETURN") \
	X(RR_OP_GETATTR, 9, "GETATTR") \
	X(RR_OP_GETFH, 10, "GETFH") \
	X(RR_OP_LINK, 11, "LINK") \
	X(RR_OP_LOCK, 12, "LOCK") \
	X(RR_OP_LOCKT, 13, "LOCKT") \
	X(RR_OP_LOCKU, 14, "LOCKU") \
	X(RR_OP_LOOKUP, 15, "LOOKUP") \
	X(RR_OP_LOOKUPP, 16, "LOOKUPP") \
	X(RR_OP_NVERIFY, 17, "NVERIFY") \
	X(RR_OP_OPEN, 18, "OPEN") \
	X(RR_OP_OPENATTR, 19, "OPENATTR") \
	X(RR_OP_OPEN_CONFIRM, 20, "OPEN_CONFIRM") \
	X(RR_OP_OPEN_DOWNGRADE, 21, "OPEN_DOWNGRADE") \
	X(RR_OP_PUTFH, 22, "PUTFH") \
	X(RR_OP_PUTPUBFH, 23, "PUTPUBFH") \
	X(RR_OP_PUTROOTFH, 24, "PUTROOTFH") \
	X(RR_OP_READ, 25, "READ") \
	X(RR_OP_READDIR, 26, "READDIR") \
	X(RR_OP_READLINK, 27, "READLINK") \
	X(RR_OP_REMOVE, 28, "REMOVE") \
	X(RR_OP_RENAME, 29, "RENAME") \
	X(RR_OP_RENEW, 30, "RENEW") \
	X(RR_OP_RESTOREFH, 31, "RESTOREFH") \
	X(RR_OP_SAVEFH, 32, "SAVEFH") \
	X(RR_OP_SECINFO, 33, "SECINFO") \
	X(RR_OP_SETATTR, 34, "SETATTR") \
	X(RR_OP_SETCLIENTID, 35, "SETCLIENTID") \
	X(RR_OP_SETCLIENTID_CONFIRM, 36, "SETCLIENTID_CONFIRM") \
	X(RR_OP_VERIFY, 37, "VERIFY") \
	X(RR_OP_WRITE, 38, "WRITE") \
	X(RR_OP_RELEASE_LOCKOWNER, 39, "RELEASE_LOCKOWNER") \
	X(RR_OP_BACKCHANNEL_CTL, 40, "BACKCHANNEL_CTL") \
	X(RR_OP_BIND_CONN_TO_SESSION, 41, "BIND_CONN_TO_SESSION") \
	X(RR_OP_EXCHANGE_ID, 42, "EXCHANGE_ID") \
	X(RR_OP_CREATE_SESSION, 43, "CREATE_SESSION") \
	X(RR_OP_DESTROY_SESSION, 44, "DESTROY_SESSION") \
	X(RR_OP_FREE_STATEID, 45, "FREE_STATEID") \
	X(RR_OP_GET_DIR_DELEGATION, 46, "GET_DIR_DELEGATION") \
	X(RR_OP_GETDEVICEINFO, 47, "GETDEVICEINFO") \
	X(RR_OP_GETDEVICELIST, 48, "GETDEVICELIST") \
	X(RR_OP_LAYOUTCOMMIT, 49, "LAYOUTCOMMIT") \
	X(RR_OP_LAYOUTGET, 50, "LAYOUTGET") \
	X(RR_OP_LAYOUTRETURN, 51, "LAYOUTRETURN") \
	X(RR_OP_SECINFO_NO_NAME, 52, "SECINFO_NO_NAME") \
	X(RR_OP_SEQUENCE, 53, "SEQUENCE") \
	X(RR_OP_SET_SSV, 54, "SET_SSV") \
	X(RR_OP_TEST_STATEID, 55, "TEST_STATEID") \
	X(RR_OP_WANT_DELEGATION, 56, "WANT_DELEGATION") \
	X(RR_OP_DESTROY_CLIENTID, 57, "DESTROY_CLIENTID") \
	X(RR_OP_RECLAIM_COMPLETE, 58, "RECLAIM_COMPLETE") \
	X(RR_OP_ALLOCATE, 59, "ALLOCATE") \
	X(RR_OP_COPY, 60, "COPY") \
	X(RR_OP_COPY_NOTIFY, 61, "COPY_NOTIFY") \
	X(RR_OP_DEALLOCATE, 62, "DEALLOCATE") \
	X(RR_OP_IO_ADVISE, 63, "IO_ADVISE") \
	X(RR_OP_LAYOUTERROR, 64, "LAYOUTERROR") \
	X(RR_OP_LAYOUTSTATS, 65, "LAYOUTSTATS") \
	X(RR_OP_OFFLOAD_CANCEL, 66, "OFFLOAD_CANCEL") \
	X(RR_OP_OFFLOAD_STATUS, 67, "OFFLOAD_STATUS") \
	X(RR_OP_READ_PLUS, 68, "READ_PLUS") \
	X(RR_OP_SEEK, 69, "SEEK") \
	X(RR_OP_WRITE_SAME, 70, "WRITE_SAME") \
	X(RR_OP_CLONE, 71, "CLONE") \
	X(RR_OP_GETXATTR, 72, "GETXATTR") \
	X(RR_OP_SETXATTR, 73, "SETXATTR") \
	X(RR_OP_LISTXATTRS, 74, "LISTXATTRS") \
	X(RR_OP_REMOVEXATTR, 75, "REMOVEXATTR") \
	X(RR_OP_ILLEGAL, 10044, "ILLEGAL")

enum rr_nfs4_op { RR_NFS4_OP_LIST(RR_X_ENUM) };

/* NFSv4.1 callback operation numbers, of a CB_COMPOUND (RFC 8881 §20,
 * CB_OFFLOAD RFC 7862 §16.1).  0-2 are unassigned. */
#define RR_NFS4_CB_OP_LIST(X) \
	X(RR_CB_OP_GETATTR, 3, "CB_GETATTR") \
	X(RR_CB_OP_RECALL, 4, "CB_RECALL") \
	X(RR_CB_OP_LAYOUTRECALL, 5, "CB_LAYOUTRECALL") \
	X(RR_CB_OP_NOTIFY, 6, "CB_NOTIFY") \
	X(RR_CB_OP_PUSH_DELEG, 7, "CB_PUSH_DELEG") \
	X(RR_CB_OP_RECALL_ANY, 8, "CB_RECALL_ANY") \
	X(RR_CB_OP_RECALLABLE_OBJ_AVAIL, 9, "CB_RECALLABLE_OBJ_AVAIL") \
	X(RR_CB_OP_RECALL_SLOT, 10, "CB_RECALL_SLOT") \
	X(RR_CB_OP_SEQUENCE, 11, "CB_SEQUENCE") \
	X(RR_CB_OP_WANTS_CANCELLED, 12, "CB_WANTS_CANCELLED") \
	X(RR_CB_OP_NOTIFY_LOCK, 13, "CB_NOTIFY_LOCK") \
	X(RR_CB_OP_NOTIFY_DEVICEID, 14, "CB_NOTIFY_DEVICEID") \
	X(RR_CB_OP_OFFLOAD, 15, "CB_OFFLOAD") \
	X(RR_CB_OP_ILLEGAL, 10044, "CB_ILLEGAL")

enum rr_nfs4_cb_op { RR_NFS4_CB_OP_LIST(RR_X_ENUM) };

/* Operation numbers 0..75 have a statistics slot each; the last slot
 * counts what could not be named (ILLEGAL, unassigned numbers, and the
 * operations after one whose arguments could not be stepped over). */
#define RR_NFS4_OP_SLOTS 77
#define RR_NFS4_OP_OTHER (RR_NFS4_OP_SLOTS - 1)

/* The first operations of a COMPOUND, in order, as far as they could be
 * followed. */
#define RR_NFS4_OPS_KEPT 16

struct rr_nfs4_compound {
	/* a callback's CB_COMPOUND (op[] callback operations) or a COMPOUND */
	bool callback;
	uint32_t tag_len, minorversion, numops;
	/* operations whose number was read (at most numops); op[] keeps the
	 * first RR_NFS4_OPS_KEPT of them */
	uint32_t named;
	uint16_t op[RR_NFS4_OPS_KEPT];
	/* what it acts on: the handle of its first PUTFH, and the offset
	 * and count of its first READ, WRITE or COMMIT */
	struct rr_nfs_target target;
};

/* Where a read chunk took a data item out of the inline stream
 * (RFC 8166 §3.5.3): its XDR position and length. */
struct rr_nfs4_moved {
	uint32_t position, length;
};

/*
 * Decodes COMPOUND4args starting at msg[off] (the RPC call's arguments),
 * the XDR stream's position zero being msg[stream_base].  moved lists the
 * read chunks of the call (none for a Long Call's own bytes).  Stops at
 * the first operation whose arguments it cannot step over (named <
 * numops, status RR_COMPLETE) or where the bytes end (RR_TRUNCATED when
 * the capture was cut, RR_MALFORMED when the message was).
 */
RR_API enum rr_status rr_nfs4_compound_decode(
	const uint8_t *msg, uint32_t stream_base, uint32_t off,
	uint32_t captured_end, uint32_t end,
	const struct rr_nfs4_moved *moved, unsigned nmoved,
	struct rr_nfs4_compound *out, struct rr_note *note);

/*
 * Decodes CB_COMPOUND4args at msg[off] (a backward call's arguments, RFC
 * 8881 §19.2): tag<> | minorversion | callback_ident | numops | (opnum |
 * arguments) ...; stops as rr_nfs4_compound_decode does.  out->callback
 * is set; no target is read.
 */
RR_API enum rr_status rr_nfs4_cb_compound_decode(
	const uint8_t *msg, uint32_t off, uint32_t captured_end, uint32_t end,
	struct rr_nfs4_compound *out, struct rr_note *note);

RR_API const char *rr_nfs4_op_str(unsigned op);
RR_API const char *rr_nfs4_cb_op_str(unsigned op);

/* The name of a COMPOUND's or CB_COMPOUND's i-th operation (0-based,
 * i < named and kept), NULL where the number names none. */
RR_API const char *rr_nfs4_compound_op_str(const struct rr_nfs4_compound *cp, uint32_t i);

/* The name of a statistics slot: the operation's, or "other". */
RR_API const char *rr_nfs4_op_slot_str(unsigned slot);

/* A statistics slot for an operation number (RR_NFS4_OP_OTHER if none). */
static inline unsigned rr_nfs4_op_slot(uint32_t op)
{
	return op < RR_NFS4_OP_OTHER ? op : RR_NFS4_OP_OTHER;
}

#ifdef __cplusplus
}
#endif

#endif /* RPCRDMA_NFS4_H */
