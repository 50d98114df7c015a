/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Writes every frame of the given captures as a seed for fuzz_frame: one
 * file per frame, prefixed with the link-type selector and an options byte
 * of zero.  With --runs, also seeds for fuzz_analyzer: runs of eight
 * consecutive frames, each a selector byte, a 16-bit length and the bytes.
 * usage: mkcorpus [--runs RUNDIR] OUTDIR CAPTURE...
 */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#define RUN_FRAMES 8

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

static FILE *create(const char *dir, const char *name, unsigned n)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s-%05u", dir, name, n);
	FILE *f = fopen(path, "wb");
	if (!f)
		perror(path);
	return f;
}

int main(int argc, char **argv)
{
	const char *runs = NULL;
	if (argc > 2 && !strcmp(argv[1], "--runs")) {
		runs = argv[2];
		argc -= 2;
		argv += 2;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: mkcorpus [--runs RUNDIR] OUTDIR CAPTURE...\n");
		return 1;
	}
	unsigned written = 0, nruns = 0;
	FILE *run = NULL;
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
			FILE *out = create(argv[1], "seed", written);
			if (!out)
				return 2;
			fputc(sel, out);
			fputc(0, out);
			fwrite(d, 1, h->caplen, out);
			fclose(out);
			if (runs && written % RUN_FRAMES == 0) {
				if (run)
					fclose(run);
				if (!(run = create(runs, "run", nruns++)))
					return 2;
			}
			if (run) {
				unsigned len = h->caplen > 0xffff ? 0xffff : h->caplen;
				fputc(sel, run);
				fputc((int)(len >> 8), run);
				fputc((int)(len & 0xff), run);
				fwrite(d, 1, len, run);
			}
			written++;
		}
		pcap_close(p);
	}
	if (run)
		fclose(run);
	printf("mkcorpus: %u seeds, %u runs\n", written, nruns);
	return 0;
}
