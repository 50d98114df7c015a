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

__attribute__((constructor)) static void tables_init(void)
{
	build(crc32_tab, 0xEDB88320u);
	build(crc32c_tab, 0x82F63B78u);
}

uint32_t rr_crc32(uint32_t crc, const void *buf, size_t len)
{
	return slice8(crc32_tab, crc, buf, len);
}

uint32_t rr_crc32c(uint32_t crc, const void *buf, size_t len)
{
	return slice8(crc32c_tab, crc, buf, len);
}
