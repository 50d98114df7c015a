/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-top's parts: its command line (top-options.c), what it collects
 * from the analyzer's reports and statistics each interval
 * (rpcrdma-top.c), the snapshot rendered as the screen's lines or as
 * JSON (top-render.c), the curses screen both views share (top-screen.c),
 * and the kernel's tracepoints' view (top-trace.c).
 */
#ifndef RR_TOP_H
#define RR_TOP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <rpcrdma/analyzer.h>

#include "live-source.h"

enum { TOP_EXIT_USAGE = 1, TOP_EXIT_INPUT = 2, TOP_EXIT_OUTPUT = 2 };
#define MAX_CONNS 4096
#define LINE 160

enum sort_key { SORT_CALLS, SORT_BYTES, SORT_INFLIGHT, SORT_P99, SORT_FINDINGS,
		SORT_PEERS, SORT_KEYS };
enum view { VIEW_TRAFFIC, VIEW_LATENCY, VIEW_PROCEDURES, VIEW_SLOW, VIEW_CLIENTS, VIEW_DIAGNOSIS, VIEWS };

struct opts {
	struct rr_live_opts src;
	double interval;
	long count;
	bool batch, json;
	bool tracepoints;       /* the kernel's rpcrdma tracepoints */
	enum sort_key sort;
	enum view view;         /* --view: the one shown first */
};

/* What top keeps per connection besides the analyzer's counters. */
struct conn_view {
	/* latencies: [0] this interval's, [1] all; made on the first reply
	 * (16 KiB) */
	struct rr_latency *lat;
	uint64_t calls0, bytes0[3]; /* at the last snapshot */
	uint8_t programs;                   /* 1 NFS, 2 NFS4_CB, 4 other */
};

/* What the keys both screens take set: the help screen (h, ?; any key
 * leaves it), a pause (space), the scrolling of the table (Up, Down, j, k,
 * PgUp, PgDn, Home, End). */
struct top_keys {
	bool help;              /* the help screen instead of the table */
	bool paused;
	unsigned scroll;        /* table lines scrolled past */
	unsigned page;          /* table lines on the screen */
};
enum top_key { TOP_KEY_OTHER, TOP_KEY_TAKEN, TOP_KEY_QUIT };
/* Key ch as both screens take it (q quits): TOP_KEY_OTHER for the
 * screen's own keys (top-screen.c). */
enum top_key top_common_key(struct top_keys *k, int ch);

/* The slow view's calls (top-slow.c): the slowest answered in the minute
 * up to the last reply seen (the 60 whole seconds of the frames' clock that
 * end with its second), as text. */
#define TOP_SLOW_CALLS 32
#define TOP_SLOW_SECONDS 60
struct top_slow_call {
	uint64_t ts_ns, latency_ns;
	uint32_t conn_id, xid;
	char client[48], server[48];
	char procedure[40];     /* "NFS v3 READ"; a COMPOUND by its operations */
	/* the NFS status; else the RPC's where it failed (GARBAGE_ARGS); "-" */
	char status[32];
	bool nfs_status_known;
	uint8_t reply_status;   /* enum rr_reply_status */
	struct rr_nfs_target target;
};
struct top_slow {
	/* each second's slowest calls, by second % TOP_SLOW_SECONDS: the
	 * minute's slowest are among them, and a second leaves whole */
	struct top_slow_second {
		uint64_t second;
		unsigned n;
		struct top_slow_call call[TOP_SLOW_CALLS];
	} seconds[TOP_SLOW_SECONDS];
	uint64_t newest_ns;     /* the last reply's time */
	/* a snapshot: the minute's slowest, slowest first */
	struct top_slow_call call[TOP_SLOW_CALLS];
	unsigned n;
};
/* A completed RPC (RR_EV_RPC_DONE) into the table if it is among the
 * slowest; the table by latency, slowest first, for a snapshot. */
void top_slow_note(struct top_slow *s, const struct rr_event *ev);
void top_slow_snapshot(struct top_slow *s);

/* One row of a snapshot. */
struct row {
	uint32_t conn;
	char requester[48], responder[48], qp[24];
	char id[8];   /* what tells apart connections of the same hosts */
	uint32_t granted, in_flight, in_flight_max;
	bool grant_known;     /* rr_conn_grant_known: else shown as "-" */
	bool one_way;         /* rr_conn_one_way: in flight shown as "-" */
	double calls_s, bytes_s[3];
	uint64_t p50_us, p99_us, findings;
	uint8_t programs;
};

struct top {
	struct opts o;
	struct rr_analyzer *a;
	struct rr_live *src;
	struct conn_view *cv;
	struct row *rows;
	unsigned nrows;
	/* totals at the last snapshot */
	uint64_t calls0, replies0, bytes0[3], findings0, dropped0;
	uint64_t dropped;
	double last_t;
	/* a file's frames tell the time (rates and clock in capture time):
	 * the last frame's stamp, 0 before the first */
	bool capture_clock;
	uint64_t capture_ns, first_ns;
	/* a file read to its end: the last snapshot, of the whole capture,
	 * stays on the screen */
	bool final_taken;
	struct top_keys keys;   /* help, pause, scrolling */
	bool output_failed;     /* -b: the standard output refused a write */
	long shown;             /* snapshots shown */
	bool ended;
	enum view view;
	struct top_slow slow;   /* the slow view's calls */
	char addr_filter[64], prog_filter[16];
	bool curses;
	/* the last snapshot's totals, per second */
	double calls_s, replies_s, bytes_s[3], findings_s, drops_s;
};

/* The lines above every view's table (top_render): title, rates,
 * findings, diagnosis, the whole capture's totals or a blank, and the
 * table's column heads; the screen keeps them while the table scrolls. */
#define TOP_HEAD_LINES 6

/* Lines of a screen or of a batch snapshot, at most LINE columns each. */
struct lines {
	char (*l)[LINE];
	unsigned n, max;
};

/* A latency quantile in microseconds, rounded. */
static inline uint64_t top_quantile_us(const struct rr_latency *h, double q)
{
	return (rr_latency_quantile_ns(h, q) + 500) / 1000;
}

static inline double top_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The command line into o: -1 after saying what is wrong on stderr. */
int top_parse_args(int argc, char **argv, struct opts *o);
void top_usage(FILE *to);
/* The last snapshot as the screen's lines (batch text too), or as one
 * JSON object on stdout (docs/json-schema.md, "top"). */
void top_render(const struct top *t, struct lines *L);
void top_print_json(const struct top *t);
/* The curses screen, keys polled; false (said on stderr) without a
 * terminal (top-screen.c). */
bool top_screen_open(struct top *t);
/* -t: the kernel's tracepoints instead of packets (top-trace.c), until
 * *stop or the count of snapshots; the exit status. */
int top_trace_main(struct top *t, volatile sig_atomic_t *stop);

#endif
