/* SPDX-License-Identifier: BSD-2-Clause */
/* The log-linear latency histogram (rpcrdma/latency.h): resolution over
 * its whole range, ranks, the fixed bounds and merging. */
#include <stdlib.h>
#include <string.h>
#include <rpcrdma/latency.h>

#include "check.h"

static struct rr_latency h, g;

/* One latency alone: its median is itself within 1/64 (32 ns below 2 us). */
static void resolution(void)
{
	check_ctx = "resolution";
	unsigned bad = 0;
	for (uint64_t ns = 1; ns < 4400ull * 1000000000u; ns += ns / 97 + 1) {
		memset(&h, 0, sizeof(h));
		rr_latency_record(&h, ns);
		rr_latency_record(&h, ns + ns / 1000 + 1); /* min/max do not clamp alone */
		uint64_t got = rr_latency_quantile_ns(&h, 0.5);
		uint64_t err = got > ns ? got - ns : ns - got;
		if (err > ns / 64 + 32 && bad++ < 3)
			printf("#   %llu ns read as %llu\n", (unsigned long long)ns,
			       (unsigned long long)got);
	}
	CHECK_EQ(bad, 0);
}

/* 1..1000 ms: the q-quantile is the ceil(q*n)-th value, within 1/64. */
static void ranks(void)
{
	check_ctx = "ranks";
	memset(&h, 0, sizeof(h));
	for (uint64_t ms = 1000; ms >= 1; ms--) /* order must not matter */
		rr_latency_record(&h, ms * 1000000u);
	CHECK_EQ(h.count, 1000);
	CHECK_EQ(h.min_ns, 1000000u);
	CHECK_EQ(h.max_ns, 1000000000u);
	CHECK_EQ(rr_latency_mean_ns(&h), 500500000u);
	static const struct { double q; uint64_t want_ms; } cases[] = {
		{ 0, 1 }, { 0.001, 1 }, { 0.5, 500 }, { 0.9, 900 }, { 0.99, 990 },
		{ 0.999, 999 }, { 1, 1000 },
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t want = cases[i].want_ms * 1000000u;
		uint64_t got = rr_latency_quantile_ns(&h, cases[i].q);
		uint64_t err = got > want ? got - want : want - got;
		if (!CHECK(err <= want / 64))
			printf("#   q %g: %llu, want %llu\n", cases[i].q,
			       (unsigned long long)got, (unsigned long long)want);
	}
	memset(&g, 0, sizeof(g));
	CHECK_EQ(rr_latency_quantile_ns(&g, 0.5), 0);
	CHECK_EQ(rr_latency_mean_ns(&g), 0);
}

/* The fixed bounds count exactly: a latency on a bound is at most it. */
static void bounds(void)
{
	check_ctx = "bounds";
	CHECK_EQ(rr_latency_bound_us(0), 10);
	CHECK_EQ(rr_latency_bound_us(RR_LAT_BOUNDS - 1), 10000000u);
	memset(&h, 0, sizeof(h));
	for (unsigned b = 0; b < RR_LAT_BOUNDS; b++) {
		rr_latency_record(&h, rr_latency_bound_us(b) * 1000u);
		rr_latency_record(&h, rr_latency_bound_us(b) * 1000u + 1);
	}
	rr_latency_record(&h, 0);
	for (unsigned b = 0; b < RR_LAT_BOUNDS; b++)
		CHECK_EQ(rr_latency_at_most_bound(&h, b), 2 * b + 2);
	CHECK_EQ(h.count, 2 * RR_LAT_BOUNDS + 1);
	/* past the last bound and past the histogram's range: counted */
	rr_latency_record(&h, UINT64_MAX / 2);
	CHECK_EQ(rr_latency_at_most_bound(&h, RR_LAT_BOUNDS - 1), 2 * RR_LAT_BOUNDS);
	CHECK_EQ(rr_latency_quantile_ns(&h, 1), UINT64_MAX / 2);
}

/* A latency counts at the fixed bound rr_latency_bound_of gives it, for
 * latencies at and about every bound and every bucket's edges, and in
 * both histograms of rr_latency_record2. */
static void bound_counts(void)
{
	check_ctx = "bound counts";
	uint64_t values[4 * RR_LAT_BOUNDS + 6 * 1100], n = 0;
	for (unsigned b = 0; b < RR_LAT_BOUNDS; b++)
		for (int d = -1; d <= 2; d++)
			values[n++] = rr_latency_bound_us(b) * 1000u + (uint64_t)(int64_t)d;
	for (uint64_t u = 1; n + 6 <= sizeof(values) / sizeof(values[0]) &&
			     u < (1ull << 40); u = u * 65 / 64 + 1)
		for (int d = -3; d < 3; d++)
			values[n++] = (u << 6) + (uint64_t)(int64_t)d;
	unsigned wrong = 0;
	for (uint64_t i = 0; i < n; i++) {
		memset(&h, 0, sizeof(h));
		memset(&g, 0, sizeof(g));
		rr_latency_record(&h, values[i]);
		rr_latency_record2(&g, &g, values[i]);
		unsigned at = rr_latency_bound_of(values[i]);
		wrong += h.le[at] != 1 || g.le[at] != 2;
	}
	CHECK(n > 1000);
	CHECK_EQ(wrong, 0);
}

static void merge(void)
{
	check_ctx = "merge";
	memset(&h, 0, sizeof(h));
	memset(&g, 0, sizeof(g));
	for (uint64_t us = 1; us <= 100; us++)
		rr_latency_record(us % 2 ? &h : &g, us * 1000u);
	rr_latency_merge(&h, &g);
	CHECK_EQ(h.count, 100);
	CHECK_EQ(h.min_ns, 1000);
	CHECK_EQ(h.max_ns, 100000);
	CHECK_EQ(h.sum_ns, 5050000);
	CHECK_EQ(rr_latency_at_most_bound(&h, 0), 10);
	uint64_t p50 = rr_latency_quantile_ns(&h, 0.5);
	CHECK(p50 >= 50000 - 50000 / 64 && p50 <= 50000 + 50000 / 64);
}

int main(void)
{
	resolution();
	ranks();
	bounds();
	bound_counts();
	merge();
	return check_done();
}
