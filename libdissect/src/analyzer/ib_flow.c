/* SPDX-License-Identifier: BSD-2-Clause */
/* InfiniBand and RoCE (IBA vol. 1 §9, §12): the IB CM's connection setup
 * and private data, SENDs reassembled from RC packets, RDMA Read and Write
 * followed by PSN, retransmissions and gaps. */
#include <inttypes.h>
#include <stdio.h>

#include "transport.h"

/* IB CM (IBA vol. 1 §12.6) on QP1: connections and their private data. */
void rra_cm(struct rr_analyzer *a, const struct rr_frame *f)
{
	uint8_t src[16], dst[16];
	rra_frame_addrs(f, src, dst);
	const struct rr_cm *m = &f->cm;
	uint32_t cn = NONE;
	struct rr_event ev = { .kind = RR_EV_CONN_CLOSE };
	if (!m->fixed_read) {
		/* cut before its IDs and QPN: it names no connection; a REJ is
		 * a rejection all the same, its reason unknown (0) */
		if (m->attr_id == RR_CM_REJ)
			a->st.cm_rejects[0]++;
		return;
	}
	switch (m->attr_id) {
	case RR_CM_REQ:
		cn = rra_conn_by_comm(a, m->local_comm_id);
		if (cn == NONE)
			cn = rra_conn_open(a, f->transport);
		if (cn == NONE)
			break;
		if (!(a->conns[cn].listed & (1u << LIST_COMM))) {
			a->conns[cn].comm_id = m->local_comm_id;
			rra_list_add(a, LIST_COMM, cn);
		}
		rra_side_set(a, cn, 0, src, m->local_qpn);
		/* a known side is hashed by its address: never move it here */
		if (!a->conns[cn].side[1].known) {
			rra_list_del(a, LIST_HALF, cn);
			rra_side_addr_put(a, cn, 1, dst);
			rra_half_add(a, cn, 1);
		}
		/* an NFS/RDMA service ID, or RFC 8797 data, marks it ours */
		if (rr_has(f, RR_LAYER_RDMA_CM) && f->rdma_cm.dst_port == RR_NFS_RDMA_PORT)
			rra_conn_rpcrdma(a, cn);
		rra_set_private(a, cn, 0, f);
		break;
	case RR_CM_REP:
		cn = rra_conn_by_comm(a, m->remote_comm_id);
		if (cn == NONE)
			break;
		rra_side_set(a, cn, 1, src, m->local_qpn);
		rra_set_private(a, cn, 1, f);
		rra_negotiated(a, cn);
		break;
	case RR_CM_REJ:
		a->st.cm_rejects[m->reject_reason < RR_CM_REJ_REASONS ?
					 m->reject_reason : 0]++;
		cn = rra_conn_by_comm(a, m->remote_comm_id);
		if (cn != NONE)
			rra_set_private(a, cn, 1, f);
		break;
	case RR_CM_RTU:
		/* the requester's, under its own communication ID */
		cn = rra_conn_by_comm(a, m->local_comm_id);
		break;
	case RR_CM_DREQ:
	case RR_CM_DREP:
		cn = rra_conn_by_comm(a, m->attr_id == RR_CM_DREQ &&
				      rra_conn_by_comm(a, m->local_comm_id) != NONE ?
				      m->local_comm_id : m->remote_comm_id);
		if (cn == NONE)
			cn = rra_conn_by_comm(a, m->local_comm_id);
		if (cn != NONE && !a->conns[cn].info.closed) {
			a->conns[cn].info.closed = true;
			ev.conn = cn;
			rra_emit(a, &ev);
		}
		break;
	default:
		break;
	}
	a->rep.pub.units.conn = cn;
	a->rep.pub.units.conn_id = cn != NONE ? a->conns[cn].info.id : RR_CONN_NONE;
}

/* Request packets: they take the sender's PSNs one by one (a Read
 * Request takes one per response packet, a number the capture does not
 * tell). */
static bool rc_request(uint8_t op)
{
	return op <= RR_OP_RC_READ_REQUEST || op == RR_OP_RC_CMP_SWAP ||
	       op == RR_OP_RC_FETCH_ADD || op == RR_OP_RC_SEND_LAST_INV ||
	       op == RR_OP_RC_SEND_ONLY_INV;
}

