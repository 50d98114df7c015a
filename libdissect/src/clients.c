/* SPDX-License-Identifier: BSD-2-Clause */
/* Forward RPCs by their requester, an NFS client: "who is calling", as
 * nfstrace breaks a server's load down.  A client is its address (a host
 * with several connections, nconnect or several mounts, is one); a table
 * of RR_CLIENT_ROWS in the order first seen, the rest summed. */
#include "analyzer-int.h"

/* The row of connection cn's requester: found, made while there is room,
 * else the sum of the rest. */
struct rr_client_stats *rra_client_of(struct rr_analyzer *a, uint32_t cn)
{
	const struct rr_conn_info *c = &a->conns[cn].info;
	struct rr_stats *st = &a->st;
	for (uint32_t i = 0; i < st->client_rows; i++) {
		struct rr_client_stats *r = &st->clients[i];
		if (r->transport == c->transport && !memcmp(r->addr, c->requester_addr, 16))
			return r;
	}
	if (st->client_rows == RR_CLIENT_ROWS)
		return &st->clients_other;
	struct rr_client_stats *r = &st->clients[st->client_rows++];
	r->transport = c->transport;
	memcpy(r->addr, c->requester_addr, 16);
	return r;
}

/* A forward call answered: its latency and the bytes its RPC moved. */
void rra_client_answered(struct rr_analyzer *a, uint32_t cn, const struct rr_ev_rpc_done *d)
{
	struct rr_client_stats *r = rra_client_of(a, cn);
	r->replies++;
	r->bytes_send += d->bytes_inline;
	r->bytes_read += d->bytes_read;
	r->bytes_write += d->bytes_write;
	rr_latency_record(&r->latency, d->latency_ns);
}
