/* SPDX-License-Identifier: BSD-2-Clause */
/* The live tools' sources: their options, and the table of each kind. */
#define _DEFAULT_SOURCE
#include "live-source.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rpcrdma/dissect.h>

#include "command-line.h"
#include "verbs-source.h"

static const struct rr_source_ops *const source_of_kind[RR_LIVE_KINDS] = {
	[RR_LIVE_FILE] = &rr_file_source,
	[RR_LIVE_PCAP] = &rr_pcap_source,
	[RR_LIVE_EBPF] = &rr_ebpf_source,
	[RR_LIVE_VERBS] = &rr_verbs_source,
};

struct rr_live {
	const struct rr_source_ops *ops;
	void *source;
};

void rr_live_opts_init(struct rr_live_opts *o, const char *prog)
{
	memset(o, 0, sizeof(*o));
	o->prog = prog;
	/* RDMA bursts fill tcpdump's 2 MiB default before a reader wakes */
	o->buffer_kib = 32768;
	o->roce_port = RR_ROCEV2_UDP_PORT;
	o->iwarp_port = RR_NFS_RDMA_PORT;
	o->snap_len = 256;
}

int rr_live_option(struct rr_live_opts *o, int c, const char *arg,
		   bool *tracepoints, int *sources)
{
	double v;
	switch (c) {
	case 'e':
	case 'i':
	case 'r':
	case RR_LIVE_OPT_RDMA:
		o->kind = c == 'e' ? RR_LIVE_EBPF : c == 'i' ? RR_LIVE_PCAP :
			  c == 'r' ? RR_LIVE_FILE : RR_LIVE_VERBS;
		o->name = arg;
		++*sources;
		return 1;
	case 't':
		if (!tracepoints)
			return 0;
		*tracepoints = true;
		++*sources;
		return 1;
	case 'B':
		if (!rr_number_arg(o->prog, "buffer size", arg, 1, 4194304, false, &v))
			return -1;
		o->buffer_kib = (long)v;
		return 1;
	case RR_LIVE_OPT_REALTIME:
		o->realtime = true;
		return 1;
	case RR_LIVE_OPT_ROCE:
	case RR_LIVE_OPT_IWARP:
		if (!rr_number_arg(o->prog, c == RR_LIVE_OPT_ROCE ? "RoCE port" :
				   "iWARP port", arg, 1, 65535, false, &v))
			return -1;
		*(c == RR_LIVE_OPT_ROCE ? &o->roce_port : &o->iwarp_port) =
			(uint16_t)v;
		return 1;
	case RR_LIVE_OPT_LIST:
		exit(rr_verbs_list(stdout) ? 0 : 2);
	default:
		return 0;
	}
}

void rr_live_usage(FILE *to, bool tracepoints)
{
	fprintf(to,
		"  -r FILE      read a capture file (pcap or pcapng; - for stdin)\n"
		"  --realtime   with -r: at the pace the file recorded\n"
		"  -i IFACE     capture live on IFACE (libpcap)\n"
		"  -B KIB       with -i: the capture buffer in KiB (default 32768;\n"
		"               drops are counted)\n"
		"  -e IFACE     capture on IFACE through eBPF: a TC program hands over\n"
		"               the headers of RoCEv2 and iWARP frames\n"
		"  --rdma DEV[:PORT]  sniff an RDMA device's port (rdma-core)\n"
		"  --list-devices     list the RDMA devices and their ports\n"
		"  --roce-port PORT   UDP port of RoCEv2 (default 4791)\n"
		"  --iwarp-port PORT  TCP port of RPC-over-RDMA on iWARP (default 20049)\n");
	if (tracepoints)
		fprintf(to,
			"  -t           the kernel's rpcrdma tracepoints (NFS client and\n"
			"               server on RDMA devices whose traffic reaches no\n"
			"               netdev)\n");
}

bool rr_live_one_source(const struct rr_live_opts *o, int sources,
			bool tracepoints)
{
	if (sources == 1)
		return true;
	fprintf(stderr, "%s: give one source: -e IFACE, -i IFACE, -r FILE%s\n",
		o->prog, tracepoints ? ", --rdma DEV or -t" : " or --rdma DEV");
	return false;
}

struct rr_live *rr_live_open(const struct rr_live_opts *o, rr_live_fn fn,
			     void *ctx, char *msg, size_t msglen)
{
	struct rr_live *l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(msg, msglen, "out of memory");
		return NULL;
	}
	l->ops = source_of_kind[o->kind];
	l->source = l->ops->open(o, fn, ctx, msg, msglen);
	if (!l->source) {
		free(l);
		return NULL;
	}
	return l;
}

int rr_live_link(const struct rr_live *l)
{
	return l->ops->link(l->source);
}

int rr_live_poll(struct rr_live *l, int timeout_ms)
{
	return l->ops->poll(l->source, timeout_ms);
}

bool rr_live_say_error(const struct rr_live *l, const struct rr_live_opts *o,
		       uint64_t frames)
{
	const char *why = l ? rr_live_error(l) : NULL;
	if (!why)
		return false;
	fprintf(stderr, "%s: %s: %s (after %llu frames)\n", o->prog, o->name, why,
		(unsigned long long)frames);
	return true;
}

uint64_t rr_live_dropped(struct rr_live *l)
{
	return l->ops->dropped(l->source);
}

pcap_t *rr_live_pcap(const struct rr_live *l)
{
	return l->ops->pcap ? l->ops->pcap(l->source) : NULL;
}

const char *rr_live_error(const struct rr_live *l)
{
	return l->ops->error ? l->ops->error(l->source) : NULL;
}

void rr_live_break(struct rr_live *l)
{
	if (l)
		l->ops->stop(l->source);
}

void rr_live_close(struct rr_live *l)
{
	if (!l)
		return;
	l->ops->close(l->source);
	free(l);
}

void rr_live_decoder_config(const struct rr_live_opts *o, struct rr_config *cfg)
{
	rr_config_init(cfg);
	cfg->roce_udp_port = o->roce_port;
	cfg->iwarp_tcp_port = o->iwarp_port;
	if (o->kind == RR_LIVE_EBPF)
		cfg->flags |= RR_CFG_CUTS_EXPECTED; /* headers only, by design */
}
