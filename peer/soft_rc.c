/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A software RC queue pair (IBA vol. 1 §9.5-§9.9): SENDs split into
 * FIRST/MIDDLE/LAST packets of one path MTU, RDMA WRITE and READ against
 * the other side's registered memory, ACK and NAK with PSN sequencing, and
 * go-back-N retransmission after a timeout.  Incoming packets are decoded
 * by libdissect.
 */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peer.h"

#define PSN_MASK 0xFFFFFFu
#define MAX_PKT (4096 + 64)

struct txq_entry {
	struct txq_entry *next;
	uint32_t psn, span;  /* span: PSNs taken (a READ takes one per packet) */
	bool is_read;
	uint32_t len;
	uint8_t bytes[];
};

struct pending_read {
	struct pending_read *next;
	uint32_t psn, npkts, next_psn, len;
	uint8_t *dst;
	uint64_t cookie;
};

uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* ---- registered memory and event queue ---------------------------------- */

void mr_init(struct mr_table *t, uint8_t key_byte)
{
	memset(t, 0, sizeof(*t));
	t->key_byte = key_byte;
}

uint32_t mr_reg(struct mr_table *t, void *buf, uint32_t len, uint64_t *va)
{
	for (uint32_t i = 0; i < MR_MAX; i++) {
		struct mr *m = &t->mr[i];
		if (m->valid)
			continue;
		/* like FRWR, a key reaches whole pages */
		m->len = (len + 4095u) & ~4095u;
		m->buf = buf;
		/* an address per slot: the same run gives the same capture */
		m->va = 0x7f0000000000ull | (uint64_t)t->key_byte << 32 |
			(uint64_t)(i + 1u) << 20;
		/* index, generation, side: a reused slot gets a new key, so a
		 * late invalidation of the old one cannot reach the new one */
		t->generation++;
		m->key = (i + 1u) << 16 | (t->generation & 0xFFu) << 8 |
			 t->key_byte;
		m->valid = true;
		*va = m->va;
		return m->key;
	}
	return 0;
}

static struct mr *mr_by_key(struct mr_table *t, uint32_t key)
{
	uint32_t i = (key >> 16) - 1u;
	if (i >= MR_MAX || (key & 0xFF) != t->key_byte)
		return NULL;
	struct mr *m = &t->mr[i];
	return m->valid && m->key == key ? m : NULL;
}

void mr_dereg(struct mr_table *t, uint32_t key)
{
	struct mr *m = mr_by_key(t, key);
	if (m)
		m->valid = false;
}

uint8_t *mr_find(struct mr_table *t, uint32_t key, uint64_t va, uint32_t len)
{
	struct mr *m = mr_by_key(t, key);
	if (!m || va < m->va || va - m->va > m->len ||
	    len > m->len - (va - m->va))
		return NULL;
	return m->buf + (va - m->va);
}

void evq_push(struct evq *q, const struct xev *ev)
{
	if (q->tail == q->cap) {
		if (q->head > 0) {
			memmove(q->ev, q->ev + q->head,
				(q->tail - q->head) * sizeof(*ev));
			q->tail -= q->head;
			q->head = 0;
		} else {
			q->cap = q->cap ? q->cap * 2 : 64;
			q->ev = realloc(q->ev, q->cap * sizeof(*ev));
			if (!q->ev)
				abort();
		}
	}
	q->ev[q->tail++] = *ev;
}

bool evq_pop(struct evq *q, struct xev *ev)
{
	if (q->head == q->tail)
		return false;
	*ev = q->ev[q->head++];
	if (q->head == q->tail)
		q->head = q->tail = 0;
	return true;
}

void evq_free(struct evq *q)
{
	struct xev ev;
	while (evq_pop(q, &ev))
		free(ev.data);
	free(q->ev);
	q->ev = NULL;
	q->cap = 0;
}

static void push_error(struct soft_rc *rc, const char *why)
{
	struct xev ev = { .kind = XEV_ERROR, .why = why };
	evq_push(&rc->x->events, &ev);
}

/* ---- sending ---------------------------------------------------------- */

static uint32_t psn_add(uint32_t psn, uint32_t n)
{
	return (psn + n) & PSN_MASK;
}

/* Signed distance a - b in PSN space. */
static int32_t psn_diff(uint32_t a, uint32_t b)
{
	int32_t d = (int32_t)((a - b) & PSN_MASK);
	return d >= 0x800000 ? d - 0x1000000 : d;
}

