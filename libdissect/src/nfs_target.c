/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What an NFSv2 or v3 call acts on: the file handle its arguments begin
 * with and, for READ, WRITE and COMMIT, the byte range (RFC 1094 §2.2,
 * RFC 1813 §3.3):
 *
 *   v2 READ:   fhandle[32] | offset | count | totalcount
 *   v2 WRITE:  fhandle[32] | beginoffset | offset | totalcount | data<>
 *   v3 READ, COMMIT:  nfs_fh3 | offset3 (64 bits) | count3
 *   v3 WRITE:         nfs_fh3 | offset3 | count3 | stable | data<>
 *
 * The handle is kept as its CRC-32, as Wireshark's nfs.fh.hash.
 */
#include <rpcrdma/nfs.h>
#include <rpcrdma/xdr.h>

#include <string.h>

enum { NFS2_FHSIZE = 32, NFS3_FHSIZE = 64 };
enum { NFS2_READ = 6, NFS2_WRITE = 8, NFS3_READ = 6, NFS3_WRITE = 7,
       NFS3_COMMIT = 21 };

/* NFSv2's NULL, ROOT and WRITECACHE take no arguments (RFC 1094 §2.2);
 * every other procedure of both versions starts with a handle. */
static bool names_a_file(uint32_t vers, uint32_t proc)
{
	if (proc == 0)
		return false;
	if (vers == 2)
		return proc != 3 && proc != 7 && proc <= 17;
	return vers == 3 && proc <= 21;
}

bool rr_nfs_call_target_decode(const uint8_t *msg, uint32_t off, uint32_t have,
			       uint32_t vers, uint32_t proc,
			       struct rr_nfs_target *out)
{
	memset(out, 0, sizeof(*out));
	if (!msg || off > have || !names_a_file(vers, proc))
		return false;
	struct rr_xdr x;
	rr_xdr_init(&x, msg + off, have - off);
	const uint8_t *fh;
	uint32_t len = NFS2_FHSIZE;
	if (vers == 2) {
		fh = x.len >= NFS2_FHSIZE ? x.p : NULL;
		rr_xdr_skip(&x, NFS2_FHSIZE);
	} else {
		fh = rr_xdr_opaque(&x, NFS3_FHSIZE, &len);
	}
	if (!fh || x.error)
		return false;
	out->fh_known = true;
	out->fh_hash = rr_crc32(0, fh, len);
	if (vers == 2 && proc == NFS2_READ) {
		out->offset = rr_xdr_u32(&x);
		out->count = rr_xdr_u32(&x);
	} else if (vers == 2 && proc == NFS2_WRITE) {
		rr_xdr_u32(&x); /* beginoffset, unused */
		out->offset = rr_xdr_u32(&x);
		rr_xdr_u32(&x); /* totalcount, unused */
		out->count = rr_xdr_u32(&x); /* the data's length */
	} else if (vers == 3 && (proc == NFS3_READ || proc == NFS3_WRITE ||
				 proc == NFS3_COMMIT)) {
		out->offset = rr_xdr_u64(&x);
		out->count = rr_xdr_u32(&x);
	} else {
		return true;
	}
	out->range_known = !x.error;
	if (x.error)
		out->offset = out->count = 0;
	return true;
}
