/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where a latency falls in an rr_latency histogram (rpcrdma/latency.h):
 * its log-linear bucket and its fixed bound.  The library and the BPF
 * programs that fill the same histogram in the kernel (ebpf/) both use
 * these, so no header of the C library is included, and a builtin the BPF
 * target lacks (clz) only outside it.
 */
#ifndef RPCRDMA_LATENCY_BUCKET_H
#define RPCRDMA_LATENCY_BUCKET_H

#define RR_LAT_UNIT_SHIFT 6    /* buckets count 64 ns units */
#define RR_LAT_SUB_BITS 5      /* 32 buckets per power of two */
#define RR_LAT_BUCKETS 1024    /* up to 2^36 units: 73 minutes */

/* The fixed bounds, in microseconds: X(index, microseconds). */
#define RR_LAT_BOUND_LIST(X) \
	X(0, 10) X(1, 25) X(2, 50) X(3, 100) X(4, 250) X(5, 500) \
	X(6, 1000) X(7, 2500) X(8, 5000) X(9, 10000) X(10, 25000) \
	X(11, 50000) X(12, 100000) X(13, 250000) X(14, 500000) \
	X(15, 1000000) X(16, 2500000) X(17, 5000000) X(18, 10000000)
#define RR_LAT_BOUNDS 19

/* The index of the highest bit set in u (u > 0): one instruction where
 * the compiler has it, shifts on the BPF target. */
static inline unsigned rr_latency_msb(__UINT64_TYPE__ u)
{
#if defined(__GNUC__) && !defined(__bpf__)
	return 63u - (unsigned)__builtin_clzll(u);
#else
	unsigned e = 0;
	if (u >> 32) { u >>= 32; e += 32; }
	if (u >> 16) { u >>= 16; e += 16; }
	if (u >> 8) { u >>= 8; e += 8; }
	if (u >> 4) { u >>= 4; e += 4; }
	if (u >> 2) { u >>= 2; e += 2; }
	if (u >> 1) e += 1;
	return e;
#endif
}

/* Units below 2^SUB_BITS have a bucket each; above, the power of two e of
 * the value picks a row of 2^SUB_BITS buckets and its next SUB_BITS bits
 * the bucket in the row. */
static inline unsigned rr_latency_bucket_of(__UINT64_TYPE__ ns)
{
	const unsigned sub = 1u << RR_LAT_SUB_BITS;
	__UINT64_TYPE__ u = ns >> RR_LAT_UNIT_SHIFT;
	if (u < sub)
		return (unsigned)u;
	unsigned e = rr_latency_msb(u);
	unsigned b = (e - RR_LAT_SUB_BITS + 1) * sub +
		     (unsigned)(u >> (e - RR_LAT_SUB_BITS)) - sub;
	return b < RR_LAT_BUCKETS ? b : RR_LAT_BUCKETS - 1;
}

/* The first fixed bound ns is at most (RR_LAT_BOUNDS: above them all). */
static inline unsigned rr_latency_bound_of(__UINT64_TYPE__ ns)
{
	unsigned b = 0;
#define RR_X_ABOVE(i, us) b += ns > (__UINT64_TYPE__)(us) * 1000u;
	RR_LAT_BOUND_LIST(RR_X_ABOVE)
#undef RR_X_ABOVE
	return b;
}

#endif
