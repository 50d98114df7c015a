/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where each fixed field sits, from RR_FIELD_LIST: RFC 8166 §4.2 (fixed
 * header), §4.3 (segments), RFC 8797 §4 (private data), IBA vol. 1 §9.2
 * (BTH and extension headers), RFC 5041 §5 (DDP), RFC 6581 §5 (IRD/ORD).
 */
#include "cursor.h"

#define RR_X_INFO(sym, anchor, off, len, abbrev, label) \
	[sym] = { anchor, off, len, abbrev, label },

static const struct rr_field_info fields[RR_FIELD_COUNT] = {
	RR_FIELD_LIST(RR_X_INFO)
};

const struct rr_field_info *rr_field_info(unsigned field)
{
	return field < RR_FIELD_COUNT ? &fields[field] : NULL;
}

/* Which procs carry the body fields of the fixed header. */
static bool rpcrdma_field_present(const struct rr_rpcrdma *h,
				  enum rr_field field)
{
	switch (field) {
	case RR_F_ALIGN:
	case RR_F_THRESH:
		return h->proc == RR_RDMA_MSGP && h->body_decoded;
	case RR_F_ERR:
		return h->proc == RR_RDMA_ERROR && h->body_decoded;
	case RR_F_VERS_LOW:
	case RR_F_VERS_HIGH:
		return h->proc == RR_RDMA_ERROR && h->body_decoded &&
		       h->err == RR_ERR_VERS;
	default:
		return true;
	}
}

/* A field at `off` of `base`, if its bytes are within cap. */
static bool span_at(uint32_t base, const struct rr_field_info *fi, uint8_t off,
		    uint32_t cap, struct rr_span *out)
{
	out->off = base + off;
	out->len = fi->len;
	return out->off <= cap && out->len <= cap - out->off;
}

bool rr_rpcrdma_field_span(const struct rr_rpcrdma *h, uint32_t captured,
			   enum rr_field field, unsigned index,
			   struct rr_span *out)
{
	const struct rr_field_info *fi = rr_field_info(field);
	if (!fi)
		return false;
	if (fi->anchor == RR_ANCHOR_RPCRDMA)
		return rpcrdma_field_present(h, field) &&
		       span_at(h->off, fi, fi->off, captured, out);
	if (fi->anchor != RR_ANCHOR_SEGMENT || index >= h->nsegs)
		return false;
	const struct rr_rdma_seg *s = &h->segs[index];
	uint8_t off = fi->off;
	/* write and reply segments have no position word */
	if (s->list != RR_LIST_READ) {
		if (field == RR_F_SEG_POSITION)
			return false;
		off -= 4;
	}
	return span_at(s->off, fi, off, captured, out);
}

bool rr_cm_private_field_span(const struct rr_cm_private *cp, uint32_t captured,
			      enum rr_field field, struct rr_span *out)
{
	const struct rr_field_info *fi = rr_field_info(field);
	return fi && fi->anchor == RR_ANCHOR_CM_PRIVATE && cp->found &&
	       span_at(cp->off, fi, fi->off, captured, out);
}

bool rr_field_span(const struct rr_frame *f, enum rr_field field,
		   unsigned index, struct rr_span *out)
{
	const struct rr_field_info *fi = rr_field_info(field);
	if (!fi)
		return false;
	uint32_t base, cap = f->caplen;
	uint8_t off = fi->off;
	switch ((enum rr_anchor)fi->anchor) {
	case RR_ANCHOR_RPCRDMA:
	case RR_ANCHOR_SEGMENT:
		return rr_has(f, RR_LAYER_RPCRDMA) &&
		       rr_rpcrdma_field_span(&f->rdma, f->unit_cap, field, index,
					     out);
	case RR_ANCHOR_CM_PRIVATE:
		return rr_has(f, RR_LAYER_CM_PRIVATE) &&
		       rr_cm_private_field_span(&f->cm_private, cap, field, out);
	case RR_ANCHOR_BTH:
		if (!rr_has(f, RR_LAYER_BTH))
			return false;
		base = f->bth.off;
		break;
	case RR_ANCHOR_RETH:
		if (!(f->ext.present & RR_EXT_RETH) || !rr_has(f, RR_LAYER_EXT))
			return false;
		base = f->ext.reth.off;
		break;
	case RR_ANCHOR_AETH:
		if (!(f->ext.present & RR_EXT_AETH) || !rr_has(f, RR_LAYER_EXT))
			return false;
		base = f->ext.aeth.off;
		break;
	case RR_ANCHOR_IETH:
		if (!(f->ext.present & RR_EXT_IETH) || !rr_has(f, RR_LAYER_EXT))
			return false;
		base = f->ext.ieth.off;
		break;
	case RR_ANCHOR_ICRC:
		if (!rr_has(f, RR_LAYER_ICRC) || f->icrc.state == RR_CRC_ABSENT)
			return false;
		base = f->icrc.off;
		break;
	case RR_ANCHOR_DDP: {
		if (!rr_has(f, RR_LAYER_DDP))
			return false;
		bool tagged_field = field == RR_F_DDP_STAG || field == RR_F_DDP_TO;
		if (tagged_field != f->ddp.tagged)
			return false;
		base = f->ddp.off;
		cap = f->unit_cap;
		break;
	}
	case RR_ANCHOR_FPDU_CRC:
		if (!rr_has(f, RR_LAYER_DDP) || f->fpdu.crc_state == RR_CRC_ABSENT)
			return false;
		base = f->fpdu.crc_off;
		cap = f->unit_cap;
		break;
	case RR_ANCHOR_MPA:
		if (!rr_has(f, RR_LAYER_MPA) || !f->mpa.has_ird_ord)
			return false;
		base = f->mpa.off;
		break;
	default:
		return false;
	}
	return span_at(base, fi, off, cap, out);
}
