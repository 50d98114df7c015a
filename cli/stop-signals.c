/* SPDX-License-Identifier: BSD-2-Clause */
/* The three tools' SIGINT and SIGTERM (stop-signals.h). */
#define _DEFAULT_SOURCE /* sigaction, and libpcap's u_char */
#include "stop-signals.h"

volatile sig_atomic_t rr_stopping;
static struct rr_live *const *watched;

static void on_signal(int sig)
{
	(void)sig;
	rr_stopping = 1;
	if (watched)
		rr_live_break(*watched);
}

void rr_stop_on_signals(struct rr_live *const *live)
{
	watched = live;
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a reader gone is a failed write the tool says, after closing its
	 * -w file whole, not a death in the middle of a frame */
	signal(SIGPIPE, SIG_IGN);
}
