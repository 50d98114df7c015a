/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Network transports between two processes.
 *
 * udp: software RoCEv2 (IBA annex A17).  Each peer binds its own address
 * on UDP 4791 and sends RoCEv2 packets as datagrams: the kernel adds IP and
 * UDP, the peer adds the ICRC computed over the headers the kernel will
 * write (DF set and an IP ID of 0 on an unconnected socket).  CM MADs on
 * QP1 connect and disconnect; the RC queue pair retransmits what is lost.
 *
 * tcp: software iWARP over a kernel TCP connection: MPA Req/Rep with
 * RFC 6581 IRD/ORD and RFC 8797 data (RFC 5044 §7.1), FPDUs with CRC32c
 * (§6.6) and optional markers (§5), DDP tagged and untagged messages
 * (RFC 5041) and RDMAP Send, Send with Invalidate, Write, Read Request and
 * Read Response (RFC 5040).
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

#include "cm.h"
#include "xport_net.h"

#define RXBUF (1u << 17)

struct tcp_read {
	struct tcp_read *next;
	uint32_t sink_key;
	uint64_t cookie;
};

struct net {
	struct xport x;      /* first: the ops see a struct xport */
	struct net_opts o;
	int fd;
	struct sockaddr_in local, peer;
	/* udp */
	struct soft_rc rc;
	struct cm_side me, them;
	uint64_t drop_state;
	bool got_drep;
	/* tcp */
	bool crc, markers;
	uint32_t tx_msn, tx_read_msn, tx_pos, rx_pos;
	struct tcp_read *reads;
	uint8_t *rx;         /* stream bytes not yet used, markers removed */
	uint32_t rx_len;
	uint8_t *msg;        /* untagged message being reassembled */
	uint32_t msg_len, msg_cap;
	struct rr_config cfg;
	struct rr_frame f;
};

static struct net *net_of(struct xport *x)
{
	return (struct net *)x;
}

static void push(struct net *n, enum xev_kind k, const char *why)
{
	struct xev ev = { .kind = k, .why = why };
	evq_push(&n->x.events, &ev);
}

static bool resolve(const char *addr, uint16_t port, struct sockaddr_in *sa,
		    char *err, size_t errlen)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons(port);
	if (inet_pton(AF_INET, addr, &sa->sin_addr) != 1) {
		snprintf(err, errlen, "'%s' is not an IPv4 address", addr);
		return false;
	}
	return true;
}

/* ---- udp: software RoCEv2 ---------------------------------------------- */

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
			push(n, XEV_DISCONNECTED, NULL);
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

/* ---- tcp: software iWARP ------------------------------------------------- */

