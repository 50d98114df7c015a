/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The status a reply of NFS or a companion program begins with: nfsstat
 * (RFC 1094 §2.3.1), nfsstat3 (RFC 1813 §2.6), mountstat3 (RFC 1813
 * §5.1.5), COMPOUND4res's and CB_COMPOUND4res's status, tag<> and resarray
 * count (RFC 8881 §16.2.3, §20.2), and NLM v4's after the cookie
 * (RFC 1813 §6.1.4; nlm4_res and nlm4_testres, XNFS chapter 10):
 *
 *   NFS v2, v3, NFS_ACL, MOUNT v3:  status | results ...
 *   NFS v4, NFS4_CB:                status | tag<> | numres | (resop | result) ...
 *   NLM v4:                         cookie<> | status | ...
 */
#include <rpcrdma/nfs.h>
#include <rpcrdma/xdr.h>

#include "cursor.h"

#define RR_X_CASE(sym, val, str) case (val): return (str);

static const char *nfs_names(uint32_t vers, uint32_t v)
{
	switch (vers) {
	case 2:
		switch (v) { RR_NFS2_STATUS_LIST(RR_X_CASE) default: return NULL; }
	case 3:
		switch (v) { RR_NFS3_STATUS_LIST(RR_X_CASE) default: return NULL; }
	case 4:
		switch (v) { RR_NFS4_STATUS_LIST(RR_X_CASE) default: return NULL; }
	default:
		return NULL;
	}
}

const char *rr_nfs_status_str(uint32_t prog, uint32_t vers, uint32_t v)
{
	switch (prog) {
	case RR_PROG_NFS:
		return nfs_names(vers, v);
	case RR_PROG_NFS_ACL:
		return vers == 2 || vers == 3 ? nfs_names(vers, v) : NULL;
	case RR_PROG_NFS4_CB:
		return nfs_names(4, v);
	case RR_PROG_MOUNT:
		if (vers != 3)
			return NULL;
		switch (v) { RR_MOUNT3_STATUS_LIST(RR_X_CASE) default: return NULL; }
	case RR_PROG_NLM:
		if (vers != 4)
			return NULL;
		switch (v) { RR_NLM4_STATUS_LIST(RR_X_CASE) default: return NULL; }
	default:
		return NULL;
	}
}

/* Where the status lies: first, after a cookie (NLM), or none. */
enum status_at { STATUS_NONE, STATUS_FIRST, STATUS_COMPOUND, STATUS_AFTER_COOKIE };

static enum status_at status_at(uint32_t prog, uint32_t vers, uint32_t proc)
{
	if (proc == 0) /* NULL, in every program and version */
		return STATUS_NONE;
	switch (prog) {
	case RR_PROG_NFS:
		/* NFSv2's ROOT (3) and WRITECACHE (7) are void (RFC 1094 §2.2) */
		if (vers == 2)
			return proc != 3 && proc != 7 && proc <= 17 ? STATUS_FIRST : STATUS_NONE;
		if (vers == 3)
			return proc <= 21 ? STATUS_FIRST : STATUS_NONE;
		return vers == 4 && proc == 1 ? STATUS_COMPOUND : STATUS_NONE;
	case RR_PROG_NFS4_CB:
		return proc == 1 ? STATUS_COMPOUND : STATUS_NONE; /* CB_COMPOUND */
	case RR_PROG_NFS_ACL:
		/* GETACL, SETACL; v2 also GETATTR, ACCESS */
		if (vers == 3)
			return proc <= 2 ? STATUS_FIRST : STATUS_NONE;
		return vers == 2 && proc <= 4 ? STATUS_FIRST : STATUS_NONE;
	case RR_PROG_MOUNT:
		return vers == 3 && proc == 1 ? STATUS_FIRST : STATUS_NONE; /* MNT */
	case RR_PROG_NLM:
		/* TEST to GRANTED, SHARE, UNSHARE, NM_LOCK; the _MSG and _RES
		 * procedures and FREE_ALL answer nothing */
		return vers == 4 && (proc <= 5 || (proc >= 20 && proc <= 22)) ?
			STATUS_AFTER_COOKIE : STATUS_NONE;
	default:
		return STATUS_NONE;
	}
}


bool rr_nfs_reply_decode(const uint8_t *msg, uint32_t off, uint32_t have,
			 uint32_t prog, uint32_t vers, uint32_t proc,
			 struct rr_nfs_reply *out)
{
	enum status_at at = status_at(prog, vers, proc);
	if (!msg || at == STATUS_NONE)
		return false;
	/* read in place, word by word: one or two words per reply, on
	 * every reply (the XDR cursor's calls cost more than the words) */
	const uint8_t *p = msg + off;
	uint32_t pos = 0;
	if (at == STATUS_AFTER_COOKIE) { /* netobj cookie */
		if (have < 4 || xdr_padded(rd_be32(p)) > have - 4)
			return false;
		pos = 4 + (uint32_t)xdr_padded(rd_be32(p));
	}
	if (have - pos < 4)
		return false;
	out->status = rd_be32(p + pos);
	out->numres = 0;
	pos += 4;
	if (at == STATUS_COMPOUND && have - pos >= 4) {
		/* the tag (RFC 8881 §16.2.3), then numres; cut before it:
		 * the status alone */
		uint64_t tag = xdr_padded(rd_be32(p + pos));
		if (tag + 8 <= have - pos)
			out->numres = rd_be32(p + pos + 4 + tag);
	}
	return true;
}
