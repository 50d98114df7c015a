/* SPDX-License-Identifier: BSD-2-Clause */
/* iWARP: the MPA exchange (RFC 5044 §7, RFC 6581), each direction's TCP
 * stream reassembled (markers removed, mpa.h), FPDUs decoded from it, and
 * DDP/RDMAP messages (RFC 5041, RFC 5040). */
#include <stdlib.h>
#include <string.h>

#include "transport.h"
#include "mpa.h"

/* ---- iWARP ----------------------------------------------------------------- */

/* A stream is its connection's while one of the connection's sides names
 * it: an evicted connection's are free again once its slot is reused. */
static bool stream_taken(const struct rr_analyzer *a, uint32_t i)
{
	const struct stream *st = &a->streams[i];
	const struct conn *k = &a->conns[st->conn];
	return st->used && k->used &&
	       (k->side[0].stream == i || k->side[1].stream == i);
}

static struct stream *stream_of(struct rr_analyzer *a, uint32_t cn,
				struct side *sd)
{
	if (sd->stream != NONE)
		return &a->streams[sd->stream];
	for (uint32_t i = 0; i < a->lim.tcp_streams; i++)
		if (!stream_taken(a, i)) {
			struct stream *st = &a->streams[i];
			st->used = true;
			st->conn = cn;
			st->synced = false;
			st->len = 0;
			st->discard = 0;
			st->nheld = 0;
			sd->stream = i;
			return st;
		}
	a->st.reassembly_dropped++;
	return NULL;
}

/* The stream followed from seq on: the next byte wanted, nothing held. */
static void stream_sync(struct stream *st, uint32_t seq)
{
	st->synced = true;
	st->len = 0;
	st->next_seq = seq;
	st->top_seq = seq;
	st->nheld = 0;
}

/*
 * Bytes of the stream were lost.  Lost replies would leave their calls in
 * flight for ever, so after a gap in the responder's direction the calls
 * then outstanding no longer count against the credits.
 */
static void stream_gap(struct rr_analyzer *a, uint32_t cn, bool responder,
		       struct stream *st)
{
	st->synced = false;
	st->len = 0;
	st->discard = 0;
	st->nheld = 0;
	a->st.tcp_resyncs++;
	if (responder)
		rra_replies_lost(a, cn);
}


static void iwarp_ddp(struct rr_analyzer *a, uint32_t cn, int to,
		      const struct rr_frame *f);

/*
 * One FPDU of the stream, `have` of its `total` bytes held: decoded, its
 * findings raised, and used unless it is malformed for a reason other than
 * its CRC (RFC 5044 §6).  False when it was not used.
 */
static bool stream_fpdu(struct rr_analyzer *a, uint32_t cn, int to,
			const uint8_t *p, uint32_t have, uint32_t total)
{
	const struct conn *k = &a->conns[cn];
	const struct rr_config *cfg = &a->cfg;
	struct rr_config demarked;
	if (k->markers) {
		/* with markers the CRC covers them; this copy has none */
		demarked = a->cfg;
		demarked.flags &= ~(uint32_t)RR_CFG_VERIFY_CRC32C;
		cfg = &demarked;
	}
	struct rr_frame *u = &a->fpdu;
	rr_decode_fpdu_cut(cfg, p, have, total, k->crc && !k->markers, u);
	if (u->fpdu.crc_state == RR_CRC_BAD)
		rra_finding(a, cn, RR_FIND_CRC32C, NULL);
	else if (u->status == RR_MALFORMED)
		rra_finding(a, cn, RR_FIND_MALFORMED, rr_layer_str(u->bad_layer));
	if (u->status == RR_MALFORMED &&
	    u->note[RR_LAYER_DDP].problem != RR_PROBLEM_BAD_CRC32C)
		return false;
	/* headers the capture cut leave no message to follow */
	if (u->note[RR_LAYER_DDP].status == RR_TRUNCATED && !u->payload.off)
		return true;
	iwarp_ddp(a, cn, to, u);
	return true;
}

/* FPDUs whole in the stream: decode and use them. */
static void stream_drain(struct rr_analyzer *a, uint32_t cn, int to,
			 struct stream *st)
{
	uint32_t used = 0;
	while (st->len - used >= 2) {
		uint32_t total = rr_fpdu_total_len(st->buf + used);
		if (total > STREAM_BUF) {
			stream_gap(a, cn, to == 0, st);
			return;
		}
		if (total > st->len - used)
			break;
		stream_fpdu(a, cn, to, st->buf + used, total, total);
		used += total;
	}
	memmove(st->buf, st->buf + used, st->len - used);
	st->len -= used;
}

