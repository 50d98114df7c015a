/* SPDX-License-Identifier: BSD-2-Clause */
/* Log-linear latency histograms (rpcrdma/latency.h). */
#include <rpcrdma/latency.h>

#define SUB (1u << RR_LAT_SUB_BITS)

static const uint64_t bound_us[RR_LAT_BOUNDS] = {
#define RR_X_BOUND(i, us) [i] = us,
	RR_LAT_BOUND_LIST(RR_X_BOUND)
#undef RR_X_BOUND
};

uint64_t rr_latency_bound_us(unsigned b)
{
	return b < RR_LAT_BOUNDS ? bound_us[b] : UINT64_MAX;
}

/* The middle of bucket b, in ns. */
static uint64_t bucket_middle_ns(unsigned b)
{
	if (b < SUB)
		return ((uint64_t)b << RR_LAT_UNIT_SHIFT) + (1u << RR_LAT_UNIT_SHIFT) / 2;
	unsigned row = b / SUB, shift = row - 1;
	uint64_t low = (uint64_t)(SUB + b % SUB) << shift;
	return (low << RR_LAT_UNIT_SHIFT) + ((1ull << shift) << RR_LAT_UNIT_SHIFT) / 2;
}

static inline void add(struct rr_latency *h, uint64_t ns, unsigned bucket, unsigned bound)
{
	if (!h->count || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->count++;
	h->sum_ns += ns;
	h->bucket[bucket]++;
	h->le[bound]++;
}

/* The least latency of bucket b, in ns. */
static uint64_t bucket_low_ns(unsigned b)
{
	if (b < SUB)
		return (uint64_t)b << RR_LAT_UNIT_SHIFT;
	unsigned shift = b / SUB - 1;
	return (uint64_t)(SUB + b % SUB) << shift << RR_LAT_UNIT_SHIFT;
}

/* The fixed bound of each bucket's least latency (rr_latency_bound_of).
 * A bucket is under 1/32 of its latencies wide and the bounds are at
 * least twice apart, so any latency of the bucket is at most that bound
 * or the next: one compare instead of nineteen, on every reply. */
static uint8_t bucket_bound[RR_LAT_BUCKETS];

__attribute__((constructor)) static void bucket_bounds_init(void)
{
	for (unsigned b = 0; b < RR_LAT_BUCKETS; b++)
		bucket_bound[b] = (uint8_t)rr_latency_bound_of(bucket_low_ns(b));
}

static inline unsigned bound_in(unsigned bucket, uint64_t ns)
{
	unsigned b = bucket_bound[bucket];
	return b + (b < RR_LAT_BOUNDS && ns > bound_us[b] * 1000u);
}

void rr_latency_record(struct rr_latency *h, uint64_t ns)
{
	unsigned bucket = rr_latency_bucket_of(ns);
	add(h, ns, bucket, bound_in(bucket, ns));
}

void rr_latency_record2(struct rr_latency *h1, struct rr_latency *h2, uint64_t ns)
{
	unsigned bucket = rr_latency_bucket_of(ns), bound = bound_in(bucket, ns);
	add(h1, ns, bucket, bound);
	add(h2, ns, bucket, bound);
}

void rr_latency_merge(struct rr_latency *dst, const struct rr_latency *src)
{
	if (!src->count)
		return;
	if (!dst->count || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->count += src->count;
	dst->sum_ns += src->sum_ns;
	for (unsigned b = 0; b < RR_LAT_BUCKETS; b++)
		dst->bucket[b] += src->bucket[b];
	for (unsigned b = 0; b <= RR_LAT_BOUNDS; b++)
		dst->le[b] += src->le[b];
}

uint64_t rr_latency_quantile_ns(const struct rr_latency *h, double q)
{
	if (!h->count)
		return 0;
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	/* the rank of the latency wanted: ceil(q * count), at least 1 */
	double want = q * (double)h->count;
	uint64_t rank = (uint64_t)want;
	if ((double)rank < want)
		rank++;
	if (!rank)
		rank = 1;
	uint64_t run = 0;
	for (unsigned b = 0; b < RR_LAT_BUCKETS; b++) {
		run += h->bucket[b];
		if (run >= rank) {
			if (b == RR_LAT_BUCKETS - 1) /* also all beyond the range */
				return h->max_ns;
			uint64_t v = bucket_middle_ns(b);
			return v < h->min_ns ? h->min_ns : v > h->max_ns ? h->max_ns : v;
		}
	}
	return h->max_ns;
}

uint64_t rr_latency_mean_ns(const struct rr_latency *h)
{
	return h->count ? h->sum_ns / h->count : 0;
}

uint64_t rr_latency_at_most_bound(const struct rr_latency *h, unsigned b)
{
	uint64_t n = 0;
	for (unsigned i = 0; i <= b && i < RR_LAT_BOUNDS; i++)
		n += h->le[i];
	return n;
}
