/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * decode-bench: how fast libdissect decodes a capture, as ratios against a
 * bare libpcap read loop over the same file measured in the same run.
 *
 *   read      pcap_open_offline + pcap_next_ex over every frame
 *   read+dec  the same loop, decoding every unit of every frame
 *   read+dec-nocrc  the same without computing the ICRC and CRC32c
 *   dec       decoding frames already in memory (CRCs verified)
 *   dec-nocrc decoding frames in memory, ICRC and CRC32c not computed
 *   analyze   frames in memory through the analyzer as rpcrdma-dump -q
 *             --stats runs it (no events, no rebuilt messages)
 *
 * Each is repeated until it has run for --seconds; the best pass counts.
 * usage: decode-bench [--seconds S] [--only read|read+dec|read+dec-nocrc|dec|dec-nocrc|analyze] FILE
 * (--only runs one measure, for profiling it)
 */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rpcrdma/analyzer.h>
#include <rpcrdma/dissect.h>

struct frames {
	uint8_t *arena;
	size_t *off;
	uint32_t *caplen, *wirelen;
	size_t n;
	int link;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static volatile unsigned long sink;

static void load(const char *path, struct frames *fr)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(path, err);
	if (!p) {
		fprintf(stderr, "decode-bench: %s\n", err);
		exit(2);
	}
	size_t cap = 1 << 20, used = 0, nmax = 1 << 16;
	fr->arena = malloc(cap);
	fr->off = malloc(nmax * sizeof(*fr->off));
	fr->caplen = malloc(nmax * sizeof(*fr->caplen));
	fr->wirelen = malloc(nmax * sizeof(*fr->wirelen));
	fr->n = 0;
	fr->link = pcap_datalink(p);
	struct pcap_pkthdr *h;
	const u_char *d;
	while (pcap_next_ex(p, &h, &d) == 1) {
		if (used + h->caplen > cap) {
			cap *= 2;
			fr->arena = realloc(fr->arena, cap);
		}
		if (fr->n == nmax) {
			nmax *= 2;
			fr->off = realloc(fr->off, nmax * sizeof(*fr->off));
			fr->caplen = realloc(fr->caplen, nmax * sizeof(*fr->caplen));
			fr->wirelen = realloc(fr->wirelen, nmax * sizeof(*fr->wirelen));
		}
		if (!fr->arena || !fr->off || !fr->caplen || !fr->wirelen) {
			fprintf(stderr, "decode-bench: out of memory\n");
			exit(2);
		}
		memcpy(fr->arena + used, d, h->caplen);
		fr->off[fr->n] = used;
		fr->caplen[fr->n] = h->caplen;
		fr->wirelen[fr->n] = h->len;
		used += h->caplen;
		fr->n++;
	}
	pcap_close(p);
}

static unsigned long decode_units(const struct rr_config *cfg, int link,
				  const uint8_t *d, uint32_t caplen,
				  uint32_t wirelen)
{
	static struct rr_frame f;
	unsigned long msgs = 0;
	for (bool more = rr_decode_frame(cfg, (uint32_t)link, d, caplen,
					 wirelen, NULL, &f);
	     more; more = rr_decode_next_unit(cfg, &f))
		msgs += rr_has(&f, RR_LAYER_RPCRDMA);
	return msgs;
}

/* One pass over the file; decode when cfg is not NULL. */
static size_t file_pass(const char *path, const struct rr_config *cfg)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(path, err);
	struct pcap_pkthdr *h;
	const u_char *d;
	size_t n = 0;
	unsigned long acc = 0;
	int link = pcap_datalink(p);
	while (pcap_next_ex(p, &h, &d) == 1) {
		n++;
		if (cfg)
			acc += decode_units(cfg, link, d, h->caplen, h->len);
		else
			acc += d[0];
	}
	sink += acc;
	pcap_close(p);
	return n;
}

static size_t memory_pass(const struct frames *fr, const struct rr_config *cfg)
{
	unsigned long acc = 0;
	for (size_t i = 0; i < fr->n; i++)
		acc += decode_units(cfg, fr->link, fr->arena + fr->off[i],
				    fr->caplen[i], fr->wirelen[i]);
	sink += acc;
	return fr->n;
}

/* The frames through a new analyzer configured as rpcrdma-dump -q --stats
 * configures its own. */