/* The slot of psn_frames for a request packet with this PSN sent to side
 * `to` of a connection: direct-mapped, so a newer packet may take an
 * older one's place and the older is then too far back to be named. */
static uint32_t side_psn(int to, uint32_t psn)
{
	return psn | (uint32_t)to << 24;   /* PSNs are 24 bits */
}

static uint32_t psn_frame_slot(const struct conn *k, int to, uint32_t psn)
{
	uint32_t h = (k->info.id * 2654435761u) ^ side_psn(to, psn);
	return (h * 0x9e3779b1u) >> (32 - PSN_FRAMES_BITS);
}

static void psn_frame_put(struct rr_analyzer *a, const struct conn *k, int to,
			  uint32_t psn, uint32_t key)
{
	uint32_t i = psn_frame_slot(k, to, psn);
	a->psn_frames[i].conn_id = k->info.id;
	a->psn_frames[i].side_psn = side_psn(to, psn);
	a->psn_frames[i].frame = (uint32_t)a->frame_no;
	a->psn_frames[i].key = key;
}

/* The frame that carried this PSN to side `to` first, 0 when unknown. */
static uint64_t psn_frame(const struct rr_analyzer *a, const struct conn *k,
			  int to, uint32_t psn)
{
	uint32_t i = psn_frame_slot(k, to, psn);
	if (!a->psn_frames[i].frame || a->psn_frames[i].conn_id != k->info.id ||
	    a->psn_frames[i].side_psn != side_psn(to, psn))
		return 0;
	/* the low 32 bits kept: the most recent frame that has them */
	return a->frame_no - (uint32_t)((uint32_t)a->frame_no - a->psn_frames[i].frame);
}

/* RC traffic on IB or RoCE (IBA vol. 1 §9). */
/* The RDMA Write or Read whose next data packet has this PSN, sent by
 * side `sender` (IBA vol. 1 §9.7.5.1.1, §9.7.5.1.3). */
static struct rdma_op *op_by_psn(struct rr_analyzer *a, uint32_t cn,
				 int sender, bool read, uint32_t psn)
{
	for (unsigned i = 0; i < RDMA_OPS && a->ops_live; i++) {
		struct rdma_op *o = &a->ops[i];
		if (o->used && o->conn == cn && o->data_side == sender &&
		    o->read == read && o->match_id == psn)
			return rra_op_live(a, o) ? o : NULL;
	}
	return NULL;
}

/* A RoCEv2 CNP (Annex A17) goes to the QP whose packets arrived
 * marked congested, to slow it: counted for that QP's stream, on a
 * connection already known (a CNP opens none). */
static void cnp(struct rr_analyzer *a, const struct rr_frame *f)
{
	uint8_t src[16], dst[16];
	rra_frame_addrs(f, src, dst);
	int to;
	uint32_t cn = rra_conn_find(a, f->transport, src, 0, dst, f->bth.dqpn, false,
				    &to);
	if (cn != NONE)
		rra_fabric_count(a, &a->conns[cn], to, RR_FABRIC_CNPS);
}

/* A NAK of an error from side `from` (IBA vol. 1 §9.7.5.2: the QPs go
 * to the error state): the finding, naming the request packet it
 * refused, and for an RDMA Write or Read its STag and the chunk of a call
 * in flight that STag belongs to. */
