/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-dump's command line, as tcpdump's where the two share an option:
 * its usage, its versions, and the options read into struct opts.
 */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture-source.h"
#include "command-line.h"
#include "dump.h"
#include "live-source.h"
#include "verbs-source.h"
#include "version.h"
#ifdef RR_HAVE_EBPF
#include "rpcrdma_capture.h"
#endif
#ifdef RR_HAVE_JSONC
#include "rr_json.h"
#endif

void dump_usage(FILE *to)
{
	fprintf(to,
		"usage: rpcrdma-dump (-r FILE [--realtime] | -i IFACE [-B KIB] [-s SNAPLEN] |\n"
		"                    -e IFACE | --rdma DEV[:PORT]) [--roce-port PORT]\n"
		"                    [--iwarp-port PORT] [-D] [-w FILE [-U] [-C SIZE] [-G SECONDS]\n"
		"                    [-W COUNT]] [-c COUNT]\n"
		"                    [--count] [-l] [-n] [-#] [-v[v]] [-a] [-K]\n"
		"                    [-x[x] | -X[X] | -A[A]] [-j] [-q] [-t...] [--utc]\n"
		"                    [--time-stamp-precision=P] [--findings] [--slow MS]\n"
		"                    [--stats[=json]] [-F FILE | expression]\n");
	rr_live_usage(to, false);
	fprintf(to,
		"              (-e is not tcpdump's -e, link-level headers: -vv prints those)\n"
		"  -D, --list-interfaces  list the interfaces (-i) and RDMA devices (--rdma)\n"
		"  -w FILE     write the frames read to FILE (pcap), as tcpdump -w\n"
		"  -U          with -w: write each frame at once, not a buffer at a time\n"
		"  -C SIZE     with -w: a new file once one holds more than SIZE million\n"
		"              bytes: FILE, FILE1, FILE2 ... (as tcpdump -C)\n"
		"  -G SECONDS  with -w: a new file every SECONDS of the frames' time,\n"
		"              FILE a strftime(3) format of its first frame's time\n"
		"  -W COUNT    with -C: COUNT files, FILE0 ... written round; with -G:\n"
		"              stop after COUNT files\n"
		"  -s SNAPLEN  live: bytes kept of each frame (default 262144)\n"
		"  -c COUNT    stop after COUNT frames\n"
		"  --count     print only how many frames and messages were read\n"
		"  -l          line-buffered output (always when capturing live into a pipe)\n"
		"  -x, -X      each printed frame's bytes in hex (-X: and ASCII) from its\n"
		"              network header; -xx, -XX from its link-level header\n"
		"  -A          each printed frame's bytes as text from its network\n"
		"              header; -AA from its link-level header\n"
		"  -F FILE     the filter expression from FILE ('#' to the line's end\n"
		"              a comment), as tcpdump -F\n"
		"  -n          print addresses as numbers (always the case)\n"
		"  -#, --number  start each line with its frame's number\n"
		"  -v          also print chunk segments and what to do with each\n"
		"              finding; -vv every header: the transports' on the\n"
		"              line, link, IP, UDP or TCP below\n"
		"  -a          print a line for every frame, not only RPC-over-RDMA\n"
		"  -K          do not verify the ICRC and MPA CRC32c\n"
		"  --findings  print the findings only\n"
		"  --slow MS   print only the calls answered MS milliseconds or more\n"
		"              after they were sent (0: every answered call), one line\n"
		"              each: caller, callee, procedure, file handle hash,\n"
		"              offset and count, latency, NFS status\n"
		"  -j          JSON Lines, one object per event (docs/json-schema.md)\n"
		"  -q          quiet: no per-message output (with --stats)\n"
		"  -t          no time stamp; -tt seconds since 1970; -ttt since the\n"
		"              previous frame; -tttt date and time; -ttttt since the first\n"
		"              (default: local time of day, as tcpdump)\n"
		"  --utc       time of day in UTC, not local time\n"
		"  --time-stamp-precision=micro|nano  (default: the file's own)\n"
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

/* -F FILE: its text as the filter expression, each '#' to the end of its
 * line left out as tcpdump leaves it out; NULL after saying why. */
static char *filter_from_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "rpcrdma-dump: -F %s: %s\n", path, strerror(errno));
		return NULL;
	}
	char *text = NULL;
	size_t cap = 0, len = 0;
	for (int c; (c = getc(f)) != EOF;) {
		if (c == '#') /* a comment: to the end of its line */
			while ((c = getc(f)) != EOF && c != '\n')
				;
		if (c == EOF)
			break;
		if (len + 2 > cap) {
			size_t want = cap ? cap * 2 : 256;
			char *grown = want <= (1u << 20) ? realloc(text, want) : NULL;
			if (!grown) {
				fprintf(stderr, "rpcrdma-dump: -F %s: more than 1 MiB\n", path);
				free(text);
				fclose(f);
				return NULL;
			}
			text = grown;
			cap = want;
		}
		text[len++] = c == '\n' || c == '\t' ? ' ' : (char)c;
	}
	bool failed = ferror(f);
	fclose(f);
	if (failed) {
		fprintf(stderr, "rpcrdma-dump: -F %s: cannot be read\n", path);
		free(text);
		return NULL;
	}
	if (text)
		text[len] = '\0';
	if (!text || strspn(text, " ") == len) {
		fprintf(stderr, "rpcrdma-dump: -F %s: holds no filter expression\n", path);
		free(text);
		return NULL;
	}
	return text;
}