/*
 * The capture kept only the start of a segment: its last `missing` bytes
 * are not here.  FPDU lengths tell where they end (RFC 5044 §6): the
 * FPDU begun in the held bytes is decoded as far as it was captured, and
 * the stream stays in step when the next FPDU starts at or after the
 * segment's end.  False when a later FPDU's header was cut away.
 */
static bool stream_cut(struct rr_analyzer *a, uint32_t cn, int to,
		       struct stream *st, uint32_t missing)
{
	uint32_t rest = st->discard < missing ? st->discard : missing;
	st->discard -= rest;
	missing -= rest;
	if (!missing)
		return true;
	if (st->len < 2)
		return false;
	uint32_t total = rr_fpdu_total_len(st->buf);
	if (!stream_fpdu(a, cn, to, st->buf, st->len, total))
		return false;
	rest = total - st->len;
	st->len = 0;
	if (rest < missing)
		return false;
	st->discard = rest - missing;
	return true;
}

/* Bytes [seq, seq + n) of the stream that side `from` sends. */
static void stream_append(struct rr_analyzer *a, uint32_t cn, int to,
			  struct stream *st, const uint8_t *p, uint32_t seq,
			  uint32_t n)
{
	const struct side *from = &a->conns[cn].side[1 - to];
	bool markers = a->conns[cn].markers;
	uint32_t rest = st->discard < n ? st->discard : n;
	st->discard -= rest;
	for (uint32_t i = rest; i < n; i++) {
		uint32_t q = seq + i;
		if (markers && from->marker_set && mpa_in_marker(q, from->marker_seq0))
			continue;
		if (st->len == STREAM_BUF) {
			stream_gap(a, cn, to == 0, st);
			return;
		}
		st->buf[st->len++] = p[i];
	}
	st->next_seq = seq + n;
}

/*
 * A segment of side s's stream, as the fabric counters see it (the RC
 * packets' counterparts, RR_FABRIC_LIST): one sent again when it starts
 * behind the highest byte seen (a resend, or a hole the capture point
 * saw filled late), a gap when it starts past it (bytes the capture point
 * has not seen).  The stream's last segment sent again is TCP's probe of
 * a late ACK (RFC 8985 §7), which the capture cannot tell from a loss:
 * not counted, or every busy healthy stream would show loss.
 */
static void count_segment(struct rr_analyzer *a, struct conn *k, int s,
			  struct stream *st, uint32_t seq, uint32_t wire_n)
{
	if (!wire_n)
		return;
	rra_fabric_count(a, k, s, RR_FABRIC_PACKETS);
	int32_t behind = (int32_t)(st->top_seq - seq);
	if (behind > 0 && seq + wire_n != st->top_seq)
		rra_fabric_count(a, k, s, RR_FABRIC_RETRANSMISSIONS);
	else if (behind < 0)
		rra_fabric_count(a, k, s, RR_FABRIC_PSN_GAPS);
	if ((int32_t)(seq + wire_n - st->top_seq) > 0)
		st->top_seq = seq + wire_n;
}

/* Bytes [seq, seq + n) past a hole, held in the ring with the ranges held
 * before them.  False when the ring or the ranges have no room. */
static bool stream_hold(struct stream *st, const uint8_t *p, uint32_t seq,
			uint32_t n)
{
	uint32_t base = st->next_seq;
	uint32_t lo = seq - base, hi = lo + n;   /* offsets past next_seq */
	if (hi > HELD_BYTES || hi < lo)
		return false;
	unsigned i = 0;
	while (i < st->nheld && st->held[i].end - base < lo)
		i++;
	unsigned j = i;   /* held[i, j): ranges this one meets or touches */
	for (; j < st->nheld && st->held[j].start - base <= hi; j++) {
		if (st->held[j].start - base < lo)
			lo = st->held[j].start - base;
		if (st->held[j].end - base > hi)
			hi = st->held[j].end - base;
	}
	if (i == j) {
		if (st->nheld == HELD_RANGES)
			return false;
		memmove(&st->held[i + 1], &st->held[i],
			(st->nheld - i) * sizeof(st->held[0]));
		st->nheld++;
	} else if (j > i + 1) {
		memmove(&st->held[i + 1], &st->held[j],
			(st->nheld - j) * sizeof(st->held[0]));
		st->nheld -= j - i - 1;
	}
	st->held[i].start = base + lo;
	st->held[i].end = base + hi;
	uint32_t at = seq % HELD_BYTES;
	uint32_t first = n < HELD_BYTES - at ? n : HELD_BYTES - at;
	memcpy(st->ring + at, p, first);
	memcpy(st->ring, p + first, n - first);
	return true;
}