static void emit(struct soft_rc *rc, uint8_t opcode, uint32_t psn, bool ackreq,
		 const struct rr_ext *ext, const uint8_t *payload, uint32_t len,
		 uint32_t span, bool is_read)
{
	if (rc->in_error)
		return;  /* an error-state QP sends nothing */
	uint8_t pkt[MAX_PKT];
	struct rr_buf b;
	struct rr_bth bth = { .opcode = opcode, .pkey = 0xFFFF,
			      .dqpn = rc->peer_qpn, .psn = psn,
			      .ackreq = ackreq };
	rr_buf_init(&b, pkt, sizeof(pkt));
	if (!rr_ib_encode(&b, &bth, ext, payload, len)) {
		push_error(rc, "packet larger than the path MTU allows");
		return;
	}
	if (span) {
		struct txq_entry *e = malloc(sizeof(*e) + b.len);
		if (!e)
			abort();
		e->next = NULL;
		e->psn = psn;
		e->span = span;
		e->is_read = is_read;
		e->len = (uint32_t)b.len;
		memcpy(e->bytes, pkt, b.len);
		if (rc->txq_tail) {
			rc->txq_tail->next = e;
		} else {
			/* the timer runs from when something is outstanding */
			rc->txq_head = e;
			rc->last_progress_ms = now_ms();
		}
		rc->txq_tail = e;
	}
	rc->x->st.packets++;
	rc->tx(rc->tx_ctx, pkt, (uint32_t)b.len);
}

int soft_rc_send(struct soft_rc *rc, const void *m, uint32_t len, uint32_t inv)
{
	const uint8_t *p = m;
	uint32_t done = 0;
	do {
		uint32_t n = len - done > rc->mtu ? rc->mtu : len - done;
		bool first = done == 0, last = done + n == len;
		uint8_t op = rr_rc_packet_opcode(RR_OP_RC_SEND_FIRST, first, last);
		struct rr_ext x = { 0 };
		if (last && inv) {
			op = first ? RR_OP_RC_SEND_ONLY_INV :
				     RR_OP_RC_SEND_LAST_INV;
			x.present = RR_EXT_IETH;
			x.ieth.rkey = inv;
		}
		uint32_t psn = rc->sq_psn;
		rc->sq_psn = psn_add(psn, 1);
		emit(rc, op, psn, last, &x, p + done, n, 1, false);
		done += n;
	} while (done < len);
	return 0;
}

int soft_rc_write(struct soft_rc *rc, uint32_t key, uint64_t va,
		  const void *d, uint32_t len)
{
	const uint8_t *p = d;
	uint32_t done = 0;
	do {
		uint32_t n = len - done > rc->mtu ? rc->mtu : len - done;
		bool first = done == 0, last = done + n == len;
		uint8_t op = rr_rc_packet_opcode(RR_OP_RC_WRITE_FIRST, first, last);
		struct rr_ext x = { 0 };
		if (first) {
			x.present = RR_EXT_RETH;
			x.reth.va = va;
			x.reth.rkey = key;
			x.reth.dma_len = len;
		}
		uint32_t psn = rc->sq_psn;
		rc->sq_psn = psn_add(psn, 1);
		emit(rc, op, psn, last, &x, p + done, n, 1, false);
		done += n;
	} while (done < len);
	return 0;
}

int soft_rc_read(struct soft_rc *rc, uint32_t key, uint64_t va, void *dst,
		 uint32_t len, uint64_t cookie)
{
	struct pending_read *r = calloc(1, sizeof(*r));
	if (!r)
		abort();
	r->npkts = len ? (len + rc->mtu - 1) / rc->mtu : 1;
	r->psn = r->next_psn = rc->sq_psn;
	r->len = len;
	r->dst = dst;
	r->cookie = cookie;
	r->next = rc->reads;
	rc->reads = r;
	rc->sq_psn = psn_add(rc->sq_psn, r->npkts);
	struct rr_ext x = { .present = RR_EXT_RETH };
	x.reth.va = va;
	x.reth.rkey = key;
	x.reth.dma_len = len;
	emit(rc, RR_OP_RC_READ_REQUEST, r->psn, true, &x, NULL, 0, r->npkts,
	     true);
	return 0;
}

/* ---- the responder side of this QP ----------------------------------- */

/* The wait an RNR NAK asks for: timer code 0x0E, 1.28 ms. */
#define RNR_TIMER_CODE 0x0E

