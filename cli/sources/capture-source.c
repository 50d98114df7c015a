/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE /* fopencookie */
#include "capture-source.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* A gzip-compressed capture (.pcap.gz, .pcapng.gz), as tshark and
 * tcpdump read one: zlib's stream behind a stdio FILE that libpcap reads
 * as it reads a file. */
static ssize_t gzip_read(void *gz, char *buf, size_t n)
{
	int got = gzread(gz, buf, n > INT_MAX ? INT_MAX : (unsigned)n);
	return got < 0 ? -1 : got;
}

static int gzip_close(void *gz)
{
	return gzclose(gz) == Z_OK ? 0 : -1;
}

static FILE *gzip_open(const char *path)
{
	gzFile gz = gzopen(path, "rb");
	if (!gz)
		return NULL;
	gzbuffer(gz, 1u << 17);
	cookie_io_functions_t io = { .read = gzip_read, .close = gzip_close };
	FILE *fp = fopencookie(gz, "rb", io);
	if (!fp)
		gzclose(gz);
	return fp;
}

/* gzip's magic (RFC 1952 §2.3.1) at the start of fp, which is left there */
static bool gzip_magic(FILE *fp)
{
	unsigned char m[2];
	bool gz = fread(m, 1, 2, fp) == 2 && m[0] == 0x1f && m[1] == 0x8b;
	rewind(fp);
	return gz;
}

pcap_t *rr_source_open(const struct rr_source_opts *o, char *msg, size_t msglen)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p;
	msg[0] = '\0';
	if (o->file) {
		/* glibc's "m": stdio reads the file through mmap, sparing a
		 * copy through the kernel for every buffer libpcap reads */
		FILE *fp = strcmp(o->file, "-") ? fopen(o->file, "rbm") : stdin;
		if (fp && fp != stdin && gzip_magic(fp)) {
			fclose(fp);
			fp = gzip_open(o->file);
		}
		if (!fp) {
			snprintf(msg, msglen, "%s: %s", o->file, strerror(errno ? errno : ENOMEM));
			return NULL;
		}
		p = pcap_fopen_offline_with_tstamp_precision(fp,
			o->nano ? PCAP_TSTAMP_PRECISION_NANO : PCAP_TSTAMP_PRECISION_MICRO,
			errbuf);
		if (!p) {
			snprintf(msg, msglen, "%s: %s", o->file, errbuf);
			fclose(fp);
			return NULL;
		}
	} else {
		p = pcap_create(o->iface, errbuf);
		if (!p) {
			snprintf(msg, msglen, "%s", errbuf);
			return NULL;
		}
		/* nanoseconds where the interface gives them; a capture
		 * that cannot says so through pcap_get_tstamp_precision */
		if (o->nano &&
		    pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO) != 0)
			snprintf(msg, msglen, "%s: no nanosecond time stamps "
				 "here: microseconds", o->iface);
		if (pcap_set_snaplen(p, o->snaplen ? o->snaplen : 262144) || pcap_set_promisc(p, 1) ||
		    pcap_set_timeout(p, 100) ||
		    pcap_set_buffer_size(p, (int)(o->buffer_kib * 1024)) ||
		    pcap_set_immediate_mode(p, o->immediate) ||
		    pcap_activate(p) < 0) {
			snprintf(msg, msglen, "%s: %s", o->iface, pcap_geterr(p));
			pcap_close(p);
			return NULL;
		}
	}
	if (o->filter) {
		struct bpf_program prog;
		if (pcap_compile(p, &prog, o->filter, 1, PCAP_NETMASK_UNKNOWN) < 0 ||
		    pcap_setfilter(p, &prog) < 0) {
			snprintf(msg, msglen, "filter '%s': %s", o->filter,
				 pcap_geterr(p));
			pcap_close(p);
			return NULL;
		}
		pcap_freecode(&prog);
	}
	return p;
}

bool rr_source_list(FILE *out)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_if_t *all;
	if (pcap_findalldevs(&all, errbuf) < 0) {
		fprintf(stderr, "%s\n", errbuf);
		return false;
	}
	unsigned n = 0;
	for (pcap_if_t *d = all; d; d = d->next) {
		fprintf(out, "%u.%s", ++n, d->name);
		if (d->description)
			fprintf(out, " (%s)", d->description);
		/* as tcpdump: [Up, Running, Loopback] */
		fprintf(out, " [%s%s%s]", d->flags & PCAP_IF_UP ? "Up" : "Down",
			d->flags & PCAP_IF_RUNNING ? ", Running" : "",
			d->flags & PCAP_IF_LOOPBACK ? ", Loopback" : "");
		fputc('\n', out);
	}
	pcap_freealldevs(all);
	return true;
}

uint64_t rr_source_ts_ns(pcap_t *p, const struct pcap_pkthdr *h)
{
	uint64_t frac = (uint64_t)h->ts.tv_usec;
	if (pcap_get_tstamp_precision(p) != PCAP_TSTAMP_PRECISION_NANO)
		frac *= 1000u;
	return (uint64_t)h->ts.tv_sec * 1000000000u + frac;
}

bool rr_source_file_nano(const char *file)
{
	if (!file || !strcmp(file, "-"))
		return false;
	/* zlib reads a file that is no gzip as it is */
	gzFile fp = gzopen(file, "rb");
	if (!fp)
		return false;
	uint8_t m[4];
	bool nano = gzread(fp, m, 4) == 4 &&
		    /* pcap's nanosecond magic, 0xa1b23c4d, in either order */
		    ((m[0] == 0xa1 && m[1] == 0xb2 && m[2] == 0x3c && m[3] == 0x4d) ||
		     (m[0] == 0x4d && m[1] == 0x3c && m[2] == 0xb2 && m[3] == 0xa1));
	gzclose(fp);
	return nano;
}