/* Held ranges that the stream's next byte now reaches, appended. */
static void stream_unhold(struct rr_analyzer *a, uint32_t cn, int to,
			  struct stream *st)
{
	while (st->synced && st->nheld &&
	       (int32_t)(st->held[0].start - st->next_seq) <= 0) {
		uint32_t end = st->held[0].end;
		st->nheld--;
		memmove(&st->held[0], &st->held[1], st->nheld * sizeof(st->held[0]));
		int32_t n = (int32_t)(end - st->next_seq);
		if (n <= 0)
			continue;
		uint32_t from = st->next_seq, at = from % HELD_BYTES;
		uint32_t first = (uint32_t)n < HELD_BYTES - at ? (uint32_t)n : HELD_BYTES - at;
		stream_append(a, cn, to, st, st->ring + at, from, first);
		if (first < (uint32_t)n && st->synced)
			stream_append(a, cn, to, st, st->ring, from + first,
				      (uint32_t)n - first);
	}
}

/* A TCP segment [seq, seq + wire_n) of the stream that side `to` receives,
 * n bytes of it captured. */
static void stream_feed(struct rr_analyzer *a, uint32_t cn, int to,
			const uint8_t *p, uint32_t seq, uint32_t n,
			uint32_t wire_n)
{
	struct conn *k = &a->conns[cn];
	struct side *from = &k->side[1 - to];
	struct stream *st = stream_of(a, cn, from);
	if (!st || !st->synced)
		return;
	count_segment(a, k, 1 - to, st, seq, wire_n);
	int32_t ahead = (int32_t)(seq - st->next_seq);
	if (ahead > 0) {
		/* past a hole: held while there is room */
		if (n != wire_n || !stream_hold(st, p, seq, n))
			stream_gap(a, cn, to == 0, st);
		return;
	}
	/* retransmitted or overlapping bytes: keep what is new */
	uint32_t skip = st->next_seq - seq;   /* modulo 2^32, as TCP counts */
	if (skip >= wire_n)
		return;
	if (skip < n)
		stream_append(a, cn, to, st, p + skip, seq + skip, n - skip);
	if (n < wire_n) {
		/* the capture cut the segment */
		stream_drain(a, cn, to, st);
		if (k->markers ||
		    !stream_cut(a, cn, to, st, wire_n - (skip > n ? skip : n))) {
			stream_gap(a, cn, to == 0, st);
			return;
		}
		st->next_seq = seq + wire_n;
	}
	stream_unhold(a, cn, to, st);
	if (st->synced)
		stream_drain(a, cn, to, st);
}

