/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The responder's NFSv3 server (RFC 1813): one directory holding one file,
 * data.bin, whose bytes are the file image.  Any handle but the file's
 * names the directory, so a client that got its root handle elsewhere (a
 * real mountd) mounts it.  Enough for the peer's own requester and for a
 * Linux mount: NULL, GETATTR, LOOKUP, ACCESS, READ, WRITE (of the image's
 * own bytes), SYMLINK, READDIRPLUS, FSSTAT, FSINFO, PATHCONF, COMMIT.
 * Where the result's data is DDP-eligible (READ, RFC 8267 §2.2) it is
 * handed back for the responder to place; the rest is written in full.
 */
#define _DEFAULT_SOURCE
#include "engine-int.h"

/* RFC 1813 §2.6 and §3.3 */
#define NFS3_ACCESS 4
#define NFS3_FSSTAT 18
#define NFS3_FSINFO 19
#define NFS3_PATHCONF 20
#define NFS3_COMMIT 21
#define NFS3ERR_NOENT 2
#define NF3REG 1
#define NF3DIR 2
#define FSF3_LINK 0x1u
#define FSF3_SYMLINK 0x2u
#define FSF3_HOMOGENEOUS 0x8u
#define FSF3_CANSETTIME 0x10u
/* what a READ or WRITE moves at most, as FSINFO tells */
#define IO_MAX 65536u
/* the writes' verifier, the same across the server's life */
#define WRITE_VERIFIER 0x5eed5eed5eed5eedull

static bool is_file(const uint8_t *fh, uint32_t len)
{
	return fh && len == sizeof(pe_file_fh) && !memcmp(fh, pe_file_fh, len);
}

/* post_op_attr present: the file's, or the directory's */
static void attrs(struct rr_buf *b, bool file)
{
	rr_put_be32(b, 1);
	if (file)
		pe_put_fattr3(b, NF3REG, FILE_SIZE);
	else
		pe_put_dir_fattr3(b);
}

/* READDIRPLUS3res of the directory, built once. */
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
		pe_put_fattr3(b, NF3REG, 4096u * (unsigned)i);
		rr_put_be32(b, 1);
		rr_put_xdr_opaque(b, pe_file_fh, sizeof(pe_file_fh));
	}
	rr_put_be32(b, 0);
	rr_put_be32(b, 1);                   /* eof */
}

static void readdirplus(struct rr_buf *b)
{
	static uint8_t body[8192];
	static size_t body_len;
	if (!body_len) {
		struct rr_buf bb;
		rr_buf_init(&bb, body, sizeof(body));
		readdirplus_body(&bb);
		body_len = bb.len;
	}
	rr_put_bytes(b, body, body_len);
}

/* §3.3.6: the result up to its data, which goes by write chunk or inline */
static void read3(struct rr_xdr *x, struct rr_buf *b, struct pe_nfs3_result *res)
{
	uint32_t fhlen;
	rr_xdr_opaque(x, PE_FH_MAX, &fhlen);
	uint64_t off = rr_xdr_u64(x);
	uint32_t count = rr_xdr_u32(x);
	if (x->error || off > FILE_SIZE || count > FILE_SIZE - off) {
		res->bad_args = true;
		return;
	}
	rr_put_be32(b, 0);
	/* the file's attributes, as real servers send them: Linux's client
	 * sizes its receive head for them and, over RDMA, takes a shorter
	 * inline result's room as data (it saw its READ data displaced) */
	attrs(b, true);
	rr_put_be32(b, count);
	rr_put_be32(b, off + count == FILE_SIZE);   /* eof: only at the end */
	res->data = pe_file_image() + off;
	res->data_len = count;
}

/* §3.3.7: the image's own bytes only, so that every client's WRITE checks
 * what it sent */
static void write3(struct rr_xdr *x, struct rr_buf *b)
{
	uint32_t fhlen, dlen;
	rr_xdr_opaque(x, PE_FH_MAX, &fhlen);
	uint64_t off = rr_xdr_u64(x);
	uint32_t count = rr_xdr_u32(x);
	uint32_t stable = rr_xdr_u32(x);
	const uint8_t *data = rr_xdr_opaque(x, 1u << 20, &dlen);
	bool ok = !x->error && dlen == count && off <= FILE_SIZE &&
		  count <= FILE_SIZE - off &&
		  !memcmp(data, pe_file_image() + off, count);
	rr_put_be32(b, ok ? 0 : NFS3ERR_IO);
	rr_put_be32(b, 0);
	rr_put_be32(b, 0);
	if (ok) {
		rr_put_be32(b, count);
		rr_put_be32(b, stable);
		rr_put_be64(b, WRITE_VERIFIER);
	}
}

