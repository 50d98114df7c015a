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

#include <string.h>

#include "cursor.h"

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
	/* read in place, word by word, as rr_nfs_reply_decode: on every
	 * NFS call */
	const uint8_t *p = msg + off;
	uint32_t left = have - off, len = NFS2_FHSIZE, at = 0;
	if (vers == 3) { /* nfs_fh3: opaque<NFS3_FHSIZE> */
		if (left < 4)
			return false;
		len = rd_be32(p);
		at = 4;
		if (len > NFS3_FHSIZE || xdr_padded(len) > left - at)
			return false;
	} else if (left < NFS2_FHSIZE) {
		return false;
	}
	out->fh_known = true;
	out->fh_hash = rr_crc32(0, p + at, len);
	uint32_t pos = at + (uint32_t)xdr_padded(len), need;
	if (vers == 2 && proc == NFS2_READ)
		need = 8;  /* offset | count */
	else if (vers == 2 && proc == NFS2_WRITE)
		need = 16; /* beginoffset | offset | totalcount | data's length */
	else if (vers == 3 && (proc == NFS3_READ || proc == NFS3_WRITE || proc == NFS3_COMMIT))
		need = 12; /* offset3 | count3 */
	else
		return true;
	if (left - pos < need)
		return true;
	if (vers == 2) {
		out->offset = rd_be32(p + pos + (proc == NFS2_WRITE ? 4 : 0));
		out->count = rd_be32(p + pos + (proc == NFS2_WRITE ? 12 : 4));
	} else {
		out->offset = rd_be64(p + pos);
		out->count = rd_be32(p + pos + 8);
	}
	out->range_known = true;
	return true;
}
