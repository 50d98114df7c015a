/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-top: what every RPC-over-RDMA connection seen from here is doing
 * right now.  A header of totals and a table of connections, refreshed
 * every interval; keys sort, filter, pause, switch views and quit.  With
 * -b it prints the same snapshots as text, or as JSON with -j, for
 * scripts (as top -b does).  All decoding is libdissect's analyzer.
 */
#define _GNU_SOURCE /* qsort_r */
#include <arpa/inet.h>
#include <curses.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <rpcrdma/analyzer.h>

#include "../exporters/rr_json.h"
#include "capture-source.h"
#include "live-source.h"
#include "version.h"
#include "trace-report.h"
#include "trace-source.h"
#include "verbs-source.h"

enum { EXIT_USAGE = 1, EXIT_INPUT = 2 };
#define MAX_CONNS 4096
#define LINE 160

enum sort_key { SORT_CALLS, SORT_BYTES, SORT_INFLIGHT, SORT_P99, SORT_FINDINGS,
		SORT_PEERS, SORT_KEYS };
static const char *const sort_names[SORT_KEYS] = { "calls/s", "bytes/s",
						   "in flight", "p99", "findings",
						   "peers" };
enum view { VIEW_TRAFFIC, VIEW_LATENCY, VIEW_PROCEDURES, VIEWS };

struct opts {
	struct rr_live_opts src;
	double interval;
	long count;
	bool batch, json;
	bool tracepoints;       /* the kernel's rpcrdma tracepoints */
	enum sort_key sort;
};

/* What top keeps per connection besides the analyzer's counters. */
struct conn_view {
	/* latencies: [0] this interval's, [1] all; made on the first reply
	 * (16 KiB) */
	struct rr_latency *lat;
	uint64_t calls0, bytes0[3]; /* at the last snapshot */
	uint8_t programs;                   /* 1 NFS, 2 NFS4_CB, 4 other */
};

/* One row of a snapshot. */
struct row {
	uint32_t conn;
	char requester[48], responder[48], qp[24];
	char id[8];   /* what tells apart connections of the same hosts */
	uint32_t granted, in_flight, in_flight_max;
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
	uint64_t capture_ns;
	bool paused, ended;
	bool help;              /* the help screen instead of the table */
	unsigned scroll;        /* table lines scrolled past */
	unsigned page;          /* table lines on the screen */
	enum view view;
	char addr_filter[64], prog_filter[16];
	bool curses;
	/* the last snapshot's totals, per second */
	double calls_s, replies_s, bytes_s[3], findings_s, drops_s;
};

