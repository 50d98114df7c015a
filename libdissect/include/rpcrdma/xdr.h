/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A bounds-checked XDR reader (RFC 4506) for upper-layer arguments and
 * results, so that programs built on libdissect parse no bytes themselves.
 * The first failed read sets `error`; later reads return zeros.
 */
#ifndef RPCRDMA_XDR_H
#define RPCRDMA_XDR_H

#include <rpcrdma/dissect.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rr_xdr {
	const uint8_t *p;
	uint32_t pos, len;
	bool error;
};

RR_API void rr_xdr_init(struct rr_xdr *x, const void *p, uint32_t len);
RR_API uint32_t rr_xdr_u32(struct rr_xdr *x);
RR_API uint64_t rr_xdr_u64(struct rr_xdr *x);
/* Variable-length opaque of at most max bytes: its bytes and length. */
RR_API const uint8_t *rr_xdr_opaque(struct rr_xdr *x, uint32_t max,
				    uint32_t *len);
/* Skip n bytes rounded up to 4. */
RR_API void rr_xdr_skip(struct rr_xdr *x, uint32_t n);

#ifdef __cplusplus
}
#endif
#endif
