/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CRC-32 (IEEE 802.3, reflected 0xEDB88320) for the IB ICRC and CRC-32C
 * (Castagnoli, reflected 0x82F63B78) for MPA FPDUs (RFC 5044 §6.6).
 * Slicing-by-8 tables, built when the library loads and constant after,
 * so any number of threads may read them.
 */
#include "cursor.h"

static uint32_t crc32_tab[8][256];
static uint32_t crc32c_tab[8][256];

static void build(uint32_t tab[8][256], uint32_t poly)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ poly : c >> 1;
		tab[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int s = 1; s < 8; s++)
			tab[s][i] = (tab[s - 1][i] >> 8) ^
				    tab[0][tab[s - 1][i] & 0xff];
}

static uint32_t slice8(uint32_t tab[8][256], uint32_t crc, const uint8_t *p,
		       size_t len)
{
	crc = ~crc;
	while (len >= 8) {
		uint32_t lo = crc ^ rd_le32(p);
		uint32_t hi = rd_le32(p + 4);
		crc = tab[7][lo & 0xff] ^ tab[6][(lo >> 8) & 0xff] ^
		      tab[5][(lo >> 16) & 0xff] ^ tab[4][lo >> 24] ^
		      tab[3][hi & 0xff] ^ tab[2][(hi >> 8) & 0xff] ^
		      tab[1][(hi >> 16) & 0xff] ^ tab[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	if (len >= 4) { /* four at once: a file handle's tail is often so */
		uint32_t w = crc ^ rd_le32(p);
		crc = tab[3][w & 0xff] ^ tab[2][(w >> 8) & 0xff] ^
		      tab[1][(w >> 16) & 0xff] ^ tab[0][w >> 24];
		p += 4;
		len -= 4;
	}
	while (len--)
		crc = (crc >> 8) ^ tab[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define RR_CRC_X86 1

/*
 * CRC-32 by carry-less multiplication: fold 64 bytes at a time, then 16,
 * reduce 128 bits to 32 and finish with a Barrett reduction (Intel, "Fast
 * CRC Computation for Generic Polynomials Using PCLMULQDQ", 2009).  The
 * constants are x^n mod P bit-reflected and shifted left by one:
 * k1 = x^544, k2 = x^480, k3 = x^160, k4 = x^96, k5 = x^64; u = x^64 / P.
 * state is the running CRC register (already inverted); len >= 16 and a
 * multiple of 16 (short runs, such as the 48 masked header bytes of a
 * RoCEv2 ICRC, skip the four-lane loop).
 */
#define CRC32_K1K2 _mm_set_epi64x(0x1c6e41596, 0x154442bd4)

/* A lane moved on by the distance k stands for, and the 16 bytes at p
 * added. */
__attribute__((target("pclmul,sse4.1"), always_inline)) static inline __m128i
fold_by(__m128i x, __m128i k, const uint8_t *p)
{
	__m128i y = _mm_clmulepi64_si128(x, k, 0x00);
	x = _mm_clmulepi64_si128(x, k, 0x11);
	return _mm_xor_si128(_mm_xor_si128(x, y), _mm_loadu_si128((const __m128i *)p));
}

/* Lanes x[0..n), 16 bytes apart, into one; the rest of the run 16 bytes
 * at a time; then 128 bits to 32. */
__attribute__((target("pclmul,sse4.1"), always_inline)) static inline uint32_t
crc32_finish(const __m128i *x, int n, const uint8_t *p, size_t len)
{
	const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
	const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124);
	const __m128i pu = _mm_set_epi64x(0x1f7011641, 0x1db710641);
	const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);
	__m128i x1 = x[0], x2;
	for (int i = 1; i < n; i++) {
		__m128i y = _mm_clmulepi64_si128(x1, k3k4, 0x00);
		x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
		x1 = _mm_xor_si128(_mm_xor_si128(x1, x[i]), y);
	}
	for (; len >= 16; p += 16, len -= 16)
		x1 = fold_by(x1, k3k4, p);
	/* 128 bits to 64, then to 32 */
	x2 = _mm_clmulepi64_si128(x1, k3k4, 0x10);
	x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
	x2 = _mm_srli_si128(x1, 4);
	x1 = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), k5, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	/* Barrett reduction */
	x2 = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), pu, 0x10);
	x2 = _mm_clmulepi64_si128(_mm_and_si128(x2, low32), pu, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	return (uint32_t)_mm_extract_epi32(x1, 1);
}

