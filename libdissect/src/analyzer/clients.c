/* SPDX-License-Identifier: BSD-2-Clause */
/* Forward RPCs by their requester, an NFS client: "who is calling", as
 * nfstrace breaks a server's load down.  A client is its address (a host
 * with several connections, nconnect or several mounts, is one); a table
 * of RR_CLIENT_ROWS in the order first seen, the rest summed. */
#include "analyzer-int.h"

/* The row of connection cn's requester: found, made while there is room,
 * else the sum of the rest.  Rows are never taken back, so the
 * connection keeps the answer (client_row) until its requester changes. */
static struct rr_client_stats *client_find(struct rr_analyzer *a, uint32_t cn)
{
	struct conn *k = &a->conns[cn];
	const struct rr_conn_info *c = &k->info;
	struct rr_stats *st = &a->st;
	uint32_t i = 0;
	while (i < st->client_rows &&
	       (st->clients[i].transport != c->transport ||
		memcmp(st->clients[i].addr, c->requester_addr, 16)))
		i++;
	if (i == st->client_rows && i < RR_CLIENT_ROWS) {
		struct rr_client_stats *r = &st->clients[st->client_rows++];
		r->transport = c->transport;
		memcpy(r->addr, c->requester_addr, 16);
	}
	k->client_row = (uint8_t)(i + 1);
	return i < RR_CLIENT_ROWS ? &st->clients[i] : &st->clients_other;
}

struct rr_client_stats *rra_client_of(struct rr_analyzer *a, uint32_t cn)
{
	uint8_t row = a->conns[cn].client_row;
	if (!row)
		return client_find(a, cn);
	return row > RR_CLIENT_ROWS ? &a->st.clients_other : &a->st.clients[row - 1];
}

void rra_client_answered(struct rr_analyzer *a, uint32_t cn, const struct call *c)
{
	struct rr_client_stats *r = rra_client_of(a, cn);
	r->replies++;
	r->bytes_send += c->bytes_inline;
	r->bytes_read += c->bytes_read;
	r->bytes_write += c->bytes_write;
}
