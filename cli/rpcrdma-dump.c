/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-dump: print the RPC-over-RDMA traffic in a capture, one line per
 * message, the way tcpdump prints packets.  All decoding is libdissect's;
 * this file only formats what rr_decode_frame() returns.
 */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#include <arpa/inet.h>
#include <getopt.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rpcrdma/dissect.h>

enum { EXIT_USAGE = 1, EXIT_INPUT = 2 };

struct opts {
	const char *file;
	long count;
	int verbose;
	bool all_frames;
	bool no_crc;
};

struct totals {
	unsigned long frames, units, rpcrdma, cm, mpa, truncated, malformed;
	unsigned long icrc_good, icrc_bad, crc32c_good, crc32c_bad;
};

static void usage(FILE *to)
{
	fprintf(to,
		"usage: rpcrdma-dump -r FILE [-c COUNT] [-v[v]] [-a] [-K]\n"
		"  -r FILE   read packets from FILE (pcap or pcapng)\n"
		"  -c COUNT  stop after COUNT frames\n"
		"  -v        also print chunk segments; -vv every header\n"
		"  -a        print a line for every frame, not only RPC-over-RDMA\n"
		"  -K        do not verify the ICRC and MPA CRC32c\n"
		"  -h        show this help\n");
}

static void print_time(const struct pcap_pkthdr *h)
{
	time_t t = h->ts.tv_sec;
	struct tm tm;
	gmtime_r(&t, &tm);
	printf("%02d:%02d:%02d.%06ld ", tm.tm_hour, tm.tm_min, tm.tm_sec,
	       (long)h->ts.tv_usec);
}

static void print_addr(const uint8_t *p, uint32_t len)
{
	char s[INET6_ADDRSTRLEN];
	inet_ntop(len == 4 ? AF_INET : AF_INET6, p, s, sizeof(s));
	fputs(s, stdout);
}

static void print_endpoints(const struct rr_frame *f)
{
	if (rr_has(f, RR_LAYER_IPV4) || rr_has(f, RR_LAYER_IPV6)) {
		print_addr(f->data + f->ip.src_off, f->ip.addr_len);
		if (rr_has(f, RR_LAYER_TCP))
			printf(".%u", f->tcp.sport);
		fputs(" > ", stdout);
		print_addr(f->data + f->ip.dst_off, f->ip.addr_len);
		if (rr_has(f, RR_LAYER_TCP))
			printf(".%u", f->tcp.dport);
	} else if (rr_has(f, RR_LAYER_GRH)) {
		print_addr(f->data + f->grh.sgid_off, 16);
		fputs(" > ", stdout);
		print_addr(f->data + f->grh.dgid_off, 16);
	} else if (rr_has(f, RR_LAYER_LRH)) {
		printf("lid %u > lid %u", f->lrh.slid, f->lrh.dlid);
	} else {
		fputs("?", stdout);
	}
	printf(" %s", rr_transport_str(f->transport));
}

static void print_private(const struct rr_cm_private *p)
{
	if (p->status != RR_COMPLETE) {
		printf(" rpcrdma-private %s (version %u)",
		       rr_status_str(p->status), p->version);
		return;
	}
	printf(" rpcrdma-private v%u R=%u send %u recv %u", p->version,
	       p->rinval, p->send_size, p->recv_size);
}