static void send_ack(struct soft_rc *rc, uint32_t psn, uint8_t syndrome)
{
	struct rr_ext x = { .present = RR_EXT_AETH };
	x.aeth.syndrome = syndrome;
	x.aeth.msn = rc->msn;
	emit(rc, RR_OP_RC_ACK, psn, false, &x, NULL, 0, 0, false);
}

/* A NAK of an error: the QP goes to the error state with it. */
static void send_fatal_nak(struct soft_rc *rc, uint32_t psn, uint8_t code)
{
	send_ack(rc, psn, 0x60 | code);
	rc->in_error = true;
}

static void read_response(struct soft_rc *rc, const struct rr_frame *f)
{
	const struct rr_ext *e = &f->ext;
	uint32_t len = e->reth.dma_len;
	uint8_t *src = mr_find(&rc->x->mrs, e->reth.rkey, e->reth.va, len);
	if (!src) {
		/* §9.7.5.2.8: remote access error */
		send_fatal_nak(rc, f->bth.psn, RR_NAK_REMOTE_ACCESS);
		return;
	}
	uint32_t npkts = len ? (len + rc->mtu - 1) / rc->mtu : 1;
	for (uint32_t i = 0, done = 0; i < npkts; i++) {
		uint32_t n = len - done > rc->mtu ? rc->mtu : len - done;
		uint8_t op = rr_rc_packet_opcode(RR_OP_RC_READ_RESP_FIRST, i == 0,
						 i + 1 == npkts);
		struct rr_ext x = { 0 };
		if (op != RR_OP_RC_READ_RESP_MIDDLE) {
			x.present = RR_EXT_AETH;
			x.aeth.syndrome = 0x1F;
			x.aeth.msn = rc->msn;
		}
		emit(rc, op, psn_add(f->bth.psn, i), false, &x, src + done, n, 0,
		     false);
		done += n;
	}
}

static void rx_append(struct soft_rc *rc, const uint8_t *p, uint32_t n)
{
	if (rc->rx_len + n > rc->rx_cap) {
		rc->rx_cap = (rc->rx_len + n) * 2;
		rc->rx_msg = realloc(rc->rx_msg, rc->rx_cap);
		if (!rc->rx_msg)
			abort();
	}
	memcpy(rc->rx_msg + rc->rx_len, p, n);
	rc->rx_len += n;
}

