/* SPDX-License-Identifier: BSD-2-Clause */
/* The tools' command-line helpers (command-line.h). */
#include "command-line.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *rr_join_args(int argc, char **argv, int from)
{
	if (from >= argc)
		return NULL;
	size_t len = 0;
	for (int i = from; i < argc; i++)
		len += strlen(argv[i]) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (int i = from; i < argc; i++) {
		if (i > from)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

bool rr_number_arg(const char *prog, const char *what, const char *arg,
		   double min, double max, bool fractions, double *out)
{
	char *end;
	errno = 0;
	/* whole numbers through strtoll: a double cannot hold every count */
	double v = fractions ? strtod(arg, &end) : (double)strtoll(arg, &end, 10);
	if (errno || *end || end == arg || v < min || v > max) {
		fprintf(stderr, "%s: invalid %s '%s': %s number from %.15g to %.15g\n",
			prog, what, arg, fractions ? "a" : "a whole", min, max);
		return false;
	}
	*out = v;
	return true;
}
