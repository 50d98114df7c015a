/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-top: what every RPC-over-RDMA connection seen from here is doing
 * right now.  A header of totals and a table of connections, refreshed
 * every interval; keys sort, filter, pause, switch views and quit.  With
 * -b it prints the same snapshots as text, or as JSON with -j, for
 * scripts (as top -b does).  All decoding is libdissect's analyzer.
 */
#define _GNU_SOURCE /* qsort_r */
#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rpcrdma/analyzer.h>

#include "live-source.h"
#include "stop-signals.h"
#include "output-check.h"
#include "top.h"
#include "wall-clock.h"

static struct rr_live *live;

/* ---- collecting ----------------------------------------------------------- */

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
		top_slow_note(&t->slow, ev);
		if (!v->lat && !(v->lat = calloc(2, sizeof(*v->lat))))
			continue;
		rr_latency_record(&v->lat[0], ev->done.latency_ns);
		rr_latency_record(&v->lat[1], ev->done.latency_ns);
		if (ev->done.rpc_known)
			v->programs |= ev->done.prog == RR_PROG_NFS ? 1 :
				       ev->done.prog == RR_PROG_NFS4_CB ? 2 : 4;
	}
}

static void on_frame(void *ctx, uint64_t ts, const uint8_t *data,
		     uint32_t caplen, uint32_t wirelen)
{
	struct top *t = ctx;
	if (t->capture_clock) {
		if (!t->capture_ns) {
			t->last_t = (double)ts / 1e9; /* rates from the first frame */
			t->first_ns = ts;
		}
		t->capture_ns = ts;
	}
	take_report(t, rr_analyzer_frame(t->a, (uint32_t)rr_live_link(t->src), ts,
					 data, caplen, wirelen));
}

/* Now, in seconds: the capture's time for a file, else the machine's. */
static double clock_s(const struct top *t)
{
	return t->capture_clock ? (double)t->capture_ns / 1e9 : top_now_s();
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
	/* live, the time now: a call outstanding grows old (stuck) while no
	 * frame comes */
	if (!t->capture_clock)
		rr_analyzer_clock(t->a, rr_wall_clock_ns());
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
		r->grant_known = rr_conn_grant_known(c);
		r->one_way = rr_conn_one_way(c);
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
			r->p50_us = top_quantile_us(h, 0.5);
			r->p99_us = top_quantile_us(h, 0.99);
			memset(&v->lat[0], 0, sizeof(v->lat[0]));
		}
		r->findings = s->findings;
		r->programs = v->programs;
		v->calls0 = conn_calls;
		t->nrows++; /* the address and program filters apply as it is shown */
	}
	qsort_r(t->rows, t->nrows, sizeof(t->rows[0]), compare, &t->o.sort);
	top_slow_snapshot(&t->slow);
}

/* A file read to its end: a last snapshot of the whole capture (its
 * rates over the time from its first frame to its last, each
 * connection's latency over all its calls), kept from then on. */
static void final_snapshot(struct top *t)
{
	if (t->capture_clock && t->first_ns) {
		t->last_t = (double)t->first_ns / 1e9;
		t->calls0 = t->replies0 = t->findings0 = t->dropped0 = 0;
		memset(t->bytes0, 0, sizeof(t->bytes0));
		for (unsigned i = 0; i < MAX_CONNS; i++) {
			struct conn_view *v = &t->cv[i];
			v->calls0 = 0;
			memset(v->bytes0, 0, sizeof(v->bytes0));
			if (v->lat) /* none this interval: all of them */
				memset(&v->lat[0], 0, sizeof(v->lat[0]));
		}
	}
	snapshot(t);
	t->final_taken = true;
}

static const char *const help_text[] = {
	"rpcrdma-top: RPC-over-RDMA connections, credits, chunks and latency",
	"",
	"  c  sort by calls/s          b  sort by bytes/s",
	"  i  sort by calls in flight  l  sort by p99 latency",
	"  f  sort by findings         a  sort by the peers' addresses",
	"  v  next view: traffic, latency, procedures, slow calls, clients,",
	"     diagnosis",
	"  /  show connections (slow view: calls) whose address contains a text",
	"  p  show connections (slow view: calls) of a program: NFS, NFS4_CB, other",
	"  up, down, j, k       scroll the table a line",
	"  PgUp, PgDn           scroll a page; Home, End: first, last",
	"  space  pause (the counting goes on)",
	"  h, ?   this help",
	"  q      quit",
	"",
	"Columns: CRD credits the responder granted (- unknown), INF calls in flight,",
	"MAX the most in flight (- one direction captured), CALL/s calls a second,",
	"SEND READ WRITE megabytes a second sent inline, by RDMA Read and by RDMA",
	"Write, FIND findings (rpcrdma-dump --findings lists them); P50 P99 MEAN",
	"latency (us, ms or s); ERRORS replies not SUCCESS or NFS OK; LATms a slow",
	"call's latency in milliseconds. rpcrdma-top(1) has the rest.",
	NULL,
};

