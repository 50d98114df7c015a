/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A minimal TAP producer for the unit tests: each CHECK prints "ok N" or
 * "not ok N" with the expression and where it failed; check_done() prints
 * the plan and returns the exit status.
 */
#ifndef RR_CHECK_H
#define RR_CHECK_H

#include <inttypes.h>
#include <stdio.h>

static unsigned check_count, check_failed;

static inline int check_report(int ok, const char *expr, const char *file,
			       int line, const char *ctx)
{
	check_count++;
	if (!ok) {
		check_failed++;
		printf("not ok %u - %s (%s:%d)%s%s\n", check_count, expr, file,
		       line, ctx ? " in " : "", ctx ? ctx : "");
	}
	return ok;
}

/* The case being checked, printed with failures. */
static const char *check_ctx;

#define CHECK(e) check_report(!!(e), #e, __FILE__, __LINE__, check_ctx)
#define CHECK_EQ(a, b) \
	do { \
		uint64_t va_ = (uint64_t)(a), vb_ = (uint64_t)(b); \
		if (!check_report(va_ == vb_, #a " == " #b, __FILE__, __LINE__, \
				  check_ctx)) \
			printf("#   got 0x%" PRIx64 ", want 0x%" PRIx64 "\n", \
			       va_, vb_); \
	} while (0)

/* Like CHECK_EQ, as an expression that is true when equal. */
#define CHECK_EQ_RET(a, b) \
	check_eq_ret((uint64_t)(a), (uint64_t)(b), #a " == " #b, __FILE__, \
		     __LINE__)
static inline int check_eq_ret(uint64_t a, uint64_t b, const char *expr,
			       const char *file, int line)
{
	int ok = check_report(a == b, expr, file, line, check_ctx);
	if (!ok)
		printf("#   got 0x%" PRIx64 ", want 0x%" PRIx64 "\n", a, b);
	return ok;
}

static inline int check_done(void)
{
	printf("1..%u\n# %u passed, %u failed\n", check_count,
	       check_count - check_failed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
