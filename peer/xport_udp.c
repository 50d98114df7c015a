/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Network transport between two processes: udp.
 *
 * udp: software RoCEv2 (IBA annex A17).  Each peer binds its own address
 * on UDP 4791 and sends RoCEv2 packets as datagrams: the kernel adds IP and
 * UDP, the peer adds the ICRC computed over the headers the kernel will
 * write (DF set and an IP ID of 0 on an unconnected socket).  CM MADs on
 * QP1 connect and disconnect; the RC queue pair retransmits what is lost.
 */
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "xport_net-int.h"

static bool drop_this(struct net *n)
{
	if (n->o.drop_pct <= 0)
		return false;
	/* xorshift64: the same run drops the same datagrams */
	uint64_t s = n->drop_state;
	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	n->drop_state = s;
	return (double)(s % 10000) < n->o.drop_pct * 100.0;
}

/* ICRC over the IPv4 and UDP headers the kernel is going to write. */
static void udp_send(struct net *n, const uint8_t *ib, uint32_t len, bool may_drop)
{
	uint8_t pkt[20 + 8 + 4096 + 128];
	if (len > 4096 + 96)
		return;
	uint16_t udp_len = (uint16_t)(8 + len + 4);
	memset(pkt, 0, 28);
	pkt[0] = 0x45;
	pkt[2] = (uint8_t)((20 + udp_len) >> 8);
	pkt[3] = (uint8_t)(20 + udp_len);
	pkt[6] = 0x40; /* DF; ID 0 */
	pkt[9] = 17;
	memcpy(pkt + 12, &n->local.sin_addr, 4);
	memcpy(pkt + 16, &n->peer.sin_addr, 4);
	memcpy(pkt + 20, &n->local.sin_port, 2);
	memcpy(pkt + 22, &n->peer.sin_port, 2);
	pkt[24] = (uint8_t)(udp_len >> 8);
	pkt[25] = (uint8_t)udp_len;
	memcpy(pkt + 28, ib, len);
	uint32_t icrc = rr_icrc_compute(RR_TRANSPORT_ROCEV2, pkt, 28 + len);
	for (int i = 0; i < 4; i++)
		pkt[28 + len + (uint32_t)i] = (uint8_t)(icrc >> (8 * i));
	if (may_drop && drop_this(n)) {
		n->x.st.dropped++;
		return;
	}
	sendto(n->fd, pkt + 28, len + 4, 0, (struct sockaddr *)&n->peer,
	       sizeof(n->peer));
}

static void udp_tx(void *ctx, const uint8_t *ib, uint32_t len)
{
	udp_send(ctx, ib, len, true);
}

static void udp_cm(struct net *n, uint16_t attr, const uint8_t *pd,
		   uint32_t pd_len)
{
	uint8_t ib[512];
	uint32_t len = cm_build(ib, sizeof(ib), &n->me, &n->them, attr, pd,
				pd_len);
	if (len)
		udp_send(n, ib, len, false);
	n->me.mad_psn++;
}

static void rc_up(struct net *n)
{
	if (n->x.connected)
		return;
	soft_rc_init(&n->rc, &n->x, n->me.qpn, n->them.qpn, n->o.mtu,
		     n->me.psn, n->them.psn);
	n->rc.tx = udp_tx;
	n->rc.tx_ctx = n;
	n->x.connected = true;
}

/* One datagram: CM on QP1, everything else to the RC queue pair. */
static void udp_input(struct net *n, const uint8_t *p, uint32_t len,
		      const struct sockaddr_in *from)
{
	rr_decode_roce_payload(&n->cfg, p, len, &n->f);
	if (!rr_has(&n->f, RR_LAYER_BTH))
		return;
	if (n->f.bth.dqpn != 1) {
		/* IBA §12.9.6: traffic stands in for a lost RTU */
		if (!n->x.connected && n->o.server && n->them.qpn)
			rc_up(n);
		if (n->x.connected)
			soft_rc_input(&n->rc, p, len);
		return;
	}
	if (n->o.server && n->f.cm.attr_id == RR_CM_REQ)
		n->peer = *from;
	struct cm_msg m;
	if (!cm_parse(&n->f, &m))
		return;
	switch (m.attr) {
	case RR_CM_REQ:
		if (!n->o.server)
			break;
		/* a repeated REQ means our REP was lost */
		n->them.comm_id = m.comm_id;
		n->them.qpn = m.qpn;
		n->them.psn = m.psn;
		n->me.tid = m.tid;
		memcpy(n->x.peer_pd, m.pd, m.pd_len);
		n->x.peer_pd_len = m.pd_len;
		udp_cm(n, RR_CM_REP, n->o.pd, n->o.pd_len);
		break;
	case RR_CM_REP:
		if (n->o.server || n->x.connected)
			break;
		n->them.comm_id = m.comm_id;
		n->them.qpn = m.qpn;
		n->them.psn = m.psn;
		memcpy(n->x.peer_pd, m.pd, m.pd_len);
		n->x.peer_pd_len = m.pd_len;
		udp_cm(n, RR_CM_RTU, NULL, 0);
		rc_up(n);
		break;
	case RR_CM_RTU:
		if (n->o.server)
			rc_up(n);
		break;
	case RR_CM_DREQ:
		udp_cm(n, RR_CM_DREP, NULL, 0);
		if (n->o.server && n->x.connected) {
			n->x.connected = false;
			net_push(n, XEV_DISCONNECTED, NULL);
		}
		break;
	case RR_CM_DREP:
		n->got_drep = true;
		break;
	default:
		break;
	}
}

