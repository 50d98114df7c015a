/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Writes every frame of the given captures as a seed for fuzz_frame: one
 * file per distinct frame, prefixed with the link-type selector and an
 * options byte of zero.
 * usage: mkcorpus OUTDIR CAPTURE...
 */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#include <pcap/pcap.h>
#include <stdio.h>

static int selector(int link)
{
	switch (link) {
	case 1: return 0;
	case 12: case 101: return 1;
	case 113: return 2;
	case 197: return 3;
	case 228: return 4;
	case 229: return 5;
	case 247: return 6;
	case 276: return 7;
	default: return -1;
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: mkcorpus OUTDIR CAPTURE...\n");
		return 1;
	}
	unsigned written = 0;
	for (int i = 2; i < argc; i++) {
		char err[PCAP_ERRBUF_SIZE];
		pcap_t *p = pcap_open_offline(argv[i], err);
		if (!p) {
			fprintf(stderr, "mkcorpus: %s\n", err);
			return 2;
		}
		int sel = selector(pcap_datalink(p));
		struct pcap_pkthdr *h;
		const u_char *d;
		while (sel >= 0 && pcap_next_ex(p, &h, &d) == 1) {
			char path[4096];
			snprintf(path, sizeof(path), "%s/seed-%05u", argv[1],
				 written++);
			FILE *out = fopen(path, "wb");
			if (!out) {
				perror(path);
				return 2;
			}
			fputc(sel, out);
			fputc(0, out);
			fwrite(d, 1, h->caplen, out);
			fclose(out);
		}
		pcap_close(p);
	}
	printf("mkcorpus: %u seeds\n", written);
	return 0;
}
