/* SPDX-License-Identifier: BSD-2-Clause */
/* The wall clock, as capture time stamps count: live, what the tools
 * compare with a frame's time. */
#ifndef RR_WALL_CLOCK_H
#define RR_WALL_CLOCK_H

#include <stdint.h>

/* Nanoseconds since the epoch now (CLOCK_REALTIME). */
uint64_t rr_wall_clock_ns(void);

#endif
