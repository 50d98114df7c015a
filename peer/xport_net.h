/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef RR_XPORT_NET_H
#define RR_XPORT_NET_H

#include <stddef.h>

#include "peer.h"

struct net_opts {
	bool tcp;            /* software iWARP; else software RoCEv2 on UDP */
	bool server;
	const char *local, *remote;
	uint16_t port;       /* 0: 4791 (udp) or 20049 (tcp) */
	uint32_t mtu;
	bool markers, crc;   /* tcp: MPA markers and CRC */
	uint8_t mpa_rev;     /* tcp: 1 (RFC 5044) or 2 (RFC 6581, default) */
	bool align_fpdus;    /* tcp: each FPDU starts a TCP segment */
	double drop_pct;     /* udp: share of outgoing datagrams to drop */
	uint32_t timeout_ms;
	const uint8_t *pd;   /* this side's RFC 8797 block */
	uint32_t pd_len;
};

/* Connects (client) or waits for one connection (server). */
struct xport *net_connect(const struct net_opts *o, char *err, size_t errlen);
/* Timers: retransmission. */
void net_tick(struct xport *x, uint64_t now);
/* Nothing of ours left unacknowledged. */
bool net_idle(struct xport *x);

/* Whether an RDMA device can be opened; err says what was found. */
int verbs_probe(char *err, size_t errlen);
/* The verbs transport (rdma-core): connect or accept with private data. */
struct xport *verbs_connect(const struct net_opts *o, char *err,
			    size_t errlen);

#endif
