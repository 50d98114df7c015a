/* SPDX-License-Identifier: BSD-2-Clause */
/* Checked output (output-check.h). */
#include "output-check.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static bool say(FILE *f, const char *prog, const char *name,
		const char *unit, uint64_t n, int err)
{
	fprintf(stderr, "%s: %s: write failed at %s %" PRIu64 ": %s\n", prog,
		name, unit, n, strerror(err ? err : EIO));
	clearerr(f); /* said once */
	return false;
}

bool rr_output_ok(FILE *f, const char *prog, const char *name,
		  const char *unit, uint64_t n)
{
	if (!ferror(f))
		return true;
	/* the reason of the write that failed, checked at once, unless a
	 * flush of what stdio still holds says it again */
	int err = errno;
	errno = 0;
	fflush(f);
	return say(f, prog, name, unit, n, errno ? errno : err);
}

bool rr_output_flushed(FILE *f, const char *prog, const char *name,
		       const char *unit, uint64_t n)
{
	errno = 0;
	if (fflush(f) == 0 && !ferror(f))
		return true;
	return say(f, prog, name, unit, n, errno);
}
