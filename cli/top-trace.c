/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-top -t: the kernel's view (trace/trace.h) each interval, as
 * exporters/rr_trace_report.c renders it: on the screen with the packet screen's keys
 * (scroll, pause, help, quit), or printed with -b as text or JSON lines.
 */
#define _GNU_SOURCE /* open_memstream */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rr_trace_report.h"
#include "trace.h"
#include "output-check.h"
#include "top.h"

/* The report's title, client and server totals and a blank stay on the
 * screen; the tables below them scroll. */
#define TRACE_HEAD_LINES 4

struct trace_screen {
	char *text;             /* the last report, lines cut in place */
	char **line;
	unsigned nlines, cap;
	struct top_keys keys;
};

static const char *const trace_help[] = {
	"rpcrdma-top -t: the kernel's rpcrdma and sunrpc tracepoints",
	"",
	"  j, down     one line down           k, up      one line up",
	"  page down   one screen down         page up    one screen up",
	"  end         the last lines          home       the first",
	"  space       pause the screen (the kernel goes on counting), go on",
	"  h, ?        this help               q          quit",
	"",
	"CLIENT     an RPC client of xprtrdma, by the kernel's id; SERVER its",
	"           transport's address; P50/P99 the kernel's round trip",
	"SEND CQ    where a client's calls went out on several connections",
	"           (nconnect), each one's send completion queue and SENDS",
	"BACKCHANNEL  sends of no client: an NFSv4.1 client's replies to the",
	"           server's callbacks, by send completion queue",
	"PROCEDURE  each procedure's mean QUEUE (start to sent), RTT and EXEC",
	"           (start to end) over its calls, as nfsiostat; ERRORS its",
	"           replies with an NFS status other than OK, by status below",
	"SERVER CQ  a connection of svcrdma, by its receive CQ; SERVED the calls",
	"           the server answered, P50/P99 its own time from receiving",
	"           each to sending the reply (svc_stats_latency); below, its",
	"           NFSv4 replies that failed, by operation and status",
	NULL,
};

/* The report into the screen's lines (the old ones go). */
static void screen_take(struct trace_screen *sc, const struct rr_tp_stats *s,
			const struct rr_tp_stats *prev, const struct rr_tp_detail *d,
			double dt)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	rr_trace_report_text(f, s, prev, d, dt);
	if (fclose(f) != 0) {
		free(text);
		return;
	}
	free(sc->text);
	sc->text = text;
	sc->nlines = 0;
	for (char *p = text; *p;) {
		if (sc->nlines == sc->cap) {
			unsigned want = sc->cap ? sc->cap * 2 : 64;
			char **grown = realloc(sc->line, want * sizeof(*grown));
			if (!grown)
				break;
			sc->line = grown;
			sc->cap = want;
		}
		sc->line[sc->nlines++] = p;
		char *end = strchr(p, '\n');
		if (!end)
			break;
		*end = '\0';
		p = end + 1;
	}
	while (sc->nlines && !sc->line[sc->nlines - 1][0])
		sc->nlines--; /* the report's closing blank lines */
}

static void screen_draw(struct trace_screen *sc)
{
	int rows = LINES, cols = COLS;
	erase();
	if (sc->keys.help) {
		for (int i = 0; trace_help[i] && i < rows - 1; i++)
			mvaddnstr(i, 0, trace_help[i], cols);
		mvaddnstr(rows - 1, 0, "any key: back", cols);
		refresh();
		return;
	}
	unsigned head = sc->nlines < TRACE_HEAD_LINES ? sc->nlines : TRACE_HEAD_LINES;
	unsigned body = sc->nlines - head;
	unsigned room = rows - 1 > (int)head ? (unsigned)rows - 1 - head : 0;
	if (sc->keys.scroll + room > body)
		sc->keys.scroll = body > room ? body - room : 0;
	sc->keys.page = room;
	for (unsigned i = 0; i < head && (int)i < rows - 1; i++)
		mvaddnstr((int)i, 0, sc->line[i], cols);
	for (unsigned i = 0; i < room && head + sc->keys.scroll + i < sc->nlines; i++)
		mvaddnstr((int)(head + i), 0, sc->line[head + sc->keys.scroll + i], cols);
	char foot[96];
	snprintf(foot, sizeof(foot), "h help  space pause  q quit%s%s",
		 sc->keys.paused ? "  PAUSED" : "",
		 sc->keys.scroll + room < body ? "  [down: more]" :
		 sc->keys.scroll ? "  [up: more]" : "");
	attron(A_REVERSE);
	mvaddnstr(rows - 1, 0, foot, cols);
	attroff(A_REVERSE);
	refresh();
}

/* The keys typed since the last call: true to quit. */
static bool screen_keys(struct trace_screen *sc)
{
	int ch;
	bool redraw = false;
	while ((ch = getch()) != ERR) {
		enum top_key k = top_common_key(&sc->keys, ch);
		if (k == TOP_KEY_QUIT)
			return true;
		redraw |= k == TOP_KEY_TAKEN;
	}
	if (redraw)
		screen_draw(sc);
	return false;
}

int top_trace_main(struct top *t, volatile sig_atomic_t *stop)
{
	char msg[512];
	struct rr_trace *tr = rr_trace_open(msg, sizeof(msg));
	if (!tr) {
		fprintf(stderr, "rpcrdma-top: %s\n", msg);
		return TOP_EXIT_INPUT;
	}
	fprintf(stderr, "rpcrdma-top: %s\n", msg);
	if (!t->o.batch && !top_screen_open(t)) {
		rr_trace_close(tr);
		return TOP_EXIT_USAGE;
	}
	struct trace_screen sc = { 0 };
	struct rr_tp_stats prev = { 0 };
	int status = 0;
	double last = top_now_s();
	for (long shown = 0; !*stop && (t->o.count < 0 || shown < t->o.count); shown++) {
		double until = last + t->o.interval;
		while (!*stop && top_now_s() < until) {
			rr_trace_poll(tr, 100);
			if (t->curses && screen_keys(&sc))
				*stop = 1;
		}
		double now = top_now_s();
		rr_trace_refresh(tr);
		const struct rr_tp_stats *s = rr_trace_stats(tr);
		if (t->curses) {
			if (!sc.keys.paused)
				screen_take(&sc, s, &prev, rr_trace_detail(tr), now - last);
			screen_draw(&sc);
		} else if (t->o.json) {
			rr_trace_report_json(stdout, s, rr_trace_detail(tr));
		} else {
			rr_trace_report_text(stdout, s, &prev, rr_trace_detail(tr), now - last);
		}
		if (!t->curses && !rr_output_flushed(stdout, "rpcrdma-top",
						     "standard output", "snapshot",
						     (uint64_t)shown + 1)) {
			status = TOP_EXIT_OUTPUT;
			break;
		}
		prev = *s;
		last = now;
	}
	if (t->curses)
		endwin();
	free(sc.text);
	free(sc.line);
	rr_trace_close(tr);
	return status;
}
