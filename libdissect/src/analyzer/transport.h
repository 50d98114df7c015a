/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the transports' flows (ib_flow.c, iwarp_flow.c) call for every
 * packet, inline: apart from analyzer-int.h, so that the header every
 * module shares calls none of them.
 */
#ifndef RR_TRANSPORT_H
#define RR_TRANSPORT_H

#include "analyzer-int.h"

/* The connection and receiving side of a packet to (dst, dst_id) from
 * src (conn.c); one of its own for endpoints no connection has yet
 * (flow.c).  Inline: it runs for every packet, and found is the rule. */
static inline uint32_t rra_conn_for(struct rr_analyzer *a, uint8_t transport,
				    const uint8_t *src, uint32_t src_id,
				    const uint8_t *dst, uint32_t dst_id,
				    bool src_id_known, int *to)
{
	uint32_t cn = rra_conn_find(a, transport, src, src_id, dst, dst_id,
				    src_id_known, to);
	return cn != NONE ? cn : rra_conn_open_for(a, transport, src, src_id, dst,
						   dst_id, src_id_known, to);
}

/* One fabric event of the stream side s sends (RR_FABRIC_LIST): an RC
 * packet's (ib_flow.c) or a TCP segment's of an iWARP stream (iwarp_flow.c). */
static inline void rra_fabric_count(struct rr_analyzer *a, struct conn *k, int s,
				    enum rr_fabric_counter c)
{
	k->info.st.fabric[s][c]++;
	if (k->rpcrdma)
		a->st.total.fabric[s][c]++;
	if (c == RR_FABRIC_RETRANSMISSIONS || c == RR_FABRIC_PSN_GAPS)
		rra_span_add(&k->info.st.lost_at, a->frame_no);
}

#endif