__attribute__((target("pclmul,sse4.1"))) static uint32_t
crc32_fold(uint32_t state, const uint8_t *p, size_t len)
{
	const __m128i k1k2 = CRC32_K1K2;
	__m128i x[4] = { _mm_xor_si128(_mm_loadu_si128((const __m128i *)p),
				       _mm_cvtsi32_si128((int)state)) };
	p += 16;
	len -= 16;
	if (len < 48)
		return crc32_finish(x, 1, p, len);
	for (int i = 1; i < 4; i++)
		x[i] = _mm_loadu_si128((const __m128i *)(p + 16 * (i - 1)));
	p += 48;
	len -= 48;
	for (; len >= 64; p += 64, len -= 64)
		for (int i = 0; i < 4; i++)
			x[i] = fold_by(x[i], k1k2, p + 16 * i);
	return crc32_finish(x, 4, p, len);
}

/*
 * The same over a run in two parts, a then b, each a multiple of 16 bytes
 * long (a >= 16): the ICRC's masked headers and the payload they precede,
 * without copying the payload next to them.
 */
__attribute__((target("pclmul,sse4.1"))) static uint32_t
crc32_fold_pair(uint32_t state, const uint8_t *a, size_t alen,
		const uint8_t *b, size_t blen)
{
#define PAIR_AT(pos) ((pos) < alen ? a + (pos) : b + ((pos) - alen))
	size_t total = alen + blen, pos;
	uint8_t tail[64];
	if (total < 64) {
		memcpy(tail, a, alen);
		memcpy(tail + alen, b, blen);
		return crc32_fold(state, tail, total);
	}
	const __m128i k1k2 = CRC32_K1K2;
	__m128i x[4];
	for (int i = 0; i < 4; i++)
		x[i] = _mm_loadu_si128((const __m128i *)PAIR_AT((size_t)16 * i));
	x[0] = _mm_xor_si128(x[0], _mm_cvtsi32_si128((int)state));
	/* rounds of 64 bytes while a part of them lies in a */
	for (pos = 64; pos < alen && total - pos >= 64; pos += 64)
		for (int i = 0; i < 4; i++)
			x[i] = fold_by(x[i], k1k2, PAIR_AT(pos + 16 * (size_t)i));
	if (pos < alen) {
		/* under 64 bytes left, the start of them in a */
		memcpy(tail, a + pos, alen - pos);
		memcpy(tail + (alen - pos), b, blen);
		return crc32_finish(x, 4, tail, total - pos);
	}
	const uint8_t *p = b + (pos - alen);
	size_t len = total - pos;
	for (; len >= 64; p += 64, len -= 64)
		for (int i = 0; i < 4; i++)
			x[i] = fold_by(x[i], k1k2, p + 16 * i);
	return crc32_finish(x, 4, p, len);
#undef PAIR_AT
}

/*
 * The same with 512-bit registers (VPCLMULQDQ): four registers of four
 * lanes, 256 bytes a round, folded by x^2080 and x^2016; then one
 * register, 64 bytes a round, by k1 and k2; its lanes finish as above.
 * len >= 256.
 */
