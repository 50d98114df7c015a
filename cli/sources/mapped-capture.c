/* SPDX-License-Identifier: BSD-2-Clause */
#define _DEFAULT_SOURCE
#include "mapped-capture.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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

/* The read-ahead: a second thread maps the file's pages in CHUNK at a time,
 * at most AHEAD_LIMIT past the record being read, and unmaps those behind
 * it, so that neither the page faults nor the unmapping (a fifth of
 * `rpcrdma-dump -q --stats`'s time on a large file, docs/performance.md)
 * fall on the reading thread.  Files below AHEAD_MIN_SIZE are read
 * without it. */
#define CHUNK ((size_t)1 << 20)
#define AHEAD_LIMIT (8 * CHUNK)
/* The reader wakes the thread every WAKE_EVERY (a wake-up costs the
 * reader some microseconds): half the distance it maps ahead. */
#define WAKE_EVERY (4 * CHUNK)
#define AHEAD_MIN_SIZE (4 * CHUNK)

static size_t chunk_start(size_t off)
{
	return off & ~(CHUNK - 1);
}

struct rr_mapped {
	pcap_t *pcap;
	const uint8_t *base;
	size_t size, off;
	bool swapped;
	uint32_t frac_to_ns;    /* the file's fraction of a second to ns */
	bool cut_to_micro;      /* a nanosecond file p reads in microseconds */
	uint32_t snapshot;
	/* the read-ahead, when it runs */
	bool ahead;
	pthread_t ahead_thread;
	pthread_mutex_t lock;
	pthread_cond_t moved;
	size_t released;          /* under lock: the reader is done with all before */
	bool stop;                /* under lock */
	size_t wake_at;           /* the reader's next offset to signal at */
	size_t unmapped;          /* the read-ahead's: [0, unmapped) is gone */
	size_t mapped_to;         /* and [unmapped, mapped_to) mapped in */
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

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14 */
#endif

/* Pages in [from, to): their faults taken here, so the reader finds them
 * mapped (touched one by one where the kernel is older than 5.14). */
static void map_in(const uint8_t *base, size_t from, size_t to)
{
	if (madvise((void *)(base + from), to - from, MADV_POPULATE_READ) == 0 ||
	    errno != EINVAL)
		return;
	long page = sysconf(_SC_PAGESIZE);
	volatile uint8_t sink = 0;
	for (size_t o = from; o < to; o += (size_t)page)
		sink ^= base[o];
	(void)sink;
}

/* The read-ahead for a reader at `released`: the chunks wholly behind it
 * unmapped, those up to AHEAD_LIMIT past it mapped. */
static void ahead_step(struct rr_mapped *m, size_t released)
{
	size_t behind = chunk_start(released);
	if (behind > m->unmapped) {
		munmap((void *)(m->base + m->unmapped), behind - m->unmapped);
		m->unmapped = behind;
	}
	if (m->mapped_to < behind) /* the reader passed it: not worth mapping */
		m->mapped_to = behind;
	while (m->mapped_to < m->size && m->mapped_to < released + AHEAD_LIMIT) {
		size_t end = m->size - m->mapped_to < CHUNK ? m->size :
							       m->mapped_to + CHUNK;
		map_in(m->base, m->mapped_to, end);
		m->mapped_to = end;
	}
}

static bool ahead_due(const struct rr_mapped *m, size_t released)
{
	return chunk_start(released) > m->unmapped ||
	       (m->mapped_to < m->size && m->mapped_to < released + AHEAD_LIMIT);
}

static void *read_ahead(void *arg)
{
	struct rr_mapped *m = arg;
	pthread_mutex_lock(&m->lock);
	while (!m->stop) {
		size_t released = m->released;
		if (!ahead_due(m, released)) {
			pthread_cond_wait(&m->moved, &m->lock);
			continue;
		}
		pthread_mutex_unlock(&m->lock);
		ahead_step(m, released);
		pthread_mutex_lock(&m->lock);
	}
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

static void ahead_start(struct rr_mapped *m)
{
	if (m->size < AHEAD_MIN_SIZE)
		return;
	pthread_mutex_init(&m->lock, NULL);
	pthread_cond_init(&m->moved, NULL);
	m->wake_at = WAKE_EVERY;
	m->ahead = pthread_create(&m->ahead_thread, NULL, read_ahead, m) == 0;
	if (!m->ahead) {
		pthread_cond_destroy(&m->moved);
		pthread_mutex_destroy(&m->lock);
	}
}

/* The reader is at off: what lies before is the read-ahead's to unmap,
 * and AHEAD_LIMIT past it its to map. */
static void ahead_release(struct rr_mapped *m, size_t off)
{
	if (off < m->wake_at)
		return;
	m->wake_at = chunk_start(off) + WAKE_EVERY;
	pthread_mutex_lock(&m->lock);
	m->released = off;
	pthread_cond_signal(&m->moved);
	pthread_mutex_unlock(&m->lock);
}

static void ahead_stop(struct rr_mapped *m)
{
	if (!m->ahead)
		return;
	pthread_mutex_lock(&m->lock);
	m->stop = true;
	pthread_cond_signal(&m->moved);
	pthread_mutex_unlock(&m->lock);
	pthread_join(m->ahead_thread, NULL);
	pthread_cond_destroy(&m->moved);
	pthread_mutex_destroy(&m->lock);
	m->ahead = false;
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
	m->cut_to_micro = magic == MAGIC_NANO &&
			  pcap_get_tstamp_precision(p) != PCAP_TSTAMP_PRECISION_NANO;
	m->snapshot = (uint32_t)pcap_snapshot(p);
	/* read once, front to back */
	madvise(base, m->size, MADV_SEQUENTIAL);
	ahead_start(m);
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
	if (m->ahead)
		ahead_release(m, m->off);
	const uint8_t *h = m->base + m->off;
	uint32_t cap = word(m, h + 8);
	if (cap > m->snapshot || cap > m->size - m->off - RECORD_HEADER_LEN)
		return hand_over(m);
	uint64_t frac = (uint64_t)word(m, h + 4) * m->frac_to_ns;
	if (m->cut_to_micro)
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
	ahead_stop(m);
	munmap((void *)(m->base + m->unmapped), m->size - m->unmapped);
	free(m);
}
