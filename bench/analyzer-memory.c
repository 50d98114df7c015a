/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The analyzer's memory per connection and per outstanding RPC: the bytes
 * rr_analyzer_new allocates for N connections, or N outstanding calls
 * with one chunk segment each (a contiguous FRWR registration), against
 * the same with N = 1, divided by N.
 * usage: analyzer-memory [N]
 */
#include <stdio.h>
#include <stdlib.h>

#include <rpcrdma/analyzer.h>

static size_t bytes(uint32_t conns, uint32_t calls, uint32_t segs)
{
	struct rr_config cfg;
	struct rr_analyzer_limits lim;
	rr_config_init(&cfg);
	rr_analyzer_limits_init(&lim);
	lim.max_connections = conns;
	lim.max_calls = calls;
	lim.max_segments = segs;
	lim.reassembly_slots = 256;
	struct rr_analyzer *a = rr_analyzer_new(&cfg, &lim);
	if (!a) {
		fprintf(stderr, "analyzer-memory: out of memory\n");
		exit(1);
	}
	size_t n = rr_analyzer_memory(a);
	rr_analyzer_free(a);
	return n;
}

int main(int argc, char **argv)
{
	uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 100000;
	size_t base = bytes(1, 1, 1);
	size_t with_conns = bytes(n, 1, 1);
	size_t with_calls = bytes(1, n, n);
	printf("analyzer memory: %.0f bytes per connection, %.0f bytes per "
	       "outstanding RPC (with one chunk segment), measured with %u\n",
	       (double)(with_conns - base) / n,
	       (double)(with_calls - base) / n, n);
	return 0;
}
