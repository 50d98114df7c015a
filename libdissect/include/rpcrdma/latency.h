/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RPC latency histograms, log-linear as HdrHistogram keeps them: each
 * power of two of the time is cut into 32 equal buckets, so a percentile
 * read from the histogram (the middle of its bucket) is within 1/64 (1.6%)
 * of the recorded time, from 2 us up to 73 minutes, in a fixed 8 KiB.
 *
 * Beside it, exact counts at fixed bounds chosen for NFS (10 us to 10 s,
 * 1-2.5-5 per decade) for exporters whose format has fixed buckets
 * (Prometheus' le): those counts are not estimated from the log-linear
 * buckets, whose edges are powers of two.
 */
#ifndef RPCRDMA_LATENCY_H
#define RPCRDMA_LATENCY_H

#include <stdint.h>
#include <rpcrdma/dissect.h>
#include <rpcrdma/latency-bucket.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rr_latency {
	uint64_t count, sum_ns, min_ns, max_ns;
	uint64_t bucket[RR_LAT_BUCKETS];
	/* calls whose latency is at most bound b and more than bound b-1;
	 * le[RR_LAT_BOUNDS]: more than the last bound */
	uint64_t le[RR_LAT_BOUNDS + 1];
};

/* Bound b of the fixed ones, in microseconds. */
RR_API uint64_t rr_latency_bound_us(unsigned b);

RR_API void rr_latency_record(struct rr_latency *h, uint64_t ns);
/* The same into two histograms (a procedure's and its client's): the
 * bucket and the bound are found once. */
RR_API void rr_latency_record2(struct rr_latency *h1, struct rr_latency *h2, uint64_t ns);
/* Adds src's counts to dst's. */
RR_API void rr_latency_merge(struct rr_latency *dst, const struct rr_latency *src);
/* The q-quantile (0..1) in ns: the middle of the bucket holding the
 * ceil(q*count)-th smallest latency, kept within [min, max]; 0 when the
 * histogram is empty. */
RR_API uint64_t rr_latency_quantile_ns(const struct rr_latency *h, double q);
/* Mean in ns, 0 when empty. */
RR_API uint64_t rr_latency_mean_ns(const struct rr_latency *h);
/* Calls whose latency was at most bound b (Prometheus' cumulative le). */
RR_API uint64_t rr_latency_at_most_bound(const struct rr_latency *h, unsigned b);

#ifdef __cplusplus
}
#endif
#endif
