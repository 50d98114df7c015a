/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The live tools' sources behind one interface: a capture file (as fast as
 * possible or at its recorded pace), a live interface through libpcap,
 * the eBPF program on an interface, or an RDMA device's sniffer flow.  Each hands over Ethernet frames
 * (or the capture file's link type) with their times and lengths.
 */
#ifndef RR_LIVE_SOURCE_H
#define RR_LIVE_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "capture-source.h"

#ifdef RR_HAVE_EBPF
#include "rr_ebpf.h"
#endif

enum rr_live_kind { RR_LIVE_FILE, RR_LIVE_PCAP, RR_LIVE_EBPF, RR_LIVE_VERBS };

struct rr_live_opts {
	const char *prog;       /* names the messages */
	enum rr_live_kind kind;
	const char *name;       /* the file, the interface, or DEVICE[:PORT] */
	const char *filter;     /* libpcap expression (file, pcap), or NULL */
	long buffer_kib;        /* pcap: the capture buffer */
	int snaplen;            /* pcap: bytes kept of each frame (0: 262144) */
	bool immediate;         /* pcap: each frame handed over at once */
	bool nano;              /* file, pcap: nanosecond time stamps */
	bool realtime;          /* file: at the pace it recorded */
	uint16_t roce_port;     /* ebpf: 4791 */
	uint16_t iwarp_port;    /* ebpf: 20049 */
	uint32_t snap_len;      /* ebpf: 256 */
};

void rr_live_opts_init(struct rr_live_opts *o, const char *prog);

/* The live tools' source options, for getopt_long: -e IFACE, -i IFACE,
 * -r FILE, -t, --rdma DEV[:PORT], --realtime, --list-devices. */
enum { RR_LIVE_OPT_RDMA = 0x200, RR_LIVE_OPT_LIST, RR_LIVE_OPT_REALTIME };
#define RR_LIVE_SHORT_OPTIONS "e:i:r:t"
#define RR_LIVE_LONG_OPTIONS \
	{ "ebpf", required_argument, NULL, 'e' }, \
	{ "tracepoints", no_argument, NULL, 't' }, \
	{ "rdma", required_argument, NULL, RR_LIVE_OPT_RDMA }, \
	{ "list-devices", no_argument, NULL, RR_LIVE_OPT_LIST }, \
	{ "realtime", no_argument, NULL, RR_LIVE_OPT_REALTIME }
/* True when getopt's c was one of them; counts the sources in *sources
 * and says whether -t (the kernel's tracepoints, not frames) was given.
 * --list-devices lists the RDMA devices and exits. */
bool rr_live_option(struct rr_live_opts *o, int c, const char *arg,
		    bool *tracepoints, int *sources);
/* Whether exactly one source was given; if not, says so on stderr. */
bool rr_live_one_source(const struct rr_live_opts *o, int sources);

typedef void (*rr_live_fn)(void *ctx, uint64_t ts_ns, const uint8_t *data,
			   uint32_t caplen, uint32_t wirelen);

struct rr_live;

/* Opened, or NULL after saying why on stderr (and notes, if any, said). */
struct rr_live *rr_live_open(const struct rr_live_opts *o, rr_live_fn fn,
			     void *ctx);
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
/* Frames the source lost so far (kernel, interface, ring buffer). */
uint64_t rr_live_dropped(struct rr_live *l);
/* Safe in a signal handler: the next poll returns -1. */
void rr_live_break(struct rr_live *l);
void rr_live_close(struct rr_live *l);

#endif
