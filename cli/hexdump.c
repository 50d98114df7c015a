/* SPDX-License-Identifier: BSD-2-Clause */
#include "hexdump.h"

#define LINE_BYTES 16

void rr_hexdump(FILE *out, const uint8_t *p, uint32_t len, bool ascii)
{
	for (uint32_t off = 0; off < len; off += LINE_BYTES) {
		uint32_t n = len - off < LINE_BYTES ? len - off : LINE_BYTES;
		int col = fprintf(out, "\t0x%04x: ", off);
		for (uint32_t i = 0; i < n; i += 2)
			col += i + 1 < n ? fprintf(out, " %02x%02x", p[off + i], p[off + i + 1])
					 : fprintf(out, " %02x", p[off + i]);
		if (ascii) {
			/* the printable column starts where a full line's would */
			fprintf(out, "%*s", 9 + LINE_BYTES / 2 * 5 - col + 2, "");
			for (uint32_t i = 0; i < n; i++) {
				uint8_t c = p[off + i];
				fputc(c >= 0x20 && c < 0x7f ? c : '.', out);
			}
		}
		fputc('\n', out);
	}
}

void rr_asciidump(FILE *out, const uint8_t *p, uint32_t len)
{
	fputc('\n', out);
	for (uint32_t i = 0; i < len; i++) {
		uint8_t c = p[i];
		if (c == '\r' && i + 1 < len && p[i + 1] == '\n')
			continue;
		fputc(c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f) ? c : '.', out);
	}
	fputc('\n', out);
}
