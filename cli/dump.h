/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-dump's parts: its options, and what it keeps of one frame's
 * events to print them together (dump-print.c) after the analyzer took the
 * frame (rpcrdma-dump.c).
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

#include "timestamp.h"
#ifdef RR_HAVE_JSONC
#include "../exporters/rr_json.h"
#endif

struct opts {
	const char *file, *iface;
	const char *ebpf, *rdma;    /* the live tools' sources, for -w too */
	const char *write;          /* -w: the frames read, to a pcap file */
	char *filter;
	long count, buffer_kib;
	int verbose;
	bool all_frames, no_crc, findings_only, stats, json, stats_json, quiet;
	bool statistics_only;   /* -q: no message is printed, none rebuilt */
	int t_count;            /* -t, -tt, ... as tcpdump */
	bool utc;
	int precision;          /* 0: the file's own; 6 micro, 9 nano */
	long roce_port, iwarp_port; /* 0: libdissect's defaults */
	int snaplen;            /* -s: live; 0 tcpdump's default */
	bool line_buffered;     /* -l */
	bool packet_buffered;   /* -U: -w writes each frame at once */
	int hex;                /* -x 1, -xx 2 (with the link-level header) */
	bool hex_ascii;         /* -X, -XX */
	bool count_only;        /* --count: the number of frames only */
};

/* What the analyzer said while it took one frame, printed after it. */
#define FRAME_EVENTS 64
struct pending {
	struct rr_event ev;
	struct rr_rpcrdma hdr;
	struct rr_rpc rpc;
	bool has_rpc;
	bool shown;          /* an RPC message printed on its reply's line */
};

struct dump {
	struct opts o;
	struct rr_analyzer *a;
	struct pending ev[FRAME_EVENTS];
	unsigned nev;
	unsigned long findings;
#ifdef RR_HAVE_JSONC
	struct rr_json_writer *jw;
#endif
};

/* How lines show time stamps, the frame being printed, and how many lines
 * were printed (-x dumps the frames that printed one). */
extern struct rr_ts_format dump_ts;
extern uint64_t dump_frame_ts_ns;
extern unsigned long dump_lines;

/* The analyzer's events, kept until the frame is printed. */
void dump_on_event(void *ctx, const struct rr_event *ev);
/* A line for a frame's unit that is no message: CM, MPA, with -a any;
 * conn is the id of the connection it sets up. */
void dump_print_unit(const struct rr_frame *f, const struct opts *o,
		     uint64_t frame, uint32_t conn);
/* The frame's events: its messages, rebuilt RPC messages, chunk data,
 * findings, as text or JSON Lines; h NULL at the end of the capture. */
void dump_print_events(struct dump *d, const struct pcap_pkthdr *h,
		       const struct rr_frame *f);

#endif
