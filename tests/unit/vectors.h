/* SPDX-License-Identifier: BSD-2-Clause */
/* Whole frames built with the encoder, shared by the frame-level tests. */
#ifndef RR_VECTORS_H
#define RR_VECTORS_H

#include <rpcrdma/encode.h>

#define VEC_MAX_LEN 2048

struct vector {
	const char *name;
	uint32_t link;
	size_t len;
	uint8_t bytes[VEC_MAX_LEN];
};

/* Fills vecs[0..max) and returns how many were built. */
size_t vectors_build(struct vector *vecs, size_t max);

/* Builders the tests use directly. */
void vec_endpoints(struct rr_endpoints *ep, uint8_t ip_version);
size_t vec_rocev2(uint8_t *out, size_t cap, const struct rr_endpoints *ep,
		  uint8_t opcode, const struct rr_ext *ext,
		  const uint8_t *payload, size_t len);
size_t vec_cm(uint8_t *out, size_t cap, uint16_t attr, const uint8_t *pd,
	      size_t pd_len);

#endif
