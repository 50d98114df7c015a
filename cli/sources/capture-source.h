/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where the command-line tools' frames come from: a capture file or a
 * live interface, through libpcap, with a libpcap filter expression.
 */
#ifndef RR_CAPTURE_SOURCE_H
#define RR_CAPTURE_SOURCE_H

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#endif
#include <pcap/pcap.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct rr_source_opts {
	const char *file;    /* a pcap or pcapng file ("-": stdin), or */
	const char *iface;   /* a live interface */
	const char *filter;  /* libpcap expression, or NULL */
	long buffer_kib;     /* live: the capture buffer */
	int snaplen;         /* live: bytes kept of each frame (0: 262144,
				* tcpdump's default) */
	bool immediate;      /* live: hand each frame over at once */
	bool nano;           /* time stamps in nanoseconds (tcpdump's
				* --time-stamp-precision=nano) */
};

/* tcpdump -D: the interfaces libpcap can capture on, numbered; returns
 * whether it could list them. */
bool rr_source_list(FILE *out);

/* The source opened, or NULL and why in msg; opened, msg may hold a note
 * (an interface without nanosecond stamps), else "". */
pcap_t *rr_source_open(const struct rr_source_opts *o, char *msg, size_t msglen);
/* A frame's time stamp in nanoseconds, whatever precision p delivers. */
uint64_t rr_source_ts_ns(pcap_t *p, const struct pcap_pkthdr *h);
/* Does the capture file hold nanosecond time stamps (a pcap file with the
 * nanosecond magic)?  False for pcapng, stdin and what cannot be read. */
bool rr_source_file_nano(const char *file);

#endif