/* MPA Request or Reply (RFC 5044 §7.1, RFC 6581): setup; FPDUs follow. */
void rra_iwarp_mpa(struct rr_analyzer *a, const struct rr_frame *f)
{
	uint8_t src[16], dst[16];
	rra_frame_addrs(f, src, dst);
	int to;
	const struct rr_mpa *m = &f->mpa;
	uint32_t cn = rra_tcp_conn_find(a, src, f->tcp.sport, dst, f->tcp.dport, &to);
	if (!m->reply && cn == NONE) {
		cn = rra_conn_open(a, RR_TRANSPORT_IWARP);
		if (cn == NONE)
			return;
		rra_side_set(a, cn, 1, dst, f->tcp.dport);
		rra_side_set(a, cn, 0, src, f->tcp.sport);
		to = 1;
	}
	if (cn == NONE)
		return;
	a->rep.pub.units.conn = cn;
	a->rep.pub.units.conn_id = cn != NONE ? a->conns[cn].info.id : RR_CONN_NONE;
	struct conn *k = &a->conns[cn];
	rra_set_private(a, cn, 1 - to, f);
	k->info.mpa_revision = m->revision;
	if (m->has_ird_ord) {
		k->info.ird = m->ird;
		k->info.ord = m->ord;
	}
	k->markers |= m->marker;
	k->crc |= m->crc;
	if (f->tcp.dport == a->cfg.iwarp_tcp_port ||
	    f->tcp.sport == a->cfg.iwarp_tcp_port)
		rra_conn_rpcrdma(a, cn);
	/* the sender's FPDUs start right after this frame */
	struct side *sender = &k->side[1 - to];
	uint32_t mpa_len = 20u + m->pd_len;
	sender->marker_set = true;
	sender->marker_seq0 = f->tcp.seq + mpa_len;
	struct stream *st = stream_of(a, cn, sender);
	if (st)
		stream_sync(st, sender->marker_seq0);
	if (m->reply)
		rra_negotiated(a, cn);
	uint32_t have = f->caplen > f->tcp.payload.off ?
				f->caplen - f->tcp.payload.off : 0;
	if (f->tcp.payload.len > mpa_len && have > mpa_len)
		stream_feed(a, cn, to, f->data + f->tcp.payload.off + mpa_len,
			    sender->marker_seq0,
			    (have < f->tcp.payload.len ? have : f->tcp.payload.len) -
				    mpa_len,
			    f->tcp.payload.len - mpa_len);
}

/* A TCP FIN or RST: the end of the iWARP connection it belongs to. */
void rra_tcp_end(struct rr_analyzer *a, const struct rr_frame *f)
{
	uint8_t src[16], dst[16];
	rra_frame_addrs(f, src, dst);
	int to;
	uint32_t cn = rra_tcp_conn_find(a, src, f->tcp.sport, dst, f->tcp.dport, &to);
	bool ours = cn != NONE && a->conns[cn].info.transport == RR_TRANSPORT_IWARP;
	/* a reset from or to the RPC-over-RDMA port: with no connection, one
	 * refused (nothing listening) */
	bool iwarp_port = f->tcp.sport == a->cfg.iwarp_tcp_port ||
			  f->tcp.dport == a->cfg.iwarp_tcp_port;
	if ((f->tcp.flags & RR_TCP_RST) && (ours || iwarp_port))
		a->st.tcp_resets++;
	/* RFC 9293 §3.10.7.1: a port in CLOSED state answers a SYN with
	 * <SEQ=0><ACK=SEG.SEQ+1><CTL=RST,ACK>; on another port than the
	 * iWARP port it may be an iWARP mount aimed there (no MPA request
	 * ever went), which the capture alone cannot tell from any refused
	 * TCP connection: counted, and its ports kept, for the report to say */
	if (!ours && !iwarp_port && f->tcp.flags == (RR_TCP_RST | RR_TCP_ACK) &&
	    f->tcp.seq == 0 && f->tcp.payload.len == 0) {
		a->st.tcp_refused_other++;
		a->st.tcp_refused_port = f->tcp.sport;
		a->st.tcp_refused_from_port = f->tcp.dport;
		memcpy(a->st.tcp_refused_addr, src, sizeof(src));
	}
	if (ours)
		rra_conn_closed(a, cn, f->tcp.flags & RR_TCP_RST);
}

/*
 * A segment whose first bytes are a whole FPDU, or, cut by the capture, an
 * FPDU header that decodes clean and a length within the segment: a place
 * where a stream seen mid-way, or lost, can be taken up (RFC 5044 §7
 * aligns FPDUs with segments).
 */
static bool fpdu_starts_segment(const struct rr_frame *f)
{
	const struct rr_note *n = &f->note[RR_LAYER_DDP];
	if (n->status == RR_COMPLETE)
		return n->problem == RR_PROBLEM_NONE;
	return n->status == RR_TRUNCATED && f->caplen < f->wirelen &&
	       f->payload.off != 0 &&
	       f->fpdu.crc_off + 4 <= f->tcp.payload.off + f->tcp.payload.len;
}

/*
 * A TCP segment of an iWARP connection goes to its stream.  A connection
 * seen only mid-stream starts at a segment that begins with a whole FPDU.
 * Returns false when the segment is not iWARP this analyzer follows.
 */
