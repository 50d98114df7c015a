/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-dump's parts: its command line (dump-options.c), the reading
 * loop (rpcrdma-dump.c) and the printing of each frame's report
 * (dump-print.c).
 */
#ifndef RR_DUMP_H
#define RR_DUMP_H

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#endif
#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdint.h>

#include <rpcrdma/analyzer.h>
#include <rpcrdma/dissect.h>

#include "capture-writer.h"
#include "live-source.h"
#include "timestamp.h"
#ifdef RR_HAVE_JSONC
#include "rr_json.h"
#endif

struct opts {
	struct rr_live_opts src;    /* -r, -i, -e, --rdma and their options */
	const char *write;          /* -w: the frames read, to a pcap file */
	struct rr_capture_rotation rotation; /* -C, -G, -W */
	long count;
	int verbose;
	bool all_frames, no_crc, findings_only, stats, json, stats_json, quiet;
	bool statistics_only;   /* -q: no message is printed, none rebuilt */
	int t_count;            /* -t, -tt, ... as tcpdump */
	bool utc;
	int precision;          /* 0: the file's own; 6 micro, 9 nano */
	bool line_buffered;     /* -l */
	bool packet_buffered;   /* -U: -w writes each frame at once */
	int hex;                /* -x 1, -xx 2 (with the link-level header) */
	bool hex_ascii;         /* -X, -XX */
	int ascii;              /* -A 1, -AA 2: as text, as tcpdump -A */
	bool count_only;        /* --count: the number of frames only */
	bool numbered;          /* -#, --number */
	/* --slow MS: only calls answered in slow_ns or more, as nfsslower
	 * (with --findings, the findings too) */
	bool slow;
	uint64_t slow_ns;
};

/* Exit status: tcpdump's 1 for a bad command line, 2 for input that
 * cannot be read or output that cannot be written. */
enum { DUMP_EXIT_USAGE = 1, DUMP_EXIT_INPUT = 2, DUMP_EXIT_OUTPUT = 2 };

/* The command line into o (dump-options.c): -1 after saying what is wrong
 * on stderr; -h, -V, -D and --list-devices print and exit. */
int dump_parse_args(int argc, char **argv, struct opts *o);
void dump_usage(FILE *to);

/* The lines being printed: how they show time stamps, the frame they are
 * of, and how many were printed (-x dumps the frames that printed one). */
struct dump_lines {
	struct rr_ts_format ts;
	uint64_t frame_ts_ns;
	uint64_t frame_no;
	unsigned long printed;
	bool numbered;       /* -#: each line starts with its frame's number */
};

struct dump {
	struct opts o;
	struct rr_analyzer *a;
	struct dump_lines lines;
#ifdef RR_HAVE_JSONC
	struct rr_json_writer *jw;
#endif
};

/* -vv: the link, IB, IP and UDP or TCP headers of a frame that printed a
 * line, each on a line of its own below the frame's lines. */
void dump_print_headers(const struct rr_frame *f);
/* A line for a frame's unit that is no message: CM, MPA, with -a any;
 * conn is the id of the connection it sets up. */
void dump_print_unit(struct dump *d, const struct rr_frame *f, uint64_t frame,
		     uint32_t conn);
/* A frame's report, or one of the end of the capture: its messages,
 * rebuilt RPC messages, chunk data, findings, as text or JSON Lines. */
void dump_print_report(struct dump *d, const struct rr_frame_report *r);

#endif
