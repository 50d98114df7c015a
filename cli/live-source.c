/* SPDX-License-Identifier: BSD-2-Clause */
#define _DEFAULT_SOURCE
#include "live-source.h"

#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rpcrdma/dissect.h>

#include "capture-source.h"
#include "mapped-capture.h"
#include "verbs-source.h"

struct rr_live {
	struct rr_live_opts o;
	rr_live_fn fn;
	void *ctx;
	pcap_t *pcap;
	struct rr_mapped *mapped;   /* a file's records read in place */
	struct rr_verbs *verbs;
#ifdef RR_HAVE_EBPF
	struct rr_ebpf *ebpf;
#endif
	volatile sig_atomic_t stop;
	bool failed;          /* a read failed */
	const char *error;    /* why, when libpcap does not say */
	bool ended;           /* a file: no more to read */
	uint64_t first_ts, started;
};

void rr_live_opts_init(struct rr_live_opts *o, const char *prog)
{
	memset(o, 0, sizeof(*o));
	o->prog = prog;
	o->buffer_kib = 32768;
	o->roce_port = RR_ROCEV2_UDP_PORT;
	o->iwarp_port = RR_NFS_RDMA_PORT;
	o->snap_len = 256;
}

bool rr_live_option(struct rr_live_opts *o, int c, const char *arg,
		    bool *tracepoints, int *sources)
{
	switch (c) {
	case 'e':
	case 'i':
	case 'r':
	case RR_LIVE_OPT_RDMA:
		o->kind = c == 'e' ? RR_LIVE_EBPF : c == 'i' ? RR_LIVE_PCAP :
			  c == 'r' ? RR_LIVE_FILE : RR_LIVE_VERBS;
		o->name = arg;
		++*sources;
		return true;
	case 't':
		*tracepoints = true;
		++*sources;
		return true;
	case RR_LIVE_OPT_REALTIME:
		o->realtime = true;
		return true;
	case RR_LIVE_OPT_LIST:
		exit(rr_verbs_list(stdout) ? 0 : 2);
	default:
		return false;
	}
}

