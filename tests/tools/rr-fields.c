/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rr-fields: print each RPC-over-RDMA header libdissect decodes in a
 * capture, one line each, in the layout of
 *   tshark -T fields -E separator='|' -e rpcordma.xid -e rpcordma.version
 *     -e rpcordma.flow_control -e rpcordma.msg_type -e rpcordma.reads_count
 *     -e rpcordma.writes_count -e rpcordma.reply_count -e rpcordma.position
 *     -e rpcordma.segment_count -e rpcordma.rdma_handle
 *     -e rpcordma.rdma_length -e rpcordma.rdma_offset -e rpcordma.rdma_align
 *     -e rpcordma.errcode -e rpcordma.vers_low
 * so that tests/tshark-diff.sh can compare the two line by line.
 */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>

#include <rpcrdma/dissect.h>

static void join_u32(const struct rr_rpcrdma *h, int what)
{
	bool first = true;
	for (unsigned i = 0; i < h->nsegs; i++) {
		const struct rr_rdma_seg *s = &h->segs[i];
		if (what == 0 && s->list != RR_LIST_READ)
			continue;
		printf(first ? "" : ",");
		first = false;
		if (what == 0)
			printf("%" PRIu32, s->position);
		else if (what == 1)
			printf("0x%08" PRIx32, s->handle);
		else if (what == 2)
			printf("%" PRIu32, s->length);
		else
			printf("0x%016" PRIx64, s->offset);
	}
	putchar('|');
}

/* Segment counts of each write chunk, then of the reply chunk. */
static void segment_counts(const struct rr_rpcrdma *h)
{
	bool first = true;
	for (unsigned i = 0; i < h->nsegs;) {
		const struct rr_rdma_seg *s = &h->segs[i];
		if (s->list == RR_LIST_READ) {
			i++;
			continue;
		}
		unsigned j = i;
		while (j < h->nsegs && h->segs[j].list == s->list &&
		       h->segs[j].chunk == s->chunk)
			j++;
		printf("%s%u", first ? "" : ",", j - i);
		first = false;
		i = j;
	}
	putchar('|');
}

static void print(const struct rr_rpcrdma *h)
{
	printf("0x%08" PRIx32 "|%" PRIu32 "|%" PRIu32 "|%" PRIu32 "|", h->xid,
	       h->vers, h->credits, h->proc);
	bool lists = h->body_decoded && h->proc <= RR_RDMA_MSGP;
	if (lists) {
		unsigned nread = 0;
		for (unsigned i = 0; i < h->nsegs; i++)
			nread += h->segs[i].list == RR_LIST_READ;
		printf("%u|%u|%u|", nread, h->nwrite_chunks,
		       h->has_reply_chunk ? 1 : 0);
		join_u32(h, 0);
		segment_counts(h);
		join_u32(h, 1);
		join_u32(h, 2);
		join_u32(h, 3);
	} else {
		printf("||||||||");
	}
	if (h->proc == RR_RDMA_MSGP)
		printf("%" PRIu32, h->align);
	putchar('|');
	if (h->proc == RR_RDMA_ERROR && h->body_decoded)
		printf("%" PRIu32, h->err);
	putchar('|');
	if (h->proc == RR_RDMA_ERROR && h->err == RR_ERR_VERS)
		printf("%" PRIu32, h->vers_low);
	putchar('\n');
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: rr-fields FILE\n");
		return 1;
	}
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(argv[1], err);
	if (!p) {
		fprintf(stderr, "rr-fields: %s\n", err);
		return 2;
	}
	struct rr_config cfg;
	static struct rr_frame f;
	struct pcap_pkthdr *h;
	const u_char *d;
	rr_config_init(&cfg);
	int link = pcap_datalink(p);
	while (pcap_next_ex(p, &h, &d) == 1)
		for (bool more = rr_decode_frame(&cfg, (uint32_t)link, d,
						 h->caplen, h->len, NULL, &f);
		     more; more = rr_decode_next_unit(&cfg, &f))
			if (rr_has(&f, RR_LAYER_RPCRDMA))
				print(&f.rdma);
	pcap_close(p);
	return 0;
}