static int udp_recv_some(struct net *n, int timeout_ms)
{
	struct pollfd pfd = { .fd = n->fd, .events = POLLIN };
	int r = poll(&pfd, 1, timeout_ms);
	if (r <= 0)
		return r;
	static uint8_t buf[8192];
	for (int i = 0; i < 64; i++) {
		struct sockaddr_in from;
		socklen_t fl = sizeof(from);
		ssize_t got = recvfrom(n->fd, buf, sizeof(buf), MSG_DONTWAIT,
				       (struct sockaddr *)&from, &fl);
		if (got <= 0)
			break;
		udp_input(n, buf, (uint32_t)got, &from);
	}
	return 1;
}

static int u_send(struct xport *x, const void *m, uint32_t len, uint32_t inv)
{
	return soft_rc_send(&net_of(x)->rc, m, len, inv);
}

static int u_write(struct xport *x, uint32_t key, uint64_t va, const void *d,
		   uint32_t len)
{
	return soft_rc_write(&net_of(x)->rc, key, va, d, len);
}

static int u_read(struct xport *x, uint32_t key, uint64_t va, void *dst,
		  uint32_t len, uint64_t cookie)
{
	return soft_rc_read(&net_of(x)->rc, key, va, dst, len, cookie);
}

static int u_poll(struct xport *x, int timeout_ms, struct xev *ev)
{
	struct net *n = net_of(x);
	if (evq_pop(&x->events, ev))
		return 1;
	udp_recv_some(n, timeout_ms);
	soft_rc_tick(&n->rc, now_ms());
	return evq_pop(&x->events, ev) ? 1 : 0;
}

static void u_disconnect(struct xport *x)
{
	struct net *n = net_of(x);
	/* DREQ until DREP, a few times at most */
	for (int i = 0; i < 10 && !n->got_drep; i++) {
		udp_cm(n, RR_CM_DREQ, NULL, 0);
		uint64_t until = now_ms() + 50;
		while (!n->got_drep && now_ms() < until)
			udp_recv_some(n, 10);
	}
	x->connected = false;
}

const struct xport_ops net_udp_ops = {
	.send = u_send, .write = u_write, .read = u_read, .poll = u_poll,
	.disconnect = u_disconnect, .destroy = net_destroy,
};

struct xport *net_udp_connect(struct net *n, char *err, size_t errlen)
{
	/* no SO_REUSEADDR: a second peer on the address must fail, not
	 * share the datagrams */
	n->fd = socket(AF_INET, SOCK_DGRAM, 0);
	int pmtu = IP_PMTUDISC_DO, rcvbuf = 4 << 20;
	setsockopt(n->fd, IPPROTO_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu));
	setsockopt(n->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (n->fd < 0 || bind(n->fd, (struct sockaddr *)&n->local,
			      sizeof(n->local)) < 0) {
		snprintf(err, errlen, "cannot bind %s:%u: %s",
			 inet_ntoa(n->local.sin_addr), ntohs(n->local.sin_port),
			 strerror(errno));
		return NULL;
	}
	memcpy(n->me.ip, &n->local.sin_addr, 4);
	n->me.comm_id = n->o.server ? 0x7a0b3c02 : 0x2c1a0d01 ^ (uint32_t)getpid();
	n->me.qpn = n->o.server ? 0x000022 : 0x000011;
	n->me.psn = (n->o.server ? 0x8000 : 0x1000) + ((uint32_t)getpid() & 0xFFF);
	n->me.tid = 0x100 + (uint64_t)getpid();
	n->me.guid = n->o.server ? 0x0002c90300a1b2c2ull : 0x0002c90300a1b2c1ull;
	n->me.port = (uint16_t)(0xc000 | (getpid() & 0x3FFF));
	n->me.mtu_code = mtu_code(n->o.mtu);
	n->drop_state = 0x9e3779b97f4a7c15ull ^ (uint64_t)n->o.server;
	uint64_t until = now_ms() + n->o.timeout_ms, next_req = 0;
	while (!n->x.connected) {
		if (now_ms() > until) {
			snprintf(err, errlen, n->o.server ?
				 "no client connected within the timeout" :
				 "no answer from %s:%u (is the server running?)",
				 inet_ntoa(n->peer.sin_addr), ntohs(n->peer.sin_port));
			return NULL;
		}
		if (!n->o.server && now_ms() >= next_req) {
			udp_cm(n, RR_CM_REQ, n->o.pd, n->o.pd_len);
			next_req = now_ms() + 200;
		}
		udp_recv_some(n, 20);
	}
	return &n->x;
}