static void show(struct top *t)
{
	static char buf[256][LINE];
	struct lines L = { buf, 0, 256 };
	if (!t->curses) {
		if (t->o.batch && t->o.json) {
			top_print_json(t);
		} else {
			top_render(t, &L);
			for (unsigned i = 0; i < L.n; i++)
				printf("%.80s\n", L.l[i]);
			putchar('\n');
		}
		if (!rr_output_flushed(stdout, "rpcrdma-top", "standard output",
				       "snapshot", (uint64_t)t->shown + 1))
			t->output_failed = true;
		return;
	}
	top_render(t, &L);
	erase();
	int rows = LINES, cols = COLS;
	if (t->keys.help) {
		for (unsigned i = 0; help_text[i] && (int)i < rows - 1; i++)
			mvaddnstr((int)i, 0, help_text[i], cols);
		mvaddnstr(rows - 1, 0, "any key: back", cols);
		refresh();
		return;
	}
	/* the summary and the column heads stay; the table scrolls below */
	unsigned table = L.n > TOP_HEAD_LINES ? L.n - TOP_HEAD_LINES : 0;
	unsigned room = rows - 1 > TOP_HEAD_LINES ? (unsigned)rows - 1 - TOP_HEAD_LINES : 0;
	if (t->keys.scroll + room > table)
		t->keys.scroll = table > room ? table - room : 0;
	t->keys.page = room;
	for (unsigned i = 0; i < TOP_HEAD_LINES && i < L.n && (int)i < rows - 1; i++) {
		if (i == TOP_HEAD_LINES - 1)
			attron(A_REVERSE);
		mvaddnstr((int)i, 0, L.l[i], cols);
		if (i == TOP_HEAD_LINES - 1)
			attroff(A_REVERSE);
	}
	for (unsigned i = 0; i < room && TOP_HEAD_LINES + t->keys.scroll + i < L.n; i++)
		mvaddnstr((int)(TOP_HEAD_LINES + i), 0, L.l[TOP_HEAD_LINES + t->keys.scroll + i], cols);
	char foot[96];
	snprintf(foot, sizeof(foot), "h help  c b i l f a sort  v view  / p filter  "
		 "space pause  q quit%s", t->keys.scroll + room < table ? "  [down: more]" :
					   t->keys.scroll ? "  [up: more]" : "");
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
		enum top_key k = top_common_key(&t->keys, ch);
		if (k == TOP_KEY_QUIT)
			return true;
		if (k == TOP_KEY_TAKEN)
			continue;
		switch (ch) {
		case 'c': t->o.sort = SORT_CALLS; break;
		case 'b': t->o.sort = SORT_BYTES; break;
		case 'i': t->o.sort = SORT_INFLIGHT; break;
		case 'l': t->o.sort = SORT_P99; break;
		case 'f': t->o.sort = SORT_FINDINGS; break;
		case 'a': t->o.sort = SORT_PEERS; break;
		case 'v': t->view = (enum view)((t->view + 1) % VIEWS); break;
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
	if (top_parse_args(argc, argv, &t.o) < 0) {
		top_usage(stderr);
		return TOP_EXIT_USAGE;
	}
	rr_stop_on_signals(&live);
	if (t.o.tracepoints)
		return top_trace_main(&t, &rr_stopping);
	t.cv = calloc(MAX_CONNS, sizeof(*t.cv));
	t.rows = calloc(MAX_CONNS, sizeof(*t.rows));
	struct rr_config cfg;
	rr_live_decoder_config(&t.o.src, &cfg);
	struct rr_analyzer_limits lim;
	rr_analyzer_limits_init(&lim);
	lim.max_connections = MAX_CONNS;
	lim.rebuild_slots = 0;
	t.a = t.cv && t.rows ? rr_analyzer_new(&cfg, &lim) : NULL;
	if (!t.a) {
		fprintf(stderr, "rpcrdma-top: not enough memory\n");
		return TOP_EXIT_INPUT;
	}
	char msg[640];
	t.src = live = rr_live_open(&t.o.src, on_frame, &t, msg, sizeof(msg));
	if (msg[0])
		fprintf(stderr, "rpcrdma-top: %s\n", msg);
	if (!t.src)
		return TOP_EXIT_INPUT;
	if (!t.o.batch && !top_screen_open(&t)) {
		rr_live_close(t.src);
		return TOP_EXIT_USAGE;
	}
	t.capture_clock = t.o.src.kind == RR_LIVE_FILE;
	t.view = t.o.view;
	t.last_t = clock_s(&t);
	double next = top_now_s() + t.o.interval;
	bool quit = false;
	while (!rr_stopping && !quit && !t.output_failed) {
		double left = next - top_now_s();
		if (left > 0 && !t.ended) {
			int ms = (int)(left * 1000) + 1;
			int rc = rr_live_poll(t.src, ms > 100 ? 100 : ms);
			if (rc < 0 && !rr_stopping) {
				t.ended = true; /* a file replayed to its end */
				for (const struct rr_frame_report *r;
				     (r = rr_analyzer_finish(t.a));)
					take_report(&t, r);
				final_snapshot(&t);
				show(&t);
				if (t.o.batch)
					break; /* the last snapshot, and done */
			}
		} else if (left > 0) {
			struct timespec nap = { 0, 20000000 };
			nanosleep(&nap, NULL);
		}
		if (t.curses)
			quit = keys(&t);
		if (top_now_s() >= next) {
			next += t.o.interval;
			if (next < top_now_s())
				next = top_now_s() + t.o.interval;
			if (!t.keys.paused) {
				if (!t.final_taken)
					snapshot(&t);
				show(&t);
				t.shown++;
			}
			if (t.o.batch && t.o.count >= 0 && t.shown >= t.o.count)
				break;
		}
	}
	if (t.curses)
		endwin();
	/* a damaged or cut file: what was read is shown, then why it ended */
	int status = rr_live_say_error(t.src, &t.o.src, rr_analyzer_stats(t.a)->frames)
			     ? TOP_EXIT_INPUT : 0;
	if (t.output_failed)
		status = TOP_EXIT_OUTPUT;
	rr_live_close(t.src);
	rr_analyzer_free(t.a);
	for (unsigned i = 0; i < MAX_CONNS; i++)
		free(t.cv[i].lat);
	free(t.cv);
	free(t.rows);
	free((char *)t.o.src.filter);
	return status;
}