static void print_cm(const struct rr_frame *f)
{
	const struct rr_cm *m = &f->cm;
	const char *name = rr_cm_attr_str(m->attr_id);
	printf(" CM %s", name ? name : "?");
	printf(" comm 0x%08" PRIx32, m->local_comm_id);
	if (m->attr_id != RR_CM_REQ)
		printf("/0x%08" PRIx32, m->remote_comm_id);
	if (m->attr_id == RR_CM_REQ || m->attr_id == RR_CM_REP)
		printf(" qpn 0x%06" PRIx32 " psn %" PRIu32, m->local_qpn,
		       m->starting_psn);
	if (m->attr_id == RR_CM_REQ)
		printf(" service 0x%016" PRIx64, m->service_id);
	if (m->attr_id == RR_CM_REJ)
		printf(" reason %u", m->reject_reason);
	if (rr_has(f, RR_LAYER_RDMA_CM)) {
		printf(" rdma-cm ");
		print_addr(f->data + f->rdma_cm.src_addr_off, f->rdma_cm.addr_len);
		printf(".%u > ", f->rdma_cm.src_port);
		print_addr(f->data + f->rdma_cm.dst_addr_off, f->rdma_cm.addr_len);
		printf(".%u", f->rdma_cm.dst_port);
	}
	if (rr_has(f, RR_LAYER_CM_PRIVATE))
		print_private(&f->cm_private);
}

static void print_mpa(const struct rr_frame *f)
{
	const struct rr_mpa *m = &f->mpa;
	printf(" MPA %s rev %u%s%s%s", m->reply ? "Rep" : "Req", m->revision,
	       m->crc ? " CRC" : "", m->marker ? " markers" : "",
	       m->reject ? " reject" : "");
	if (m->has_ird_ord)
		printf(" ird %u ord %u", m->ird, m->ord);
	if (rr_has(f, RR_LAYER_CM_PRIVATE))
		print_private(&f->cm_private);
}

static void print_segments(const struct rr_rpcrdma *h)
{
	for (unsigned i = 0; i < h->nsegs; i++) {
		const struct rr_rdma_seg *s = &h->segs[i];
		printf("\n\t%s chunk %u", rr_chunk_list_str(s->list), s->chunk);
		if (s->list == RR_LIST_READ)
			printf(" position %" PRIu32, s->position);
		printf(" handle 0x%08" PRIx32 " length %" PRIu32
		       " offset 0x%016" PRIx64, s->handle, s->length, s->offset);
	}
}

static void print_rpc(const struct rr_frame *f)
{
	const struct rr_rpc *r = &f->rpc;
	if (r->msg_type == RR_RPC_CALL) {
		const char *prog = rr_rpc_program_str(r->prog);
		const char *proc = rr_rpc_proc_str(r->prog, r->vers, r->proc);
		if (prog)
			printf(" CALL %s v%" PRIu32, prog, r->vers);
		else
			printf(" CALL prog %" PRIu32 " v%" PRIu32, r->prog, r->vers);
		if (proc)
			printf(" %s", proc);
		else
			printf(" proc %" PRIu32, r->proc);
		if (r->xid != f->rdma.xid)
			printf(" rpc-xid 0x%08" PRIx32, r->xid);
	} else {
		printf(" REPLY %s", rr_rpc_reply_stat_str(r->reply_stat));
		if (r->reply_stat == RR_RPC_MSG_ACCEPTED)
			printf(" %s", rr_rpc_accept_stat_str(r->accept_stat) ?
					      rr_rpc_accept_stat_str(r->accept_stat) :
					      "?");
		if (r->xid != f->rdma.xid)
			printf(" rpc-xid 0x%08" PRIx32, r->xid);
	}
}

static void print_rpcrdma(const struct rr_frame *f)
{
	const struct rr_rpcrdma *h = &f->rdma;
	const char *proc = rr_rdma_proc_str(h->proc);
	printf(" %s xid 0x%08" PRIx32, proc ? proc : "?", h->xid);
	if (h->vers != 1)
		printf(" vers %" PRIu32, h->vers);
	printf(" credits %" PRIu32, h->credits);
	if (h->proc == RR_RDMA_ERROR && h->body_decoded) {
		printf(" %s", rr_rdma_err_str(h->err));
		if (h->err == RR_ERR_VERS)
			printf(" %" PRIu32 "-%" PRIu32, h->vers_low, h->vers_high);
	}
	if (h->proc == RR_RDMA_MSGP)
		printf(" align %" PRIu32 " thresh %" PRIu32, h->align, h->thresh);
	if (h->proc <= RR_RDMA_MSGP && h->body_decoded) {
		unsigned nreply = 0;
		for (unsigned i = 0; i < h->nsegs; i++)
			nreply += h->segs[i].list == RR_LIST_REPLY;
		printf(" [read %u%s write %u reply %s%.0u]", h->nread_chunks,
		       h->pzrc ? " pz" : "", h->nwrite_chunks,
		       h->has_reply_chunk ? "" : "-", h->has_reply_chunk ? nreply : 0);
	}
	if (rr_has(f, RR_LAYER_RPC) && f->note[RR_LAYER_RPC].status == RR_COMPLETE)
		print_rpc(f);
}

