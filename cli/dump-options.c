/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-dump's command line, as tcpdump's where the two share an option:
 * its usage, its versions, and the options read into struct opts.
 */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture-source.h"
#include "dump.h"
#include "live-source.h"
#include "verbs-source.h"
#include "version.h"
#ifdef RR_HAVE_JSONC
#include "rr_json.h"
#endif

void dump_usage(FILE *to)
{
	fprintf(to,
		"usage: rpcrdma-dump [-r FILE | -i IFACE [-B KIB] [-s SNAPLEN] | -e IFACE |\n"
		"                    --rdma DEV[:PORT]] [-D] [-w FILE [-U]] [-c COUNT] [--count]\n"
		"                    [-l] [-n] [-v[v]] [-a] [-K] [-x[x] | -X[X]]\n"
		"                    [-j] [-q] [-t...] [--utc] [--time-stamp-precision=P]\n"
		"                    [--roce-port PORT] [--iwarp-port PORT]\n"
		"                    [--findings] [--stats[=json]] [expression]\n"
		"  -r FILE     read packets from FILE (pcap or pcapng; - for stdin)\n"
		"  -i IFACE    capture live on IFACE (libpcap)\n"
		"  -e IFACE    capture on IFACE through eBPF (RoCEv2 and iWARP headers);\n"
		"              not tcpdump's -e (link-level headers): -vv prints those\n"
		"  --rdma DEV[:PORT]  sniff an RDMA device's port (rdma-core)\n"
		"  -D, --list-interfaces  list the interfaces (-i) and RDMA devices (--rdma)\n"
		"  --list-devices     list the RDMA devices and their ports\n"
		"  -w FILE     write the frames read to FILE (pcap), as tcpdump -w\n"
		"  -U          with -w: write each frame at once, not a buffer at a time\n"
		"  -B KIB      live capture buffer in KiB (default 32768; drops are counted)\n"
		"  -s SNAPLEN  live: bytes kept of each frame (default 262144)\n"
		"  -c COUNT    stop after COUNT frames\n"
		"  --count     print only how many frames and messages were read\n"
		"  -l          line-buffered output (always when capturing live into a pipe)\n"
		"  -x, -X      each printed frame's bytes in hex (-X: and ASCII) from its\n"
		"              network header; -xx, -XX from its link-level header\n"
		"  -n          print addresses as numbers (always the case)\n"
		"  -v          also print chunk segments; -vv every header\n"
		"  -a          print a line for every frame, not only RPC-over-RDMA\n"
		"  -K          do not verify the ICRC and MPA CRC32c\n"
		"  --findings  print the findings only\n"
		"  -j          JSON Lines, one object per event (docs/json-schema.md)\n"
		"  -q          quiet: no per-message output (with --stats)\n"
		"  -t          no time stamp; -tt seconds since 1970; -ttt since the\n"
		"              previous frame; -tttt date and time; -ttttt since the first\n"
		"              (default: local time of day, as tcpdump)\n"
		"  --utc       time of day in UTC, not local time\n"
		"  --time-stamp-precision=micro|nano  (default: the file's own)\n"
		"  --roce-port PORT   UDP port of RoCEv2 (default 4791)\n"
		"  --iwarp-port PORT  TCP port of RPC-over-RDMA on iWARP (default 20049)\n"
		"  --stats     print per-connection statistics at the end\n"
		"  --stats=json  the same as one JSON document\n"
		"  expression  a libpcap filter, as in tcpdump\n"
		"  -h          show this help; -V, --version the versions\n"
		"exit status: 0 done, 1 usage error, 2 input error\n");
}

/* -V: this program's version and those of the libraries it runs with */
static void print_versions(void)
{
	const char *extra[3] = { NULL, NULL, NULL };
	unsigned n = 0;
#ifdef RR_HAVE_JSONC
	extra[n++] = rr_json_library_version();
#endif
#ifdef RR_HAVE_EBPF
	extra[n++] = rr_ebpf_library_version();
#endif
	(void)n;
	rr_print_version("rpcrdma-dump", extra);
}

