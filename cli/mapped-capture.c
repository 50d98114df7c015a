/* SPDX-License-Identifier: BSD-2-Clause */
#define _DEFAULT_SOURCE
#include "mapped-capture.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The classic format's file header and record header (pcap-savefile(5)). */
#define FILE_HEADER_LEN 24u
#define RECORD_HEADER_LEN 16u
#define MAGIC_MICRO 0xa1b2c3d4u
#define MAGIC_NANO 0xa1b23c4du

struct rr_mapped {
	pcap_t *pcap;
	const uint8_t *base;
	size_t size, off;
	bool swapped;
	uint32_t frac_to_ns;    /* the file's fraction of a second to ns */
	bool micro;             /* p gives microseconds: ns cut to them */
	uint32_t snapshot;
};

static uint32_t word(const struct rr_mapped *m, const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return m->swapped ? __builtin_bswap32(v) : v;
}

/* Link types whose records libpcap hands over as they are in the file
 * (it rewrites USB and NFLOG headers of a file of the other byte order). */
static bool link_as_stored(int link)
{
	switch (link) {
	case DLT_EN10MB:
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
	case DLT_LINUX_SLL:
	case DLT_LINUX_SLL2:
	case DLT_ERF:
	case DLT_INFINIBAND:
		return true;
	default:
		return false;
	}
}

struct rr_mapped *rr_mapped_open(pcap_t *p, const char *path)
{
	if (!path || !strcmp(path, "-") || !link_as_stored(pcap_datalink(p)))
		return NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	void *base = MAP_FAILED;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size >= FILE_HEADER_LEN &&
	    (uint64_t)st.st_size <= SIZE_MAX)
		base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (base == MAP_FAILED)
		return NULL;
	struct rr_mapped *m = calloc(1, sizeof(*m));
	if (!m) {
		munmap(base, (size_t)st.st_size);
		return NULL;
	}
	m->pcap = p;
	m->base = base;
	m->size = (size_t)st.st_size;
	m->off = FILE_HEADER_LEN;
	m->swapped = pcap_is_swapped(p) == 1;
	/* The byte order and version are libpcap's to tell; the magic only
	 * here: pcapng and the classic format's variants with longer record
	 * headers (which libpcap reads as 2.4 too), and versions before 2.4
	 * (whose record headers libpcap reads otherwise), stay libpcap's. */
	uint32_t magic = word(m, m->base);
	if ((magic != MAGIC_MICRO && magic != MAGIC_NANO) ||
	    pcap_major_version(p) != 2 || pcap_minor_version(p) != 4) {
		rr_mapped_close(m);
		return NULL;
	}
	m->frac_to_ns = magic == MAGIC_NANO ? 1 : 1000;
	m->micro = pcap_get_tstamp_precision(p) != PCAP_TSTAMP_PRECISION_NANO;
	m->snapshot = (uint32_t)pcap_snapshot(p);
	/* read once, front to back */
	madvise(base, m->size, MADV_SEQUENTIAL | MADV_WILLNEED);
	return m;
}

/* What is left goes to libpcap, from this record on. */
static int hand_over(struct rr_mapped *m)
{
	FILE *fp = pcap_file(m->pcap);
	return fp && fseeko(fp, (off_t)m->off, SEEK_SET) == 0 ? 0 : -1;
}

int rr_mapped_next(struct rr_mapped *m, uint64_t *ts_ns, const uint8_t **data,
		   uint32_t *caplen, uint32_t *wirelen)
{
	if (m->size - m->off < RECORD_HEADER_LEN)
		return hand_over(m);
	const uint8_t *h = m->base + m->off;
	uint32_t cap = word(m, h + 8);
	if (cap > m->snapshot || cap > m->size - m->off - RECORD_HEADER_LEN)
		return hand_over(m);
	uint64_t frac = (uint64_t)word(m, h + 4) * m->frac_to_ns;
	if (m->micro)
		frac -= frac % 1000u;   /* as libpcap scales a nanosecond file */
	*ts_ns = (uint64_t)word(m, h) * 1000000000u + frac;
	*caplen = cap;
	*wirelen = word(m, h + 12);
	*data = h + RECORD_HEADER_LEN;
	m->off += RECORD_HEADER_LEN + cap;
	return 1;
}

void rr_mapped_close(struct rr_mapped *m)
{
	if (!m)
		return;
	munmap((void *)m->base, m->size);
	free(m);
}