static void print_transport(const struct rr_frame *f)
{
	if (rr_has(f, RR_LAYER_BTH)) {
		const char *op = rr_bth_opcode_str(f->bth.opcode);
		if (op)
			printf(" %s", op);
		else
			printf(" opcode 0x%02x", f->bth.opcode);
		printf(" qp 0x%06" PRIx32 " psn %" PRIu32, f->bth.dqpn, f->bth.psn);
	}
	if (rr_has(f, RR_LAYER_DDP)) {
		const struct rr_ddp *d = &f->ddp;
		printf(" %s%s", rr_rdmap_opcode_str(d->opcode) ?
				      rr_rdmap_opcode_str(d->opcode) : "?",
		       d->last ? "" : " (not last)");
		if (d->tagged)
			printf(" stag 0x%08" PRIx32 " to 0x%" PRIx64, d->stag, d->to);
		else
			printf(" qn %" PRIu32 " msn %" PRIu32 " mo %" PRIu32, d->qn,
			       d->msn, d->mo);
	}
}

/* Problems in tcpdump's manner: " [|layer: field]" for a cut capture. */
static void print_problems(const struct rr_frame *f)
{
	for (unsigned l = 0; l < RR_LAYER_COUNT; l++) {
		if (!rr_has(f, (enum rr_layer)l))
			continue;
		const struct rr_note *n = &f->note[l];
		if (n->status == RR_TRUNCATED)
			printf(" [|%s: %s]", rr_layer_str(l),
			       n->field ? n->field : "?");
		else if (n->status == RR_MALFORMED)
			printf(" (malformed %s: %s%s%s at %" PRIu32 ")",
			       rr_layer_str(l), rr_problem_str(n->problem),
			       n->field ? ", " : "", n->field ? n->field : "",
			       n->off);
		else if (n->problem == RR_PROBLEM_BAD_VERSION ||
			 n->problem == RR_PROBLEM_TRAILING_BYTES)
			printf(" (%s: %s)", rr_layer_str(l),
			       rr_problem_str(n->problem));
	}
}

static void tally(const struct rr_frame *f, struct totals *t)
{
	t->units++;
	if (f->status == RR_TRUNCATED)
		t->truncated++;
	else if (f->status == RR_MALFORMED)
		t->malformed++;
	if (rr_has(f, RR_LAYER_ICRC)) {
		t->icrc_good += f->icrc.state == RR_CRC_GOOD;
		t->icrc_bad += f->icrc.state == RR_CRC_BAD;
	}
	if (rr_has(f, RR_LAYER_DDP)) {
		t->crc32c_good += f->fpdu.crc_state == RR_CRC_GOOD;
		t->crc32c_bad += f->fpdu.crc_state == RR_CRC_BAD;
	}
	t->rpcrdma += rr_has(f, RR_LAYER_RPCRDMA);
	t->cm += rr_has(f, RR_LAYER_CM);
	t->mpa += rr_has(f, RR_LAYER_MPA);
}