static bool write_all(int fd, const uint8_t *p, uint32_t len)
{
	while (len) {
		ssize_t w = send(fd, p, len, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		len -= (uint32_t)w;
	}
	return true;
}

/*
 * RFC 5044 §7: senders align FPDUs with TCP segments.  Waiting until the
 * kernel has sent what is queued makes the next FPDU start a segment, as
 * iWARP stacks that build their own segments do.
 */
static void align_segment(struct net *n)
{
	int unsent = 0;
	for (int spins = 0; spins < 100000; spins++) {
		if (ioctl(n->fd, SIOCOUTQNSD, &unsent) < 0 || unsent == 0)
			return;
		sched_yield();
	}
}

static int tcp_fpdu(struct net *n, const struct rr_ddp *d, const uint8_t *pl,
		    uint32_t len)
{
	if (n->o.align_fpdus)
		align_segment(n);
	uint8_t fpdu[4096 + 128], marked[4096 + 256];
	struct rr_buf b;
	rr_buf_init(&b, fpdu, sizeof(fpdu));
	if (!rr_fpdu_encode(&b, d, pl, len, n->crc && !n->markers))
		return -1;
	n->x.st.packets++;
	if (!n->markers)
		return write_all(n->fd, fpdu, (uint32_t)b.len) ? 0 : -1;
	struct rr_buf mb;
	rr_buf_init(&mb, marked, sizeof(marked));
	if (!rr_mpa_mark(&mb, fpdu, b.len, &n->tx_pos, n->crc))
		return -1;
	return write_all(n->fd, marked, (uint32_t)mb.len) ? 0 : -1;
}

static int t_send(struct xport *x, const void *m, uint32_t len, uint32_t inv)
{
	struct net *n = net_of(x);
	const uint8_t *p = m;
	struct rr_ddp d = { .dv = 1, .rv = 1, .qn = 0, .inv_stag = inv };
	d.opcode = inv ? RR_RDMAP_SEND_INV : RR_RDMAP_SEND;
	d.msn = ++n->tx_msn;
	uint32_t done = 0;
	do {
		uint32_t k = len - done > n->o.mtu ? n->o.mtu : len - done;
		d.mo = done;
		d.last = done + k == len;
		if (tcp_fpdu(n, &d, p + done, k) < 0)
			return -1;
		done += k;
	} while (done < len);
	return 0;
}

static int t_write_tagged(struct net *n, uint8_t opcode, uint32_t key,
			  uint64_t va, const uint8_t *p, uint32_t len)
{
	struct rr_ddp d = { .tagged = true, .dv = 1, .rv = 1, .opcode = opcode,
			    .stag = key };
	uint32_t done = 0;
	do {
		uint32_t k = len - done > n->o.mtu ? n->o.mtu : len - done;
		d.to = va + done;
		d.last = done + k == len;
		if (tcp_fpdu(n, &d, p + done, k) < 0)
			return -1;
		done += k;
	} while (done < len);
	return 0;
}

static int t_write(struct xport *x, uint32_t key, uint64_t va, const void *d,
		   uint32_t len)
{
	return t_write_tagged(net_of(x), RR_RDMAP_WRITE, key, va, d, len);
}

static int t_read(struct xport *x, uint32_t key, uint64_t va, void *dst,
		  uint32_t len, uint64_t cookie)
{
	struct net *n = net_of(x);
	uint64_t sink_va;
	/* RFC 5040 §4.4: the responder writes into our sink buffer */
	uint32_t sink = mr_reg(&x->mrs, dst, len ? len : 1, &sink_va);
	struct tcp_read *r = calloc(1, sizeof(*r));
	if (!sink || !r)
		return -1;
	r->sink_key = sink;
	r->cookie = cookie;
	r->next = n->reads;
	n->reads = r;
	struct rr_ddp d = { .last = true, .dv = 1, .rv = 1, .qn = 1,
			    .opcode = RR_RDMAP_READ_REQUEST,
			    .msn = ++n->tx_read_msn, .sink_stag = sink,
			    .sink_to = sink_va, .read_size = len,
			    .src_stag = key, .src_to = va };
	return tcp_fpdu(n, &d, NULL, 0);
}

static void tcp_unit(struct net *n, const struct rr_frame *f)
{
	const struct rr_ddp *d = &f->ddp;
	const uint8_t *pl = f->unit_data + f->payload.off;
	uint32_t len = f->payload.len;
	if (d->tagged) {
		uint8_t *dst = mr_find(&n->x.mrs, d->stag, d->to, len);
		if (!dst) {
			push(n, XEV_ERROR, "tagged message outside a valid STag");
			return;
		}
		memcpy(dst, pl, len);
		if (d->opcode == RR_RDMAP_READ_RESPONSE && d->last) {
			for (struct tcp_read **pp = &n->reads; *pp;
			     pp = &(*pp)->next)
				if ((*pp)->sink_key == d->stag) {
					struct tcp_read *r = *pp;
					struct xev ev = { .kind = XEV_READ_DONE,
							  .cookie = r->cookie };
					*pp = r->next;
					mr_dereg(&n->x.mrs, r->sink_key);
					free(r);
					evq_push(&n->x.events, &ev);
					break;
				}
		}
		return;
	}
	if (d->opcode == RR_RDMAP_READ_REQUEST) {
		uint8_t *src = mr_find(&n->x.mrs, d->src_stag, d->src_to,
				       d->read_size);
		if (!src) {
			push(n, XEV_ERROR, "Read Request outside a valid STag");
			return;
		}
		t_write_tagged(n, RR_RDMAP_READ_RESPONSE, d->sink_stag,
			       d->sink_to, src, d->read_size);
		return;
	}
	if (d->opcode < RR_RDMAP_SEND || d->opcode > RR_RDMAP_SEND_SE_INV)
		return;
	if (d->mo == 0)
		n->msg_len = 0;
	if (n->msg_len + len > n->msg_cap) {
		n->msg_cap = (n->msg_len + len) * 2;
		n->msg = realloc(n->msg, n->msg_cap);
		if (!n->msg)
			abort();
	}
	memcpy(n->msg + n->msg_len, pl, len);
	n->msg_len += len;
	if (!d->last)
		return;
	struct xev ev = { .kind = XEV_RECV, .len = n->msg_len };
	ev.data = malloc(n->msg_len ? n->msg_len : 1);
	if (!ev.data)
		abort();
	memcpy(ev.data, n->msg, n->msg_len);
	if (d->opcode == RR_RDMAP_SEND_INV || d->opcode == RR_RDMAP_SEND_SE_INV) {
		ev.inv_key = d->inv_stag;
		mr_dereg(&n->x.mrs, d->inv_stag);
	}
	evq_push(&n->x.events, &ev);
}

/* Appends stream bytes without markers to the receive buffer. */
static void tcp_take(struct net *n, const uint8_t *p, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++, n->rx_pos++) {
		if (n->markers && n->rx_pos % 512 < 4)
			continue;
		n->rx[n->rx_len++] = p[i];
	}
}

