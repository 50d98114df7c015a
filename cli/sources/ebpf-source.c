/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The eBPF program on an interface as a source (source.h): the first
 * bytes of every RoCEv2 and iWARP frame, handed over a ring buffer by
 * ebpf/rpcrdma_capture.c.  Without libbpf the source says it was not built.
 */
#include "source.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef RR_HAVE_EBPF
#include "rpcrdma_capture.h"

struct ebpf_source {
	struct rr_ebpf *ebpf;
	volatile sig_atomic_t stop;
};

static void *ebpf_source_open(const struct rr_live_opts *o, rr_live_fn fn,
			      void *ctx, char *msg, size_t msglen)
{
	struct ebpf_source *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(msg, msglen, "out of memory");
		return NULL;
	}
	struct rr_ebpf_opts eo;
	rr_ebpf_opts_init(&eo);
	eo.roce_port = o->roce_port;
	eo.iwarp_ports[0] = o->iwarp_port;
	eo.snap_len = o->snap_len;
	char why[512];
	s->ebpf = rr_ebpf_open(o->name, &eo, fn, ctx, why, sizeof(why));
	msg[0] = '\0';
	if (why[0])
		snprintf(msg, msglen, "eBPF on %s: %s", o->name, why);
	if (!s->ebpf) {
		free(s);
		return NULL;
	}
	return s;
}

static int ebpf_source_poll(void *v, int timeout_ms)
{
	struct ebpf_source *s = v;
	return s->stop ? -1 : rr_ebpf_poll(s->ebpf, timeout_ms);
}

static uint64_t ebpf_source_dropped(void *v)
{
	uint64_t seen, sent, dropped;
	rr_ebpf_counts(((struct ebpf_source *)v)->ebpf, &seen, &sent, &dropped);
	return dropped;
}

static void ebpf_source_stop(void *v)
{
	((struct ebpf_source *)v)->stop = 1;
}

static void ebpf_source_close(void *v)
{
	struct ebpf_source *s = v;
	rr_ebpf_close(s->ebpf);
	free(s);
}

#else /* no libbpf */

static void *ebpf_source_open(const struct rr_live_opts *o, rr_live_fn fn,
			      void *ctx, char *msg, size_t msglen)
{
	(void)o;
	(void)fn;
	(void)ctx;
	snprintf(msg, msglen, "built without eBPF (libbpf, bpftool, clang)");
	return NULL;
}

static int ebpf_source_poll(void *v, int timeout_ms)
{
	(void)v;
	(void)timeout_ms;
	return -1;
}

static uint64_t ebpf_source_dropped(void *v)
{
	(void)v;
	return 0;
}

static void ebpf_source_stop(void *v)
{
	(void)v;
}

static void ebpf_source_close(void *v)
{
	(void)v;
}
#endif

/* Ethernet frames, cut to their headers. */
static int ebpf_source_link(const void *v)
{
	(void)v;
	return DLT_EN10MB;
}

const struct rr_source_ops rr_ebpf_source = {
	.open = ebpf_source_open, .link = ebpf_source_link,
	.poll = ebpf_source_poll, .dropped = ebpf_source_dropped,
	.stop = ebpf_source_stop, .close = ebpf_source_close,
};
