/* SPDX-License-Identifier: BSD-2-Clause */
/* XDR (RFC 4506 §4.1 integers, §4.5 hyper, §4.10 variable opaque). */
#include <rpcrdma/xdr.h>

#include "cursor.h"

void rr_xdr_init(struct rr_xdr *x, const void *p, uint32_t len)
{
	x->p = p;
	x->pos = 0;
	x->len = len;
	x->error = false;
}

static bool have(struct rr_xdr *x, uint32_t n)
{
	if (x->error || n > x->len - x->pos) {
		x->error = true;
		return false;
	}
	return true;
}

uint32_t rr_xdr_u32(struct rr_xdr *x)
{
	if (!have(x, 4))
		return 0;
	x->pos += 4;
	return rd_be32(x->p + x->pos - 4);
}

uint64_t rr_xdr_u64(struct rr_xdr *x)
{
	if (!have(x, 8))
		return 0;
	x->pos += 8;
	return rd_be64(x->p + x->pos - 8);
}

const uint8_t *rr_xdr_opaque(struct rr_xdr *x, uint32_t max, uint32_t *len)
{
	*len = rr_xdr_u32(x);
	if (x->error || *len > max) {
		x->error = true;
		*len = 0;
		return NULL;
	}
	const uint8_t *at = x->p + x->pos;
	rr_xdr_skip(x, *len);
	return x->error ? NULL : at;
}

void rr_xdr_skip(struct rr_xdr *x, uint32_t n)
{
	uint64_t padded = xdr_padded(n);
	if (!have(x, padded > UINT32_MAX ? UINT32_MAX : (uint32_t)padded))
		return;
	x->pos += (uint32_t)padded;
}