bool rra_iwarp_segment(struct rr_analyzer *a, const struct rr_frame *f)
{
	uint8_t src[16], dst[16];
	rra_frame_addrs(f, src, dst);
	int to;
	uint32_t cn = rra_tcp_conn_find(a, src, f->tcp.sport, dst, f->tcp.dport, &to);
	bool aligned = rr_has(f, RR_LAYER_DDP) && f->unit_index == 0 &&
		       f->fpdu.off == f->tcp.payload.off &&
		       fpdu_starts_segment(f);
	if (cn == NONE || a->conns[cn].info.transport != RR_TRANSPORT_IWARP) {
		if (!aligned)
			return false;
		cn = rra_conn_for(a, RR_TRANSPORT_IWARP, src, f->tcp.sport, dst,
				  f->tcp.dport, true, &to);
		if (cn == NONE)
			return false;
	}
	struct conn *k = &a->conns[cn];
	rra_conn_touch(a, cn);
	struct side *from = &k->side[1 - to];
	struct stream *st = stream_of(a, cn, from);
	if (!st)
		return true;
	if (!st->synced && aligned)
		stream_sync(st, f->tcp.seq);
	uint32_t off = f->tcp.payload.off;
	uint32_t have = f->caplen > off ? f->caplen - off : 0;
	if (have > f->tcp.payload.len)
		have = f->tcp.payload.len;
	stream_feed(a, cn, to, f->data + off, f->tcp.seq, have,
		    f->tcp.payload.len);
	return true;
}

/* One DDP message segment (RFC 5041 §5, RFC 5040 §4) sent to side `to`. */
static void iwarp_ddp(struct rr_analyzer *a, uint32_t cn, int to,
		      const struct rr_frame *f)
{
	struct conn *k = &a->conns[cn];
	rra_conn_touch(a, cn);
	const struct rr_ddp *d = &f->ddp;
	struct side *sd = &k->side[to];
	const uint8_t *pl = f->unit_data + f->payload.off;
	uint32_t plen = f->payload.len;
	rra_conn_packet(a, cn, plen);
	uint32_t have = f->unit_cap > f->payload.off ? f->unit_cap - f->payload.off : 0;
	if (have > plen)
		have = plen;
	switch (d->opcode) {
	case RR_RDMAP_WRITE:
		/* every DDP segment is tagged with its own STag and TO */
		rra_write_landed(a, cn, to, d->stag, d->to, plen, pl, have, plen,
				 false);
		break;
	case RR_RDMAP_READ_REQUEST: {
		/* its responses are tagged with the sink STag and TO (RFC
		 * 5040 §4.5) */
		struct rdma_op *o = rra_read_requested(a, cn, to, d->src_stag,
						       d->src_to, d->read_size);
		if (o) {
			o->match_id = d->sink_stag;
			o->match_offset = d->sink_to;
		}
		break;
	}
	case RR_RDMAP_READ_RESPONSE:
		for (unsigned i = 0; i < RDMA_OPS && a->ops_live; i++) {
			struct rdma_op *o = &a->ops[i];
			if (!o->used || !o->read || o->conn != cn ||
			    o->data_side != 1 - to || o->match_id != d->stag ||
			    d->to < o->match_offset || d->to - o->match_offset > o->left ||
			    plen > o->left - (d->to - o->match_offset))
				continue;
			if (rra_op_live(a, o))
				rra_op_landed(a, cn, o, RR_ACCESS_READ_RESPONSE,
					      (uint32_t)(d->to - o->match_offset),
					      pl, have, plen);
			if (d->last)
				rra_op_end(a, o);
			break;
		}
		break;
	case RR_RDMAP_SEND:
	case RR_RDMAP_SEND_INV:
	case RR_RDMAP_SEND_SE:
	case RR_RDMAP_SEND_SE_INV: {
		if (d->qn != 0)
			break;
		bool inv = d->opcode == RR_RDMAP_SEND_INV ||
			   d->opcode == RR_RDMAP_SEND_SE_INV;
		bool first = d->mo == 0;
		if (first && d->last) {
			rra_send_whole(a, cn, to, pl, have, plen,
				       inv ? d->inv_stag : 0, NULL);
			break;
		}
		if (!first && sd->slot != NONE && d->msn != sd->msn)
			break; /* another message's: not this one's piece */
		rra_send_piece(a, cn, to, first, d->last,
			       d->mo == rra_send_have(a, sd), pl, have, plen,
			       inv ? d->inv_stag : 0);
		if (first && sd->slot != NONE)
			sd->msn = d->msn;
		break;
	}
	default:
		break;
	}
}