static int tcp_recv_some(struct net *n, int timeout_ms)
{
	struct pollfd pfd = { .fd = n->fd, .events = POLLIN };
	int r = poll(&pfd, 1, timeout_ms);
	if (r <= 0)
		return r;
	uint8_t buf[16384];
	ssize_t got = recv(n->fd, buf, RXBUF - n->rx_len < sizeof(buf) ?
					     RXBUF - n->rx_len : sizeof(buf), 0);
	if (got <= 0) {
		if (n->x.connected) {
			n->x.connected = false;
			push(n, XEV_DISCONNECTED, NULL);
		}
		return -1;
	}
	tcp_take(n, buf, (uint32_t)got);
	uint32_t used = 0;
	/* whole FPDUs only; the rest waits for more bytes */
	while (n->rx_len - used >= 2) {
		uint32_t total = rr_fpdu_total_len(n->rx + used);
		if (total > n->rx_len - used)
			break;
		/*
		 * With markers the CRC covers them, so it cannot be checked
		 * over this copy without them; a capture of the stream can.
		 */
		struct rr_config cfg = n->cfg;
		if (n->markers)
			cfg.flags &= ~(uint32_t)RR_CFG_VERIFY_CRC32C;
		rr_decode_fpdu(&cfg, n->rx + used, total,
			       n->crc && !n->markers, &n->f);
		if (n->f.status == RR_COMPLETE)
			tcp_unit(n, &n->f);
		else
			push(n, XEV_ERROR, "malformed FPDU");
		used += total;
	}
	memmove(n->rx, n->rx + used, n->rx_len - used);
	n->rx_len -= used;
	return 1;
}

static int t_poll(struct xport *x, int timeout_ms, struct xev *ev)
{
	struct net *n = net_of(x);
	if (evq_pop(&x->events, ev))
		return 1;
	tcp_recv_some(n, timeout_ms);
	return evq_pop(&x->events, ev) ? 1 : 0;
}

static void t_disconnect(struct xport *x)
{
	struct net *n = net_of(x);
	shutdown(n->fd, SHUT_WR);
	/* drain until the server closes too */
	uint64_t until = now_ms() + 1000;
	while (now_ms() < until && tcp_recv_some(n, 50) >= 0)
		;
	x->connected = false;
}

