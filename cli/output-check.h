/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A tool's text or JSON output, checked as tcpdump checks its file: a
 * full disk or a reader gone (a closed pipe) stops the tool with a word
 * and a non-zero exit, never a silent loss.
 */
#ifndef RR_OUTPUT_CHECK_H
#define RR_OUTPUT_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Whether f took everything written to it so far (a flag test, cheap
 * enough per frame); false after saying on stderr "PROG: NAME: write
 * failed at UNIT N: reason" (UNIT a frame, a snapshot). */
bool rr_output_ok(FILE *f, const char *prog, const char *name,
		  const char *unit, uint64_t n);
/* The same after handing f's buffer to the system. */
bool rr_output_flushed(FILE *f, const char *prog, const char *name,
		       const char *unit, uint64_t n);

#endif