static void nak_finding(struct rr_analyzer *a, struct conn *k, int from,
			uint32_t psn, enum rr_finding_id id)
{
	if (!k->rpcrdma)
		return;  /* another upper layer's: not ours to judge */
	uint32_t cn = (uint32_t)(k - a->conns);
	char *d = a->nak_detail;
	size_t n = sizeof(a->nak_detail);
	uint64_t frame = psn_frame(a, k, from, psn);
	uint32_t key = frame ? a->psn_frames[psn_frame_slot(k, from, psn)].key : 0;
	uint32_t xid;
	enum rr_chunk_kind kind;
	if (!frame)
		snprintf(d, n, "PSN 0x%06x: a request the capture does not hold", psn);
	else if (!key)
		snprintf(d, n, "frame %" PRIu64 ", PSN 0x%06x: a SEND", frame, psn);
	else if (rra_chunk_of_key(a, cn, key, &xid, &kind))
		snprintf(d, n, "frame %" PRIu64 ", PSN 0x%06x: STag 0x%08x, the %s "
			 "chunk of call xid 0x%08x", frame, psn, key,
			 rr_chunk_kind_str(kind), xid);
	else
		snprintf(d, n, "frame %" PRIu64 ", PSN 0x%06x: STag 0x%08x, in no "
			 "chunk of a call in flight", frame, psn, key);
	rra_finding(a, cn, id, d);
}

/* An RNR NAK from side `from` (IBA vol. 1 §9.7.5.2): a SEND found no
 * receive posted, which RPC-over-RDMA's credits exist to prevent (RFC
 * 8166 §3.3.1).  The detail gives the calls in flight against the grant:
 * a requester within it points at the responder's receives. */
static void rnr_finding(struct rr_analyzer *a, struct conn *k, int from,
			uint32_t psn, uint32_t wait_us)
{
	if (!k->rpcrdma)
		return;
	uint32_t cn = (uint32_t)(k - a->conns);
	const struct rr_conn_stats *st = &k->info.st;
	char *d = a->nak_detail;
	size_t n = sizeof(a->nak_detail);
	uint64_t frame = psn_frame(a, k, from, psn);
	int at = frame ? snprintf(d, n, "frame %" PRIu64 ", PSN 0x%06x", frame, psn) :
			 snprintf(d, n, "PSN 0x%06x", psn);
	size_t used = at > 0 && (size_t)at < n ? (size_t)at : n - 1;
	if (from == 1 && !(k->info.heard & RR_HEARD_REQUESTER))
		snprintf(d + used, n - used, ": calls in flight unknown, the requester "
			 "unheard; wait %u us", wait_us);
	else if (from == 1 && k->info.grant_seen)
		snprintf(d + used, n - used, ": %u calls in flight, %u credits granted; "
			 "wait %u us", st->in_flight, st->grant, wait_us);
	else if (from == 1)
		snprintf(d + used, n - used, ": %u calls in flight, no grant seen; "
			 "wait %u us", st->in_flight, wait_us);
	else
		snprintf(d + used, n - used, ": the requester had no receive for a "
			 "reply or backward call; wait %u us", wait_us);
	rra_finding(a, cn, RR_FIND_RNR_NAK, d);
}

/* What a packet from side `from` says of the fabric: congestion marks
 * (RFC 3168 §5 in the IP header, FECN and BECN in the BTH, IBA vol. 1
 * §9.2) and the receiver's NAKs of the other side's requests (the AETH,
 * IBA vol. 1 §9.7). */