int dump_parse_args(int argc, char **argv, struct opts *o)
{
	enum { O_FINDINGS = 256, O_STATS, O_RDMA, O_LIST, O_UTC, O_PRECISION,
	       O_ROCE, O_IWARP, O_COUNT };
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "ebpf", required_argument, NULL, 'e' },
		{ "rdma", required_argument, NULL, O_RDMA },
		{ "list-devices", no_argument, NULL, O_LIST },
		{ "list-interfaces", no_argument, NULL, 'D' },
		{ "count", no_argument, NULL, O_COUNT },
		{ "findings", no_argument, NULL, O_FINDINGS },
		{ "stats", optional_argument, NULL, O_STATS },
		{ "utc", no_argument, NULL, O_UTC },
		{ "time-stamp-precision", required_argument, NULL, O_PRECISION },
		{ "roce-port", required_argument, NULL, O_ROCE },
		{ "iwarp-port", required_argument, NULL, O_IWARP },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	double v;
	memset(o, 0, sizeof(*o));
	o->count = -1;
	/* RDMA bursts fill tcpdump's 2 MiB default before a reader wakes */
	o->buffer_kib = 32768;
	while ((c = getopt_long(argc, argv, "r:i:e:w:B:s:c:DlUxXnvaKjqthV", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			o->ebpf = optarg;
			break;
		case O_RDMA:
			o->rdma = optarg;
			break;
		case O_LIST:
			exit(rr_verbs_list(stdout) ? 0 : DUMP_EXIT_INPUT);
		case 'D': {
			/* tcpdump -D, then the RDMA devices --rdma takes */
			bool ok = rr_source_list(stdout);
			fflush(stdout);
			rr_verbs_list(stdout); /* none: said on stderr */
			exit(ok ? 0 : DUMP_EXIT_INPUT);
		}
		case 's':
			/* tcpdump's 0 means its default */
			if (!rr_number_arg("rpcrdma-dump", "snapshot length", optarg, 0,
					   262144, false, &v))
				return -1;
			o->snaplen = (int)v;
			break;
		case 'l':
			o->line_buffered = true;
			break;
		case 'U':
			o->packet_buffered = true;
			break;
		case 'x':
		case 'X':
			if (++o->hex > 2) {
				fprintf(stderr, "rpcrdma-dump: -x or -X at most twice\n");
				return -1;
			}
			o->hex_ascii |= c == 'X';
			break;
		case O_COUNT:
			o->count_only = o->quiet = o->statistics_only = true;
			break;
		case 'w':
			o->write = optarg;
			/* as tcpdump -w: the frames go to the file, not lines */
			o->quiet = true;
			break;
		case 'r':
			o->file = optarg;
			break;
		case 'i':
			o->iface = optarg;
			break;
		case 'B':
			if (!rr_number_arg("rpcrdma-dump", "buffer size", optarg, 1,
					   4194304, false, &v))
				return -1;
			o->buffer_kib = (long)v;
			break;
		case 'c':
			if (!rr_number_arg("rpcrdma-dump", "count", optarg, 1,
					   1e18, false, &v))
				return -1;
			o->count = (long)v;
			break;
		case 'n':
			break; /* addresses are never resolved */
		case 'v':
			o->verbose++;
			break;
		case 'a':
			o->all_frames = true;
			break;
		case 'K':
			o->no_crc = true;
			break;
		case O_FINDINGS:
			o->findings_only = true;
			break;
		case O_STATS:
			if (optarg && strcmp(optarg, "json")) {
				fprintf(stderr, "rpcrdma-dump: --stats takes "
						"nothing or =json\n");
				return -1;
			}
			o->stats = true;
			o->stats_json = optarg != NULL;
			/* one JSON document, nothing else on stdout */
			o->quiet |= o->stats_json;
			break;
		case 'j':
			o->json = true;
			break;
		case 't':
			if (++o->t_count > 5) {
				fprintf(stderr, "rpcrdma-dump: -t at most five times (-ttttt)\n");
				return -1;
			}
			break;
		case O_UTC:
			o->utc = true;
			break;
		case O_PRECISION:
			if (!strcmp(optarg, "micro")) {
				o->precision = 6;
			} else if (!strcmp(optarg, "nano")) {
				o->precision = 9;
			} else {
				fprintf(stderr, "rpcrdma-dump: --time-stamp-precision "
						"takes micro or nano\n");
				return -1;
			}
			break;
		case O_ROCE:
		case O_IWARP:
			if (!rr_number_arg("rpcrdma-dump", c == O_ROCE ? "RoCE port" :
					   "iWARP port", optarg, 1, 65535, false, &v))
				return -1;
			*(c == O_ROCE ? &o->roce_port : &o->iwarp_port) = (long)v;
			break;
		case 'q':
			o->quiet = o->statistics_only = true;
			break;
		case 'h':
			dump_usage(stdout);
			exit(0);
		case 'V':
			print_versions();
			exit(0);
		default:
			return -1;
		}
	}
	/* the rest is a libpcap filter expression, as in tcpdump */
	o->filter = rr_join_args(argc, argv, optind);
	if (optind < argc && !o->filter)
		return -1;
#ifndef RR_HAVE_JSONC
	if (o->json || o->stats_json) {
		fprintf(stderr, "rpcrdma-dump: built without json-c: no JSON output\n");
		return -1;
	}
#endif
	if (!!o->file + !!o->iface + !!o->ebpf + !!o->rdma != 1) {
		fprintf(stderr, "rpcrdma-dump: give one of -r FILE, -i IFACE, "
				"-e IFACE or --rdma DEV\n");
		return -1;
	}
	return 0;
}
