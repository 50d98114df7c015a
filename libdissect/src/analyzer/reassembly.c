/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SENDs reassembled from their pieces, for every transport: IB and RoCE
 * packets (FIRST, MIDDLE, LAST: IBA vol. 1 §9.5) and iWARP DDP segments
 * (untagged, by MSN and MO: RFC 5041 §5.3).  A whole message goes to the
 * flow (flow.c); the first send_keep bytes of one are kept, its headers.
 */
#include "analyzer-int.h"

/* The slot of the SEND arriving at side sd, a new one if it has none. */
static struct rsm *rsm_get(struct rr_analyzer *a, struct side *sd)
{
	if (sd->slot != NONE)
		return &a->rsm[sd->slot];
	for (uint32_t n = 0; n < a->lim.reassembly_slots; n++) {
		uint32_t i = (a->free_rsm_hint + n) % a->lim.reassembly_slots;
		if (!a->rsm[i].used) {
			a->rsm[i].used = true;
			a->rsm[i].len = a->rsm[i].kept = 0;
			sd->slot = i;
			a->free_rsm_hint = i + 1;
			return &a->rsm[i];
		}
	}
	a->st.reassembly_dropped++;
	return NULL;
}

static void rsm_put(struct rr_analyzer *a, struct side *sd)
{
	if (sd->slot != NONE) {
		a->rsm[sd->slot].used = false;
		sd->slot = NONE;
	}
}

static void rsm_append(const struct rr_analyzer *a, struct rsm *r,
		       const uint8_t *p, uint32_t n)
{
	uint32_t room = a->lim.send_keep - r->kept;
	uint32_t take = n < room ? n : room;
	memcpy(r->bytes + r->kept, p, take);
	r->kept += take;
	r->len += n;
}

/*
 * A SEND whole in one packet (IB SEND ONLY, an iWARP DDP segment both
 * first and last) arriving at side `to` of connection cn: plen bytes, have
 * of them captured; what was being reassembled there is given up.
 * inv_key: the STag a Send With Invalidate names (0: none); pre: the frame
 * it was decoded with (NULL: none).  Apart from rra_send_piece, as most
 * messages come whole: one call with the message's own arguments.
 */
void rra_send_whole(struct rr_analyzer *a, uint32_t cn, int to,
		    const uint8_t *p, uint32_t have, uint32_t plen,
		    uint32_t inv_key, const struct rr_frame *pre)
{
	rsm_put(a, &a->conns[cn].side[to]);
	rra_message(a, cn, to, p, have, plen, inv_key, pre);
}

/*
 * A piece of a SEND of several packets arriving at side `to` of
 * connection cn: plen bytes, have of them captured.  `first` and `last`
 * say where it stands in its message (never both: rra_send_whole);
 * `in_order` is false when what should come before it is known lost (a
 * PSN gap, an MO that does not follow), and the message is then dropped.
 * inv_key: the STag a Send With Invalidate names (0: none).
 */
void rra_send_piece(struct rr_analyzer *a, uint32_t cn, int to, bool first,
		    bool last, bool in_order, const uint8_t *p, uint32_t have,
		    uint32_t plen, uint32_t inv_key)
{
	struct side *sd = &a->conns[cn].side[to];
	struct rsm *r;
	if (first) {
		rsm_put(a, sd);
		r = rsm_get(a, sd);
		if (!r)
			return;
	} else {
		if (sd->slot == NONE)
			return; /* its first piece is not in the capture */
		if (!in_order) {
			rsm_put(a, sd); /* a piece before it is lost */
			return;
		}
		r = &a->rsm[sd->slot];
	}
	rsm_append(a, r, p, have);
	r->len += plen - have;
	if (last) {
		rra_message(a, cn, to, r->bytes, r->kept, r->len, inv_key, NULL);
		rsm_put(a, sd);
	}
}

/* The offset the next piece of side sd's SEND must have (iWARP's MO). */
uint32_t rra_send_have(const struct rr_analyzer *a, const struct side *sd)
{
	return sd->slot == NONE ? 0 : a->rsm[sd->slot].len;
}