static void fabric_marks(struct rr_analyzer *a, struct conn *k, int from,
			 const struct rr_frame *f)
{
	rra_fabric_count(a, k, from, RR_FABRIC_PACKETS);
	if ((rr_has(f, RR_LAYER_IPV4) || rr_has(f, RR_LAYER_IPV6)) &&
	    (f->ip.tclass & 3) == 3)
		rra_fabric_count(a, k, from, RR_FABRIC_ECN_CE);
	if (f->bth.resv8a & 0x80)
		rra_fabric_count(a, k, from, RR_FABRIC_FECN);
	if (f->bth.resv8a & 0x40)
		rra_fabric_count(a, k, 1 - from, RR_FABRIC_BECN);
	if (!(f->ext.present & RR_EXT_AETH) || f->ext.aeth.type == RR_AETH_ACK)
		return;
	int of = 1 - from;
	/* the resends that follow are asked for */
	if (f->ext.aeth.type == RR_AETH_RNR_NAK ||
	    (f->ext.aeth.type == RR_AETH_NAK && f->ext.aeth.value == RR_NAK_PSN_SEQ_ERROR))
		k->side[from].nak_asked = true;
	if (f->ext.aeth.type == RR_AETH_RNR_NAK) {
		rra_fabric_count(a, k, of, RR_FABRIC_RNR_NAKS);
		k->info.st.rnr_timer_us_last[of] = rr_rnr_timer_us(f->ext.aeth.value);
		rnr_finding(a, k, from, f->bth.psn, k->info.st.rnr_timer_us_last[of]);
		return;
	}
	if (f->ext.aeth.type != RR_AETH_NAK)
		return;
	enum rr_fabric_counter c = RR_FABRIC_NAK_OTHER;
	switch (f->ext.aeth.value) {
	case RR_NAK_PSN_SEQ_ERROR:
		c = RR_FABRIC_NAK_PSN_SEQUENCE;
		break;
	case RR_NAK_INVALID_REQUEST:
		c = RR_FABRIC_NAK_INVALID_REQUEST;
		nak_finding(a, k, from, f->bth.psn, RR_FIND_NAK_INVALID_REQUEST);
		break;
	case RR_NAK_REMOTE_ACCESS:
		c = RR_FABRIC_NAK_REMOTE_ACCESS;
		nak_finding(a, k, from, f->bth.psn, RR_FIND_NAK_REMOTE_ACCESS);
		break;
	case RR_NAK_REMOTE_OP:
		c = RR_FABRIC_NAK_REMOTE_OPERATIONAL;
		nak_finding(a, k, from, f->bth.psn, RR_FIND_NAK_REMOTE_OPERATIONAL);
		break;
	default:
		break;
	}
	rra_fabric_count(a, k, of, c);
}

/* What a packet does at its receiver once taken, in order: a SEND's
 * message, an RDMA Write's or Read's bytes, a Read Request's operation.
 * gap: request packets before it were never seen (the capture lost
 * them). */
static inline __attribute__((always_inline)) void deliver(struct rr_analyzer *a, uint32_t cn, int to,
			   const struct rr_frame *f, bool gap)
{
	uint8_t op = f->bth.opcode;
	const uint8_t *pl = f->data + f->payload.off;
	uint32_t plen = f->payload.len;
	uint32_t have = f->caplen > f->payload.off ? f->caplen - f->payload.off : 0;
	if (have > plen)
		have = plen;
	if (gap && to == 0)
		rra_replies_lost(a, cn);
	uint32_t inv_key = f->ext.present & RR_EXT_IETH ? f->ext.ieth.rkey : 0;
	switch (op) {
	case RR_OP_RC_SEND_ONLY:
	case RR_OP_RC_SEND_ONLY_IMM:
	case RR_OP_RC_SEND_ONLY_INV:
		rra_send_whole(a, cn, to, pl, have, plen, inv_key, f);
		break;
	case RR_OP_RC_SEND_FIRST:
	case RR_OP_RC_SEND_MIDDLE:
	case RR_OP_RC_SEND_LAST:
	case RR_OP_RC_SEND_LAST_IMM:
	case RR_OP_RC_SEND_LAST_INV:
		rra_send_piece(a, cn, to, op == RR_OP_RC_SEND_FIRST,
			       op != RR_OP_RC_SEND_FIRST && op != RR_OP_RC_SEND_MIDDLE,
			       !gap, pl, have, plen, inv_key);
		break;
	case RR_OP_RC_WRITE_FIRST:
	case RR_OP_RC_WRITE_ONLY:
	case RR_OP_RC_WRITE_ONLY_IMM: {
		/* later packets carry no address: they follow by PSN */
		struct rdma_op *o = rra_write_landed(a, cn, to, f->ext.reth.rkey,
						     f->ext.reth.va,
						     f->ext.reth.dma_len, pl, have,
						     plen, true);
		if (!o)
			break;
		o->match_id = (f->bth.psn + 1) & 0xFFFFFF;
		if (op != RR_OP_RC_WRITE_FIRST)
			rra_op_end(a, o);
		break;
	}
	case RR_OP_RC_WRITE_MIDDLE:
	case RR_OP_RC_WRITE_LAST:
	case RR_OP_RC_WRITE_LAST_IMM:
	case RR_OP_RC_READ_RESP_FIRST:
	case RR_OP_RC_READ_RESP_MIDDLE:
	case RR_OP_RC_READ_RESP_LAST:
	case RR_OP_RC_READ_RESP_ONLY: {
		bool read = op >= RR_OP_RC_READ_RESP_FIRST;
		struct rdma_op *o = op_by_psn(a, cn, 1 - to, read, f->bth.psn);
		if (!o)
			break;
		rra_op_landed(a, cn, o, read ? RR_ACCESS_READ_RESPONSE : RR_ACCESS_WRITE,
			      0, pl, have, plen);
		o->pos += plen;
		o->match_id = (f->bth.psn + 1) & 0xFFFFFF;
		if (op == RR_OP_RC_WRITE_LAST || op == RR_OP_RC_WRITE_LAST_IMM ||
		    op == RR_OP_RC_READ_RESP_LAST || op == RR_OP_RC_READ_RESP_ONLY)
			rra_op_end(a, o);
		break;
	}
	case RR_OP_RC_READ_REQUEST: {
		/* RETH names the source buffer (IBA vol. 1 §9.4.5), at the
		 * receiver of the request, which sends the data back; its
		 * responses take the request's PSNs (§9.7.5.1.3) */
		struct rdma_op *o = rra_read_requested(a, cn, to, f->ext.reth.rkey,
						       f->ext.reth.va,
						       f->ext.reth.dma_len);
		if (o)
			o->match_id = f->bth.psn;
		break;
	}
	default:
		break;
	}
}

