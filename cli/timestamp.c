/* SPDX-License-Identifier: BSD-2-Clause */
/* gmtime_r and localtime_r (POSIX) */
#define _POSIX_C_SOURCE 200809L
#include "timestamp.h"

#include <time.h>

static void fraction(const struct rr_ts_format *f, uint64_t ns, FILE *out)
{
	if (f->nano)
		fprintf(out, ".%09u", (unsigned)(ns % 1000000000u));
	else
		fprintf(out, ".%06u", (unsigned)(ns % 1000000000u / 1000u));
}

/* a difference as tcpdump -ttt prints it: seconds, two digits at least */
static void interval(const struct rr_ts_format *f, uint64_t ns, FILE *out)
{
	uint64_t s = ns / 1000000000u;
	fprintf(out, "%02u:%02u:%02u", (unsigned)(s / 3600), (unsigned)(s / 60 % 60),
		(unsigned)(s % 60));
	fraction(f, ns, out);
}

void rr_ts_print(struct rr_ts_format *f, uint64_t ts_ns, FILE *out)
{
	if (!f->have_first) {
		f->have_first = true;
		f->first_ns = f->prev_ns = ts_ns;
	}
	switch (f->t_count) {
	case 1:
		return;
	case 2:
		fprintf(out, "%llu", (unsigned long long)(ts_ns / 1000000000u));
		fraction(f, ts_ns, out);
		break;
	case 3:
		interval(f, ts_ns >= f->prev_ns ? ts_ns - f->prev_ns : 0, out);
		break;
	case 5:
		interval(f, ts_ns >= f->first_ns ? ts_ns - f->first_ns : 0, out);
		break;
	default: {
		time_t t = (time_t)(ts_ns / 1000000000u);
		struct tm tm;
		if (f->utc)
			gmtime_r(&t, &tm);
		else
			localtime_r(&t, &tm);
		if (f->t_count == 4)
			fprintf(out, "%04d-%02d-%02d ", tm.tm_year + 1900, tm.tm_mon + 1,
				tm.tm_mday);
		fprintf(out, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
		fraction(f, ts_ns, out);
		break;
	}
	}
	f->prev_ns = ts_ns;
	fputc(' ', out);
}