int dump_parse_args(int argc, char **argv, struct opts *o)
{
	enum { O_FINDINGS = 256, O_STATS, O_UTC, O_PRECISION, O_COUNT, O_SLOW };
	static const struct option longopts[] = {
		RR_LIVE_FRAME_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "list-interfaces", no_argument, NULL, 'D' },
		{ "count", no_argument, NULL, O_COUNT },
		{ "number", no_argument, NULL, '#' },
		{ "findings", no_argument, NULL, O_FINDINGS },
		{ "slow", required_argument, NULL, O_SLOW },
		{ "stats", optional_argument, NULL, O_STATS },
		{ "utc", no_argument, NULL, O_UTC },
		{ "time-stamp-precision", required_argument, NULL, O_PRECISION },
		{ NULL, 0, NULL, 0 },
	};
	int c, sources = 0;
	double v;
	const char *filter_file = NULL;
	memset(o, 0, sizeof(*o));
	rr_live_opts_init(&o->src, "rpcrdma-dump");
	o->count = -1;
	while ((c = getopt_long(argc, argv, RR_LIVE_FRAME_SHORT_OPTIONS
				"w:s:c:C:G:W:F:DlUxXAnvaKjqthV#", longopts, NULL)) != -1) {
		int taken = rr_live_option(&o->src, c, optarg, NULL, &sources);
		if (taken < 0)
			return -1;
		if (taken)
			continue;
		switch (c) {
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
			o->src.snaplen = (int)v;
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
		case 'A':
			if (++o->ascii > 2) {
				fprintf(stderr, "rpcrdma-dump: -A at most twice\n");
				return -1;
			}
			break;
		case 'F':
			filter_file = optarg;
			break;
		case O_COUNT:
			o->count_only = o->quiet = o->statistics_only = true;
			break;
		case 'C':
			/* tcpdump's unit: millions of bytes */
			if (!rr_number_arg("rpcrdma-dump", "file size", optarg, 0.000001,
					   1e12, true, &v))
				return -1;
			o->rotation.file_bytes = (uint64_t)(v * 1e6 + 0.5);
			break;
		case 'G':
			if (!rr_number_arg("rpcrdma-dump", "rotation seconds", optarg, 1,
					   1e9, false, &v))
				return -1;
			o->rotation.seconds = (uint64_t)v;
			break;
		case 'W':
			if (!rr_number_arg("rpcrdma-dump", "file count", optarg, 1,
					   1e6, false, &v))
				return -1;
			o->rotation.files = (unsigned)v;
			break;
		case 'w':
			o->write = optarg;
			/* as tcpdump -w: the frames go to the file, not lines */
			o->quiet = true;
			break;
		case 'c':
			if (!rr_number_arg("rpcrdma-dump", "count", optarg, 1,
					   1e18, false, &v))
				return -1;
			o->count = (long)v;
			break;
		case 'n':
			break; /* addresses are never resolved */
		case '#':
			o->numbered = true;
			break;
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
		case O_SLOW:
			/* milliseconds, fractions allowed; a day at most */
			if (!rr_number_arg("rpcrdma-dump", "--slow threshold", optarg, 0,
					   86400000, true, &v))
				return -1;
			o->slow = true;
			o->slow_ns = (uint64_t)(v * 1e6 + 0.5);
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
	const struct rr_capture_rotation *rot = &o->rotation;
	if ((rot->file_bytes || rot->seconds || rot->files) && !o->write) {
		fprintf(stderr, "rpcrdma-dump: -C, -G and -W go with -w\n");
		return -1;
	}
	if (rot->files && !rot->file_bytes && !rot->seconds) {
		fprintf(stderr, "rpcrdma-dump: -W goes with -C or -G\n");
		return -1;
	}
	if ((rot->file_bytes || rot->seconds) && !strcmp(o->write, "-")) {
		fprintf(stderr, "rpcrdma-dump: -C and -G rotate files, not -w -\n");
		return -1;
	}
	if (o->ascii && o->hex) {
		fprintf(stderr, "rpcrdma-dump: -A or -x, not both\n");
		return -1;
	}
	/* the rest is a libpcap filter expression, as in tcpdump; or -F's */
	if (filter_file) {
		if (optind < argc) {
			fprintf(stderr, "rpcrdma-dump: -F %s and an expression: give one\n",
				filter_file);
			return -1;
		}
		if (!(o->src.filter = filter_from_file(filter_file)))
			return -1;
	} else {
		o->src.filter = rr_join_args(argc, argv, optind);
		if (optind < argc && !o->src.filter)
			return -1;
	}
#ifndef RR_HAVE_JSONC
	if (o->json || o->stats_json) {
		fprintf(stderr, "rpcrdma-dump: built without json-c: no JSON output\n");
		return -1;
	}
#endif
	if (!rr_live_one_source(&o->src, sources, false))
		return -1;
	return 0;
}
