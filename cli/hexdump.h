/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A frame's bytes under its line, as tcpdump's -x and -X print them: 16
 * bytes a line, in 16-bit groups, offset first, the printable ones beside
 * with -X.
 */
#ifndef RR_HEXDUMP_H
#define RR_HEXDUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

void rr_hexdump(FILE *out, const uint8_t *p, uint32_t len, bool ascii);

#endif
