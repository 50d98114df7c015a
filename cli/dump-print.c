/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-dump's output: a line per message as tcpdump prints packets (its
 * chunk segments below with -v), rebuilt RPC messages, chunk data (-a),
 * connection setup, findings, or the same as JSON Lines (-j).  Every value
 * is what libdissect returned; nothing is decoded here.
 */
#include "dump.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Every output line starts here. */
static void print_time(struct dump_lines *l)
{
	l->printed++;
	if (l->numbered)
		printf("%5llu  ", (unsigned long long)l->frame_no);
	rr_ts_print(&l->ts, l->frame_ts_ns, stdout);
}

static void print_addr(const uint8_t *p, uint32_t len)
{
	char s[INET6_ADDRSTRLEN];
	inet_ntop(len == 4 ? AF_INET : AF_INET6, p, s, sizeof(s));
	fputs(s, stdout);
}

static void print_mac(const uint8_t *m)
{
	printf("%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
}

static void print_addresses(const struct rr_frame *f)
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
	} else if (rr_has(f, RR_LAYER_ETH) && f->caplen >= f->l2.off + 12) {
		print_mac(f->data + f->l2.off + 6);
		fputs(" > ", stdout);
		print_mac(f->data + f->l2.off);
	} else {
		fputs("?", stdout);
	}
}

/* TCP flags in tcpdump's letters: S F R P, "." for ACK. */
static void print_tcp_flags(uint8_t flags)
{
	static const struct { uint8_t bit; char c; } letters[] = {
		{ RR_TCP_SYN, 'S' }, { RR_TCP_FIN, 'F' }, { RR_TCP_RST, 'R' },
		{ RR_TCP_PSH, 'P' }, { RR_TCP_ACK, '.' },
	};
	putchar('[');
	for (unsigned i = 0; i < sizeof(letters) / sizeof(letters[0]); i++)
		if (flags & letters[i].bit)
			putchar(letters[i].c);
	putchar(']');
}

/* A frame that is no RDMA (-a) by the innermost protocol decoded. */
static void print_other_protocol(const struct rr_frame *f)
{
	if (rr_has(f, RR_LAYER_TCP)) {
		printf(" TCP ");
		print_tcp_flags(f->tcp.flags);
		printf(" length %" PRIu32, f->tcp.payload.len);
	} else if (rr_has(f, RR_LAYER_UDP)) {
		printf(" UDP %u > %u length %u", f->udp.sport, f->udp.dport,
		       f->udp.length);
	} else if (rr_has(f, RR_LAYER_IPV4) || rr_has(f, RR_LAYER_IPV6)) {
		const char *p = rr_ip_proto_str(f->ip.proto);
		if (f->ip.fragment)
			printf(" IPv%u fragment", f->ip.version);
		else if (p)
			printf(" %s", p);
		else
			printf(" IPv%u protocol %u", f->ip.version, f->ip.proto);
	} else if (rr_has(f, RR_LAYER_ETH) || rr_has(f, RR_LAYER_SLL)) {
		const char *e = rr_ethertype_str(f->l2.ethertype);
		if (e)
			printf(" %s", e);
		else
			printf(" ethertype 0x%04x", f->l2.ethertype);
	} else {
		const char *l = rr_link_str(f->link);
		printf(" %s", l ? l : "unknown link type");
	}
}

static void print_endpoints(const struct rr_frame *f)
{
	print_addresses(f);
	if (f->transport == RR_TRANSPORT_NONE)
		print_other_protocol(f);
	else
		printf(" %s", rr_transport_str(f->transport));
}

