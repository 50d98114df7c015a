/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-top's command line: the live tools' sources, the refresh, batch
 * and JSON modes, the sort key, libbpf-tools' [interval [count]].
 */
#include <curses.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "rr_json.h"
#include "command-line.h"
#include "top.h"
#include "version.h"
#ifdef RR_HAVE_EBPF
#include "rpcrdma_capture.h"
#endif

void top_usage(FILE *to)
{
	fprintf(to,
		"usage: rpcrdma-top (-e IFACE | -i IFACE [-B KIB] | -r FILE [--realtime] |\n"
		"                   --rdma DEV[:PORT] | -t) [--roce-port PORT]\n"
		"                   [--iwarp-port PORT] [--snaplen BYTES]\n"
		"                   [-d SECONDS] [-b [-n COUNT] [-j]] [-s KEY] [--view VIEW]\n"
		"                   [interval [count]] [expression]\n");
	rr_live_usage(to, true);
	fprintf(to,
		"  -d SECONDS   refresh interval (default 1)\n"
		"  -b           batch: print snapshots instead of the screen\n"
		"  -n COUNT     batch: stop after COUNT snapshots\n"
		"  -j           batch: each snapshot as one JSON object\n"
		"  -s KEY       sort by calls, bytes, inflight, p99, findings or peers\n"
		"  --view VIEW  the view shown (the screen's first, -b's): traffic,\n"
		"               latency, procedures, slow (the slowest calls of the\n"
		"               last minute), clients (who is calling, on what) or\n"
		"               diagnosis (each problem with its evidence)\n"
		"  --snaplen BYTES  with -e: bytes of each frame handed over (256)\n"
		"  interval     as -d; count: as -b -n COUNT (libbpf-tools' order)\n"
		"  expression   a libpcap filter (-i, -r)\n"
		"  -V, --version  the versions of the tool and its libraries\n"
		"  -h, --help   this text\n"
		"keys: h or ? help; c b i l f a sort; v view (traffic, latency,\n"
		"      procedures, slow, clients, diagnosis); / filter by address,\n"
		"      p by program (NFS, NFS4_CB, other); arrows, j k, PgUp PgDn,\n"
		"      Home End scroll; space pause; q quit\n");
}

/* Which of n words option's arg is; -1 after saying which it takes. */
static int word_arg(const char *option, const char *arg, const char *const *words, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(arg, words[i]))
			return i;
	fprintf(stderr, "rpcrdma-top: %s takes ", option);
	for (int i = 0; i < n; i++)
		fprintf(stderr, "%s%s", words[i], i == n - 1 ? "\n" : i == n - 2 ? " or " : ", ");
	return -1;
}

int top_parse_args(int argc, char **argv, struct opts *o)
{
	enum { O_SNAP = 256, O_VIEW };
	static const struct option longs[] = {
		RR_LIVE_LONG_OPTIONS,
		{ "snaplen", required_argument, NULL, O_SNAP },
		{ "view", required_argument, NULL, O_VIEW },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	memset(o, 0, sizeof(*o));
	rr_live_opts_init(&o->src, "rpcrdma-top");
	o->interval = 1;
	o->count = -1;
	int sources = 0, c;
	double v;
	while ((c = getopt_long(argc, argv, RR_LIVE_SHORT_OPTIONS "d:bn:js:hV", longs, NULL)) != -1) {
		int taken = rr_live_option(&o->src, c, optarg, &o->tracepoints,
					   &sources);
		if (taken < 0)
			return -1;
		if (taken)
			continue;
		switch (c) {
		case 'd':
			/* refreshes a millisecond apart at most */
			if (!rr_number_arg("rpcrdma-top", "-d", optarg, 0.001, 3600, true,
					   &o->interval))
				return -1;
			break;
		case 'b':
			o->batch = true;
			break;
		case 'n':
			if (!rr_number_arg("rpcrdma-top", "-n", optarg, 1, 1e9, false, &v))
				return -1;
			o->count = (long)v;
			break;
		case 'j':
			o->json = true;
			break;
		case 's': {
			static const char *const keys[SORT_KEYS] = {
				"calls", "bytes", "inflight", "p99", "findings", "peers" };
			int k = word_arg("-s", optarg, keys, SORT_KEYS);
			if (k < 0)
				return -1;
			o->sort = (enum sort_key)k;
			break;
		}
		case O_VIEW: {
			static const char *const views[VIEWS] = {
				"traffic", "latency", "procedures", "slow", "clients",
				"diagnosis" };
			int k = word_arg("--view", optarg, views, VIEWS);
			if (k < 0)
				return -1;
			o->view = (enum view)k;
			break;
		}
		case O_SNAP:
			if (!rr_number_arg("rpcrdma-top", "--snaplen", optarg, 64, 512, false,
					   &v))
				return -1;
			o->src.snap_len = (uint32_t)v;
			break;
		case 'h':
			top_usage(stdout);
			exit(0);
		case 'V': {
			const char *extra[] = { curses_version(), rr_json_library_version(),
#ifdef RR_HAVE_EBPF
						rr_ebpf_library_version(),
#endif
						NULL };
			rr_print_version("rpcrdma-top", extra);
			exit(0);
		}
		default:
			return -1;
		}
	}
	if (!rr_live_one_source(&o->src, sources, true))
		return -1;
	/* [interval [count]] before the filter, as libbpf-tools' top tools
	 * take them (a libpcap filter never starts with a number) */
	char *end;
	if (optind < argc && strtod(argv[optind], &end) > 0 && !*end) {
		if (!rr_number_arg("rpcrdma-top", "interval", argv[optind++], 0.001,
				   3600, true, &o->interval))
			return -1;
		if (optind < argc && strtod(argv[optind], &end) > 0 && !*end) {
			if (!rr_number_arg("rpcrdma-top", "count", argv[optind++], 1, 1e9,
					   false, &v))
				return -1;
			o->count = (long)v;
			o->batch = true; /* a count of screens is a batch run */
		}
	}
	if (optind < argc) {
		if (o->src.kind == RR_LIVE_EBPF) {
			fprintf(stderr, "rpcrdma-top: a filter expression needs -i or -r "
					"(the eBPF program matches by port)\n");
			return -1;
		}
		o->src.filter = rr_join_args(argc, argv, optind);
		if (!o->src.filter)
			return -1;
	}
	if (o->json && !o->batch) {
		fprintf(stderr, "rpcrdma-top: -j goes with -b\n");
		return -1;
	}
	return 0;
}
