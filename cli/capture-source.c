/* SPDX-License-Identifier: BSD-2-Clause */
#include "capture-source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pcap_t *rr_source_open(const struct rr_source_opts *o)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p;
	if (o->file) {
		/* glibc's "m": stdio reads the file through mmap, sparing a
		 * copy through the kernel for every buffer libpcap reads */
		FILE *fp = strcmp(o->file, "-") ? fopen(o->file, "rbm") : stdin;
		if (!fp) {
			fprintf(stderr, "%s: %s: %s\n", o->prog, o->file,
				strerror(errno));
			return NULL;
		}
		p = pcap_fopen_offline(fp, errbuf);
		if (!p) {
			fprintf(stderr, "%s: %s: %s\n", o->prog, o->file, errbuf);
			fclose(fp);
			return NULL;
		}
	} else {
		p = pcap_create(o->iface, errbuf);
		if (!p) {
			fprintf(stderr, "%s: %s\n", o->prog, errbuf);
			return NULL;
		}
		if (pcap_set_snaplen(p, 65535) || pcap_set_promisc(p, 1) ||
		    pcap_set_timeout(p, 100) ||
		    pcap_set_buffer_size(p, (int)(o->buffer_kib * 1024)) ||
		    pcap_set_immediate_mode(p, o->immediate) ||
		    pcap_activate(p) < 0) {
			fprintf(stderr, "%s: %s: %s\n", o->prog, o->iface,
				pcap_geterr(p));
			pcap_close(p);
			return NULL;
		}
	}
	if (o->filter) {
		struct bpf_program prog;
		if (pcap_compile(p, &prog, o->filter, 1, PCAP_NETMASK_UNKNOWN) < 0 ||
		    pcap_setfilter(p, &prog) < 0) {
			fprintf(stderr, "%s: filter '%s': %s\n", o->prog, o->filter,
				pcap_geterr(p));
			pcap_close(p);
			return NULL;
		}
		pcap_freecode(&prog);
	}
	return p;
}

char *rr_join_args(int argc, char **argv, int from)
{
	if (from >= argc)
		return NULL;
	size_t len = 0;
	for (int i = from; i < argc; i++)
		len += strlen(argv[i]) + 1;
	char *s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (int i = from; i < argc; i++) {
		if (i > from)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

bool rr_number_arg(const char *prog, const char *what, const char *arg,
		   double min, double max, bool fractions, double *out)
{
	char *end;
	errno = 0;
	/* whole numbers through strtoll: a double cannot hold every count */
	double v = fractions ? strtod(arg, &end) : (double)strtoll(arg, &end, 10);
	if (errno || *end || end == arg || v < min || v > max) {
		fprintf(stderr, "%s: invalid %s '%s': %s number from %.15g to %.15g\n",
			prog, what, arg, fractions ? "a" : "a whole", min, max);
		return false;
	}
	*out = v;
	return true;
}
