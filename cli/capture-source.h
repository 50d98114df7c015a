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
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>

struct rr_source_opts {
	const char *prog;    /* names the messages */
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

/* The source opened, or NULL after saying why on stderr. */
pcap_t *rr_source_open(const struct rr_source_opts *o);
/* A frame's time stamp in nanoseconds, whatever precision p delivers. */
uint64_t rr_source_ts_ns(pcap_t *p, const struct pcap_pkthdr *h);
/* Does the capture file hold nanosecond time stamps (a pcap file with the
 * nanosecond magic)?  False for pcapng, stdin and what cannot be read. */
bool rr_source_file_nano(const char *file);

/* argv[from..argc) joined by spaces (a filter expression, as tcpdump
 * takes it), or NULL when there is none or no memory. */
char *rr_join_args(int argc, char **argv, int from);

/* A command-line number for `what` from min to max, a whole one unless
 * fractions are allowed; false after saying on stderr, as prog, that arg
 * is not one. */
bool rr_number_arg(const char *prog, const char *what, const char *arg,
		   double min, double max, bool fractions, double *out);

#endif