/* MPA Request (client) or Reply (server) with RFC 6581 and RFC 8797 data. */
static bool mpa_exchange(struct net *n, char *err, size_t errlen)
{
	uint8_t out[64], in[20 + 512];
	struct rr_buf b;
	bool v2 = n->o.mpa_rev != 1;
	struct rr_mpa m = { .reply = n->o.server, .crc = n->o.crc,
			    .marker = n->o.markers, .enhanced = v2,
			    .revision = v2 ? 2 : 1, .has_ird_ord = v2,
			    .ird = 16, .ord = 16 };
	if (!n->o.server) {
		rr_buf_init(&b, out, sizeof(out));
		rr_mpa_encode(&b, &m, n->o.pd, n->o.pd_len);
		if (!write_all(n->fd, out, (uint32_t)b.len)) {
			snprintf(err, errlen, "cannot send the MPA Request");
			return false;
		}
	}
	/* the peer's frame: 20 bytes, then its private data */
	uint32_t have = 0, want = 20;
	uint64_t until = now_ms() + n->o.timeout_ms;
	while (have < want) {
		struct pollfd pfd = { .fd = n->fd, .events = POLLIN };
		if (now_ms() > until || poll(&pfd, 1, 100) < 0) {
			snprintf(err, errlen, "no MPA %s from the peer",
				 n->o.server ? "Request" : "Reply");
			return false;
		}
		if (!(pfd.revents & POLLIN))
			continue;
		ssize_t got = recv(n->fd, in + have, want - have, 0);
		if (got <= 0) {
			snprintf(err, errlen, "the peer closed the connection");
			return false;
		}
		have += (uint32_t)got;
		if (have == 20) {
			want = 20u + (uint32_t)(in[18] << 8 | in[19]);
			if (want > sizeof(in)) {
				snprintf(err, errlen, "MPA private data too long");
				return false;
			}
		}
	}
	rr_decode_mpa(&n->cfg, in, want, &n->f);
	if (!rr_has(&n->f, RR_LAYER_MPA) ||
	    n->f.note[RR_LAYER_MPA].status != RR_COMPLETE ||
	    n->f.mpa.reply == n->o.server) {
		snprintf(err, errlen, "the peer sent no valid MPA frame");
		return false;
	}
	const struct rr_mpa *pm = &n->f.mpa;
	memcpy(n->x.peer_pd, in + pm->ulp_data.off, pm->ulp_data.len);
	n->x.peer_pd_len = pm->ulp_data.len;
	/* RFC 5044 §7.1: CRC if either asks; markers as the receiver asks */
	n->crc = n->o.crc || pm->crc;
	n->markers = n->o.markers || pm->marker;
	if (n->o.server) {
		m.crc = n->crc;
		m.marker = n->markers;
		rr_buf_init(&b, out, sizeof(out));
		rr_mpa_encode(&b, &m, n->o.pd, n->o.pd_len);
		if (!write_all(n->fd, out, (uint32_t)b.len)) {
			snprintf(err, errlen, "cannot send the MPA Reply");
			return false;
		}
	}
	return true;
}

/* ---- setup -------------------------------------------------------------- */

static void n_destroy(struct xport *x)
{
	struct net *n = net_of(x);
	if (n->fd >= 0)
		close(n->fd);
	soft_rc_fini(&n->rc);
	evq_free(&x->events);
	while (n->reads) {
		struct tcp_read *r = n->reads;
		n->reads = r->next;
		free(r);
	}
	free(n->rx);
	free(n->msg);
	free(n);
}

static const struct xport_ops udp_ops = {
	.send = u_send, .write = u_write, .read = u_read, .poll = u_poll,
	.disconnect = u_disconnect, .destroy = n_destroy,
};

static const struct xport_ops tcp_ops = {
	.send = t_send, .write = t_write, .read = t_read, .poll = t_poll,
	.disconnect = t_disconnect, .destroy = n_destroy,
};

static struct xport *udp_connect(struct net *n, char *err, size_t errlen)
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

