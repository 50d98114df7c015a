/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Network transport between two processes: tcp.
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

#include "xport_net-int.h"

#define RXBUF (1u << 17)

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
			net_push(n, XEV_ERROR, "tagged message outside a valid STag");
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
			net_push(n, XEV_ERROR, "Read Request outside a valid STag");
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
			net_push(n, XEV_DISCONNECTED, NULL);
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
			net_push(n, XEV_ERROR, "malformed FPDU");
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

const struct xport_ops net_tcp_ops = {
	.send = t_send, .write = t_write, .read = t_read, .poll = t_poll,
	.disconnect = t_disconnect, .destroy = net_destroy,
};

struct xport *net_tcp_connect(struct net *n, char *err, size_t errlen)
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
