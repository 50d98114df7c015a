/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A frame's bytes under its line, as tcpdump's -x and -X print them: 16
 * bytes a line, in 16-bit groups, offset first, the printable ones beside
 * with -X; or as its -A prints them, as text.
 */
#ifndef RR_HEXDUMP_H
#define RR_HEXDUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

void rr_hexdump(FILE *out, const uint8_t *p, uint32_t len, bool ascii);
/* tcpdump's -A: the bytes as text, a line feed kept, a carriage return
 * before one left out, and any other byte not printable as '.'. */
void rr_asciidump(FILE *out, const uint8_t *p, uint32_t len);

#endif
