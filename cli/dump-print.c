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

struct rr_ts_format dump_ts;
uint64_t dump_frame_ts_ns;
unsigned long dump_lines;

/* Every output line starts here. */
static void print_time(void)
{
	dump_lines++;
	rr_ts_print(&dump_ts, dump_frame_ts_ns, stdout);
}

static void print_addr(const uint8_t *p, uint32_t len)
{
	char s[INET6_ADDRSTRLEN];
	inet_ntop(len == 4 ? AF_INET : AF_INET6, p, s, sizeof(s));
	fputs(s, stdout);
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
	} else {
		fputs("?", stdout);
	}
}

static void print_endpoints(const struct rr_frame *f)
{
	print_addresses(f);
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

static void print_rpc(const struct rr_rpc *r, uint32_t rdma_xid, uint8_t dir)
{
	if (dir == RR_DIR_BWD_CALL || dir == RR_DIR_BWD_REPLY)
		fputs(" backward", stdout);
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

static void print_rebuilt(const struct pending *r)
{
	printf(" (rebuilt from %s chunk, len %" PRIu32 ")",
	       rr_chunk_kind_str(r->ev.source), r->ev.msg_len);
}

/* A message, with the RPC rebuilt for it in the same frame if any. */
static void print_rpcrdma(const struct pending *p, const struct pending *rebuilt)
{
	const struct rr_rpcrdma *h = &p->hdr;
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
	if (p->has_rpc)
		print_rpc(&p->rpc, h->xid, p->ev.dir);
	else if (rebuilt && rebuilt->has_rpc)
		print_rpc(&rebuilt->rpc, h->xid, p->ev.dir);
	else if (p->ev.dir != RR_DIR_UNKNOWN)
		printf(" (%s)", rr_dir_str(p->ev.dir));
	if (rebuilt)
		print_rebuilt(rebuilt);
	if (p->ev.msg_len > 0)
		printf(" len %" PRIu32, p->ev.msg_len);
	if (p->ev.inv_stag)
		printf(" invalidate stag 0x%08" PRIx32, p->ev.inv_stag);
	if (p->ev.resent_of) /* after a reconnect */
		printf(" resent (first frame %llu)", (unsigned long long)p->ev.resent_of);
}

static void print_finding(const struct rr_event *ev)
{
	const struct rr_finding_info *fi = rr_finding_info(ev->finding);
	printf("\t! %s (%s): %s", fi->id, rr_severity_str(fi->severity),
	       fi->message);
	if (ev->detail)
		printf(" (%s)", ev->detail);
	if (fi->reference[0])
		printf(" [%s]", fi->reference);
	putchar('\n');
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
void dump_print_unit(const struct rr_frame *f, const struct opts *o,
		     uint64_t frame, uint32_t conn)
{
	bool setup = rr_has(f, RR_LAYER_CM) || rr_has(f, RR_LAYER_MPA);
	if ((!setup && !o->all_frames) || o->findings_only || o->quiet)
		return;
#ifdef RR_HAVE_JSONC
	if (o->json) {
		if (setup) {
			json_object *j = rr_json_setup(f, frame, dump_frame_ts_ns, conn);
			puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN));
			json_object_put(j);
		}
		return;
	}
#else
	(void)frame;
	(void)conn;
#endif
	print_time();
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

void dump_on_event(void *ctx, const struct rr_event *ev)
{
	struct dump *d = ctx;
	if (ev->kind == RR_EV_FINDING)
		d->findings++;
	/* -q prints nothing per event: spare the copy of each header */
	if (d->o.quiet ||
	    (ev->kind != RR_EV_MESSAGE && ev->kind != RR_EV_FINDING &&
	     ev->kind != RR_EV_NEGOTIATED && ev->kind != RR_EV_RPC_DONE &&
	     ev->kind != RR_EV_RPC_MESSAGE && ev->kind != RR_EV_CHUNK_DATA &&
	     ev->kind != RR_EV_RETRANSMISSION && ev->kind != RR_EV_CONN_CLOSE))
		return;
	if (d->nev == FRAME_EVENTS)
		return;
	struct pending *p = &d->ev[d->nev++];
	p->ev = *ev;
	if (ev->kind == RR_EV_MESSAGE) {
		/* the segments in use only: the whole array is 2 KiB */
		const struct rr_rpcrdma *h = ev->hdr;
		memcpy(&p->hdr, h, offsetof(struct rr_rpcrdma, segs));
		memcpy(p->hdr.segs, h->segs, h->nsegs * sizeof(h->segs[0]));
		p->hdr.payload = h->payload;
	}
	p->has_rpc = ev->rpc != NULL;
	if (ev->rpc)
		p->rpc = *ev->rpc;
	p->shown = false;
}

/* The completion of the RPC whose reply is event i, from the same frame. */
static const struct rr_event *completion_of(const struct dump *d, unsigned i)
{
	const struct rr_event *m = &d->ev[i].ev;
	for (unsigned j = i + 1; j < d->nev; j++) {
		const struct rr_event *e = &d->ev[j].ev;
		if (e->kind == RR_EV_MESSAGE)
			break;
		if (e->kind == RR_EV_RPC_DONE && e->conn == m->conn &&
		    e->xid == d->ev[i].hdr.xid)
			return e;
	}
	return NULL;
}

/* The RPC message rebuilt for the message that is event i, same frame. */
static struct pending *rebuilt_of(struct dump *d, unsigned i)
{
	const struct rr_event *m = &d->ev[i].ev;
	for (unsigned j = i + 1; j < d->nev; j++) {
		const struct rr_event *e = &d->ev[j].ev;
		if (e->kind == RR_EV_MESSAGE)
			break;
		if (e->kind == RR_EV_RPC_MESSAGE && e->conn == m->conn &&
		    e->xid == d->ev[i].hdr.xid)
			return &d->ev[j];
	}
	return NULL;
}

/* With -a: the chunk an RDMA packet serves, below the packet's line. */
static void print_chunk_data(const struct rr_event *e)
{
	printf("\t%s chunk of xid 0x%08" PRIx32 ": %s %" PRIu32 " bytes at %" PRIu64
	       " of segment 0x%08" PRIx32 "\n", rr_chunk_kind_str(e->source), e->xid,
	       rr_access_str(e->access), e->data_len, e->seg_offset, e->handle);
}

static void print_completion(const struct rr_event *e)
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

static void writer_line(struct dump *d, const char *text)
{
	fwrite(text, 1, rr_json_writer_len(d->jw), stdout);
	putchar('\n');
}

/* Messages carry the findings that follow them in the same frame. */
static void print_events_json(struct dump *d)
{
	for (unsigned i = 0; i < d->nev; i++) {
		const struct pending *p = &d->ev[i];
		if (p->ev.kind == RR_EV_NEGOTIATED) {
			const struct rr_conn_info *c = rr_analyzer_conn(d->a, p->ev.conn);
			if (c)
				json_line(rr_json_negotiated(&p->ev, c));
		} else if (p->ev.kind == RR_EV_FINDING) {
			json_line(rr_json_finding(&p->ev));
		} else if (p->ev.kind == RR_EV_CHUNK_DATA) {
			json_line(rr_json_chunk_data(&p->ev));
		} else if (p->ev.kind == RR_EV_RETRANSMISSION) {
			json_line(rr_json_retransmission(&p->ev));
		} else if (p->ev.kind == RR_EV_CONN_CLOSE) {
			const struct rr_conn_info *c = rr_analyzer_conn(d->a, p->ev.conn);
			if (c)
				json_line(rr_json_close(&p->ev, c));
		} else if (p->ev.kind == RR_EV_RPC_MESSAGE) {
			writer_line(d, rr_json_writer_rpc_message(d->jw, &p->ev,
					p->has_rpc ? &p->rpc : NULL));
		} else if (p->ev.kind == RR_EV_MESSAGE) {
			const struct rr_event *done = completion_of(d, i);
			uint16_t ids[FRAME_EVENTS];
			unsigned n = 0;
			/* the findings it raised, around its completion */
			while (i + 1 < d->nev &&
			       (d->ev[i + 1].ev.kind == RR_EV_FINDING ||
				d->ev[i + 1].ev.kind == RR_EV_RPC_DONE))
				if (d->ev[++i].ev.kind == RR_EV_FINDING)
					ids[n++] = d->ev[i].ev.finding;
			writer_line(d, rr_json_writer_message(d->jw, &p->ev, &p->hdr,
					p->has_rpc ? &p->rpc : NULL, done, ids, n));
		}
	}
	d->nev = 0;
}
#endif

/* What the analyzer said about the frame just fed to it. */
void dump_print_events(struct dump *d, const struct pcap_pkthdr *h,
		       const struct rr_frame *f)
{
	if (d->o.quiet) {
		d->nev = 0;
		return;
	}
#ifdef RR_HAVE_JSONC
	if (d->o.json) {
		print_events_json(d);
		return;
	}
#endif
	for (unsigned i = 0; i < d->nev; i++) {
		if (d->ev[i].ev.kind == RR_EV_NEGOTIATED ||
		    d->ev[i].ev.kind == RR_EV_RPC_DONE)
			continue;
		const struct pending *p = &d->ev[i];
		if (p->ev.kind == RR_EV_FINDING) {
			if (d->o.findings_only) {
				if (h)
					print_time();
				printf("frame %llu", (unsigned long long)p->ev.frame);
			}
			print_finding(&p->ev);
			continue;
		}
		if (d->o.findings_only || p->shown)
			continue;
		if (p->ev.kind == RR_EV_CHUNK_DATA) {
			print_chunk_data(&p->ev);
			continue;
		}
		if (p->ev.kind == RR_EV_CONN_CLOSE) {
			/* CM's DREQ has a line of its own; TCP's FIN and RST
			 * (an iWARP connection's end) get one here */
			const struct rr_conn_info *c = rr_analyzer_conn(d->a, p->ev.conn);
			if (!rr_has(f, RR_LAYER_TCP) || !c)
				continue;
			print_time();
			print_addresses(f);
			printf(" iWARP TCP %s: conn %u %s\n", c->reset ? "RST" : "FIN",
			       p->ev.conn_id, c->reset ? "reset" : "closed");
			continue;
		}
		print_time();
		print_endpoints(f);
		/* RoCE and IB: the destination QP tells connections between the
		 * same hosts apart (iWARP lines have their ports) */
		if (rr_has(f, RR_LAYER_BTH))
			printf(" qp 0x%06" PRIx32, f->bth.dqpn);
		if (p->ev.kind == RR_EV_RETRANSMISSION) {
			/* what a receiver drops (IBA vol. 1 §9.7.5.1.2) */
			const char *op = rr_bth_opcode_str(p->ev.opcode);
			printf(" %s psn %u retransmission", op ? op : "RC", p->ev.psn);
			if (p->ev.original_frame)
				printf(" of frame %llu",
				       (unsigned long long)p->ev.original_frame);
			putchar('\n');
			continue;
		}
		if (p->ev.kind == RR_EV_RPC_MESSAGE) {
			printf(" RPC xid 0x%08" PRIx32, p->ev.xid);
			if (p->has_rpc)
				print_rpc(&p->rpc, p->ev.xid, p->ev.dir);
			print_rebuilt(p);
			putchar('\n');
			continue;
		}
		struct pending *rebuilt = rebuilt_of(d, i);
		print_rpcrdma(p, rebuilt);
		if (rebuilt)
			rebuilt->shown = true;
		const struct rr_event *done = completion_of(d, i);
		if (done)
			print_completion(done);
		if (d->o.verbose > 1 && rr_has(f, RR_LAYER_ICRC))
			printf(" icrc %s", rr_crc_state_str(f->icrc.state));
		if (d->o.verbose)
			print_segments(&p->hdr);
		putchar('\n');
	}
	d->nev = 0;
}