/* The stream a hold keeps, if it is still the connection it was. */
static struct side *hold_side(struct rr_analyzer *a)
{
	struct psn_hold *h = &a->hold;
	struct conn *k = &a->conns[h->conn];
	return k->used && k->info.id == h->conn_id ? &k->side[h->to] : NULL;
}

void rra_ib_hold_release(struct rr_analyzer *a, bool take)
{
	struct psn_hold *h = &a->hold;
	if (!h->active)
		return;
	h->active = false;
	h->released_in = a->frame_no;
	struct side *sd = hold_side(a);
	if (!take || !sd)
		return;
	/* as the receiver took them, each at its own frame and time */
	uint64_t frame_no = a->frame_no, now_ns = a->now_ns;
	for (unsigned i = 0; i < h->n; i++) {
		const struct held_packet *p = &h->packet[i];
		struct rr_frame *f = &h->f;
		if (!rr_decode_frame(&a->cfg, p->link, h->bytes + (size_t)i * HELD_PACKET_BYTES,
				     p->caplen, p->wirelen, NULL, f) ||
		    !rr_has(f, RR_LAYER_BTH))
			continue;
		a->frame_no = p->frame_no;
		a->now_ns = p->ts_ns;
		/* the first past the gap, and any past another */
		bool gap = i == 0 || (sd->deliver_exact && p->psn != sd->deliver_psn);
		sd->deliver_psn = (p->psn + 1) & 0xFFFFFF;
		sd->deliver_exact = f->bth.opcode != RR_OP_RC_READ_REQUEST;
		deliver(a, h->conn, h->to, f, gap);
	}
	a->frame_no = frame_no;
	a->now_ns = now_ns;
}

/* Keeps request packet f, PSN psn, past its stream's gap; false when it
 * cannot (another stream's packets are held, one was released in this
 * frame, it is too large, or the hold is full). */
static bool hold(struct rr_analyzer *a, uint32_t cn, int to,
		 const struct rr_frame *f, uint32_t psn)
{
	struct psn_hold *h = &a->hold;
	bool mine = h->active && h->conn == cn && h->to == to;
	if ((h->active && !mine) || h->released_in == a->frame_no ||
	    f->caplen > HELD_PACKET_BYTES)
		return false;
	/* a resend of a packet held already: the first copy is kept */
	uint32_t after = mine ? (psn - h->packet[h->n - 1].psn) & 0xFFFFFF : 1;
	if (after == 0 || after >= 0x800000)
		return true;
	if (!h->active) {
		h->active = true;
		h->conn = cn;
		h->conn_id = a->conns[cn].info.id;
		h->to = (uint8_t)to;
		h->n = 0;
	}
	if (h->n == HELD_PACKETS)
		return false;
	struct held_packet *p = &h->packet[h->n];
	memcpy(h->bytes + (size_t)h->n * HELD_PACKET_BYTES, f->data, f->caplen);
	p->link = f->link;
	p->caplen = f->caplen;
	p->wirelen = f->wirelen;
	p->psn = psn;
	p->frame_no = a->frame_no;
	p->ts_ns = a->now_ns;
	h->n++;
	return true;
}