static void incoming_request(struct soft_rc *rc, const struct rr_frame *f)
{
	uint8_t op = f->bth.opcode;
	const uint8_t *pl = f->data + f->payload.off;
	uint32_t n = f->payload.len;
	int32_t d = psn_diff(f->bth.psn, rc->epsn);
	if (d > 0) {
		/* §9.7.5.1.1: a gap: ask for the missing packets once */
		if (!rc->nak_sent)
			send_ack(rc, rc->epsn, 0x60 | RR_NAK_PSN_SEQ_ERROR);
		rc->nak_sent = true;
		return;
	}
	if (d < 0) {
		/* a duplicate: answer again, never execute a SEND twice */
		if (op == RR_OP_RC_READ_REQUEST)
			read_response(rc, f);
		else
			send_ack(rc, psn_add(rc->epsn, PSN_MASK), 0x1F);
		return;
	}
	rc->nak_sent = false;
	bool starts = op == RR_OP_RC_SEND_FIRST || op == RR_OP_RC_SEND_ONLY ||
		      op == RR_OP_RC_SEND_ONLY_INV;
	if (starts && rc->x->recvs_counted && !rc->x->recvs) {
		/* no receive posted: RNR NAK, the sender waits and sends
		 * again from this PSN; what follows it is dropped unanswered */
		send_ack(rc, f->bth.psn, 0x20 | RNR_TIMER_CODE);
		rc->nak_sent = true;
		return;
	}
	if (starts && rc->x->recvs_counted)
		rc->x->recvs--;
	switch (op) {
	case RR_OP_RC_SEND_FIRST:
	case RR_OP_RC_SEND_MIDDLE:
		if (op == RR_OP_RC_SEND_FIRST)
			rc->rx_len = 0;
		rx_append(rc, pl, n);
		rc->epsn = psn_add(rc->epsn, 1);
		return;
	case RR_OP_RC_SEND_LAST:
	case RR_OP_RC_SEND_ONLY:
	case RR_OP_RC_SEND_LAST_INV:
	case RR_OP_RC_SEND_ONLY_INV: {
		bool only = op == RR_OP_RC_SEND_ONLY || op == RR_OP_RC_SEND_ONLY_INV;
		if (only)
			rc->rx_len = 0;
		rx_append(rc, pl, n);
		struct xev ev = { .kind = XEV_RECV, .len = rc->rx_len };
		ev.data = malloc(rc->rx_len ? rc->rx_len : 1);
		if (!ev.data)
			abort();
		memcpy(ev.data, rc->rx_msg, rc->rx_len);
		if (f->ext.present & RR_EXT_IETH) {
			ev.inv_key = f->ext.ieth.rkey;
			mr_dereg(&rc->x->mrs, ev.inv_key);
		}
		evq_push(&rc->x->events, &ev);
		rc->msn = (rc->msn + 1) & PSN_MASK;
		break;
	}
	case RR_OP_RC_WRITE_FIRST:
	case RR_OP_RC_WRITE_ONLY:
		rc->wr_key = f->ext.reth.rkey;
		rc->wr_va = f->ext.reth.va;
		rc->wr_off = 0;
		/* fall through */
	case RR_OP_RC_WRITE_MIDDLE:
	case RR_OP_RC_WRITE_LAST: {
		uint8_t *dst = mr_find(&rc->x->mrs, rc->wr_key,
				       rc->wr_va + rc->wr_off, n);
		if (!dst) {
			send_fatal_nak(rc, f->bth.psn, RR_NAK_REMOTE_ACCESS);
			return;
		}
		memcpy(dst, pl, n);
		rc->wr_off += n;
		if (op == RR_OP_RC_WRITE_FIRST || op == RR_OP_RC_WRITE_MIDDLE) {
			rc->epsn = psn_add(rc->epsn, 1);
			return;
		}
		rc->msn = (rc->msn + 1) & PSN_MASK;
		break;
	}
	case RR_OP_RC_READ_REQUEST: {
		uint32_t len = f->ext.reth.dma_len;
		uint32_t npkts = len ? (len + rc->mtu - 1) / rc->mtu : 1;
		read_response(rc, f);
		rc->epsn = psn_add(rc->epsn, npkts);
		rc->msn = (rc->msn + 1) & PSN_MASK;
		return;
	}
	default:
		return;
	}
	rc->epsn = psn_add(rc->epsn, 1);
	if (f->bth.ackreq)
		send_ack(rc, f->bth.psn, 0x1F);
}

/* ---- the requester side --------------------------------------------- */

static void retransmit_from(struct soft_rc *rc, uint32_t psn)
{
	for (struct txq_entry *e = rc->txq_head; e; e = e->next) {
		if (psn_diff(e->psn + e->span - 1, psn) < 0)
			continue;
		if (e->is_read)
			for (struct pending_read *r = rc->reads; r; r = r->next)
				if (r->psn == e->psn)
					r->next_psn = r->psn;
		rc->x->st.retransmits++;
		rc->tx(rc->tx_ctx, e->bytes, e->len);
	}
	rc->last_progress_ms = now_ms();
}

/* Drop acknowledged entries; READs leave only when their data is in. */
static void txq_ack(struct soft_rc *rc, uint32_t psn, bool include_reads,
		    uint32_t read_psn)
{
	struct txq_entry **pp = &rc->txq_head, *prev = NULL;
	bool progress = false;
	while (*pp) {
		struct txq_entry *e = *pp;
		bool done = e->is_read ? include_reads && e->psn == read_psn :
					 psn_diff(e->psn, psn) <= 0;
		if (done) {
			*pp = e->next;
			if (rc->txq_tail == e)
				rc->txq_tail = prev;
			free(e);
			progress = true;
		} else {
			prev = e;
			pp = &e->next;
		}
	}
	if (progress)
		rc->last_progress_ms = now_ms();
}

