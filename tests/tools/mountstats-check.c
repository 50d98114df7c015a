/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The mountstats parser on the layouts the kernel prints: 27 numbers per
 * "xprt: rdma" line (with the memory-registration counters), 20 (before
 * them), one line per transport with nconnect, a tcp mount beside it,
 * and a line longer than any known layout.
 * usage: mountstats-check DIR (tests/kernel)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/check.h"

#include "rr_kernel.h"

/* the unit tests' TAP checks, with a sentence for each */
#define check(ok, what) check_report(!!(ok), what, __FILE__, __LINE__, check_ctx)

static uint64_t field(const struct rr_xprt_rdma *x, const char *name)
{
	for (unsigned i = 0; i < x->n; i++)
		if (!strcmp(rr_xprt_rdma_field(i), name))
			return x->v[i];
	return UINT64_MAX;
}

static unsigned parse(const char *dir, const char *file,
		      struct rr_xprt_rdma *x, unsigned max)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	FILE *f = fopen(path, "r");
	if (!f) {
		perror(path);
		exit(2);
	}
	static char text[65536];
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return rr_mountstats_parse(text, x, max);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mountstats-check DIR\n");
		return 2;
	}
	struct rr_xprt_rdma x[8];
	unsigned n = parse(argv[1], "mountstats-27.txt", x, 8);
	check(n == 2, "27 numbers: the two rdma transports of one nconnect mount, not the tcp one");
	check(!strcmp(x[0].device, "192.168.122.10:/export") &&
		      !strcmp(x[0].mountpoint, "/mnt/rdma"),
	      "27 numbers: device and mount point");
	check(x[0].index == 0 && x[1].index == 1, "27 numbers: transport index");
	check(x[0].n == 27 && x[1].n == 27, "27 numbers: all read");
	check(field(&x[0], "sends") == 1930 && field(&x[1], "sends") == 1002,
	      "27 numbers: sends by position");
	check(field(&x[0], "read_chunk_count") == 12 &&
		      field(&x[0], "write_chunk_count") == 24 &&
		      field(&x[0], "reply_chunk_count") == 3,
	      "27 numbers: chunk counts by position");
	check(field(&x[0], "total_rdma_reply") == 1572864 &&
		      field(&x[0], "nomsg_call_count") == 2 &&
		      field(&x[0], "mrs_allocated") == 48,
	      "27 numbers: bytes, Long Calls and MRs by position");
	check(field(&x[1], "reply_waits_for_send") == 0 && field(&x[1], "bklog_u") == 0,
	      "27 numbers: the last field");
	n = parse(argv[1], "mountstats-20.txt", x, 8);
	check(n == 1 && x[0].n == 20, "20 numbers: one transport, 20 read");
	check(field(&x[0], "bad_reply_count") == 0 && field(&x[0], "sends") == 51 &&
		      field(&x[0], "total_rdma_reply") == 65536,
	      "20 numbers: by position");
	check(field(&x[0], "nomsg_call_count") == UINT64_MAX,
	      "20 numbers: later fields absent, not zero");
	n = parse(argv[1], "mountstats-28.txt", x, 8);
	check(n == 1 && x[0].n == 27 && field(&x[0], "reply_waits_for_send") == 3,
	      "28 numbers: the known 27 read, the unknown one left");
	check(!strcmp(x[0].mountpoint, "/mnt/a dir"), "a mount point with a space");
	check(rr_mountstats_parse("", x, 8) == 0 &&
		      rr_mountstats_parse("\txprt:\trdma\n", x, 8) == 1 && x[0].n == 0,
	      "empty text, and a line with no numbers");
	return check_done();
}
