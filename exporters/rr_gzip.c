/* SPDX-License-Identifier: BSD-2-Clause */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "rr_gzip.h"

/* The q-value of one list element ("gzip;q=0.5"): 1 without one. */
static double qvalue(const char *params, const char *end)
{
	for (const char *p = params; p < end; p++) {
		if (*p != ';')
			continue;
		p++;
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (end - p > 2 && tolower((unsigned char)p[0]) == 'q' && p[1] == '=')
			return strtod(p + 2, NULL);
	}
	return 1;
}

bool rr_accepts_gzip(const char *v)
{
	if (!v)
		return false;
	double gzip = -1, any = -1;
	while (*v) {
		while (*v == ',' || isspace((unsigned char)*v))
			v++;
		const char *end = strchr(v, ',');
		if (!end)
			end = v + strlen(v);
		size_t n = strcspn(v, ";, \t");
		if (n > (size_t)(end - v))
			n = (size_t)(end - v);
		if (n == 4 && !strncasecmp(v, "gzip", 4))
			gzip = qvalue(v + n, end);
		else if (n == 1 && *v == '*')
			any = qvalue(v + n, end);
		v = end;
	}
	return gzip >= 0 ? gzip > 0 : any > 0;
}

char *rr_gzip(const char *in, size_t len, size_t *out_len)
{
	z_stream z = { 0 };
	if (len > UINT_MAX)
		return NULL;
	/* 15 + 16: a gzip header and trailer around the deflate stream.
	 * Z_BEST_SPEED: a page of metrics compresses about 9 to 1 at level 1
	 * and 11 to 1 at the default 6, in half the time; a scraper asks for
	 * gzip on every scrape, and the time is the exporter's largest cost
	 * per scrape (bench/fleet.sh). */
	if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	uLong cap = deflateBound(&z, (uLong)len);
	char *out = malloc(cap);
	if (!out) {
		deflateEnd(&z);
		return NULL;
	}
	z.next_in = (Bytef *)(uintptr_t)in;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)cap;
	int rc = deflate(&z, Z_FINISH);
	*out_len = z.total_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END) {
		free(out);
		return NULL;
	}
	return out;
}
