/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The pcap transport: requester and responder in one process, joined by an
 * in-memory wire; every packet is written to a capture file as Ethernet,
 * IPv4, UDP 4791 and the RoCEv2 packet with its ICRC, with consistent
 * addresses and timestamps.
 */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>

#include "cm.h"
#include "xport_pcap.h"

struct wire_pkt {
	struct wire_pkt *next;
	int to;
	uint32_t len;
	uint8_t bytes[];
};

struct pcap_side {
	struct xport x;
	struct soft_rc rc;
	struct rr_endpoints ep;
	struct cm_side cm;
	struct pcap_wire *w;
	int index;
};

struct pcap_wire {
	pcap_t *dead;
	pcap_dumper_t *out;
	struct timeval ts;
	uint64_t frames;
	struct pcap_side side[2];
	struct wire_pkt *head, *tail;
	uint8_t frame[4096 + 128];
};

static void put_frame(struct pcap_wire *w, struct pcap_side *from,
		      const uint8_t *ib, uint32_t len)
{
	struct rr_buf fb;
	rr_buf_init(&fb, w->frame, sizeof(w->frame));
	from->ep.ip_id++;
	if (!rr_frame_rocev2(&fb, &from->ep, ib, len))
		return;
	struct pcap_pkthdr h = { .ts = w->ts, .caplen = (bpf_u_int32)fb.len,
				 .len = (bpf_u_int32)fb.len };
	pcap_dump((u_char *)w->out, &h, w->frame);
	w->frames++;
	/* one microsecond per frame keeps timestamps apart and monotonic */
	if (++w->ts.tv_usec == 1000000) {
		w->ts.tv_sec++;
		w->ts.tv_usec = 0;
	}
	/* the peer receives the UDP payload: BTH .. ICRC */
	uint32_t udp_payload = (uint32_t)fb.len - 14 - 20 - 8;
	struct wire_pkt *p = malloc(sizeof(*p) + udp_payload);
	if (!p)
		abort();
	p->next = NULL;
	p->to = 1 - from->index;
	p->len = udp_payload;
	memcpy(p->bytes, w->frame + 14 + 20 + 8, udp_payload);
	if (w->tail)
		w->tail->next = p;
	else
		w->head = p;
	w->tail = p;
}

static void side_tx(void *ctx, const uint8_t *ib, uint32_t len)
{
	struct pcap_side *s = ctx;
	put_frame(s->w, s, ib, len);
}

/* The oldest packet on the wire, taken off it; NULL when it is empty. */
static struct wire_pkt *wire_pop(struct pcap_wire *w)
{
	struct wire_pkt *p = w->head;
	if (p) {
		w->head = p->next;
		if (!w->head)
			w->tail = NULL;
	}
	return p;
}

/* Deliver one queued packet; false when the wire is empty. */
static bool pump_one(struct pcap_wire *w)
{
	struct wire_pkt *p = wire_pop(w);
	if (!p)
		return false;
	soft_rc_input(&w->side[p->to].rc, p->bytes, p->len);
	free(p);
	return true;
}

static struct pcap_side *side_of(struct xport *x)
{
	return (struct pcap_side *)x;
}

static int p_send(struct xport *x, const void *m, uint32_t len, uint32_t inv)
{
	return soft_rc_send(&side_of(x)->rc, m, len, inv);
}

static int p_write(struct xport *x, uint32_t key, uint64_t va, const void *d,
		   uint32_t len)
{
	return soft_rc_write(&side_of(x)->rc, key, va, d, len);
}

static int p_read(struct xport *x, uint32_t key, uint64_t va, void *dst,
		  uint32_t len, uint64_t cookie)
{
	return soft_rc_read(&side_of(x)->rc, key, va, dst, len, cookie);
}

static int p_poll(struct xport *x, int timeout_ms, struct xev *ev)
{
	(void)timeout_ms; /* nothing happens here but what the wire carries */
	struct pcap_side *s = side_of(x);
	while (!evq_pop(&x->events, ev))
		if (!pump_one(s->w))
			return 0;
	return 1;
}

static void p_disconnect(struct xport *x)
{
	(void)x;
}

static void p_destroy(struct xport *x)
{
	(void)x;
}

static const struct xport_ops pcap_ops = {
	.send = p_send,
	.write = p_write,
	.read = p_read,
	.poll = p_poll,
	.disconnect = p_disconnect,
	.destroy = p_destroy,
};

static void send_cm(struct pcap_wire *w, int from, uint16_t attr,
		    const uint8_t *pd, uint32_t pd_len)
{
	uint8_t ib[512];
	struct pcap_side *s = &w->side[from], *o = &w->side[1 - from];
	uint32_t n = cm_build(ib, sizeof(ib), &s->cm, &o->cm, attr, pd, pd_len);
	if (n)
		put_frame(w, s, ib, n);
	s->cm.mad_psn++;
}

/* The CM exchange as a capture shows it; each side learns the other's data. */
static bool deliver_cm(struct pcap_wire *w, struct xport *to)
{
	struct wire_pkt *p = wire_pop(w);
	if (!p)
		return false;
	struct rr_config cfg;
	static struct rr_frame f;
	struct cm_msg m;
	rr_config_init(&cfg);
	rr_decode_roce_payload(&cfg, p->bytes, p->len, &f);
	bool ok = cm_parse(&f, &m);
	if (ok && (m.attr == RR_CM_REQ || m.attr == RR_CM_REP)) {
		memcpy(to->peer_pd, m.pd, m.pd_len);
		to->peer_pd_len = m.pd_len;
	}
	free(p);
	return ok;
}

