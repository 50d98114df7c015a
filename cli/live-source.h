/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The live tools' sources behind one interface (sources/source.h): a
 * capture file (as fast as possible or at its recorded pace), a live
 * interface through libpcap, the eBPF program on an interface, or an RDMA
 * device's sniffer flow.  Each hands over Ethernet frames (or the capture
 * file's link type) with their times and lengths.  Every tool reads its
 * source options here, the same way.
 */
#ifndef RR_LIVE_SOURCE_H
#define RR_LIVE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "source.h"

void rr_live_opts_init(struct rr_live_opts *o, const char *prog);

/* The source options, for getopt_long: -e IFACE, -i IFACE, -r FILE,
 * -B KIB, --rdma DEV[:PORT], --list-devices, --realtime, --roce-port
 * PORT, --iwarp-port PORT; and -t, --tracepoints for the tools that read
 * the kernel's tracepoints too. */
enum { RR_LIVE_OPT_RDMA = 0x200, RR_LIVE_OPT_LIST, RR_LIVE_OPT_REALTIME,
       RR_LIVE_OPT_ROCE, RR_LIVE_OPT_IWARP };
#define RR_LIVE_FRAME_SHORT_OPTIONS "e:i:r:B:"
#define RR_LIVE_FRAME_LONG_OPTIONS \
	{ "ebpf", required_argument, NULL, 'e' }, \
	{ "rdma", required_argument, NULL, RR_LIVE_OPT_RDMA }, \
	{ "list-devices", no_argument, NULL, RR_LIVE_OPT_LIST }, \
	{ "realtime", no_argument, NULL, RR_LIVE_OPT_REALTIME }, \
	{ "roce-port", required_argument, NULL, RR_LIVE_OPT_ROCE }, \
	{ "iwarp-port", required_argument, NULL, RR_LIVE_OPT_IWARP }
#define RR_LIVE_SHORT_OPTIONS RR_LIVE_FRAME_SHORT_OPTIONS "t"
#define RR_LIVE_LONG_OPTIONS RR_LIVE_FRAME_LONG_OPTIONS, \
	{ "tracepoints", no_argument, NULL, 't' }
/* Whether getopt's c was one of them (1), was one with a bad argument
 * (-1, said on stderr) or was none (0).  Counts the sources in *sources;
 * tracepoints is NULL for a tool that takes no -t, else set by -t.
 * --list-devices lists the RDMA devices and exits. */
int rr_live_option(struct rr_live_opts *o, int c, const char *arg,
		   bool *tracepoints, int *sources);
/* The decoder's configuration as the source options ask it, the same for
 * every tool: the ports that name the traffic (as for the eBPF filter),
 * and with -e the cut frames the eBPF program keeps by design. */
struct rr_config;
void rr_live_decoder_config(const struct rr_live_opts *o, struct rr_config *cfg);
/* The source options' lines of a usage message, -t with tracepoints. */
void rr_live_usage(FILE *to, bool tracepoints);
/* Whether exactly one source was given; if not, says so on stderr, with
 * -t when the tool takes it. */
bool rr_live_one_source(const struct rr_live_opts *o, int sources,
			bool tracepoints);

struct rr_live;

/* Opened, or NULL and why in msg; opened, msg may hold a note to show
 * ("" when none). */
struct rr_live *rr_live_open(const struct rr_live_opts *o, rr_live_fn fn,
			     void *ctx, char *msg, size_t msglen);
/* The link type (DLT) of the frames. */
int rr_live_link(const struct rr_live *l);
/* Waits up to timeout_ms and hands frames to fn: how many, 0 when none
 * came, -1 at the end of a file, on an error or after rr_live_break. */
int rr_live_poll(struct rr_live *l, int timeout_ms);
/* A file's or an interface's libpcap handle (for a writer of the same
 * link type, snap length and precision), NULL for the other sources. */
pcap_t *rr_live_pcap(const struct rr_live *l);
/* Why the source ended when a read failed (a file cut short, an
 * interface gone); NULL at the end of a file or after rr_live_break. */
const char *rr_live_error(const struct rr_live *l);
/* When a read failed (a file cut short or damaged, an interface gone):
 * says so on stderr as every tool says it, "PROG: NAME: why (after N
 * frames)", and true; false when the source ended well or was stopped. */
bool rr_live_say_error(const struct rr_live *l, const struct rr_live_opts *o,
		       uint64_t frames);
/* Frames the source lost so far (kernel, interface, ring buffer). */
uint64_t rr_live_dropped(struct rr_live *l);
/* Safe in a signal handler: the next poll returns -1. */
void rr_live_break(struct rr_live *l);
void rr_live_close(struct rr_live *l);

#endif
