/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Truncation sweep: every vector, cut to every shorter length, is decoded
 * with its last byte just before an unreadable guard page, so a read past
 * the capture faults.  A cut capture must report truncation, never call
 * itself malformed, and a frame that really is that short must not crash.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "vectors.h"

static uint8_t *guarded;   /* writable bytes end where the guard starts */
static size_t guarded_len;

static void guard_init(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t span = ((VEC_MAX_LEN + page - 1) / page) * page;
	uint8_t *m = mmap(NULL, span + page, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED || mprotect(m + span, page, PROT_NONE) != 0) {
		printf("Bail out! cannot map a guard page\n");
		_exit(1);
	}
	guarded = m + span;
	guarded_len = span;
}

/* Copy the first n bytes so that they end at the guard page. */
static const uint8_t *place(const uint8_t *p, size_t n)
{
	uint8_t *at = guarded - n;
	memcpy(at, p, n);
	return at;
}

int main(void)
{
	static struct vector vecs[64];
	struct rr_config cfg;
	static struct rr_frame f;
	size_t n = vectors_build(vecs, 64);
	rr_config_init(&cfg);
	guard_init();
	CHECK(n >= 25);

	for (size_t i = 0; i < n; i++) {
		const struct vector *v = &vecs[i];
		check_ctx = v->name;
		for (size_t cut = 0; cut < v->len; cut++) {
			const uint8_t *p = place(v->bytes, cut);
			bool truncated = false, malformed = false;
			unsigned units = 0;
			for (bool more = rr_decode_frame(&cfg, v->link, p,
							 (uint32_t)cut,
							 (uint32_t)v->len, NULL,
							 &f);
			     more && units < 64;
			     more = rr_decode_next_unit(&cfg, &f)) {
				units++;
				truncated |= f.status == RR_TRUNCATED;
				malformed |= f.status == RR_MALFORMED;
			}
			if (!CHECK(truncated && !malformed))
				printf("#   cut at %zu of %zu: truncated %d "
				       "malformed %d\n", cut, v->len,
				       truncated, malformed);
			/* the frame really is this short: anything but a crash */
			for (bool more = rr_decode_frame(&cfg, v->link, p,
							 (uint32_t)cut,
							 (uint32_t)cut, NULL,
							 &f);
			     more; more = rr_decode_next_unit(&cfg, &f))
				;
		}
		/* whole, at the guard page */
		const uint8_t *p = place(v->bytes, v->len);
		CHECK(rr_decode_frame(&cfg, v->link, p, (uint32_t)v->len,
				      (uint32_t)v->len, NULL, &f));
		CHECK_EQ(f.status, RR_COMPLETE);
	}
	(void)guarded_len;
	return check_done();
}
