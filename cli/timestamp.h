/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Time stamps on output lines, as tcpdump prints them: local time by
 * default; -t none, -tt seconds since the epoch, -ttt since the previous
 * line's frame, -tttt date and time, -ttttt since the first frame; UTC on
 * request; microseconds or nanoseconds.
 */
#ifndef RR_TIMESTAMP_H
#define RR_TIMESTAMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct rr_ts_format {
	int t_count;        /* how many -t */
	bool utc;
	bool nano;
	/* kept between lines */
	bool have_first;
	uint64_t first_ns, prev_ns;
};

/* The stamp of a frame taken at ts_ns, followed by a space (nothing
 * with -t). */
void rr_ts_print(struct rr_ts_format *f, uint64_t ts_ns, FILE *out);

#endif
