/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Decodes every capture in a folder and fails if libdissect takes any frame
 * of these other upper layers (NVMe-oF, NCCL, perftest, rping) for
 * RPC-over-RDMA.  With --icrc-all-good it also requires every ICRC and
 * CRC32c present in the captures to verify.  Under ASan and UBSan the same
 * run shows that real traffic decodes without a memory error.
 *
 * usage: test-captures [--icrc-all-good] DIR
 *        test-captures --from-env VAR      (skips when VAR is unset)
 */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char; DT_REG */
#include <dirent.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rpcrdma/analyzer.h>
#include <rpcrdma/dissect.h>

#define SKIP 77

struct counts {
	unsigned long frames, rdma_frames, rpcrdma, cm, icrc_good, icrc_bad,
		crc_good, crc_bad, truncated, malformed, analyzer_messages;
};

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int decode_file(const char *path, struct counts *c)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(path, err);
	if (!p) {
		printf("not ok - %s: %s\n", path, err);
		return -1;
	}
	struct rr_config cfg;
	static struct rr_frame f;
	struct pcap_pkthdr *h;
	const u_char *d;
	int link = pcap_datalink(p), rc;
	rr_config_init(&cfg);
	/* the stateful analyzer must not find RPC-over-RDMA either */
	struct rr_analyzer *a = rr_analyzer_new(&cfg, NULL);
	if (!a) {
		pcap_close(p);
		return -1;
	}
	while ((rc = pcap_next_ex(p, &h, &d)) == 1) {
		c->frames++;
		const struct rr_frame_report *r =
			rr_analyzer_frame(a, (uint32_t)link, 0, d, h->caplen, h->len);
		for (uint32_t e = 0; e < r->nevents; e++)
			c->analyzer_messages += r->events[e].kind == RR_EV_MESSAGE;
		for (bool more = rr_decode_frame(&cfg, (uint32_t)link, d,
						 h->caplen, h->len, NULL, &f);
		     more; more = rr_decode_next_unit(&cfg, &f)) {
			c->rdma_frames += f.transport != RR_TRANSPORT_NONE;
			c->rpcrdma += rr_has(&f, RR_LAYER_RPCRDMA);
			c->cm += rr_has(&f, RR_LAYER_CM);
			c->icrc_good += f.icrc.state == RR_CRC_GOOD;
			c->icrc_bad += f.icrc.state == RR_CRC_BAD;
			if (rr_has(&f, RR_LAYER_DDP)) {
				c->crc_good += f.fpdu.crc_state == RR_CRC_GOOD;
				c->crc_bad += f.fpdu.crc_state == RR_CRC_BAD;
			}
			c->truncated += f.status == RR_TRUNCATED;
			c->malformed += f.status == RR_MALFORMED;
		}
	}
	if (rc == PCAP_ERROR)
		printf("# %s: %s\n", path, pcap_geterr(p));
	while (rr_analyzer_finish(a))
		;
	rr_analyzer_free(a);
	pcap_close(p);
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	bool icrc_all_good = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--icrc-all-good")) {
			icrc_all_good = true;
		} else if (!strcmp(argv[i], "--from-env") && i + 1 < argc) {
			dir = getenv(argv[++i]);
			if (!dir || !*dir) {
				printf("SKIP: %s is not set: no capture folder "
				       "to read\n", argv[i]);
				return SKIP;
			}
		} else {
			dir = argv[i];
		}
	}
	if (!dir) {
		fprintf(stderr, "usage: test-captures [--icrc-all-good] DIR | "
				"--from-env VAR\n");
		return 2;
	}
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name);
	if (n < 0) {
		perror(dir);
		return 2;
	}
	unsigned passed = 0, failed = 0;
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name);
		if (len < 5 || strcmp(name + len - 5, ".pcap") != 0) {
			free(names[i]);
			continue;
		}
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		struct counts c = { 0 };
		bool ok = decode_file(path, &c) == 0 && c.rpcrdma == 0 &&
			  c.analyzer_messages == 0 && c.rdma_frames > 0;
		if (icrc_all_good)
			ok = ok && c.icrc_bad == 0 && c.icrc_good > 0 &&
			     c.crc_bad == 0;
		printf("%s - %s: %lu frames, %lu RDMA, %lu+%lu RPC-over-RDMA, "
		       "%lu CM; ICRC %lu good %lu bad; CRC32c %lu good %lu "
		       "bad; %lu truncated, %lu malformed\n",
		       ok ? "ok" : "not ok", name, c.frames, c.rdma_frames,
		       c.rpcrdma, c.analyzer_messages, c.cm, c.icrc_good, c.icrc_bad, c.crc_good,
		       c.crc_bad, c.truncated, c.malformed);
		ok ? passed++ : failed++;
		free(names[i]);
	}
	free(names);
	printf("%u passed, %u failed\n", passed, failed);
	return failed || !passed ? 1 : 0;
}