static struct xport *tcp_connect(struct net *n, char *err, size_t errlen)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (n->o.server) {
		if (fd < 0 || bind(fd, (struct sockaddr *)&n->local,
				   sizeof(n->local)) < 0 || listen(fd, 1) < 0) {
			snprintf(err, errlen, "cannot listen on %s:%u: %s",
				 inet_ntoa(n->local.sin_addr),
				 ntohs(n->local.sin_port), strerror(errno));
			if (fd >= 0)
				close(fd);
			return NULL;
		}
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		if (poll(&pfd, 1, (int)n->o.timeout_ms) <= 0) {
			snprintf(err, errlen, "no client connected within the "
					      "timeout");
			close(fd);
			return NULL;
		}
		n->fd = accept(fd, NULL, NULL);
		close(fd);
	} else {
		/* a connect that nobody answers must not hang: poll with the
		 * run's timeout */
		int flags = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
		int rc = -1, soerr = 0;
		socklen_t sl = sizeof(soerr);
		if (flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0) {
			rc = connect(fd, (struct sockaddr *)&n->peer,
				     sizeof(n->peer));
			if (rc < 0 && errno == EINPROGRESS) {
				struct pollfd pfd = { .fd = fd, .events = POLLOUT };
				if (poll(&pfd, 1, (int)n->o.timeout_ms) == 1 &&
				    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr,
					       &sl) == 0 && soerr == 0)
					rc = 0;
				else
					errno = soerr ? soerr : ETIMEDOUT;
			}
			fcntl(fd, F_SETFL, flags);
		}
		if (rc < 0) {
			snprintf(err, errlen, "cannot connect to %s:%u: %s",
				 inet_ntoa(n->peer.sin_addr),
				 ntohs(n->peer.sin_port), strerror(errno));
			if (fd >= 0)
				close(fd);
			return NULL;
		}
		n->fd = fd;
	}
	if (n->fd < 0) {
		snprintf(err, errlen, "accept: %s", strerror(errno));
		return NULL;
	}
	setsockopt(n->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	n->rx = malloc(RXBUF);
	if (!n->rx || !mpa_exchange(n, err, errlen))
		return NULL;
	n->x.connected = true;
	return &n->x;
}

struct xport *net_connect(const struct net_opts *o, char *err, size_t errlen)
{
	struct net *n = calloc(1, sizeof(*n));
	if (!n) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	n->o = *o;
	n->fd = -1;
	rr_config_init(&n->cfg);
	n->x.ops = o->tcp ? &tcp_ops : &udp_ops;
	mr_init(&n->x.mrs, o->server ? 0x5e : 0xc1);
	uint16_t port = o->port ? o->port : o->tcp ? RR_NFS_RDMA_PORT : RR_ROCEV2_UDP_PORT;
	const char *local = o->local ? o->local :
			    o->tcp ? (o->server ? "127.0.0.1" : "0.0.0.0") :
			    o->server ? "127.0.0.2" : "127.0.0.1";
	const char *remote = o->remote ? o->remote :
			     o->tcp ? "127.0.0.1" : "127.0.0.2";
	/* a TCP client lets the kernel pick its port */
	uint16_t local_port = o->tcp && !o->server ? 0 : port;
	struct xport *x = NULL;
	if (resolve(local, local_port, &n->local, err, errlen) &&
	    (o->server && !o->tcp ? true :
	     resolve(remote, port, &n->peer, err, errlen)))
		x = o->tcp ? tcp_connect(n, err, errlen) :
			     udp_connect(n, err, errlen);
	if (!x)
		n_destroy(&n->x);
	return x;
}

void net_tick(struct xport *x, uint64_t now)
{
	struct net *n = net_of(x);
	if (!n->o.tcp && x->connected)
		soft_rc_tick(&n->rc, now);
}

bool net_idle(struct xport *x)
{
	struct net *n = net_of(x);
	return n->o.tcp ? true : soft_rc_idle(&n->rc);
}
