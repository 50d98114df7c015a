/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A source of frames for the live tools, as libpcap keeps one table of
 * operations per capture module: each source's file defines its table
 * (a capture file, a live interface through libpcap, the eBPF program on
 * an interface, an RDMA device's sniffer flow) and live-source.c picks
 * one by kind.  A source says what went wrong in a buffer the caller
 * prints; it never prints.
 */
#ifndef RR_SOURCE_H
#define RR_SOURCE_H

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#endif
#include <pcap/pcap.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rr_live_kind { RR_LIVE_FILE, RR_LIVE_PCAP, RR_LIVE_EBPF, RR_LIVE_VERBS,
		    RR_LIVE_KINDS };

struct rr_live_opts {
	const char *prog;       /* names the command line's messages */
	enum rr_live_kind kind;
	const char *name;       /* the file, the interface, or DEVICE[:PORT] */
	const char *filter;     /* libpcap expression (file, pcap), or NULL */
	long buffer_kib;        /* pcap: the capture buffer */
	int snaplen;            /* pcap: bytes kept of each frame (0: 262144) */
	bool immediate;         /* pcap: each frame handed over at once */
	bool nano;              /* file, pcap: nanosecond time stamps */
	bool realtime;          /* file: at the pace it recorded */
	uint16_t roce_port;     /* ebpf, and the analyzer: 4791 */
	uint16_t iwarp_port;    /* ebpf, and the analyzer: 20049 */
	uint32_t snap_len;      /* ebpf: 256 */
};

/* A frame: its capture time (ns since 1970), bytes and lengths. */
typedef void (*rr_live_fn)(void *ctx, uint64_t ts_ns, const uint8_t *data,
			   uint32_t caplen, uint32_t wirelen);

struct rr_source_ops {
	/* Opened, or NULL and why in msg; opened, msg may hold a note to
	 * show ("" when none). */
	void *(*open)(const struct rr_live_opts *o, rr_live_fn fn, void *ctx,
		      char *msg, size_t msglen);
	/* The link type (DLT) of the frames. */
	int (*link)(const void *s);
	/* Frames handed to fn within timeout_ms: how many, 0 when none
	 * came, -1 at the end, on an error or once stopped. */
	int (*poll)(void *s, int timeout_ms);
	/* Frames lost so far (kernel, interface, ring buffer, device). */
	uint64_t (*dropped)(void *s);
	/* The libpcap handle, for a writer of the same link type, snapshot
	 * length and precision.  NULL (the function or its answer) when
	 * libpcap does not read the source. */
	pcap_t *(*pcap)(const void *s);
	/* Why a read failed; NULL at the end or once stopped, or (the
	 * function) when reads do not fail but end. */
	const char *(*error)(const void *s);
	/* Safe in a signal handler: the next poll returns -1. */
	void (*stop)(void *s);
	void (*close)(void *s);
};

extern const struct rr_source_ops rr_file_source;   /* file-source.c */
extern const struct rr_source_ops rr_pcap_source;   /* pcap-source.c */
extern const struct rr_source_ops rr_ebpf_source;   /* ebpf-source.c */
extern const struct rr_source_ops rr_verbs_source;  /* verbs-source.c */

#endif
