/* SPDX-License-Identifier: BSD-2-Clause */
/* What the network transports share (xport_net.c above them, xport_udp.c
 * and xport_tcp.c, xport_net_base.c below): the connection's state. */
#ifndef RR_XPORT_NET_INT_H
#define RR_XPORT_NET_INT_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "cm.h"
#include "xport_net.h"

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

static inline struct net *net_of(struct xport *x)
{
	return (struct net *)x;
}

static inline void net_push(struct net *n, enum xev_kind k, const char *why)
{
	struct xev ev = { .kind = k, .why = why };
	evq_push(&n->x.events, &ev);
}

/* xport_net_base.c */
bool net_resolve(const char *addr, uint16_t port, struct sockaddr_in *sa, char *err,
		 size_t errlen);
void net_destroy(struct xport *x);

/* xport_udp.c: software RoCEv2; xport_tcp.c: software iWARP */
extern const struct xport_ops net_udp_ops, net_tcp_ops;
struct xport *net_udp_connect(struct net *n, char *err, size_t errlen);
struct xport *net_tcp_connect(struct net *n, char *err, size_t errlen);

#endif
