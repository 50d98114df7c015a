/* SPDX-License-Identifier: BSD-2-Clause */
/* The network transports' addresses and teardown, below both. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xport_net-int.h"

bool net_resolve(const char *addr, uint16_t port, struct sockaddr_in *sa, char *err,
		 size_t errlen)
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


void net_destroy(struct xport *x)
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
