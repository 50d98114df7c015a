/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-top's curses screen as both its views use it (the packets'
 * table, rpcrdma-top.c, and the kernel's tracepoints, top-trace.c): opened
 * on a terminal, and the keys they take alike.
 */
#include <curses.h>
#include <stdio.h>
#include <unistd.h>

#include "top.h"

bool top_screen_open(struct top *t)
{
	if (!isatty(1) || !initscr()) {
		fprintf(stderr, "rpcrdma-top: the screen needs a terminal; "
				"use -b for text\n");
		return false;
	}
	t->curses = true;
	cbreak();
	noecho();
	nodelay(stdscr, TRUE); /* keys are polled between refreshes */
	keypad(stdscr, TRUE);
	curs_set(0);
	return true;
}

enum top_key top_common_key(struct top_keys *k, int ch)
{
	if (k->help) { /* any key leaves the help screen; q quits */
		k->help = false;
		return ch == 'q' ? TOP_KEY_QUIT : TOP_KEY_TAKEN;
	}
	switch (ch) {
	case 'q': return TOP_KEY_QUIT;
	case 'h': case '?': k->help = true; break;
	case ' ': k->paused = !k->paused; break;
	case KEY_DOWN: case 'j': k->scroll++; break;
	case KEY_UP: case 'k': k->scroll -= k->scroll > 0; break;
	case KEY_NPAGE: k->scroll += k->page; break;
	case KEY_PPAGE: k->scroll -= k->scroll < k->page ? k->scroll : k->page; break;
	case KEY_HOME: k->scroll = 0; break;
	case KEY_END: k->scroll = UINT32_MAX / 2; break; /* the draw stops at the end */
	default: return TOP_KEY_OTHER;
	}
	return TOP_KEY_TAKEN;
}
