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
 * state is the running CRC register (already inverted); len >= 64 and a
 * multiple of 16.
 */
__attribute__((target("pclmul,sse4.1"))) static uint32_t
crc32_fold(uint32_t state, const uint8_t *p, size_t len)
{
	const __m128i k1k2 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);
	const __m128i k3k4 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
	const __m128i k5 = _mm_set_epi64x(0, 0x163cd6124);
	const __m128i pu = _mm_set_epi64x(0x1f7011641, 0x1db710641);
	const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);
	__m128i x1 = _mm_loadu_si128((const __m128i *)p);
	__m128i x2 = _mm_loadu_si128((const __m128i *)(p + 16));
	__m128i x3 = _mm_loadu_si128((const __m128i *)(p + 32));
	__m128i x4 = _mm_loadu_si128((const __m128i *)(p + 48));
	x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)state));
	p += 64;
	len -= 64;
	while (len >= 64) {
		__m128i y1 = _mm_clmulepi64_si128(x1, k1k2, 0x00);
		__m128i y2 = _mm_clmulepi64_si128(x2, k1k2, 0x00);
		__m128i y3 = _mm_clmulepi64_si128(x3, k1k2, 0x00);
		__m128i y4 = _mm_clmulepi64_si128(x4, k1k2, 0x00);
		x1 = _mm_clmulepi64_si128(x1, k1k2, 0x11);
		x2 = _mm_clmulepi64_si128(x2, k1k2, 0x11);
		x3 = _mm_clmulepi64_si128(x3, k1k2, 0x11);
		x4 = _mm_clmulepi64_si128(x4, k1k2, 0x11);
		x1 = _mm_xor_si128(_mm_xor_si128(x1, y1),
				   _mm_loadu_si128((const __m128i *)p));
		x2 = _mm_xor_si128(_mm_xor_si128(x2, y2),
				   _mm_loadu_si128((const __m128i *)(p + 16)));
		x3 = _mm_xor_si128(_mm_xor_si128(x3, y3),
				   _mm_loadu_si128((const __m128i *)(p + 32)));
		x4 = _mm_xor_si128(_mm_xor_si128(x4, y4),
				   _mm_loadu_si128((const __m128i *)(p + 48)));
		p += 64;
		len -= 64;
	}
	/* four lanes into one */
	__m128i lanes[3] = { x2, x3, x4 };
	for (int i = 0; i < 3; i++) {
		__m128i y = _mm_clmulepi64_si128(x1, k3k4, 0x00);
		x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
		x1 = _mm_xor_si128(_mm_xor_si128(x1, lanes[i]), y);
	}
	while (len >= 16) {
		__m128i y = _mm_clmulepi64_si128(x1, k3k4, 0x00);
		x1 = _mm_clmulepi64_si128(x1, k3k4, 0x11);
		x1 = _mm_xor_si128(_mm_xor_si128(x1, y),
				   _mm_loadu_si128((const __m128i *)p));
		p += 16;
		len -= 16;
	}
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

static bool have_pclmul, have_sse42;
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
#endif
}

uint32_t rr_crc32(uint32_t crc, const void *buf, size_t len)
{
#ifdef RR_CRC_X86
	if (have_pclmul && len >= 64) {
		size_t bulk = len & ~(size_t)15;
		uint32_t state = crc32_fold(~crc, buf, bulk);
		return slice8(crc32_tab, ~state, (const uint8_t *)buf + bulk,
			      len - bulk);
	}
#endif
	return slice8(crc32_tab, crc, buf, len);
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
