/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How the tools stop, as tcpdump does: SIGINT or SIGTERM sets a flag that
 * the reading loop tests, and wakes a live read waiting in poll().
 */
#ifndef RR_STOP_SIGNALS_H
#define RR_STOP_SIGNALS_H

#include <signal.h>

#include "live-source.h"

/* Set once SIGINT or SIGTERM came. */
extern volatile sig_atomic_t rr_stopping;

/* From now on SIGINT and SIGTERM set rr_stopping and break the read of
 * the source that *live names when the signal comes (none when NULL).
 * System calls the signal interrupts are restarted (SA_RESTART); poll()
 * and sleeps return, as they always do.  SIGPIPE is ignored: a write to
 * a closed pipe fails with EPIPE, which the tool checks (output-check.h). */
void rr_stop_on_signals(struct rr_live *const *live);

#endif