static size_t analyze_pass(const struct frames *fr)
{
	struct rr_config cfg;
	rr_config_init(&cfg);
	cfg.flags |= RR_CFG_NO_EVENTS;
	struct rr_analyzer_limits lim;
	rr_analyzer_limits_init(&lim);
	lim.rebuild_slots = 0;
	struct rr_analyzer *a = rr_analyzer_new(&cfg, &lim);
	if (!a) {
		fprintf(stderr, "decode-bench: out of memory\n");
		exit(2);
	}
	unsigned long acc = 0;
	for (size_t i = 0; i < fr->n; i++)
		acc += rr_analyzer_frame(a, (uint32_t)fr->link, i * 1000,
					 fr->arena + fr->off[i], fr->caplen[i],
					 fr->wirelen[i])->units.rpcrdma;
	sink += acc;
	rr_analyzer_free(a);
	return fr->n;
}

enum kind { READ, READ_DECODE, DECODE, DECODE_NOCRC, READ_DECODE_NOCRC, ANALYZE };

static double best_rate(enum kind k, const char *path, const struct frames *fr,
			double seconds)
{
	struct rr_config cfg, nocrc;
	rr_config_init(&cfg);
	rr_config_init(&nocrc);
	nocrc.flags &= ~(uint32_t)(RR_CFG_VERIFY_ICRC | RR_CFG_VERIFY_CRC32C);
	double best = 0, start = now();
	int passes = 0;
	while (passes < 3 || now() - start < seconds) {
		double t0 = now();
		size_t n = k == READ ? file_pass(path, NULL) :
			   k == READ_DECODE ? file_pass(path, &cfg) :
			   k == READ_DECODE_NOCRC ? file_pass(path, &nocrc) :
			   k == DECODE ? memory_pass(fr, &cfg) :
			   k == ANALYZE ? analyze_pass(fr) :
					 memory_pass(fr, &nocrc);
		double rate = (double)n / (now() - t0);
		if (rate > best)
			best = rate;
		passes++;
	}
	return best;
}

int main(int argc, char **argv)
{
	static const char *const kinds[] = { "read", "read+dec", "dec",
					     "dec-nocrc", "read+dec-nocrc", "analyze" };
	double seconds = 3;
	const char *path = NULL, *only = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atof(argv[++i]);
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else
			path = argv[i];
	}
	if (!path || seconds <= 0) {
		fprintf(stderr, "usage: decode-bench [--seconds S] "
				"[--only read|read+dec|read+dec-nocrc|dec|dec-nocrc|analyze] FILE\n");
		return 1;
	}
	struct frames fr;
	load(path, &fr);
	if (only) {
		for (int k = 0; k < 6; k++)
			if (!strcmp(only, kinds[k])) {
				printf("%s: %.0f frames/s\n", only,
				       best_rate((enum kind)k, path, &fr, seconds));
				return 0;
			}
		fprintf(stderr, "decode-bench: unknown measure '%s'\n", only);
		return 1;
	}
	struct rr_config cfg;
	rr_config_init(&cfg);
	unsigned long msgs = 0;
	for (size_t i = 0; i < fr.n; i++)
		msgs += decode_units(&cfg, fr.link, fr.arena + fr.off[i],
				     fr.caplen[i], fr.wirelen[i]);
	double read = best_rate(READ, path, &fr, seconds);
	double read_dec = best_rate(READ_DECODE, path, &fr, seconds);
	double read_dec_nocrc = best_rate(READ_DECODE_NOCRC, path, &fr, seconds);
	double dec = best_rate(DECODE, path, &fr, seconds);
	double dec_nocrc = best_rate(DECODE_NOCRC, path, &fr, seconds);
	double analyze = best_rate(ANALYZE, path, &fr, seconds);
	printf("file: %s (%zu frames, %lu RPC-over-RDMA messages)\n", path,
	       fr.n, msgs);
	printf("%-34s %14s %12s\n", "measure", "frames/s", "ratio");
	printf("%-34s %14.0f %12s\n", "pcap_next_ex loop (read)", read, "1.00");
	printf("%-34s %14.0f %11.2fx time of read\n", "read + decode (CRCs checked)",
	       read_dec, read / read_dec);
	printf("%-34s %14.0f %11.2fx time of read\n",
	       "read + decode (CRCs not computed)", read_dec_nocrc,
	       read / read_dec_nocrc);
	printf("%-34s %14.0f\n", "decode alone, CRCs checked", dec);
	printf("%-34s %14.0f\n", "decode alone, CRCs not computed", dec_nocrc);
	printf("%-34s %14.0f\n", "analyzer (decode included)", analyze);
	printf("ns/frame: decode %.1f, decode without CRC %.1f, analyzer %.1f, "
	       "read %.1f\n", 1e9 / dec, 1e9 / dec_nocrc, 1e9 / analyze, 1e9 / read);
	return 0;
}
