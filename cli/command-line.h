/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What every tool's command line needs beside its options: the filter
 * expression after them, and numbers checked against their range.
 */
#ifndef RR_COMMAND_LINE_H
#define RR_COMMAND_LINE_H

#include <stdbool.h>

/* argv[from..argc) joined by spaces (a filter expression, as tcpdump
 * takes it), or NULL when there is none or no memory. */
char *rr_join_args(int argc, char **argv, int from);

/* A command-line number for `what` from min to max, a whole one unless
 * fractions are allowed; false after saying on stderr, as prog, that arg
 * is not one. */
bool rr_number_arg(const char *prog, const char *what, const char *arg,
		   double min, double max, bool fractions, double *out);

#endif