struct pcap_wire *pcap_wire_open(const char *path, uint32_t mtu,
				 const uint8_t *client_pd, uint32_t client_len,
				 const uint8_t *server_pd, uint32_t server_len,
				 struct xport **client, struct xport **server,
				 char *err, size_t errlen)
{
	struct pcap_wire *w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->dead = pcap_open_dead(DLT_EN10MB, 65535);
	w->out = w->dead ? pcap_dump_open(w->dead, path) : NULL;
	if (!w->out) {
		snprintf(err, errlen, "%s: %s", path,
			 w->dead ? pcap_geterr(w->dead) : "cannot open");
		if (w->dead)
			pcap_close(w->dead);
		free(w);
		return NULL;
	}
	w->ts.tv_sec = 1767225600; /* 2026-01-01 00:00:00 UTC */
	static const uint8_t ip[2][4] = { { 192, 0, 2, 1 }, { 192, 0, 2, 2 } };
	for (int i = 0; i < 2; i++) {
		struct pcap_side *s = &w->side[i];
		s->w = w;
		s->index = i;
		s->x.ops = &pcap_ops;
		mr_init(&s->x.mrs, i ? 0x5e : 0xc1);
		memcpy(s->ep.src_mac, i ? "\x02\0\0\0\0\x02" : "\x02\0\0\0\0\x01", 6);
		memcpy(s->ep.dst_mac, i ? "\x02\0\0\0\0\x01" : "\x02\0\0\0\0\x02", 6);
		s->ep.ip_version = 4;
		memcpy(s->ep.src_ip, ip[i], 4);
		memcpy(s->ep.dst_ip, ip[1 - i], 4);
		s->ep.src_port = (uint16_t)(0xc000 + 0x11 * (i + 1));
		s->ep.dst_port = 4791;
		s->cm.comm_id = i ? 0x7a0b3c02 : 0x2c1a0d01;
		s->cm.qpn = i ? 0x22 : 0x11;
		s->cm.psn = i ? 0x8000 : 0x1000;
		s->cm.tid = 0x11;
		s->cm.guid = i ? 0x0002c90300a1b2c2ull : 0x0002c90300a1b2c1ull;
		memcpy(s->cm.ip, ip[i], 4);
		s->cm.port = 0xc5a3;
		s->cm.mtu_code = mtu_code(mtu);
	}
	/* REQ, REP, RTU on QP1 carry both sides' RFC 8797 data */
	send_cm(w, 0, RR_CM_REQ, client_pd, client_len);
	deliver_cm(w, &w->side[1].x);
	send_cm(w, 1, RR_CM_REP, server_pd, server_len);
	deliver_cm(w, &w->side[0].x);
	send_cm(w, 0, RR_CM_RTU, NULL, 0);
	deliver_cm(w, &w->side[1].x);
	for (int i = 0; i < 2; i++) {
		struct pcap_side *s = &w->side[i], *o = &w->side[1 - i];
		soft_rc_init(&s->rc, &s->x, s->cm.qpn, o->cm.qpn, mtu,
			     s->cm.psn, o->cm.psn);
		s->rc.tx = side_tx;
		s->rc.tx_ctx = s;
		s->x.connected = true;
	}
	*client = &w->side[0].x;
	*server = &w->side[1].x;
	return w;
}

bool pcap_wire_busy(const struct pcap_wire *w)
{
	return w->head != NULL;
}

bool pcap_wire_wait(struct pcap_wire *w)
{
	uint32_t wait_us = 0;
	for (int i = 0; i < 2; i++) {
		const struct soft_rc *rc = &w->side[i].rc;
		if (rc->rnr_wait && !rc->in_error && rc->rnr_wait_us > wait_us)
			wait_us = rc->rnr_wait_us;
	}
	if (!wait_us)
		return false;
	/* the capture's clock passes the wait before the SENDs go again */
	uint64_t usec = (uint64_t)w->ts.tv_usec + wait_us;
	w->ts.tv_sec += (time_t)(usec / 1000000);
	w->ts.tv_usec = (suseconds_t)(usec % 1000000);
	for (int i = 0; i < 2; i++)
		soft_rc_rnr_retry(&w->side[i].rc);
	return true;
}

uint64_t pcap_wire_frames(const struct pcap_wire *w)
{
	return w->frames;
}

void pcap_wire_close(struct pcap_wire *w)
{
	if (!w)
		return;
	while (pump_one(w))
		;
	send_cm(w, 0, RR_CM_DREQ, NULL, 0);
	send_cm(w, 1, RR_CM_DREP, NULL, 0);
	while (w->head) {
		struct wire_pkt *p = w->head;
		w->head = p->next;
		free(p);
	}
	for (int i = 0; i < 2; i++) {
		soft_rc_fini(&w->side[i].rc);
		evq_free(&w->side[i].x.events);
	}
	pcap_dump_close(w->out);
	pcap_close(w->dead);
	free(w);
}