/* What the receiver does with request packet f, PSN psn (IBA vol. 1
 * §9.7.5.1.2): takes it when it is the next (true), drops a duplicate;
 * past a gap, the packet is held until the gap is known (false) or,
 * where it cannot be, taken with the gap (*gap). */
static bool receive(struct rr_analyzer *a, uint32_t cn, int to,
		    const struct rr_frame *f, uint32_t psn, bool *gap)
{
	struct side *sd = &a->conns[cn].side[to];
	struct psn_hold *h = &a->hold;
	bool holding = h->active && h->conn == cn && h->to == to;
	uint32_t ahead = (psn - sd->deliver_psn) & 0xFFFFFF;
	*gap = false;
	if (sd->deliver_seen && ahead >= 0x800000)
		return false; /* a duplicate */
	if (sd->deliver_seen && ahead && sd->deliver_exact) {
		if (sd->deliver_nak)
			return false; /* the receiver waits for the resend */
		if (holding && hold(a, cn, to, f, psn))
			return false;
		/* the gap outlasted the hold: the capture's loss */
		if (holding)
			rra_ib_hold_release(a, true);
		else if (hold(a, cn, to, f, psn))
			return false;
		ahead = (psn - sd->deliver_psn) & 0xFFFFFF;
		if (ahead >= 0x800000)
			return false;
		*gap = ahead != 0;
	} else if (holding) {
		/* the gap's packet, resent: the wire lost it and the receiver
		 * dropped what came past it, which comes again */
		rra_ib_hold_release(a, false);
	}
	*gap = *gap || sd->deliver_gap;
	sd->deliver_gap = false;
	sd->deliver_seen = true;
	sd->deliver_exact = f->bth.opcode != RR_OP_RC_READ_REQUEST;
	sd->deliver_nak = false;
	sd->deliver_psn = (psn + 1) & 0xFFFFFF;
	return true;
}

/* What side `from` says of the requests it received, in an AETH (an ACK
 * or NAK, or a Read Response's): a NAK of a PSN sequence error at the
 * gap's PSN, that the wire lost it; an ACK past it, that the receiver
 * had it and the capture lost it. */
static void acknowledged(struct rr_analyzer *a, uint32_t cn, int from,
			 const struct rr_frame *f)
{
	if (!(f->ext.present & RR_EXT_AETH))
		return;
	struct side *sd = &a->conns[cn].side[from];
	struct psn_hold *h = &a->hold;
	bool holding = h->active && h->conn == cn && h->to == from;
	if (f->ext.aeth.type == RR_AETH_NAK &&
	    f->ext.aeth.value == RR_NAK_PSN_SEQ_ERROR && sd->deliver_seen &&
	    f->bth.psn == sd->deliver_psn) {
		/* the receiver names the gap's PSN: the wire lost it; what is
		 * held past it was dropped and comes again */
		sd->deliver_nak = true;
		if (holding)
			rra_ib_hold_release(a, false);
		return;
	}
	if (f->ext.aeth.type != RR_AETH_ACK || !sd->deliver_seen ||
	    ((f->bth.psn - sd->deliver_psn) & 0xFFFFFF) >= 0x800000)
		return;
	if (holding) {
		rra_ib_hold_release(a, true);
	} else if (sd->deliver_nak) {
		/* the resend came and the capture lost it: what came after
		 * it was dropped here, and the stream goes on past the ACK */
		sd->deliver_nak = false;
		sd->deliver_gap = true;
		sd->deliver_psn = (f->bth.psn + 1) & 0xFFFFFF;
	}
}