void dump_print_headers(const struct rr_frame *f)
{
	if (!f)
		return;
	if (rr_has(f, RR_LAYER_ETH) && f->caplen >= f->l2.off + 12) {
		const uint8_t *m = f->data + f->l2.off;
		fputs("\tEthernet ", stdout);
		print_mac(m + 6);
		fputs(" > ", stdout);
		print_mac(m);
		for (unsigned i = 0; i < f->l2.nvlan && i < RR_MAX_VLAN; i++)
			printf(" vlan %u pcp %u", f->l2.vlan_tci[i] & 0xfffu,
			       f->l2.vlan_tci[i] >> 13);
		printf(" type 0x%04x\n", f->l2.ethertype);
	} else if (rr_has(f, RR_LAYER_SLL)) {
		printf("\tLinux cooked packet type %u type 0x%04x\n",
		       f->l2.sll_pkttype, f->l2.ethertype);
	}
	if (rr_has(f, RR_LAYER_LRH))
		printf("\tIB LRH vl %u sl %u lnh %u lid %u > lid %u length %u\n",
		       f->lrh.vl, f->lrh.sl, f->lrh.lnh, f->lrh.slid, f->lrh.dlid,
		       f->lrh.pktlen * 4u);
	if (rr_has(f, RR_LAYER_GRH))
		printf("\tIB GRH class 0x%02x flow 0x%05" PRIx32 " hop limit %u "
		       "length %u\n", f->grh.tclass, f->grh.flow, f->grh.hoplmt,
		       f->grh.paylen);
	if (rr_has(f, RR_LAYER_IPV4))
		printf("\tIPv4 tos 0x%02x ttl %u protocol %u length %" PRIu32 "%s\n",
		       f->ip.tclass, f->ip.ttl, f->ip.proto, f->ip.total_len,
		       f->ip.fragment ? " fragment" : "");
	else if (rr_has(f, RR_LAYER_IPV6))
		printf("\tIPv6 class 0x%02x flow 0x%05" PRIx32 " hop limit %u "
		       "next header %u length %" PRIu32 "\n", f->ip.tclass,
		       f->ip.flow, f->ip.ttl, f->ip.proto, f->ip.total_len);
	if (rr_has(f, RR_LAYER_UDP))
		printf("\tUDP %u > %u length %u checksum 0x%04x\n", f->udp.sport,
		       f->udp.dport, f->udp.length, f->udp.checksum);
	if (rr_has(f, RR_LAYER_TCP)) {
		printf("\tTCP %u > %u seq %" PRIu32 " ack %" PRIu32 " flags ",
		       f->tcp.sport, f->tcp.dport, f->tcp.seq, f->tcp.ack);
		print_tcp_flags(f->tcp.flags);
		printf(" window %u length %" PRIu32 "\n", f->tcp.window,
		       f->tcp.payload.len);
	}
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
	if (!m->fixed_read) {
		/* cut before its fields: its private data is not there either */
		fputs(" (cut before its fields)", stdout);
		return;
	}
	printf(" comm 0x%08" PRIx32, m->local_comm_id);
	if (m->attr_id != RR_CM_REQ)
		printf("/0x%08" PRIx32, m->remote_comm_id);
	if (m->attr_id == RR_CM_REQ || m->attr_id == RR_CM_REP)
		printf(" qpn 0x%06" PRIx32 " psn %" PRIu32, m->local_qpn,
		       m->starting_psn);
	if (m->attr_id == RR_CM_REQ)
		printf(" service 0x%016" PRIx64, m->service_id);
	if (m->attr_id == RR_CM_REJ) {
		const char *why = rr_cm_rej_reason_str(m->reject_reason);
		printf(" reason %u", m->reject_reason);
		if (why)
			printf(" (%s)", why);
	}
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

/* An NFSv4 COMPOUND's or CB_COMPOUND's operations (RFC 8881 §16.2,
 * §19.2), as tshark lists them; those its decode could not follow counted
 * at the end. */
static void print_nfs4_ops(const struct rr_nfs4_compound *ops)
{
	for (uint32_t i = 0; i < ops->named; i++) {
		const char *name = rr_nfs4_compound_op_str(ops, i);
		if (name)
			printf(" %s", name);
		else
			printf(" op%u", (unsigned)ops->op[i]);
	}
	if (ops->named < ops->numops)
		printf(" +%" PRIu32 " more", ops->numops - ops->named);
}

/* " NFS v3 READ", " prog 400123 v1 proc 7": named where known; an NFSv4
 * COMPOUND's operations after it (ops). */
static void print_procedure(uint32_t prog, uint32_t vers, uint32_t proc,
			    const struct rr_nfs4_compound *ops)
{
	const char *prog_name = rr_rpc_program_str(prog);
	const char *proc_name = rr_rpc_proc_str(prog, vers, proc);
	if (prog_name)
		printf(" %s v%" PRIu32, prog_name, vers);
	else
		printf(" prog %" PRIu32 " v%" PRIu32, prog, vers);
	if (proc_name)
		printf(" %s", proc_name);
	else
		printf(" proc %" PRIu32, proc);
	if (ops)
		print_nfs4_ops(ops);
}

/* An RPCSEC_GSS credential (RFC 2203 §5): a data call's service, which
 * says whether its body is plain, checksummed (integrity) or encrypted
 * (privacy), or the context's control procedure; and the sequence
 * number. */
static void print_gss(const struct rr_rpc *r)
{
	const char *service = rr_gss_service_str(r->gss_service);
	const char *proc = rr_gss_proc_str(r->gss_proc);
	if (r->gss_proc == RR_GSS_DATA && service)
		printf(" RPCSEC_GSS %s", service);
	else if (r->gss_proc == RR_GSS_DATA)
		printf(" RPCSEC_GSS service %" PRIu32, r->gss_service);
	else if (proc)
		printf(" %s", proc);
	else
		printf(" RPCSEC_GSS proc %" PRIu32, r->gss_proc);
	printf(" seq %" PRIu32, r->gss_seq);
}

/* An RPC header; a call's NFSv4 operations when it is a COMPOUND (ops). */
static void print_rpc(const struct rr_rpc *r, uint32_t rdma_xid, uint8_t dir,
		      const struct rr_nfs4_compound *ops)
{
	if (dir == RR_DIR_BWD_CALL || dir == RR_DIR_BWD_REPLY)
		fputs(" backward", stdout);
	if (r->msg_type == RR_RPC_CALL) {
		fputs(" CALL", stdout);
		if (r->named)
			print_procedure(r->prog, r->vers, r->proc, ops);
		else
			fputs(" procedure cut", stdout);
		if (r->gss)
			print_gss(r);
	} else {
		printf(" REPLY %s", rr_rpc_reply_stat_str(r->reply_stat) ?
					    rr_rpc_reply_stat_str(r->reply_stat) : "?");
		if (r->reply_stat == RR_RPC_MSG_ACCEPTED)
			printf(" %s", rr_rpc_accept_stat_str(r->accept_stat) ?
					      rr_rpc_accept_stat_str(r->accept_stat) :
					      "?");
	}
	if (r->xid != rdma_xid)
		printf(" rpc-xid 0x%08" PRIx32, r->xid);
}

/* A failed NFS reply's status, as tshark's Info column gives it: with the
 * procedure, or for an NFSv4 COMPOUND the operation that failed (the last
 * result, RFC 8881 §16.2.3) and its place among the call's. */
static void print_nfs_status_name(const struct rr_ev_rpc_done *d)
{
	const char *status = rr_nfs_status_str(d->prog, d->vers, d->nfs.status);
	if (status)
		printf(" %s", status);
	else
		printf(" status %" PRIu32, d->nfs.status);
	uint32_t i = d->nfs.numres;
	if (!d->nfs4 || !i || !d->nfs.status)
		return;
	const char *op = rr_nfs4_compound_op_str(d->nfs4, i - 1);
	if (op)
		printf(" in %s", op);
	printf(" (op %" PRIu32 " of %" PRIu32 ")", i, d->nfs4->numops);
}

static void print_nfs_status(const struct rr_ev_rpc_done *d)
{
	if (!d->nfs_known || d->nfs.status == 0)
		return;
	const char *proc = rr_rpc_proc_str(d->prog, d->vers, d->proc);
	if (!d->nfs4 && proc)
		printf(" %s", proc);
	print_nfs_status_name(d);
}

/* An answered call as --slow lists it, as nfsslower does: caller and
 * callee, procedure (an NFSv4 COMPOUND's operations), file handle as
 * Wireshark's nfs.fh.hash, READ/WRITE/COMMIT range, latency, status. */
static void print_slow_call(struct dump_lines *l, const struct rr_event *ev)
{
	const struct rr_ev_rpc_done *d = &ev->done;
	bool backward = ev->dir == RR_DIR_BWD_REPLY;
	char caller[64], callee[64];
	print_time(l);
	if (ev->connection)
		printf("%s > %s", rr_conn_addr_str(ev->connection, backward, caller, sizeof(caller)),
		       rr_conn_addr_str(ev->connection, !backward, callee, sizeof(callee)));
	else
		fputs("?", stdout);
	printf(" conn %" PRIu32 "%s", ev->conn_id, backward ? " backward" : "");
	if (d->rpc_known)
		print_procedure(d->prog, d->vers, d->proc, d->nfs4);
	else
		fputs(" procedure unknown", stdout); /* its call header not captured */
	printf(" xid 0x%08" PRIx32, d->xid);
	if (d->target.fh_known)
		printf(" fh 0x%08" PRIx32, d->target.fh_hash);
	if (d->target.range_known)
		printf(" offset %" PRIu64 " count %" PRIu32, d->target.offset,
		       d->target.count);
	unsigned long long us = (unsigned long long)(d->latency_ns / 1000u);
	printf(" latency %llu.%03llu ms", us / 1000u, us % 1000u);
	if (d->nfs_known)
		print_nfs_status_name(d);
	else if (d->reply_status != RR_REPLY_ACCEPTED && d->reply_status != RR_REPLY_UNSEEN)
		printf(" %s", rr_reply_status_str(d->reply_status)); /* GARBAGE_ARGS ... */
	putchar('\n');
}

static bool is_slow(const struct opts *o, const struct rr_event *ev)
{
	return o->slow && ev->kind == RR_EV_RPC_DONE && ev->done.latency_ns >= o->slow_ns;
}

static void print_rebuilt(const struct rr_ev_rpc_message *r)
{
	printf(" (rebuilt from %s chunk, len %" PRIu32 ")",
	       rr_chunk_kind_str(r->source), r->data_len);
}

/* A message, with the RPC message rebuilt for it if any. */
/* A message's RPC-over-RDMA header: procedure, xid, credits, chunk counts. */
static void print_rpcrdma_header(const struct rr_rpcrdma *h)
{
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
}

static void print_rpcrdma(const struct rr_event *ev)
{
	const struct rr_ev_message *m = &ev->msg;
	const struct rr_rpcrdma *h = m->hdr;
	const struct rr_ev_rpc_message *rebuilt = m->rebuilt ? &m->rebuilt->rebuilt : NULL;
	print_rpcrdma_header(h);
	if (m->rpc)
		print_rpc(m->rpc, h->xid, ev->dir, m->nfs4);
	else if (rebuilt && rebuilt->rpc)
		print_rpc(rebuilt->rpc, h->xid, ev->dir, NULL);
	else if (ev->dir != RR_DIR_UNKNOWN)
		printf(" (%s)", rr_dir_str(ev->dir));
	if (m->done)
		print_nfs_status(&m->done->done);
	if (rebuilt)
		print_rebuilt(rebuilt);
	if (m->msg_len > 0)
		printf(" len %" PRIu32, m->msg_len);
	if (m->inv_stag)
		printf(" invalidate stag 0x%08" PRIx32, m->inv_stag);
	if (m->resent_of) /* after a reconnect */
		printf(" resent (first frame %llu)", (unsigned long long)m->resent_of);
}

/* A finding's line; with -v, what to do (its advice) on the next. */
static void print_finding(const struct rr_event *ev, bool advice)
{
	const struct rr_finding_info *fi = rr_finding_info(ev->finding.id);
	printf("\t! %s (%s): %s", fi->id, rr_severity_str(fi->severity),
	       fi->message);
	if (ev->finding.detail)
		printf(" (%s)", ev->finding.detail);
	if (fi->reference[0])
		printf(" [%s]", fi->reference);
	putchar('\n');
	if (advice)
		printf("\t  advice: %s.\n", fi->advice);
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

/* Frame-level lines: CM and MPA, or every frame with -a. */
void dump_print_unit(struct dump *d, const struct rr_frame *f, uint64_t frame,
		     uint32_t conn)
{
	const struct opts *o = &d->o;
	bool setup = rr_has(f, RR_LAYER_CM) || rr_has(f, RR_LAYER_MPA);
	if ((!setup && !o->all_frames) || o->findings_only || o->slow || o->quiet)
		return;
#ifdef RR_HAVE_JSONC
	if (o->json) {
		if (setup) {
			json_object *j = rr_json_setup(f, frame, d->lines.frame_ts_ns, conn);
			puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
			json_object_put(j);
		}
		return;
	}
#else
	(void)frame;
	(void)conn;
#endif
	print_time(&d->lines);
	print_endpoints(f);
	if (o->all_frames || o->verbose > 1)
		print_transport(f);
	if (rr_has(f, RR_LAYER_CM))
		print_cm(f);
	if (rr_has(f, RR_LAYER_MPA))
		print_mpa(f);
	if (o->verbose > 1 && rr_has(f, RR_LAYER_ICRC))
		printf(" icrc %s", rr_crc_state_str(f->icrc.state));
	if (o->verbose > 1 && rr_has(f, RR_LAYER_DDP))
		printf(" crc32c %s", rr_crc_state_str(f->fpdu.crc_state));
	print_problems(f);
	putchar('\n');
}

/* With -a: the chunk an RDMA packet serves, below the packet's line. */
static void print_chunk_data(const struct rr_ev_chunk_data *e)
{
	printf("\t%s chunk of xid 0x%08" PRIx32 ": %s %" PRIu32 " bytes at %" PRIu64
	       " of segment 0x%08" PRIx32 "\n", rr_chunk_kind_str(e->source), e->xid,
	       rr_access_str(e->access), e->data_len, e->seg_offset, e->handle);
}

static void print_completion(const struct rr_ev_rpc_done *e)
{
	unsigned long long us = (unsigned long long)(e->latency_ns / 1000u);
	printf(" [rtt %llu.%03llu ms, moved inline %u read %llu write %llu]",
	       us / 1000u, us % 1000u, e->bytes_inline,
	       (unsigned long long)e->bytes_read,
	       (unsigned long long)e->bytes_write);
}

#ifdef RR_HAVE_JSONC
static void json_line(json_object *o)
{
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

static void writer_line(struct dump *d, const char *text, uint64_t frame)
{
	if (!text) {
		fprintf(stderr, "rpcrdma-dump: frame %llu: out of memory for its "
				"JSON line\n", (unsigned long long)frame);
		return;
	}
	fwrite(text, 1, rr_json_writer_len(d->jw), stdout);
	putchar('\n');
}

/* Messages carry the findings they raised. */
static void print_report_json(struct dump *d, const struct rr_frame_report *r)
{
	for (uint32_t i = 0; i < r->nevents; i++) {
		const struct rr_event *ev = &r->events[i];
		if (d->o.slow || d->o.findings_only) {
			/* the slow calls, the findings, or both */
			if (is_slow(&d->o, ev))
				writer_line(d, rr_json_writer_slow_call(d->jw, ev), ev->frame);
			else if (d->o.findings_only && ev->kind == RR_EV_FINDING)
				json_line(rr_json_finding(ev));
			continue;
		}
		if (ev->kind == RR_EV_SETUP) {
			/* with -a, every unit has its line already */
			if (!d->o.all_frames)
				dump_print_unit(d, ev->setup.unit, ev->frame, ev->conn_id);
		} else if (ev->kind == RR_EV_NEGOTIATED) {
			if (ev->connection)
				json_line(rr_json_negotiated(ev));
		} else if (ev->kind == RR_EV_FINDING) {
			if (!ev->message)
				json_line(rr_json_finding(ev));
		} else if (ev->kind == RR_EV_CHUNK_DATA) {
			json_line(rr_json_chunk_data(ev));
		} else if (ev->kind == RR_EV_RETRANSMISSION) {
			writer_line(d, rr_json_writer_retransmission(d->jw, ev), ev->frame);
		} else if (ev->kind == RR_EV_CONN_CLOSE) {
			json_line(rr_json_close(ev));
		} else if (ev->kind == RR_EV_RPC_MESSAGE) {
			writer_line(d, rr_json_writer_rpc_message(d->jw, ev), ev->frame);
		} else if (ev->kind == RR_EV_MESSAGE) {
			writer_line(d, rr_json_writer_message(d->jw, r, ev), ev->frame);
		}
	}
}
#endif

/* More events than a report lists: said, not lost silently. */
static void print_unreported(const struct rr_frame_report *r)
{
	if (r->unreported)
		fprintf(stderr, "rpcrdma-dump: frame %llu: %u events not listed "
				"(a report lists %u); the statistics count them\n",
			(unsigned long long)r->frame, r->unreported,
			RR_REPORT_EVENTS);
}

void dump_print_report(struct dump *d, const struct rr_frame_report *r)
{
	const struct rr_frame *f = r->decoded;
	if (d->o.quiet)
		return;
	print_unreported(r);
#ifdef RR_HAVE_JSONC
	if (d->o.json) {
		print_report_json(d, r);
		return;
	}
#endif
	for (uint32_t i = 0; i < r->nevents; i++) {
		const struct rr_event *ev = &r->events[i];
		if (is_slow(&d->o, ev)) {
			print_slow_call(&d->lines, ev);
			continue;
		}
		if (ev->kind == RR_EV_NEGOTIATED || ev->kind == RR_EV_RPC_DONE ||
		    ev->kind == RR_EV_CONN_OPEN)
			continue;
		if (d->o.slow && !(d->o.findings_only && ev->kind == RR_EV_FINDING))
			continue;
		if (ev->kind == RR_EV_SETUP) {
			/* with -a, every unit has its line already */
			if (!d->o.all_frames)
				dump_print_unit(d, ev->setup.unit, ev->frame, ev->conn_id);
			continue;
		}
		if (ev->kind == RR_EV_FINDING) {
			if (d->o.findings_only) {
				if (f)
					print_time(&d->lines);
				printf("frame %llu", (unsigned long long)ev->frame);
			}
			print_finding(ev, d->o.verbose > 0);
			continue;
		}
		/* an RPC message rebuilt for a message is on the message's line */
		if (d->o.findings_only || !f ||
		    (ev->message && ev->message->msg.rebuilt == ev))
			continue;
		if (ev->kind == RR_EV_CHUNK_DATA) {
			print_chunk_data(&ev->chunk);
			continue;
		}
		if (ev->kind == RR_EV_CONN_CLOSE) {
			/* CM's DREQ has a line of its own; TCP's FIN and RST
			 * (an iWARP connection's end) get one here */
			const struct rr_conn_info *c = ev->connection;
			if (!rr_has(f, RR_LAYER_TCP) || !c)
				continue;
			print_time(&d->lines);
			print_addresses(f);
			printf(" iWARP TCP %s: conn %u %s\n", c->reset ? "RST" : "FIN",
			       ev->conn_id, c->reset ? "reset" : "closed");
			continue;
		}
		print_time(&d->lines);
		print_endpoints(f);
		/* RoCE and IB: the destination QP tells connections between the
		 * same hosts apart (iWARP lines have their ports); -vv: every
		 * transport field, as a frame's own line has them */
		if (d->o.verbose > 1)
			print_transport(f);
		else if (rr_has(f, RR_LAYER_BTH))
			printf(" qp 0x%06" PRIx32, f->bth.dqpn);
		if (ev->kind == RR_EV_RETRANSMISSION) {
			/* what a receiver drops (IBA vol. 1 §9.7.5.1.2): a
			 * SEND's first packet with the header it carries again */
			const struct rr_ev_retransmission *rt = &ev->retransmission;
			const char *op = rr_bth_opcode_str(rt->opcode);
			if (rt->hdr) {
				print_rpcrdma_header(rt->hdr);
				if (rt->rpc)
					print_rpc(rt->rpc, rt->hdr->xid, ev->dir, NULL);
				else if (ev->dir != RR_DIR_UNKNOWN)
					printf(" (%s)", rr_dir_str(ev->dir));
				printf(" [%s psn %u", op ? op : "RC", rt->psn);
			} else {
				printf(" %s psn %u", op ? op : "RC", rt->psn);
			}
			printf(" retransmission");
			if (rt->original_frame)
				printf(" of frame %llu",
				       (unsigned long long)rt->original_frame);
			fputs(rt->hdr ? "]\n" : "\n", stdout);
			continue;
		}
		if (ev->kind == RR_EV_RPC_MESSAGE) {
			const struct rr_ev_rpc_message *rb = &ev->rebuilt;
			printf(" RPC xid 0x%08" PRIx32, rb->xid);
			if (rb->rpc)
				print_rpc(rb->rpc, rb->xid, ev->dir, rb->nfs4);
			print_rebuilt(rb);
			putchar('\n');
			continue;
		}
		print_rpcrdma(ev);
		if (ev->msg.done)
			print_completion(&ev->msg.done->done);
		if (d->o.verbose > 1 && rr_has(f, RR_LAYER_ICRC))
			printf(" icrc %s", rr_crc_state_str(f->icrc.state));
		if (d->o.verbose > 1 && rr_has(f, RR_LAYER_DDP))
			printf(" crc32c %s", rr_crc_state_str(f->fpdu.crc_state));
		if (d->o.verbose)
			print_segments(ev->msg.hdr);
		putchar('\n');
	}
}
