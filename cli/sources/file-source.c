/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A capture file as a source (source.h): pcap or pcapng through libpcap,
 * a classic pcap file's records read in place (mapped-capture.h), as fast
 * as it can be read or at the pace it was recorded (--realtime).
 */
#define _DEFAULT_SOURCE
#include "source.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture-source.h"
#include "mapped-capture.h"

struct file_source {
	rr_live_fn fn;
	void *ctx;
	pcap_t *pcap;
	struct rr_mapped *mapped;   /* the records read in place */
	bool realtime;
	volatile sig_atomic_t stop;
	bool ended, failed;
	const char *error;          /* why, when libpcap does not say */
	uint64_t first_ts, started;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *file_open(const struct rr_live_opts *o, rr_live_fn fn, void *ctx,
		       char *msg, size_t msglen)
{
	struct file_source *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(msg, msglen, "out of memory");
		return NULL;
	}
	struct rr_source_opts so = { .file = o->name, .filter = o->filter,
				     .nano = o->nano };
	s->pcap = rr_source_open(&so, msg, msglen);
	if (!s->pcap) {
		free(s);
		return NULL;
	}
	s->fn = fn;
	s->ctx = ctx;
	s->realtime = o->realtime;
	/* a file read with a filter stays libpcap's: it applies the filter
	 * as it reads */
	if (!o->filter)
		s->mapped = rr_mapped_open(s->pcap, o->name);
	s->started = mono_ns();
	return s;
}

static int file_link(const void *v)
{
	return pcap_datalink(((const struct file_source *)v)->pcap);
}

/* The next record (in place while the walk takes them, then through
 * libpcap): pcap_next_ex's answers. */
static int next_record(struct file_source *s, uint64_t *ts, const u_char **data,
		       uint32_t *caplen, uint32_t *wirelen)
{
	if (s->mapped) {
		int rc = rr_mapped_next(s->mapped, ts, data, caplen, wirelen);
		if (rc == 1)
			return 1;
		rr_mapped_close(s->mapped);
		s->mapped = NULL;
		if (rc < 0) {
			s->error = "cannot read on where the mapped reading stopped";
			return PCAP_ERROR;
		}
	}
	struct pcap_pkthdr *h;
	int rc = pcap_next_ex(s->pcap, &h, data);
	if (rc == 1) {
		*ts = rr_source_ts_ns(s->pcap, h);
		*caplen = h->caplen;
		*wirelen = h->len;
	}
	return rc;
}

/* --realtime: waits until the record is due, measured from the first. */
static void pace(struct file_source *s, uint64_t ts)
{
	if (!s->first_ts)
		s->first_ts = ts;
	uint64_t due = s->started + (ts - s->first_ts), now = mono_ns();
	if (due > now) {
		uint64_t wait = due - now;
		struct timespec d = { (time_t)(wait / 1000000000u),
				      (long)(wait % 1000000000u) };
		nanosleep(&d, NULL);
	}
}

static int file_poll(void *v, int timeout_ms)
{
	struct file_source *s = v;
	if (s->stop || s->ended)
		return -1;
	int n = 0;
	uint64_t until = mono_ns() + (uint64_t)timeout_ms * 1000000u;
	/* a batch, so that a file is not read one frame a call */
	while (n < 256 && !s->stop) {
		uint64_t ts;
		const u_char *data;
		uint32_t caplen, wirelen;
		int rc = next_record(s, &ts, &data, &caplen, &wirelen);
		if (rc != 1) {
			/* the end, or an error said once: remembered */
			s->ended = true;
			s->failed = rc == PCAP_ERROR;
			return n ? n : -1;
		}
		if (s->realtime)
			pace(s, ts);
		s->fn(s->ctx, ts, data, caplen, wirelen);
		/* the clock every 64 frames: a file is read as fast as it can */
		if (++n % 64 == 0 && mono_ns() > until)
			break;
	}
	return n;
}

static uint64_t file_dropped(void *v)
{
	(void)v;
	return 0; /* a file loses nothing it holds */
}

static pcap_t *file_pcap(const void *v)
{
	return ((const struct file_source *)v)->pcap;
}

static const char *file_error(const void *v)
{
	const struct file_source *s = v;
	if (!s->failed)
		return NULL;
	return s->error ? s->error : pcap_geterr(s->pcap);
}

static void file_stop(void *v)
{
	struct file_source *s = v;
	s->stop = 1;
	pcap_breakloop(s->pcap);
}

static void file_close(void *v)
{
	struct file_source *s = v;
	rr_mapped_close(s->mapped);
	pcap_close(s->pcap);
	free(s);
}

const struct rr_source_ops rr_file_source = {
	.open = file_open, .link = file_link, .poll = file_poll,
	.dropped = file_dropped, .pcap = file_pcap, .error = file_error,
	.stop = file_stop, .close = file_close,
};