/* Request packet f to side `to` of connection cn: counted (a resend, a
 * gap), and whether its receiver takes it now (*gap: after a gap). */
static bool request(struct rr_analyzer *a, uint32_t cn, int to,
		    const struct rr_frame *f, bool *gap)
{
	struct conn *k = &a->conns[cn];
	struct side *sd = &k->side[to];
	uint8_t op = f->bth.opcode;
	uint32_t psn = f->bth.psn;
	uint32_t ahead = (psn - sd->next_psn) & 0xFFFFFF;
	if (sd->psn_seen && ahead >= 0x800000) {
		/* behind: a retransmission, which the receiver drops as a
		 * duplicate (IBA vol. 1 §9.7.5.1.2) unless it is what it
		 * waits for past a gap */
		k->info.st.retransmissions++;
		if (k->rpcrdma)
			a->st.total.retransmissions++;
		rra_fabric_count(a, k, 1 - to, RR_FABRIC_RETRANSMISSIONS);
		/* the first of a burst no NAK asked for: the sender's
		 * timer ran out */
		if (!sd->resending && !sd->nak_asked)
			rra_fabric_count(a, k, 1 - to, RR_FABRIC_TIMEOUTS);
		sd->resending = true;
		sd->nak_asked = false;
		struct rr_event ev = { .kind = RR_EV_RETRANSMISSION,
				       .conn = cn, .dir = RR_DIR_UNKNOWN,
				       .retransmission = { .opcode = op, .psn = psn } };
		ev.retransmission.original_frame = psn_frame(a, k, to, psn);
		if (rr_rc_send_starts(op) && rr_has(f, RR_LAYER_RPCRDMA)) {
			struct rr_ev_retransmission *rt = &ev.retransmission;
			rt->hdr = &f->rdma;
			rt->rpc = rr_has(f, RR_LAYER_RPC) ? &f->rpc : NULL;
			ev.dir = rra_message_dir(1 - to, rt->hdr, rt->rpc);
		}
		rra_emit(a, &ev);
	} else {
		if (sd->psn_seen && sd->psn_exact && ahead) {
			/* ahead: packets lost before the capture saw them */
			a->st.psn_gaps++;
			rra_fabric_count(a, k, 1 - to, RR_FABRIC_PSN_GAPS);
		}
		sd->resending = false;
		sd->psn_seen = true;
		sd->psn_exact = op != RR_OP_RC_READ_REQUEST;
		sd->next_psn = (psn + 1) & 0xFFFFFF;
		/* the STag an RDMA request names, for a NAK to name; a
		 * Write's later packets carry none */
		uint32_t key = 0;
		if (f->ext.present & RR_EXT_RETH) {
			key = f->ext.reth.rkey;
			if (op != RR_OP_RC_READ_REQUEST)
				sd->write_key = key;
		} else if (op == RR_OP_RC_WRITE_MIDDLE || op == RR_OP_RC_WRITE_LAST ||
			   op == RR_OP_RC_WRITE_LAST_IMM) {
			key = sd->write_key;
		}
		psn_frame_put(a, k, to, psn, key);
	}
	return receive(a, cn, to, f, psn, gap);
}

void rra_ib_packet(struct rr_analyzer *a, const struct rr_frame *f)
{
	uint8_t src[16], dst[16];
	uint8_t op = f->bth.opcode;
	if (op == RR_OP_CNP) {
		cnp(a, f);
		return;
	}
	if (op >= 0x20)
		return; /* RPC-over-RDMA runs on RC only */
	rra_frame_addrs(f, src, dst);
	int to;
	uint32_t cn = rra_conn_for(a, f->transport, src, 0, dst, f->bth.dqpn, false,
				   &to);
	if (cn == NONE)
		return;
	struct conn *k = &a->conns[cn];
	rra_conn_touch(a, cn);
	fabric_marks(a, k, 1 - to, f);
	rra_conn_packet(a, cn, f->payload.len);
	bool gap = false;
	if (!rc_request(op))
		acknowledged(a, cn, 1 - to, f);
	else if (!request(a, cn, to, f, &gap))
		return;
	deliver(a, cn, to, f, gap);
}