__attribute__((target("avx512f,avx512vl,vpclmulqdq,pclmul,sse4.1")))
static uint32_t crc32_fold_wide(uint32_t state, const uint8_t *p, size_t len)
{
	const __m512i k256 = _mm512_broadcast_i32x4(
		_mm_set_epi64x(0x1322d1430, 0x11542778a));
	const __m512i k64 = _mm512_broadcast_i32x4(CRC32_K1K2);
	__m512i z[4];
	for (int i = 0; i < 4; i++)
		z[i] = _mm512_loadu_si512((const void *)(p + 64 * i));
	z[0] = _mm512_xor_si512(z[0], _mm512_zextsi128_si512(
					      _mm_cvtsi32_si128((int)state)));
	p += 256;
	len -= 256;
	while (len >= 256) {
		for (int i = 0; i < 4; i++) {
			__m512i y = _mm512_clmulepi64_epi128(z[i], k256, 0x00);
			z[i] = _mm512_clmulepi64_epi128(z[i], k256, 0x11);
			z[i] = _mm512_ternarylogic_epi64(
				z[i], y, _mm512_loadu_si512((const void *)(p + 64 * i)),
				0x96);
		}
		p += 256;
		len -= 256;
	}
	__m512i acc = z[0];
	for (int i = 1; i < 4; i++) {
		__m512i y = _mm512_clmulepi64_epi128(acc, k64, 0x00);
		acc = _mm512_clmulepi64_epi128(acc, k64, 0x11);
		acc = _mm512_ternarylogic_epi64(acc, y, z[i], 0x96);
	}
	while (len >= 64) {
		__m512i y = _mm512_clmulepi64_epi128(acc, k64, 0x00);
		acc = _mm512_clmulepi64_epi128(acc, k64, 0x11);
		acc = _mm512_ternarylogic_epi64(acc, y,
			_mm512_loadu_si512((const void *)p), 0x96);
		p += 64;
		len -= 64;
	}
	__m128i x[4] = { _mm512_extracti32x4_epi32(acc, 0),
			 _mm512_extracti32x4_epi32(acc, 1),
			 _mm512_extracti32x4_epi32(acc, 2),
			 _mm512_extracti32x4_epi32(acc, 3) };
	return crc32_finish(x, 4, p, len);
}

/* CRC-32C with the SSE4.2 instruction, eight bytes at a time. */
__attribute__((target("sse4.2"))) static uint32_t
crc32c_hw(uint32_t state, const uint8_t *p, size_t len)
{
	uint64_t c = state;
	for (; len >= 8; p += 8, len -= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		c = _mm_crc32_u64(c, w);
	}
	for (; len; p++, len--)
		c = _mm_crc32_u8((uint32_t)c, *p);
	return (uint32_t)c;
}

static bool have_pclmul, have_vpclmul, have_sse42;
#endif

__attribute__((constructor)) static void tables_init(void)
{
	build(crc32_tab, 0xEDB88320u);
	build(crc32c_tab, 0x82F63B78u);
#ifdef RR_CRC_X86
	__builtin_cpu_init();
	have_pclmul = __builtin_cpu_supports("pclmul") &&
		      __builtin_cpu_supports("sse4.1");
	have_sse42 = __builtin_cpu_supports("sse4.2");
	have_vpclmul = have_pclmul && __builtin_cpu_supports("avx512f") &&
		       __builtin_cpu_supports("avx512vl") &&
		       __builtin_cpu_supports("vpclmulqdq");
#endif
}

uint32_t rr_crc32(uint32_t crc, const void *buf, size_t len)
{
#ifdef RR_CRC_X86
	if (have_pclmul && len >= 16) {
		size_t bulk = len & ~(size_t)15;
		uint32_t state = have_vpclmul && bulk >= 256 ?
					 crc32_fold_wide(~crc, buf, bulk) :
					 crc32_fold(~crc, buf, bulk);
		return slice8(crc32_tab, ~state, (const uint8_t *)buf + bulk,
			      len - bulk);
	}
#endif
	return slice8(crc32_tab, crc, buf, len);
}

uint32_t rr_crc32_pair(uint32_t crc, const void *a, size_t alen,
		       const void *b, size_t blen)
{
#ifdef RR_CRC_X86
	if (have_pclmul && alen >= 16 && alen % 16 == 0 && blen % 16 == 0)
		return ~crc32_fold_pair(~crc, a, alen, b, blen);
#endif
	return rr_crc32(rr_crc32(crc, a, alen), b, blen);
}

uint32_t rr_crc32c(uint32_t crc, const void *buf, size_t len)
{
#ifdef RR_CRC_X86
	if (have_sse42)
		return ~crc32c_hw(~crc, buf, len);
#endif
	return slice8(crc32c_tab, crc, buf, len);
}

/* The portable versions, for tests that compare the two paths. */
uint32_t rr_crc32_portable(uint32_t crc, const void *buf, size_t len);
uint32_t rr_crc32c_portable(uint32_t crc, const void *buf, size_t len);

uint32_t rr_crc32_portable(uint32_t crc, const void *buf, size_t len)
{
	return slice8(crc32_tab, crc, buf, len);
}

uint32_t rr_crc32c_portable(uint32_t crc, const void *buf, size_t len)
{
	return slice8(crc32c_tab, crc, buf, len);
}