static volatile sig_atomic_t stop;
static struct rr_live *live;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
	rr_live_break(live);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void usage(FILE *to)
{
	fprintf(to,
		"usage: rpcrdma-top (-e IFACE | -i IFACE | -r FILE [--realtime] | -t)\n"
		"                   [-d SECONDS] [-b [-n COUNT] [-j]] [-s KEY]\n"
		"                   [interval [count]] [expression]\n"
		"  -e IFACE     eBPF on IFACE: a TC program hands RoCEv2 (UDP 4791) and\n"
		"               iWARP (TCP 20049) frames' headers over a ring buffer\n"
		"  -i IFACE     libpcap live capture on IFACE\n"
		"  -r FILE      replay a capture file (as fast as possible, or --realtime)\n"
		"  --rdma DEV[:PORT]  sniff an RDMA device's port (rdma-core);\n"
		"               --list-devices lists them\n"
		"  -t           the kernel's rpcrdma tracepoints (NFS client and server\n"
		"               on RDMA devices whose traffic reaches no netdev)\n"
		"  -d SECONDS   refresh interval (default 1)\n"
		"  -b           batch: print snapshots instead of the screen\n"
		"  -n COUNT     batch: stop after COUNT snapshots\n"
		"  -j           batch: each snapshot as one JSON object\n"
		"  -s KEY       sort by calls, bytes, inflight, p99, findings or peers\n"
		"  --roce-port PORT, --iwarp-port PORT, --snaplen BYTES   (eBPF)\n"
		"  interval     as -d; count: as -b -n COUNT (libbpf-tools' order)\n"
		"  expression   a libpcap filter (-i, -r)\n"
		"  -V, --version  the versions of the tool and its libraries\n"
		"  -h, --help   this text\n"
		"keys: h or ? help; c b i l f a sort; v view (traffic, latency,\n"
		"      procedures); / filter by address, p by program (NFS, NFS4_CB,\n"
		"      other); arrows, j k, PgUp PgDn, Home End scroll; space pause;\n"
		"      q quit\n");
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	enum { O_ROCE = 256, O_IWARP, O_SNAP };
	static const struct option longs[] = {
		RR_LIVE_LONG_OPTIONS,
		{ "roce-port", required_argument, NULL, O_ROCE },
		{ "iwarp-port", required_argument, NULL, O_IWARP },
		{ "snaplen", required_argument, NULL, O_SNAP },
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
		if (rr_live_option(&o->src, c, optarg, &o->tracepoints, &sources))
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
			int k = -1;
			for (int i = 0; i < SORT_KEYS; i++)
				if (!strcmp(optarg, keys[i]))
					k = i;
			if (k < 0) {
				fprintf(stderr, "rpcrdma-top: -s takes calls, bytes, "
						"inflight, p99, findings or peers\n");
				return -1;
			}
			o->sort = (enum sort_key)k;
			break;
		}
		case O_ROCE:
		case O_IWARP:
			if (!rr_number_arg("rpcrdma-top", "port", optarg, 1, 65535, false, &v))
				return -1;
			if (c == O_ROCE)
				o->src.roce_port = (uint16_t)v;
			else
				o->src.iwarp_port = (uint16_t)v;
			break;
		case O_SNAP:
			if (!rr_number_arg("rpcrdma-top", "--snaplen", optarg, 64, 512, false,
					   &v))
				return -1;
			o->src.snap_len = (uint32_t)v;
			break;
		case 'h':
			usage(stdout);
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
	if (!rr_live_one_source(&o->src, sources))
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

/* ---- collecting ----------------------------------------------------------- */

/* Messages of one direction (RFC 8167 §3), whatever their proc. */
static uint64_t in_direction(const struct rr_conn_stats *s, uint8_t dir)
{
	uint64_t n = 0;
	for (unsigned p = 0; p < 5; p++)
		n += s->messages[dir][p];
	return n;
}

/* A report's events: connections new in a slot, RPCs completed. */
static void take_report(struct top *t, const struct rr_frame_report *r)
{
	for (uint32_t i = 0; i < r->nevents; i++) {
		const struct rr_event *ev = &r->events[i];
		if (ev->conn >= MAX_CONNS)
			continue;
		struct conn_view *v = &t->cv[ev->conn];
		if (ev->kind == RR_EV_CONN_OPEN) { /* a new connection in a slot */
			struct rr_latency *lat = v->lat;
			memset(v, 0, sizeof(*v));
			if (lat)
				memset(lat, 0, 2 * sizeof(*lat));
			v->lat = lat;
			continue;
		}
		if (ev->kind != RR_EV_RPC_DONE)
			continue;
		if (!v->lat && !(v->lat = calloc(2, sizeof(*v->lat))))
			continue;
		rr_latency_record(&v->lat[0], ev->latency_ns);
		rr_latency_record(&v->lat[1], ev->latency_ns);
		v->programs |= ev->prog == RR_PROG_NFS ? 1 :
			       ev->prog == RR_PROG_NFS4_CB ? 2 : 4;
	}
}

static void on_frame(void *ctx, uint64_t ts, const uint8_t *data,
		     uint32_t caplen, uint32_t wirelen)
{
	struct top *t = ctx;
	if (t->capture_clock) {
		if (!t->capture_ns)
			t->last_t = (double)ts / 1e9; /* rates from the first frame */
		t->capture_ns = ts;
	}
	take_report(t, rr_analyzer_frame(t->a, (uint32_t)rr_live_link(t->src), ts,
					 data, caplen, wirelen));
}

/* Now, in seconds: the capture's time for a file, else the machine's. */
static double clock_s(const struct top *t)
{
	return t->capture_clock ? (double)t->capture_ns / 1e9 : now_s();
}

/* Wall-clock seconds of now for the screen and JSON: the last frame's
 * for a file. */
static time_t shown_time(const struct top *t)
{
	return t->capture_clock ? (time_t)(t->capture_ns / 1000000000u) : time(NULL);
}

static uint64_t quantile_us(const struct rr_latency *h, double q)
{
	return (rr_latency_quantile_ns(h, q) + 500) / 1000;
}

static bool row_shown(const struct top *t, const struct row *r)
{
	if (t->addr_filter[0] && !strstr(r->requester, t->addr_filter) &&
	    !strstr(r->responder, t->addr_filter))
		return false;
	if (t->prog_filter[0]) {
		uint8_t want = !strcmp(t->prog_filter, "NFS") ? 1 :
			       !strcmp(t->prog_filter, "NFS4_CB") ? 2 : 4;
		if (!(r->programs & want))
			return false;
	}
	return true;
}

static int compare(const void *x, const void *y, void *ctx)
{
	const struct row *a = x, *b = y;
	enum sort_key k = *(const enum sort_key *)ctx;
	double va = 0, vb = 0;
	switch (k) {
	case SORT_CALLS: va = a->calls_s; vb = b->calls_s; break;
	case SORT_BYTES:
		va = a->bytes_s[0] + a->bytes_s[1] + a->bytes_s[2];
		vb = b->bytes_s[0] + b->bytes_s[1] + b->bytes_s[2];
		break;
	case SORT_INFLIGHT: va = a->in_flight; vb = b->in_flight; break;
	case SORT_P99: va = (double)a->p99_us; vb = (double)b->p99_us; break;
	case SORT_FINDINGS: va = (double)a->findings; vb = (double)b->findings; break;
	default: {
		int c = strcmp(a->requester, b->requester);
		return c ? c : strcmp(a->responder, b->responder);
	}
	}
	return va < vb ? 1 : va > vb ? -1 : (a->conn > b->conn) - (a->conn < b->conn);
}

/* A snapshot: rates over the time since the last one. */
static void snapshot(struct top *t)
{
	double now = clock_s(t), dt = now - t->last_t;
	if (dt <= 0)
		dt = 1e-9;
	t->last_t = now;
	uint64_t dropped = rr_live_dropped(t->src);
	if (dropped > t->dropped) {
		rr_analyzer_dropped(t->a, dropped - t->dropped);
		t->dropped = dropped;
	}
	const struct rr_stats *st = rr_analyzer_stats(t->a);
	const struct rr_conn_stats *tot = &st->total;
	uint64_t bytes[3] = { tot->bytes_send, tot->bytes_read, tot->bytes_write };
	uint64_t calls = tot->calls, replies = tot->replies;
	t->calls_s = (double)(calls - t->calls0) / dt;
	t->replies_s = (double)(replies - t->replies0) / dt;
	for (int k = 0; k < 3; k++) {
		t->bytes_s[k] = (double)(bytes[k] - t->bytes0[k]) / dt;
		t->bytes0[k] = bytes[k];
	}
	t->findings_s = (double)(tot->findings - t->findings0) / dt;
	t->drops_s = (double)(st->frames_dropped - t->dropped0) / dt;
	t->calls0 = calls;
	t->replies0 = replies;
	t->findings0 = tot->findings;
	t->dropped0 = st->frames_dropped;
	t->nrows = 0;
	uint32_t n = rr_analyzer_conn_count(t->a);
	for (uint32_t i = 0; i < n && i < MAX_CONNS; i++) {
		const struct rr_conn_info *c = rr_analyzer_conn(t->a, i);
		if (!c)
			continue;
		struct conn_view *v = &t->cv[i];
		const struct rr_conn_stats *s = &c->st;
		struct row *r = &t->rows[t->nrows];
		memset(r, 0, sizeof(*r));
		r->conn = i;
		rr_conn_addr_str(c, false, r->requester, sizeof(r->requester));
		rr_conn_addr_str(c, true, r->responder, sizeof(r->responder));
		snprintf(r->qp, sizeof(r->qp),
			 c->transport == RR_TRANSPORT_IWARP ? "%u>%u" : "%06x>%06x",
			 (unsigned)c->requester_qpn, (unsigned)c->responder_qpn);
		/* the responder's QPN (each connection has its own QP there);
		 * on iWARP the requester's port (the responder's is 20049) */
		unsigned id = c->transport == RR_TRANSPORT_IWARP ?
				      c->requester_qpn & 0xffff : c->responder_qpn & 0xffffff;
		snprintf(r->id, sizeof(r->id), !id ? "-" :
			 c->transport == RR_TRANSPORT_IWARP ? "%u" : "%06x", id);
		r->granted = s->grant;
		r->in_flight = s->in_flight;
		r->in_flight_max = s->in_flight_max;
		uint64_t conn_calls = s->calls;
		r->calls_s = (double)(conn_calls - v->calls0) / dt;
		uint64_t b[3] = { s->bytes_send, s->bytes_read, s->bytes_write };
		for (int k = 0; k < 3; k++) {
			r->bytes_s[k] = (double)(b[k] - v->bytes0[k]) / dt;
			v->bytes0[k] = b[k];
		}
		/* this interval's latencies, or all when none came */
		if (v->lat) {
			const struct rr_latency *h = &v->lat[v->lat[0].count ? 0 : 1];
			r->p50_us = quantile_us(h, 0.5);
			r->p99_us = quantile_us(h, 0.99);
			memset(&v->lat[0], 0, sizeof(v->lat[0]));
		}
		r->findings = s->findings;
		r->programs = v->programs;
		v->calls0 = conn_calls;
		if (row_shown(t, r))
			t->nrows++;
	}
	qsort_r(t->rows, t->nrows, sizeof(t->rows[0]), compare, &t->o.sort);
}

/* ---- rendering -------------------------------------------------------------- */

struct lines {
	char (*l)[LINE];
	unsigned n, max;
};

static void put(struct lines *L, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void put(struct lines *L, const char *fmt, ...)
{
	if (L->n == L->max)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(L->l[L->n++], LINE, fmt, ap);
	va_end(ap);
}

static void fmt_us(char *out, size_t n, uint64_t us)
{
	if (!us)
		snprintf(out, n, "-");
	else if (us < 100000)
		snprintf(out, n, "%" PRIu64, us);
	else
		snprintf(out, n, "%.0fms", (double)us / 1000);
}

/* The screen as lines of at most 80 columns. */
static void render(struct top *t, struct lines *L)
{
	const struct rr_stats *st = rr_analyzer_stats(t->a);
	static const char *const kinds[] = { "eBPF", "libpcap", "file", "RDMA" };
	const char *kind = kinds[t->o.src.kind == RR_LIVE_EBPF ? 0 :
				 t->o.src.kind == RR_LIVE_PCAP ? 1 :
				 t->o.src.kind == RR_LIVE_VERBS ? 3 : 2];
	time_t wall = shown_time(t);
	char clock[24];
	strftime(clock, sizeof(clock), "%H:%M:%S", localtime(&wall));
	if (t->capture_clock) /* the time in the capture, not now */
		strncat(clock, " capt", sizeof(clock) - strlen(clock) - 1);
	const char *base = strrchr(t->o.src.name, '/');
	base = base ? base + 1 : t->o.src.name;
	put(L, "rpcrdma-top %.20s (%s) %s%s  conns %u  sort %s%s", base,
	    kind, clock, t->paused ? " PAUSED" : t->ended ? " (ended)" : "",
	    rr_analyzer_conn_count(t->a), sort_names[t->o.sort],
	    t->view == VIEW_LATENCY ? " [latency]" :
	    t->view == VIEW_PROCEDURES ? " [procedures]" : "");
	put(L, "calls/s %.0f  replies/s %.0f  MB/s inline %.2f read %.2f write %.2f",
	    t->calls_s, t->replies_s, t->bytes_s[0] / 1e6, t->bytes_s[1] / 1e6,
	    t->bytes_s[2] / 1e6);
	put(L, "findings/s %.1f (total %" PRIu64 ")  drops %" PRIu64 " (%.0f/s)"
	    "  truncated %" PRIu64 "%s%s%s%s",
	    t->findings_s, st->total.findings, st->frames_dropped, t->drops_s,
	    st->frames_truncated, t->addr_filter[0] ? "  addr~" : "", t->addr_filter,
	    t->prog_filter[0] ? "  prog=" : "", t->prog_filter);
	put(L, "%s", "");
	if (t->view == VIEW_PROCEDURES) {
		put(L, "%-24s %10s %9s %9s %9s", "PROCEDURE", "CALLS", "P50us",
		    "P99us", "MEANus");
		for (unsigned p = 0; p < RR_PROC_SLOTS; p++) {
			if (!st->rpc_calls[p])
				continue;
			struct rr_proc_slot_info si = rr_analyzer_proc_slot_info(p);
			char name[40], p50[16], p99[16];
			snprintf(name, sizeof(name), "%s v%u %s", si.program,
				 (unsigned)si.version, si.procedure);
			const struct rr_latency *h = &st->latency[p];
			fmt_us(p50, sizeof(p50), quantile_us(h, 0.5));
			fmt_us(p99, sizeof(p99), quantile_us(h, 0.99));
			put(L, "%-24.24s %10" PRIu64 " %9s %9s %9.0f", name, st->rpc_calls[p],
			    p50, p99, (double)rr_latency_mean_ns(h) / 1000.0);
		}
		/* the operations those COMPOUNDs carried, as nfsstat lists them */
		for (unsigned op = 0; op < RR_NFS4_OP_SLOTS; op++) {
			if (!st->nfs4_ops[op])
				continue;
			put(L, "  op %-19.19s %10" PRIu64, rr_nfs4_op_slot_str(op),
			    st->nfs4_ops[op]);
		}
		return;
	}
	if (t->view == VIEW_LATENCY)
		put(L, "%-15s %-15s %-15s %7s %7s %7s %5s", "REQUESTER", "RESPONDER",
		    "QP", "CALL/s", "P50us", "P99us", "FIND");
	else
		put(L, "%-15s %-15s %-6s %3s %3s %3s %6s %5s %5s %5s %4s", "REQUESTER",
		    "RESPONDER", "QP", "CRD", "INF", "MAX", "CALL/s", "SEND", "READ",
		    "WRITE", "FIND");
	for (unsigned i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		if (t->view == VIEW_LATENCY) {
			char p50[16], p99[16];
			fmt_us(p50, sizeof(p50), r->p50_us);
			fmt_us(p99, sizeof(p99), r->p99_us);
			put(L, "%-15.15s %-15.15s %-15.15s %7.0f %7s %7s %5" PRIu64,
			    r->requester, r->responder, r->qp, r->calls_s, p50, p99,
			    r->findings);
		} else {
			char mb[3][8];
			for (int k = 0; k < 3; k++) /* MB/s in five columns */
				snprintf(mb[k], sizeof(mb[k]), r->bytes_s[k] < 1e8 ? "%.2f" : "%.0f",
					 r->bytes_s[k] / 1e6);
			put(L, "%-15.15s %-15.15s %-6.6s %3u %3u %3u %6.0f %5.5s %5.5s %5.5s %4" PRIu64,
			    r->requester, r->responder, r->id, r->granted, r->in_flight,
			    r->in_flight_max, r->calls_s, mb[0], mb[1], mb[2], r->findings);
		}
	}
}

static void print_json(struct top *t)
{
	const struct rr_stats *st = rr_analyzer_stats(t->a);
	json_object *o = json_object_new_object();
	/* docs/json-schema.md, docs/schema/rpcrdma-top.schema.json */
	json_object_object_add(o, "type", json_object_new_string("top"));
	json_object_object_add(o, "schema", json_object_new_int(RR_JSON_SCHEMA));
	json_object_object_add(o, "time", json_object_new_int64((int64_t)shown_time(t)));
	json_object_object_add(o, "source", json_object_new_string(t->o.src.name));
	json_object *tot = json_object_new_object();
	/* RPC calls and replies in both directions, as every front end
	 * counts them; the backward ones also apart */
	json_object_object_add(tot, "calls", json_object_new_int64((int64_t)st->total.calls));
	json_object_object_add(tot, "replies", json_object_new_int64((int64_t)st->total.replies));
	json_object_object_add(tot, "backward_calls", json_object_new_int64(
		(int64_t)in_direction(&st->total, RR_DIR_BWD_CALL)));
	json_object_object_add(tot, "calls_per_s", json_object_new_double(t->calls_s));
	json_object_object_add(tot, "replies_per_s", json_object_new_double(t->replies_s));
	static const char *const kn[] = { "send", "rdma_read", "rdma_write" };
	const uint64_t b[] = { st->total.bytes_send, st->total.bytes_read,
			       st->total.bytes_write };
	json_object *bytes = json_object_new_object(), *rates = json_object_new_object();
	for (int k = 0; k < 3; k++) {
		json_object_object_add(bytes, kn[k], json_object_new_int64((int64_t)b[k]));
		json_object_object_add(rates, kn[k], json_object_new_double(t->bytes_s[k]));
	}
	json_object_object_add(tot, "bytes", bytes);
	json_object_object_add(tot, "bytes_per_s", rates);
	json_object_object_add(tot, "findings", json_object_new_int64((int64_t)st->total.findings));
	json_object_object_add(tot, "frames", json_object_new_int64((int64_t)st->frames));
	json_object_object_add(tot, "dropped", json_object_new_int64((int64_t)st->frames_dropped));
	json_object_object_add(tot, "truncated", json_object_new_int64((int64_t)st->frames_truncated));
	json_object *fo = json_object_new_object();
	for (unsigned i = 0; i < RR_FINDING_COUNT; i++)
		if (st->findings[i])
			json_object_object_add(fo, rr_finding_info(i)->id,
					       json_object_new_int64((int64_t)st->findings[i]));
	json_object_object_add(tot, "findings_by_id", fo);
	json_object_object_add(o, "totals", tot);
	json_object *conns = json_object_new_array();
	for (unsigned i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		const struct rr_conn_info *c = rr_analyzer_conn(t->a, r->conn);
		json_object *co = json_object_new_object();
		json_object_object_add(co, "conn", json_object_new_int64(c->id));
		json_object_object_add(co, "requester", json_object_new_string(r->requester));
		json_object_object_add(co, "responder", json_object_new_string(r->responder));
		json_object_object_add(co, "qp", json_object_new_string(r->qp));
		json_object_object_add(co, "credits_granted", json_object_new_int64(r->granted));
		json_object_object_add(co, "in_flight", json_object_new_int64(r->in_flight));
		json_object_object_add(co, "in_flight_max", json_object_new_int64(r->in_flight_max));
		json_object_object_add(co, "calls", json_object_new_int64((int64_t)c->st.calls));
		json_object_object_add(co, "calls_per_s", json_object_new_double(r->calls_s));
		json_object *cb = json_object_new_object();
		const uint64_t cbv[] = { c->st.bytes_send, c->st.bytes_read, c->st.bytes_write };
		for (int k = 0; k < 3; k++)
			json_object_object_add(cb, kn[k], json_object_new_int64((int64_t)cbv[k]));
		json_object_object_add(co, "bytes", cb);
		json_object_object_add(co, "latency_p50_us", json_object_new_int64((int64_t)r->p50_us));
		json_object_object_add(co, "latency_p99_us", json_object_new_int64((int64_t)r->p99_us));
		json_object_object_add(co, "findings", json_object_new_int64((int64_t)r->findings));
		json_object_array_add(conns, co);
	}
	json_object_object_add(o, "connections", conns);
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

/* The kernel's view on the screen: the text report, redrawn each refresh
 * (q quits); what does not fit the terminal is cut. */
static void trace_screen(const struct rr_tp_stats *s, const struct rr_tp_stats *prev,
			 const struct rr_tp_detail *d, double dt)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	rr_trace_report_text(f, s, prev, d, dt);
	fclose(f);
	erase();
	int row = 0;
	for (char *line = text, *end; line && *line && row < LINES; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		int n = end ? (int)(end - line) : (int)strlen(line);
		mvaddnstr(row++, 0, line, n < COLS ? n : COLS);
	}
	refresh();
	free(text);
}

static int trace_main(struct top *t)
{
	char msg[512];
	struct rr_trace *tr = rr_trace_open(msg, sizeof(msg));
	if (!tr) {
		fprintf(stderr, "rpcrdma-top: %s\n", msg);
		return EXIT_INPUT;
	}
	fprintf(stderr, "rpcrdma-top: %s\n", msg);
	if (!t->o.batch) {
		if (!isatty(1) || !initscr()) {
			fprintf(stderr, "rpcrdma-top: the screen needs a terminal; "
					"use -b for text\n");
			rr_trace_close(tr);
			return EXIT_USAGE;
		}
		t->curses = true;
		cbreak();
		noecho();
		nodelay(stdscr, TRUE);
		curs_set(0);
	}
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct rr_tp_stats prev = { 0 };
	double last = now_s();
	for (long shown = 0; !stop && (t->o.count < 0 || shown < t->o.count); shown++) {
		double until = last + t->o.interval;
		while (!stop && now_s() < until) {
			rr_trace_poll(tr, 100);
			if (t->curses && getch() == 'q')
				stop = 1;
		}
		double now = now_s();
		rr_trace_refresh(tr);
		const struct rr_tp_stats *s = rr_trace_stats(tr);
		if (t->curses)
			trace_screen(s, &prev, rr_trace_detail(tr), now - last);
		else if (t->o.json)
			rr_trace_report_json(stdout, s, rr_trace_detail(tr));
		else
			rr_trace_report_text(stdout, s, &prev, rr_trace_detail(tr), now - last);
		fflush(stdout);
		prev = *s;
		last = now;
	}
	if (t->curses)
		endwin();
	rr_trace_close(tr);
	return 0;
}

/* The lines above the table: title, totals, rates, a blank, column heads */
#define HEAD_LINES 5

static const char *const help_text[] = {
	"rpcrdma-top: RPC-over-RDMA connections, credits, chunks and latency",
	"",
	"  c  sort by calls/s          b  sort by bytes/s",
	"  i  sort by calls in flight  l  sort by p99 latency",
	"  f  sort by findings         a  sort by the peers' addresses",
	"  v  next view: traffic, latency, procedures",
	"  /  show connections whose address contains a text (empty: all)",
	"  p  show connections carrying a program: NFS, NFS4_CB or other",
	"  up, down, j, k       scroll the table a line",
	"  PgUp, PgDn           scroll a page; Home, End: first, last",
	"  space  pause (the counting goes on)",
	"  h, ?   this help",
	"  q      quit",
	"",
	"Columns: CRD credits the responder granted, INF calls in flight,",
	"MAX the most in flight, CALL/s, then MB/s sent inline, RDMA Read",
	"and RDMA Write, FND findings (rpcrdma-dump --findings lists them).",
	"rpcrdma-top(1) has the rest.",
	NULL,
};

static void show(struct top *t)
{
	static char buf[256][LINE];
	struct lines L = { buf, 0, 256 };
	if (t->o.batch && t->o.json) {
		print_json(t);
		fflush(stdout);
		return;
	}
	render(t, &L);
	if (!t->curses) {
		for (unsigned i = 0; i < L.n; i++)
			printf("%.80s\n", L.l[i]);
		putchar('\n');
		fflush(stdout);
		return;
	}
	erase();
	int rows = LINES, cols = COLS;
	if (t->help) {
		for (unsigned i = 0; help_text[i] && (int)i < rows - 1; i++)
			mvaddnstr((int)i, 0, help_text[i], cols);
		mvaddnstr(rows - 1, 0, "any key: back", cols);
		refresh();
		return;
	}
	/* the summary and the column heads stay; the table scrolls below */
	unsigned table = L.n > HEAD_LINES ? L.n - HEAD_LINES : 0;
	unsigned room = rows - 1 > HEAD_LINES ? (unsigned)rows - 1 - HEAD_LINES : 0;
	if (t->scroll + room > table)
		t->scroll = table > room ? table - room : 0;
	t->page = room;
	for (unsigned i = 0; i < HEAD_LINES && i < L.n && (int)i < rows - 1; i++) {
		if (i == HEAD_LINES - 1)
			attron(A_REVERSE);
		mvaddnstr((int)i, 0, L.l[i], cols);
		if (i == HEAD_LINES - 1)
			attroff(A_REVERSE);
	}
	for (unsigned i = 0; i < room && HEAD_LINES + t->scroll + i < L.n; i++)
		mvaddnstr((int)(HEAD_LINES + i), 0, L.l[HEAD_LINES + t->scroll + i], cols);
	char foot[96];
	snprintf(foot, sizeof(foot), "h help  c b i l f a sort  v view  / p filter  "
		 "space pause  q quit%s", t->scroll + room < table ? "  [down: more]" :
					   t->scroll ? "  [up: more]" : "");
	mvaddnstr(rows - 1, 0, foot, cols);
	refresh();
}

/* A line typed at the bottom of the screen (curses). */
static void prompt(const char *what, char *out, size_t n)
{
	echo();
	nodelay(stdscr, FALSE);
	mvprintw(LINES - 1, 0, "%s", what);
	clrtoeol();
	getnstr(out, (int)n - 1);
	noecho();
	nodelay(stdscr, TRUE);
}

/* Keys: true to quit. */
static bool keys(struct top *t)
{
	int ch;
	bool redraw = false;
	while ((ch = getch()) != ERR) {
		redraw = true;
		if (t->help) { /* any key leaves the help screen; q quits */
			t->help = false;
			if (ch == 'q')
				return true;
			continue;
		}
		switch (ch) {
		case 'q':
			return true;
		case 'h':
		case '?':
			t->help = true;
			break;
		case KEY_DOWN: case 'j': t->scroll++; break;
		case KEY_UP: case 'k': t->scroll -= t->scroll > 0; break;
		case KEY_NPAGE: t->scroll += t->page; break;
		case KEY_PPAGE: t->scroll -= t->scroll < t->page ? t->scroll : t->page; break;
		case KEY_HOME: t->scroll = 0; break;
		case KEY_END: t->scroll = UINT32_MAX / 2; break;
		case 'c': t->o.sort = SORT_CALLS; break;
		case 'b': t->o.sort = SORT_BYTES; break;
		case 'i': t->o.sort = SORT_INFLIGHT; break;
		case 'l': t->o.sort = SORT_P99; break;
		case 'f': t->o.sort = SORT_FINDINGS; break;
		case 'a': t->o.sort = SORT_PEERS; break;
		case 'v': t->view = (enum view)((t->view + 1) % VIEWS); break;
		case ' ': t->paused = !t->paused; break;
		case '/':
			prompt("address contains (empty: all): ", t->addr_filter,
			       sizeof(t->addr_filter));
			break;
		case 'p':
			prompt("program NFS, NFS4_CB or other (empty: all): ",
			       t->prog_filter, sizeof(t->prog_filter));
			break;
		default:
			redraw = false;
			break;
		}
	}
	if (redraw) {
		qsort_r(t->rows, t->nrows, sizeof(t->rows[0]), compare, &t->o.sort);
		show(t);
	}
	return false;
}

int main(int argc, char **argv)
{
	static struct top t;
	if (parse_args(argc, argv, &t.o) < 0) {
		usage(stderr);
		return EXIT_USAGE;
	}
	t.cv = calloc(MAX_CONNS, sizeof(*t.cv));
	t.rows = calloc(MAX_CONNS, sizeof(*t.rows));
	struct rr_config cfg;
	rr_config_init(&cfg);
	/* the ports name the traffic for the decoder as for the eBPF filter */
	cfg.roce_udp_port = t.o.src.roce_port;
	cfg.iwarp_tcp_port = t.o.src.iwarp_port;
	if (t.o.src.kind == RR_LIVE_EBPF)
		cfg.flags |= RR_CFG_CUTS_EXPECTED; /* headers only, by design */
	struct rr_analyzer_limits lim;
	rr_analyzer_limits_init(&lim);
	lim.max_connections = MAX_CONNS;
	lim.rebuild_slots = 0;
	t.a = t.cv && t.rows ? rr_analyzer_new(&cfg, &lim) : NULL;
	if (!t.a) {
		fprintf(stderr, "rpcrdma-top: not enough memory\n");
		return EXIT_INPUT;
	}
	if (t.o.tracepoints)
		return trace_main(&t);
	t.src = live = rr_live_open(&t.o.src, on_frame, &t);
	if (!t.src)
		return EXIT_INPUT;
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!t.o.batch) {
		if (!isatty(1) || !initscr()) {
			fprintf(stderr, "rpcrdma-top: the screen needs a terminal; "
					"use -b for text\n");
			rr_live_close(t.src);
			return EXIT_USAGE;
		}
		t.curses = true;
		cbreak();
		noecho();
		nodelay(stdscr, TRUE);
		keypad(stdscr, TRUE);
		curs_set(0);
	}
	t.capture_clock = t.o.src.kind == RR_LIVE_FILE;
	t.last_t = clock_s(&t);
	double next = now_s() + t.o.interval;
	long shown = 0;
	bool quit = false;
	while (!stop && !quit) {
		double left = next - now_s();
		if (left > 0 && !t.ended) {
			int ms = (int)(left * 1000) + 1;
			int rc = rr_live_poll(t.src, ms > 100 ? 100 : ms);
			if (rc < 0 && !stop) {
				t.ended = true; /* a file replayed to its end */
				for (const struct rr_frame_report *r;
				     (r = rr_analyzer_finish(t.a));)
					take_report(&t, r);
				if (t.o.batch) {
					/* the last snapshot, and done */
					snapshot(&t);
					show(&t);
					break;
				}
			}
		} else if (left > 0) {
			struct timespec nap = { 0, 20000000 };
			nanosleep(&nap, NULL);
		}
		if (t.curses)
			quit = keys(&t);
		if (now_s() >= next) {
			next += t.o.interval;
			if (next < now_s())
				next = now_s() + t.o.interval;
			if (!t.paused) {
				snapshot(&t);
				show(&t);
				shown++;
			}
			if (t.o.batch && t.o.count >= 0 && shown >= t.o.count)
				break;
		}
	}
	if (t.curses)
		endwin();
	rr_live_close(t.src);
	rr_analyzer_free(t.a);
	for (unsigned i = 0; i < MAX_CONNS; i++)
		free(t.cv[i].lat);
	free(t.cv);
	free(t.rows);
	free((char *)t.o.src.filter);
	return 0;
}
