/* SPDX-License-Identifier: BSD-2-Clause */
/* clock_gettime (POSIX) */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "wall-clock.h"

uint64_t rr_wall_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
