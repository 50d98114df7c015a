/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The analyzer's whole output on captures, as one digest a capture, under
 * limits small enough that connections, calls, reassembly slots, TCP
 * streams and rebuild pages are evicted or run out: every event of every
 * report (and of rr_analyzer_finish), the bytes they carry, the statistics
 * and each connection's.  Two builds that print the same lines behave the
 * same where the tools' default limits never reach (scripts/compare-builds.sh).
 * usage: analyzer-digest CAPTURE...
 */
#define _DEFAULT_SOURCE /* libpcap's u_char */
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#include <rpcrdma/analyzer.h>

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/* Each event's fields, the same words for every kind (0 where a kind has
 * none), and the bytes it carries. */
static uint64_t report_digest(uint64_t h, const struct rr_frame_report *r)
{
	for (uint32_t i = 0; i < r->nevents; i++) {
		const struct rr_event *e = &r->events[i];
		uint64_t xid = 0, finding = 0, latency = 0, msg_len = 0, data_len = 0;
		uint64_t resent_of = 0, original = 0, seg_offset = 0, bread = 0, bwrite = 0;
		const char *detail = NULL;
		const uint8_t *data = NULL;
		switch (e->kind) {
		case RR_EV_MESSAGE:
			msg_len = e->msg.msg_len;
			data_len = e->msg.data_len;
			resent_of = e->msg.resent_of;
			data = e->msg.data;
			break;
		case RR_EV_RPC_MESSAGE:
			xid = e->rebuilt.xid;
			msg_len = data_len = e->rebuilt.data_len;
			data = e->rebuilt.data;
			break;
		case RR_EV_RPC_DONE:
			xid = e->done.xid;
			latency = e->done.latency_ns;
			bread = e->done.bytes_read;
			bwrite = e->done.bytes_write;
			break;
		case RR_EV_CHUNK_DATA:
			xid = e->chunk.xid;
			data_len = e->chunk.data_len;
			seg_offset = e->chunk.seg_offset;
			break;
		case RR_EV_RETRANSMISSION:
			original = e->retransmission.original_frame;
			break;
		case RR_EV_FINDING:
			finding = e->finding.id;
			detail = e->finding.detail;
			break;
		default:
			break;
		}
		uint64_t v[] = { r->frame, e->kind, e->conn, e->conn_id, xid, finding,
				 e->dir, latency, msg_len, data_len, resent_of, original,
				 seg_offset, bread, bwrite };
		h = fnv(h, v, sizeof(v));
		if (detail)
			h = fnv(h, detail, strlen(detail));
		if (data)
			h = fnv(h, data, (size_t)data_len);
	}
	return h;
}

/* Limits from tight to tighter: one connection and two calls, two
 * connections with rebuilding on few pages, three with rebuilding off. */
static void limits(struct rr_analyzer_limits *lim, int set)
{
	rr_analyzer_limits_init(lim);
	lim->max_connections = (uint32_t)set + 1;
	lim->max_calls = set == 0 ? 2 : set == 1 ? 5 : 16;
	lim->tcp_streams = set ? 1 : 2;
	lim->reassembly_slots = 2;
	lim->rebuild_slots = set == 2 ? 0 : 2;
	lim->rebuild_bytes = 64u << 10;
	lim->max_rebuild = 32u << 10;
	lim->report_bytes = 1u << 16;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: analyzer-digest CAPTURE...\n");
		return 2;
	}
	for (int set = 0; set < 3; set++)
		for (int i = 1; i < argc; i++) {
			char err[PCAP_ERRBUF_SIZE];
			pcap_t *p = pcap_open_offline(argv[i], err);
			if (!p) {
				fprintf(stderr, "analyzer-digest: %s\n", err);
				return 1;
			}
			struct rr_config cfg;
			rr_config_init(&cfg);
			cfg.flags |= RR_CFG_CHUNK_EVENTS;
			struct rr_analyzer_limits lim;
			limits(&lim, set);
			struct rr_analyzer *a = rr_analyzer_new(&cfg, &lim);
			if (!a) {
				fprintf(stderr, "analyzer-digest: no memory\n");
				return 1;
			}
			uint32_t link = (uint32_t)pcap_datalink(p);
			struct pcap_pkthdr *h;
			const u_char *d;
			uint64_t dg = 1469598103934665603ull;
			while (pcap_next_ex(p, &h, &d) == 1)
				dg = report_digest(dg, rr_analyzer_frame(a, link,
					(uint64_t)h->ts.tv_sec * 1000000000u +
						(uint64_t)h->ts.tv_usec * 1000u,
					d, h->caplen, h->len));
			const struct rr_frame_report *r;
			while ((r = rr_analyzer_finish(a)))
				dg = report_digest(dg, r);
			const struct rr_stats *st = rr_analyzer_stats(a);
			dg = fnv(dg, st, sizeof(*st));
			for (uint32_t c = 0; c < rr_analyzer_conn_count(a); c++) {
				const struct rr_conn_info *ci = rr_analyzer_conn(a, c);
				if (ci)
					dg = fnv(dg, ci, sizeof(*ci));
			}
			printf("limits %d %s: evicted %llu connections, %llu calls; %016llx\n",
			       set, argv[i], (unsigned long long)st->connections_evicted,
			       (unsigned long long)st->calls_evicted,
			       (unsigned long long)dg);
			rr_analyzer_free(a);
			pcap_close(p);
		}
	return 0;
}
