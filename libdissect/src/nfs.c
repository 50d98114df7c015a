/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The status an NFS reply begins with: nfsstat (RFC 1094 §2.3.1), nfsstat3
 * (RFC 1813 §2.6), and COMPOUND4res's status, tag<> and resarray count
 * (RFC 8881 §16.2.3):
 *
 *   v2, v3:   status | results ...
 *   v4:       status | tag<> | numres | (resop | result) ...
 */
#include <rpcrdma/nfs.h>
#include <rpcrdma/xdr.h>

#define RR_X_CASE(sym, val, str) case (val): return (str);

const char *rr_nfs_status_str(uint32_t vers, uint32_t v)
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

/* The procedures whose results carry no status: NULL in every version,
 * NFSv2's ROOT (3) and WRITECACHE (7), which are void (RFC 1094 §2.2). */
static bool has_status(uint32_t vers, uint32_t proc)
{
	if (proc == 0)
		return false;
	if (vers == 2)
		return proc != 3 && proc != 7 && proc <= 17;
	if (vers == 3)
		return proc <= 21;
	return vers == 4 && proc == 1; /* COMPOUND */
}

bool rr_nfs_reply_decode(const uint8_t *msg, uint32_t off, uint32_t have,
			 uint32_t vers, uint32_t proc, struct rr_nfs_reply *out)
{
	if (!msg || !has_status(vers, proc))
		return false;
	struct rr_xdr x;
	rr_xdr_init(&x, msg + off, have);
	out->status = rr_xdr_u32(&x);
	out->numres = 0;
	if (x.error)
		return false;
	if (vers == 4) {
		uint32_t len;
		rr_xdr_opaque(&x, have, &len); /* tag, RFC 8881 §16.2.3 */
		uint32_t numres = rr_xdr_u32(&x);
		/* cut before it: the status alone */
		out->numres = x.error ? 0 : numres;
	}
	return true;
}