static void print_unit(const struct pcap_pkthdr *h, const struct rr_frame *f,
		       const struct opts *o)
{
	bool interesting = rr_has(f, RR_LAYER_RPCRDMA) || rr_has(f, RR_LAYER_CM) ||
			   rr_has(f, RR_LAYER_MPA);
	if (!interesting && !o->all_frames)
		return;
	print_time(h);
	print_endpoints(f);
	if (o->all_frames || o->verbose > 1)
		print_transport(f);
	if (rr_has(f, RR_LAYER_CM))
		print_cm(f);
	if (rr_has(f, RR_LAYER_MPA))
		print_mpa(f);
	if (rr_has(f, RR_LAYER_RPCRDMA))
		print_rpcrdma(f);
	if (o->verbose > 1 && rr_has(f, RR_LAYER_ICRC))
		printf(" icrc %s", rr_crc_state_str(f->icrc.state));
	if (o->verbose > 1 && rr_has(f, RR_LAYER_DDP))
		printf(" crc32c %s", rr_crc_state_str(f->fpdu.crc_state));
	print_problems(f);
	/* segments go on continuation lines, as tcpdump's -v details do */
	if (o->verbose && rr_has(f, RR_LAYER_RPCRDMA))
		print_segments(&f->rdma);
	putchar('\n');
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	memset(o, 0, sizeof(*o));
	o->count = -1;
	while ((c = getopt_long(argc, argv, "r:c:vaKh", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			o->file = optarg;
			break;
		case 'c': {
			char *end;
			o->count = strtol(optarg, &end, 10);
			if (*end || o->count <= 0) {
				fprintf(stderr, "rpcrdma-dump: invalid count '%s'\n",
					optarg);
				return -1;
			}
			break;
		}
		case 'v':
			o->verbose++;
			break;
		case 'a':
			o->all_frames = true;
			break;
		case 'K':
			o->no_crc = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rpcrdma-dump: unexpected argument '%s'\n",
			argv[optind]);
		return -1;
	}
	if (!o->file) {
		fprintf(stderr, "rpcrdma-dump: no input: give -r FILE\n");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	if (parse_args(argc, argv, &o) < 0) {
		usage(stderr);
		return EXIT_USAGE;
	}
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(o.file, errbuf);
	if (!p) {
		fprintf(stderr, "rpcrdma-dump: %s\n", errbuf);
		return EXIT_INPUT;
	}
	int link = pcap_datalink(p);
	if (!rr_link_str((unsigned)link)) {
		fprintf(stderr, "rpcrdma-dump: %s: link-layer type %d (%s) "
				"carries no RDMA traffic this tool decodes\n",
			o.file, link, pcap_datalink_val_to_name(link) ?
					      pcap_datalink_val_to_name(link) : "?");
		pcap_close(p);
		return EXIT_INPUT;
	}
	struct rr_config cfg;
	rr_config_init(&cfg);
	if (o.no_crc)
		cfg.flags &= ~(uint32_t)(RR_CFG_VERIFY_ICRC | RR_CFG_VERIFY_CRC32C);

	static struct rr_frame f;
	struct totals t = { 0 };
	struct pcap_pkthdr *h;
	const u_char *data;
	int rc, status = 0;
	while ((o.count < 0 || (long)t.frames < o.count) &&
	       (rc = pcap_next_ex(p, &h, &data)) == 1) {
		t.frames++;
		for (bool more = rr_decode_frame(&cfg, (uint32_t)link, data,
						 h->caplen, h->len, NULL, &f);
		     more; more = rr_decode_next_unit(&cfg, &f)) {
			tally(&f, &t);
			print_unit(h, &f, &o);
		}
	}
	if (rc == PCAP_ERROR) {
		fprintf(stderr, "rpcrdma-dump: %s: %s (after %lu frames)\n",
			o.file, pcap_geterr(p), t.frames);
		status = EXIT_INPUT;
	}
	fflush(stdout);
	fprintf(stderr,
		"%lu frames, %lu RPC-over-RDMA messages, %lu CM, %lu MPA; "
		"%lu truncated, %lu malformed; ICRC %lu good %lu bad; "
		"CRC32c %lu good %lu bad\n",
		t.frames, t.rpcrdma, t.cm, t.mpa, t.truncated, t.malformed,
		t.icrc_good, t.icrc_bad, t.crc32c_good, t.crc32c_bad);
	pcap_close(p);
	return status;
}