static void incoming_response(struct soft_rc *rc, const struct rr_frame *f)
{
	uint8_t op = f->bth.opcode;
	uint32_t psn = f->bth.psn;
	if (op == RR_OP_RC_ACK) {
		uint8_t type = f->ext.aeth.type, code = f->ext.aeth.value;
		if (type == RR_AETH_ACK) {
			txq_ack(rc, psn, false, 0);
		} else if (type == RR_AETH_RNR_NAK) {
			/* what came before it is taken */
			txq_ack(rc, psn_add(psn, PSN_MASK), false, 0);
			rc->rnr_wait = true;
			rc->rnr_psn = psn;
			rc->rnr_wait_us = rr_rnr_timer_us(code);
			rc->rnr_at_ms = now_ms() + (rc->rnr_wait_us + 999) / 1000;
		} else if (type == RR_AETH_NAK && code == RR_NAK_PSN_SEQ_ERROR) {
			txq_ack(rc, psn_add(psn, PSN_MASK), false, 0);
			retransmit_from(rc, psn);
		} else if (type == RR_AETH_NAK) {
			rc->in_error = true;
			push_error(rc, rr_nak_code_str(code) ?
					       rr_nak_code_str(code) : "NAK");
		}
		return;
	}
	for (struct pending_read **pp = &rc->reads; *pp; pp = &(*pp)->next) {
		struct pending_read *r = *pp;
		int32_t at = psn_diff(psn, r->psn);
		if (at < 0 || (uint32_t)at >= r->npkts)
			continue;
		if (psn != r->next_psn)
			return; /* out of order: the retransmission repeats it */
		uint32_t off = (uint32_t)at * rc->mtu;
		uint32_t n = f->payload.len;
		if (off + n > r->len) {
			push_error(rc, "READ response longer than requested");
			return;
		}
		memcpy(r->dst + off, f->data + f->payload.off, n);
		r->next_psn = psn_add(psn, 1);
		rc->last_progress_ms = now_ms();
		if ((uint32_t)at + 1 == r->npkts) {
			struct xev ev = { .kind = XEV_READ_DONE,
					  .cookie = r->cookie };
			*pp = r->next;
			txq_ack(rc, psn, true, r->psn);
			free(r);
			evq_push(&rc->x->events, &ev);
		}
		return;
	}
}

void soft_rc_input(struct soft_rc *rc, const uint8_t *pkt, uint32_t len)
{
	struct rr_frame *f = &rc->frame;
	rr_decode_roce_payload(&rc->cfg, pkt, len, f);
	/* only the transport headers matter here, not what the SEND holds */
	if (!rr_has(f, RR_LAYER_BTH) ||
	    f->note[RR_LAYER_BTH].status != RR_COMPLETE ||
	    (rr_has(f, RR_LAYER_EXT) &&
	     f->note[RR_LAYER_EXT].status != RR_COMPLETE) ||
	    f->bth.dqpn != rc->qpn || rc->in_error)
		return;
	uint8_t op = f->bth.opcode;
	if (op <= RR_OP_RC_READ_REQUEST || op == RR_OP_RC_SEND_LAST_INV ||
	    op == RR_OP_RC_SEND_ONLY_INV)
		incoming_request(rc, f);
	else if (op <= RR_OP_RC_ACK)
		incoming_response(rc, f);
}

uint32_t soft_rc_rnr_retry(struct soft_rc *rc)
{
	if (!rc->rnr_wait || rc->in_error)
		return 0;
	rc->rnr_wait = false;
	retransmit_from(rc, rc->rnr_psn);
	return rc->rnr_wait_us;
}

void soft_rc_tick(struct soft_rc *rc, uint64_t now)
{
	if (rc->rnr_wait && now >= rc->rnr_at_ms) {
		soft_rc_rnr_retry(rc);
		return;
	}
	if (rc->txq_head && !rc->in_error &&
	    now - rc->last_progress_ms >= rc->rto_ms)
		retransmit_from(rc, rc->txq_head->psn);
}

bool soft_rc_idle(const struct soft_rc *rc)
{
	return !rc->txq_head && !rc->reads;
}

void soft_rc_init(struct soft_rc *rc, struct xport *x, uint32_t qpn,
		  uint32_t peer_qpn, uint32_t mtu, uint32_t psn,
		  uint32_t peer_psn)
{
	memset(rc, 0, sizeof(*rc));
	rc->x = x;
	rc->qpn = qpn;
	rc->peer_qpn = peer_qpn;
	rc->mtu = mtu;
	rc->sq_psn = psn & PSN_MASK;
	rc->epsn = peer_psn & PSN_MASK;
	rc->rto_ms = 50;
	rc->last_progress_ms = now_ms();
	rr_config_init(&rc->cfg);
}

void soft_rc_fini(struct soft_rc *rc)
{
	while (rc->txq_head) {
		struct txq_entry *e = rc->txq_head;
		rc->txq_head = e->next;
		free(e);
	}
	rc->txq_tail = NULL;
	while (rc->reads) {
		struct pending_read *r = rc->reads;
		rc->reads = r->next;
		free(r);
	}
	free(rc->rx_msg);
	rc->rx_msg = NULL;
}