bool rr_live_one_source(const struct rr_live_opts *o, int sources)
{
	if (sources == 1)
		return true;
	fprintf(stderr, "%s: give one source: -e IFACE, -i IFACE, -r FILE, "
			"--rdma DEV or -t\n", o->prog);
	return false;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct rr_live *rr_live_open(const struct rr_live_opts *o, rr_live_fn fn,
			     void *ctx)
{
	struct rr_live *l = calloc(1, sizeof(*l));
	if (!l) {
		fprintf(stderr, "%s: out of memory\n", o->prog);
		return NULL;
	}
	l->o = *o;
	l->fn = fn;
	l->ctx = ctx;
	if (o->kind == RR_LIVE_EBPF) {
#ifdef RR_HAVE_EBPF
		struct rr_ebpf_opts eo;
		rr_ebpf_opts_init(&eo);
		eo.roce_port = o->roce_port;
		eo.iwarp_ports[0] = o->iwarp_port;
		eo.snap_len = o->snap_len;
		char msg[512];
		l->ebpf = rr_ebpf_open(o->name, &eo, fn, ctx, msg, sizeof(msg));
		if (!l->ebpf) {
			fprintf(stderr, "%s: eBPF on %s: %s\n", o->prog, o->name, msg);
			free(l);
			return NULL;
		}
		if (msg[0])
			fprintf(stderr, "%s: eBPF on %s: %s\n", o->prog, o->name, msg);
		return l;
#else
		fprintf(stderr, "%s: built without eBPF (libbpf, bpftool, clang)\n",
			o->prog);
		free(l);
		return NULL;
#endif
	}
	if (o->kind == RR_LIVE_VERBS) {
		char msg[512];
		l->verbs = rr_verbs_open(o->name, fn, ctx, msg, sizeof(msg));
		fprintf(stderr, "%s: %s\n", o->prog, msg);
		if (!l->verbs) {
			free(l);
			return NULL;
		}
		return l;
	}
	struct rr_source_opts so = { .prog = o->prog, .filter = o->filter,
				     .buffer_kib = o->buffer_kib, .snaplen = o->snaplen,
				     .immediate = o->immediate, .nano = o->nano };
	if (o->kind == RR_LIVE_FILE)
		so.file = o->name;
	else
		so.iface = o->name;
	l->pcap = rr_source_open(&so);
	if (!l->pcap) {
		free(l);
		return NULL;
	}
	char err[PCAP_ERRBUF_SIZE];
	if (o->kind == RR_LIVE_PCAP &&
	    (pcap_setnonblock(l->pcap, 1, err) < 0 ||
	     pcap_get_selectable_fd(l->pcap) < 0)) {
		/* libpcap's own timeout waits for a first frame: poll instead */
		fprintf(stderr, "%s: %s: %s\n", o->prog, o->name, err);
		pcap_close(l->pcap);
		free(l);
		return NULL;
	}
	/* a file read through libpcap with a filter stays libpcap's: it
	 * applies the filter as it reads */
	if (o->kind == RR_LIVE_FILE && !o->filter)
		l->mapped = rr_mapped_open(l->pcap, o->name);
	l->started = mono_ns();
	return l;
}

int rr_live_link(const struct rr_live *l)
{
	if (l->verbs)
		return rr_verbs_link(l->verbs);
	return l->pcap ? pcap_datalink(l->pcap) : DLT_EN10MB;
}

static void on_pcap(u_char *user, const struct pcap_pkthdr *h,
		    const u_char *data)
{
	struct rr_live *l = (struct rr_live *)user;
	l->fn(l->ctx, rr_source_ts_ns(l->pcap, h), data, h->caplen, h->len);
}

/* A file's next record (in place while the walk takes them, then through
 * libpcap) or an interface's: pcap_next_ex's answers. */
static int next_record(struct rr_live *l, uint64_t *ts, const u_char **data,
		       uint32_t *caplen, uint32_t *wirelen)
{
	if (l->mapped) {
		int rc = rr_mapped_next(l->mapped, ts, data, caplen, wirelen);
		if (rc == 1)
			return 1;
		rr_mapped_close(l->mapped);
		l->mapped = NULL;
		if (rc < 0) {
			l->error = "cannot read on where the mapped reading stopped";
			return PCAP_ERROR;
		}
	}
	struct pcap_pkthdr *h;
	int rc = pcap_next_ex(l->pcap, &h, data);
	if (rc == 1) {
		*ts = rr_source_ts_ns(l->pcap, h);
		*caplen = h->caplen;
		*wirelen = h->len;
	}
	return rc;
}

int rr_live_poll(struct rr_live *l, int timeout_ms)
{
	if (l->stop || l->ended)
		return -1;
	if (l->o.kind == RR_LIVE_PCAP) {
		int n = pcap_dispatch(l->pcap, 256, on_pcap, (u_char *)l);
		if (n == 0) {
			struct pollfd pfd = { pcap_get_selectable_fd(l->pcap), POLLIN, 0 };
			poll(&pfd, 1, timeout_ms);
			n = pcap_dispatch(l->pcap, 256, on_pcap, (u_char *)l);
		}
		l->failed = n == PCAP_ERROR;
		return n < 0 || l->stop ? -1 : n;
	}
#ifdef RR_HAVE_EBPF
	if (l->ebpf)
		return rr_ebpf_poll(l->ebpf, timeout_ms);
#endif
	if (l->verbs)
		return rr_verbs_poll(l->verbs, timeout_ms);
	int n = 0;
	uint64_t until = mono_ns() + (uint64_t)timeout_ms * 1000000u;
	/* a batch, so that a busy source is not read one frame a call */
	while (n < 256 && !l->stop) {
		uint64_t ts;
		const u_char *data;
		uint32_t caplen, wirelen;
		int rc = next_record(l, &ts, &data, &caplen, &wirelen);
		if (rc == 0)
			break; /* live: the read timed out */
		if (rc != 1) {
			/* the end, or an error said once: remembered */
			l->ended = true;
			l->failed = rc == PCAP_ERROR;
			return n ? n : -1;
		}
		if (l->o.realtime && l->o.kind == RR_LIVE_FILE) {
			if (!l->first_ts)
				l->first_ts = ts;
			uint64_t due = l->started + (ts - l->first_ts), now = mono_ns();
			if (due > now) {
				uint64_t wait = due - now;
				struct timespec d = { (time_t)(wait / 1000000000u),
						      (long)(wait % 1000000000u) };
				nanosleep(&d, NULL);
			}
		}
		l->fn(l->ctx, ts, data, caplen, wirelen);
		/* the clock every 64 frames: a file is read as fast as it can */
		if (++n % 64 == 0 && mono_ns() > until)
			break;
	}
	return n;
}

uint64_t rr_live_dropped(struct rr_live *l)
{
	if (l->verbs)
		return rr_verbs_dropped(l->verbs);
#ifdef RR_HAVE_EBPF
	if (l->ebpf) {
		uint64_t seen, sent, dropped;
		rr_ebpf_counts(l->ebpf, &seen, &sent, &dropped);
		return dropped;
	}
#endif
	struct pcap_stat ps;
	if (l->o.kind == RR_LIVE_PCAP && pcap_stats(l->pcap, &ps) == 0)
		return (uint64_t)ps.ps_drop + ps.ps_ifdrop;
	return 0;
}

pcap_t *rr_live_pcap(const struct rr_live *l)
{
	return l->pcap;
}

const char *rr_live_error(const struct rr_live *l)
{
	if (!l->failed)
		return NULL;
	return l->error ? l->error : l->pcap ? pcap_geterr(l->pcap) : NULL;
}

void rr_live_break(struct rr_live *l)
{
	if (!l)
		return;
	l->stop = 1;
	if (l->pcap)
		pcap_breakloop(l->pcap);
}

void rr_live_close(struct rr_live *l)
{
	if (!l)
		return;
	rr_mapped_close(l->mapped);
	if (l->pcap)
		pcap_close(l->pcap);
	rr_verbs_close(l->verbs);
#ifdef RR_HAVE_EBPF
	rr_ebpf_close(l->ebpf);
#endif
	free(l);
}
