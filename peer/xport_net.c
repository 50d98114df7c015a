/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Network transports between two processes: udp (software RoCEv2,
 * xport_udp.c) and tcp (software iWARP, xport_tcp.c), opened here.
 */
#include <stdio.h>
#include <stdlib.h>

#include "xport_net-int.h"

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
	n->x.ops = o->tcp ? &net_tcp_ops : &net_udp_ops;
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
	if (net_resolve(local, local_port, &n->local, err, errlen) &&
	    (o->server && !o->tcp ? true :
	     net_resolve(remote, port, &n->peer, err, errlen)))
		x = o->tcp ? net_tcp_connect(n, err, errlen) :
			     net_udp_connect(n, err, errlen);
	if (!x)
		net_destroy(&n->x);
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
