/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A live interface through libpcap as a source (source.h): non-blocking,
 * waited on in poll(), so that a read returns on time with no frame and
 * a signal stops it.
 */
#define _DEFAULT_SOURCE
#include "source.h"

#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "capture-source.h"

struct pcap_source {
	rr_live_fn fn;
	void *ctx;
	pcap_t *pcap;
	volatile sig_atomic_t stop;
	bool failed;
};

static void *pcap_source_open(const struct rr_live_opts *o, rr_live_fn fn,
			      void *ctx, char *msg, size_t msglen)
{
	struct pcap_source *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(msg, msglen, "out of memory");
		return NULL;
	}
	struct rr_source_opts so = { .iface = o->name, .filter = o->filter,
				     .buffer_kib = o->buffer_kib,
				     .snaplen = o->snaplen,
				     .immediate = o->immediate, .nano = o->nano };
	s->pcap = rr_source_open(&so, msg, msglen);
	if (!s->pcap) {
		free(s);
		return NULL;
	}
	char err[PCAP_ERRBUF_SIZE];
	if (pcap_setnonblock(s->pcap, 1, err) < 0 ||
	    pcap_get_selectable_fd(s->pcap) < 0) {
		/* libpcap's own timeout waits for a first frame: poll instead */
		snprintf(msg, msglen, "%s: %s", o->name, err);
		pcap_close(s->pcap);
		free(s);
		return NULL;
	}
	s->fn = fn;
	s->ctx = ctx;
	return s;
}

static int pcap_source_link(const void *v)
{
	return pcap_datalink(((const struct pcap_source *)v)->pcap);
}

static void on_pcap(u_char *user, const struct pcap_pkthdr *h,
		    const u_char *data)
{
	struct pcap_source *s = (struct pcap_source *)user;
	s->fn(s->ctx, rr_source_ts_ns(s->pcap, h), data, h->caplen, h->len);
}

static int pcap_source_poll(void *v, int timeout_ms)
{
	struct pcap_source *s = v;
	if (s->stop)
		return -1;
	int n = pcap_dispatch(s->pcap, 256, on_pcap, (u_char *)s);
	if (n == 0) {
		struct pollfd pfd = { pcap_get_selectable_fd(s->pcap), POLLIN, 0 };
		poll(&pfd, 1, timeout_ms);
		n = pcap_dispatch(s->pcap, 256, on_pcap, (u_char *)s);
	}
	s->failed = n == PCAP_ERROR;
	return n < 0 || s->stop ? -1 : n;
}

static uint64_t pcap_source_dropped(void *v)
{
	struct pcap_stat ps;
	if (pcap_stats(((struct pcap_source *)v)->pcap, &ps) == 0)
		return (uint64_t)ps.ps_drop + ps.ps_ifdrop;
	return 0;
}

static pcap_t *pcap_source_pcap(const void *v)
{
	return ((const struct pcap_source *)v)->pcap;
}

static const char *pcap_source_error(const void *v)
{
	const struct pcap_source *s = v;
	return s->failed ? pcap_geterr(s->pcap) : NULL;
}

static void pcap_source_stop(void *v)
{
	struct pcap_source *s = v;
	s->stop = 1;
	pcap_breakloop(s->pcap);
}

static void pcap_source_close(void *v)
{
	struct pcap_source *s = v;
	pcap_close(s->pcap);
	free(s);
}

const struct rr_source_ops rr_pcap_source = {
	.open = pcap_source_open, .link = pcap_source_link,
	.poll = pcap_source_poll, .dropped = pcap_source_dropped,
	.pcap = pcap_source_pcap, .error = pcap_source_error,
	.stop = pcap_source_stop, .close = pcap_source_close,
};