/* §3.3.3: data.bin in the directory (in any handle: the peer's own
 * requester names the file's), nothing else */
static void lookup3(struct rr_xdr *x, struct rr_buf *b)
{
	uint32_t fhlen, nlen;
	rr_xdr_opaque(x, PE_FH_MAX, &fhlen);
	const uint8_t *name = rr_xdr_opaque(x, 255, &nlen);
	if (x->error || nlen != sizeof(PE_FILE_NAME) - 1 ||
	    memcmp(name, PE_FILE_NAME, nlen)) {
		rr_put_be32(b, NFS3ERR_NOENT);
		rr_put_be32(b, 0);           /* dir_attributes absent */
		return;
	}
	rr_put_be32(b, 0);
	rr_put_xdr_opaque(b, pe_file_fh, sizeof(pe_file_fh));
	attrs(b, true);
	rr_put_be32(b, 0);
}

void pe_nfs3_execute(uint32_t proc, struct rr_xdr *x, struct rr_buf *b,
		     struct pe_nfs3_result *res)
{
	memset(res, 0, sizeof(*res));
	uint32_t fhlen;
	const uint8_t *fh;
	switch (proc) {
	case NFS3_NULL:
		break;
	case NFS3_GETATTR:
		fh = rr_xdr_opaque(x, PE_FH_MAX, &fhlen);
		rr_put_be32(b, 0);
		if (is_file(fh, fhlen) || x->error)
			pe_put_fattr3(b, NF3REG, FILE_SIZE);
		else
			pe_put_dir_fattr3(b);
		break;
	case NFS3_LOOKUP:
		lookup3(x, b);
		break;
	case NFS3_ACCESS: {
		/* §3.3.4: every access asked for is granted */
		fh = rr_xdr_opaque(x, PE_FH_MAX, &fhlen);
		uint32_t want = rr_xdr_u32(x);
		rr_put_be32(b, 0);
		attrs(b, is_file(fh, fhlen));
		rr_put_be32(b, want);
		break;
	}
	case NFS3_READ:
		read3(x, b, res);
		break;
	case NFS3_WRITE:
		write3(x, b);
		break;
	case NFS3_SYMLINK:
		rr_put_be32(b, 0);
		rr_put_be32(b, 1);
		rr_put_xdr_opaque(b, pe_file_fh, sizeof(pe_file_fh));
		rr_put_be32(b, 0);
		rr_put_be32(b, 0);
		rr_put_be32(b, 0);
		break;
	case NFS3_READDIRPLUS:
		readdirplus(b);
		break;
	case NFS3_FSSTAT:
		/* §3.3.18: the sizes of a small, full file system */
		rr_put_be32(b, 0);
		attrs(b, false);
		for (int i = 0; i < 3; i++)
			rr_put_be64(b, i ? 0 : FILE_SIZE);  /* t, f, a bytes */
		for (int i = 0; i < 3; i++)
			rr_put_be64(b, i ? 0 : 2);          /* t, f, a files */
		rr_put_be32(b, 0);                          /* invarsec */
		break;
	case NFS3_FSINFO:
		/* §3.3.19 */
		rr_put_be32(b, 0);
		attrs(b, false);
		for (int i = 0; i < 2; i++) {               /* read, write */
			rr_put_be32(b, IO_MAX);
			rr_put_be32(b, IO_MAX);
			rr_put_be32(b, 4096);
		}
		rr_put_be32(b, 4096);                       /* dtpref */
		rr_put_be64(b, FILE_SIZE);                  /* maxfilesize */
		rr_put_be32(b, 0);                          /* time_delta */
		rr_put_be32(b, 1);
		rr_put_be32(b, FSF3_LINK | FSF3_SYMLINK | FSF3_HOMOGENEOUS |
				       FSF3_CANSETTIME);
		break;
	case NFS3_PATHCONF: {
		/* §3.3.20: linkmax, name_max, no_trunc, chown_restricted,
		 * case_insensitive, case_preserving */
		static const uint32_t pc[] = { 1, 255, 1, 1, 0, 1 };
		rr_put_be32(b, 0);
		attrs(b, false);
		for (size_t i = 0; i < sizeof(pc) / sizeof(pc[0]); i++)
			rr_put_be32(b, pc[i]);
		break;
	}
	case NFS3_COMMIT:
		/* §3.3.21: every WRITE was of bytes already there */
		rr_put_be32(b, 0);
		rr_put_be32(b, 0);                          /* wcc_data */
		rr_put_be32(b, 0);
		rr_put_be64(b, WRITE_VERIFIER);
		break;
	default:
		res->unavailable = true;
		break;
	}
}
