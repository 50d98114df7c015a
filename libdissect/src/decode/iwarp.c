/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * iWARP on TCP: MPA (RFC 5044 §7.1 Request/Reply frames, §6 FPDU framing,
 * §6.6 CRC32c), enhanced connection setup (RFC 6581 §5), DDP (RFC 5041 §5)
 * and RDMAP (RFC 5040 §4).
 *
 *  MPA Req/Rep:  Key[16] | M C R E res | Rev | PD_Length | Private Data
 *  FPDU:         ULPDU_Length | ULPDU | pad to 4 | CRC (LSB first)
 *  DDP tagged:   T=1 L rsv DV | RV rsv Op | STag | TO(64)        = 14
 *  DDP untagged: T=0 L rsv DV | RV rsv Op | Inv STag | QN | MSN | MO = 18
 *
 * Markers (RFC 5044 §5) sit on a grid that starts at the stream's first
 * FPDU, which one frame cannot show: the caller passes it in the stream
 * hint, and the FPDUs are then decoded from a copy without markers.
 */
#include "cursor.h"
#include "mpa.h"

#define MPA_KEY_LEN 16
#define MPA_HDR_LEN 20
#define MPA_MAX_PD 512 /* RFC 5044 §7.1 */

static const char mpa_req_key[] = "MPA ID Req Frame";
static const char mpa_rep_key[] = "MPA ID Rep Frame";

#define UPPER_LAYERS ((1u << RR_LAYER_MPA) | (1u << RR_LAYER_DDP) | \
		      (1u << RR_LAYER_CM_PRIVATE) | (1u << RR_LAYER_RPCRDMA) | \
		      (1u << RR_LAYER_RPC))

static uint32_t mpa_frame(struct rr_frame *f, uint32_t off, uint32_t lim)
{
	struct rr_cur c;
	struct rr_mpa *m = &f->mpa;
	f->transport = RR_TRANSPORT_IWARP;
	cur_init(&c, f->data, off, f->caplen, lim, &f->note[RR_LAYER_MPA]);
	m->off = off;
	m->reply = f->data[off + 9] == 'p'; /* "Rep" vs "Req" */
	cur_skip(&c, MPA_KEY_LEN, "MPA key");
	uint8_t flags = cur_u8(&c, "MPA flags");
	m->marker = flags & 0x80;
	m->crc = flags & 0x40;
	m->reject = flags & 0x20;
	m->enhanced = flags & 0x10;
	m->revision = cur_u8(&c, "MPA revision");
	m->pd_len = cur_be16(&c, "MPA private data length");
	m->has_ird_ord = false;
	m->private_data.off = m->ulp_data.off = c.pos;
	m->private_data.len = m->ulp_data.len = 0;
	if (cur_ok(&c) && m->pd_len > MPA_MAX_PD) {
		c.pos -= 2;
		cur_fail(&c, RR_MALFORMED, RR_PROBLEM_OVER_CAP,
			 "MPA private data length");
	} else if (cur_ok(&c) && m->revision != 1 && m->revision != 2) {
		c.pos -= 3;
		cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_VERSION,
			 "MPA revision");
	}
	if (cur_ok(&c)) {
		m->private_data.len = m->pd_len;
		m->ulp_data.len = m->pd_len;
		if (m->revision == 2 && m->enhanced && m->pd_len >= 4) {
			uint16_t ird = cur_be16(&c, "MPA IRD");
			uint16_t ord = cur_be16(&c, "MPA ORD");
			m->has_ird_ord = cur_ok(&c);
			m->peer_to_peer = ird & 0x8000;
			m->zero_len_rtr = ird & 0x4000;
			m->ird = ird & 0x3FFF;
			m->write_rtr = ord & 0x8000;
			m->read_rtr = ord & 0x4000;
			m->ord = ord & 0x3FFF;
			m->ulp_data.off += 4;
			m->ulp_data.len -= 4;
		}
		cur_need(&c, m->ulp_data.off + m->ulp_data.len - c.pos,
			 "MPA private data");
	}
	frame_mark(f, RR_LAYER_MPA);
	if (m->ulp_data.len && f->note[RR_LAYER_MPA].status != RR_MALFORMED)
		rr_frame_cm_private(f, m->ulp_data.off, m->ulp_data.len);
	return off + MPA_HDR_LEN + m->pd_len;
}

/* FPDU total length from its first bytes, or 0 when not an FPDU shape. */
static uint32_t fpdu_span(const uint8_t *p, uint32_t avail)
{
	if (avail < 4)
		return 0;
	uint32_t ulpdu = rd_be16(p);
	if (ulpdu < 14)
		return 0;
	uint32_t body = 2 + ulpdu;
	uint32_t total = body + ((4 - body % 4) % 4) + 4;
	bool tagged = p[2] & 0x80;
	if ((p[2] & 0x03) != 1 || (p[3] >> 6) != 1 || (p[3] & 0x0F) > 7)
		return 0;
	if (!tagged && ulpdu < 18)
		return 0;
	return total;
}

/* Without a port or hint, accept a segment only if FPDUs tile it exactly. */
static bool fpdus_tile(const struct rr_frame *f, uint32_t off, uint32_t end)
{
	if (end > f->caplen)
		return false;
	while (off < end) {
		uint32_t n = fpdu_span(f->data + off, end - off);
		if (!n || n > end - off)
			return false;
		off += n;
	}
	return true;
}

static bool demark(struct rr_frame *f, uint32_t off, uint32_t end);
static uint32_t fpdu_crc(const struct rr_frame *f, uint32_t off,
			 uint32_t crc_off);

void rr_decode_tcp_payload(const struct rr_config *cfg, struct rr_frame *f)
{
	uint32_t off = f->tcp.payload.off;
	uint32_t end = off + f->tcp.payload.len;
	uint32_t cap = f->caplen < end ? f->caplen : end;

	if (cap - off >= MPA_KEY_LEN &&
	    (!memcmp(f->data + off, mpa_req_key, MPA_KEY_LEN) ||
	     !memcmp(f->data + off, mpa_rep_key, MPA_KEY_LEN))) {
		off = mpa_frame(f, off, end);
		if (off >= end || f->note[RR_LAYER_MPA].status != RR_COMPLETE)
			return;
		/* FPDUs may follow in the same segment (RFC 6581 RTR) */
	} else {
		bool port = f->tcp.sport == cfg->iwarp_tcp_port ||
			    f->tcp.dport == cfg->iwarp_tcp_port;
		if (!f->hint.iwarp && !port &&
		    !((cfg->flags & RR_CFG_IWARP_HEURISTIC) &&
		      fpdus_tile(f, off, end)))
			return;
		f->transport = RR_TRANSPORT_IWARP;
	}
	f->next_unit_off = off;
	f->unit_end = end;
	f->unit_index = 0;
	if (f->hint.iwarp_markers && !demark(f, off, end)) {
		frame_note(f, RR_LAYER_DDP, RR_MALFORMED, RR_PROBLEM_NO_SCRATCH,
			   off, "MPA markers");
		return;
	}
	/* the MPA frame was this segment's first unit */
	if (rr_has(f, RR_LAYER_MPA))
		f->unit_index = 1;
	else
		rr_decode_iwarp_unit(cfg, f);
}

static void decode_ddp(struct rr_cur *c, struct rr_ddp *d)
{
	d->off = c->pos;
	uint8_t b0 = cur_u8(c, "DDP control");
	uint8_t b1 = cur_u8(c, "RDMAP control");
	d->tagged = b0 & 0x80;
	d->last = b0 & 0x40;
	d->dv = b0 & 0x03;
	d->rv = b1 >> 6;
	d->opcode = b1 & 0x0F;
	d->stag = d->inv_stag = d->qn = d->msn = d->mo = 0;
	d->to = 0;
	d->hdr_len = 0; /* until the whole header is read */
	if (d->tagged) {
		d->stag = cur_be32(c, "DDP STag");
		d->to = cur_be64(c, "DDP Tagged Offset");
	} else {
		d->inv_stag = cur_be32(c, "RDMAP Invalidate STag");
		d->qn = cur_be32(c, "DDP QN");
		d->msn = cur_be32(c, "DDP MSN");
		d->mo = cur_be32(c, "DDP MO");
	}
	if (!cur_ok(c))
		return;
	if (d->dv != 1 || d->rv != 1) {
		c->pos = d->off + (d->dv != 1 ? 0 : 1);
		cur_fail(c, RR_MALFORMED, RR_PROBLEM_BAD_VERSION,
			 d->dv != 1 ? "DDP version" : "RDMAP version");
		return;
	}
	if (d->opcode > RR_RDMAP_TERMINATE) {
		c->pos = d->off + 1;
		cur_fail(c, RR_MALFORMED, RR_PROBLEM_BAD_VALUE, "RDMAP opcode");
		return;
	}
	d->hdr_len = c->pos - d->off;
	if (d->opcode == RR_RDMAP_READ_REQUEST && !d->tagged) {
		/* RFC 5040 §4.4 */
		d->sink_stag = cur_be32(c, "Data Sink STag");
		d->sink_to = cur_be64(c, "Data Sink Tagged Offset");
		d->read_size = cur_be32(c, "RDMA Read Message Size");
		d->src_stag = cur_be32(c, "Data Source STag");
		d->src_to = cur_be64(c, "Data Source Tagged Offset");
	} else if (d->opcode == RR_RDMAP_TERMINATE && !d->tagged) {
		/* RFC 5040 §4.8 */
		uint32_t w = cur_be32(c, "Terminate control");
		d->term_layer = (uint8_t)(w >> 28);
		d->term_etype = (w >> 24) & 0xF;
		d->term_ecode = (uint8_t)(w >> 16);
		d->term_hdrct_m = w & 0x8000;
		d->term_hdrct_d = w & 0x4000;
		d->term_hdrct_r = w & 0x2000;
	}
}

bool rr_decode_iwarp_unit(const struct rr_config *cfg, struct rr_frame *f)
{
	uint32_t off = f->next_unit_off, end = f->unit_end;
	if (off >= end)
		return false;
	struct rr_fpdu *u = &f->fpdu;
	struct rr_cur c;
	/* FPDU framing problems are reported on the DDP layer's note. */
	cur_init(&c, f->unit_data, off, f->unit_cap, end, &f->note[RR_LAYER_DDP]);
	u->off = off;
	u->ulpdu_len = cur_be16(&c, "MPA ULPDU_Length");
	if (!cur_ok(&c)) {
		/* the capture ends here: report it once, then stop */
		f->next_unit_off = end;
		frame_mark(f, RR_LAYER_DDP);
		return true;
	}
	u->pad = (uint8_t)((4 - (2u + u->ulpdu_len) % 4) % 4);
	u->crc_off = off + 2 + u->ulpdu_len + u->pad;
	u->crc_state = RR_CRC_ABSENT;
	uint32_t fpdu_end = u->crc_off + 4;
	bool split = fpdu_end > end;
	/* the rest of the FPDU is in later segments: decode what is here */
	uint32_t ulpdu_end = split ? end : off + 2 + u->ulpdu_len;
	f->next_unit_off = split ? end : fpdu_end;
	f->payload.off = f->payload.len = 0;

	if (cur_ok(&c)) {
		c.lim = ulpdu_end;
		c.cap = f->unit_cap < ulpdu_end ? f->unit_cap : ulpdu_end;
		decode_ddp(&c, &f->ddp);
	}
	if (!split && fpdu_end <= f->unit_cap) {
		u->crc_wire = rd_le32(f->unit_data + u->crc_off);
		if (u->crc_wire == 0 && !f->hint.iwarp_crc) {
			u->crc_state = RR_CRC_ZERO;
		} else if (cfg->flags & RR_CFG_VERIFY_CRC32C) {
			u->crc_computed = fpdu_crc(f, off, u->crc_off);
			u->crc_state = u->crc_computed == u->crc_wire ?
					       RR_CRC_GOOD : RR_CRC_BAD;
			if (u->crc_state == RR_CRC_BAD && cur_ok(&c)) {
				c.pos = u->crc_off;
				cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_CRC32C,
					 "MPA CRC");
			}
		} else {
			u->crc_state = RR_CRC_UNCHECKED;
		}
	}
	if (!split && fpdu_end > f->unit_cap && cur_ok(&c)) {
		c.pos = u->crc_off < f->unit_cap ? u->crc_off : f->unit_cap;
		cur_fail(&c, RR_TRUNCATED, RR_PROBLEM_SHORT, "MPA CRC");
	}
	if (split && cur_ok(&c)) {
		f->note[RR_LAYER_DDP].problem = RR_PROBLEM_FRAGMENT;
		f->note[RR_LAYER_DDP].off = off;
		f->note[RR_LAYER_DDP].field = "FPDU continues in the next segment";
	}
	frame_mark(f, RR_LAYER_DDP);
	if (f->note[RR_LAYER_DDP].status == RR_MALFORMED &&
	    f->note[RR_LAYER_DDP].problem != RR_PROBLEM_BAD_CRC32C)
		return true;
	/* a header the capture cut carries no payload to decode */
	if (f->note[RR_LAYER_DDP].status == RR_TRUNCATED &&
	    (!f->ddp.hdr_len || c.pos < off + 2 + f->ddp.hdr_len))
		return true;

	struct rr_ddp *d = &f->ddp;
	uint32_t body = d->off + d->hdr_len;
	if (d->opcode == RR_RDMAP_READ_REQUEST)
		body += 28;
	else if (d->opcode == RR_RDMAP_TERMINATE)
		body += 4;
	if (body > ulpdu_end)
		return true;
	f->payload.off = body;
	f->payload.len = ulpdu_end - body;
	bool send = d->opcode >= RR_RDMAP_SEND && d->opcode <= RR_RDMAP_SEND_SE_INV;
	if (send && !d->tagged && d->qn == 0 && d->mo == 0 && f->payload.len &&
	    (f->note[RR_LAYER_DDP].status != RR_MALFORMED ||
	     f->note[RR_LAYER_DDP].problem == RR_PROBLEM_BAD_CRC32C))
		rr_decode_send_payload(cfg, f, !d->last || split);
	return true;
}

/*
 * RFC 5044 §6.5: the CRC covers the FPDU as sent, markers inside it
 * included, so with markers it is computed over the frame's own bytes.
 */
static uint32_t fpdu_crc(const struct rr_frame *f, uint32_t off,
			 uint32_t crc_off)
{
	if (!f->demarked)
		return rr_crc32c(0, f->data + off, crc_off - off);
	uint32_t from = rr_wire_offset(f, off), to = rr_wire_offset(f, crc_off);
	return rr_crc32c(0, f->data + from, to - from);
}

uint32_t rr_wire_offset(const struct rr_frame *f, uint32_t off)
{
	if (!f->demarked)
		return off;
	uint32_t p = off, m = f->marker_first;
	while (m <= p) {
		p += MPA_MARKER_LEN;
		m += MPA_MARKER_SPACING;
	}
	return f->demark_base + p;
}

/* Copy the TCP payload from off without its markers (mpa.h). */
static bool demark(struct rr_frame *f, uint32_t off, uint32_t end)
{
	const struct rr_stream_hint *h = &f->hint;
	uint32_t seq = f->tcp.seq + (off - f->tcp.payload.off);
	uint32_t first = mpa_to_marker(seq, h->marker_seq0);
	uint32_t cap = f->caplen < end ? f->caplen : end;
	uint32_t have = cap > off ? cap - off : 0, wire = end - off;
	if (!h->scratch || h->scratch_len < have)
		return false;
	uint32_t k = 0, wire_markers = 0;
	for (uint32_t p = 0, m = first; p < wire; m += MPA_MARKER_SPACING) {
		uint32_t run_end = m < wire ? m : wire;
		if (p < have) {
			uint32_t n = (run_end < have ? run_end : have) - p;
			memcpy(h->scratch + k, f->data + off + p, n);
			k += n;
		}
		if (m >= wire)
			break;
		wire_markers += wire - m < MPA_MARKER_LEN ? wire - m : MPA_MARKER_LEN;
		p = m + MPA_MARKER_LEN;
	}
	f->demarked = true;
	f->unit_data = h->scratch;
	f->unit_cap = k;
	f->demark_base = off;
	f->marker_first = first;
	f->unit_end = wire - wire_markers;
	f->next_unit_off = 0;
	return true;
}

bool rr_decode_next_unit(const struct rr_config *cfg, struct rr_frame *f)
{
	if (f->transport != RR_TRANSPORT_IWARP || f->next_unit_off >= f->unit_end)
		return false;
	f->present &= ~UPPER_LAYERS;
	f->status = RR_COMPLETE;
	for (unsigned l = 0; l < RR_LAYER_COUNT; l++)
		if (rr_has(f, (enum rr_layer)l) && f->note[l].status > f->status) {
			f->status = f->note[l].status;
			f->bad_layer = (uint8_t)l;
		}
	f->unit_index++;
	return rr_decode_iwarp_unit(cfg, f);
}

uint32_t rr_fpdu_total_len(const uint8_t first_two[2])
{
	uint32_t body = 2u + rd_be16(first_two);
	return body + (4 - body % 4) % 4 + 4;
}

static void stream_frame(struct rr_frame *f, const uint8_t *data,
			 uint32_t caplen, uint32_t wirelen)
{
	memset(&f->hint, 0, sizeof(f->hint));
	f->data = f->unit_data = data;
	f->caplen = f->unit_cap = caplen;
	f->wirelen = wirelen;
	f->link = 0;
	f->transport = RR_TRANSPORT_IWARP;
	f->present = 0;
	f->status = RR_COMPLETE;
	f->bad_layer = 0;
	f->payload.off = f->payload.len = 0;
	f->demarked = false;
}

bool rr_decode_mpa(const struct rr_config *cfg, const uint8_t *data,
		   uint32_t len, struct rr_frame *f)
{
	(void)cfg;
	stream_frame(f, data, len, len);
	if (len < MPA_KEY_LEN || (memcmp(data, mpa_req_key, MPA_KEY_LEN) &&
				  memcmp(data, mpa_rep_key, MPA_KEY_LEN)))
		return false;
	mpa_frame(f, 0, len);
	return true;
}

bool rr_decode_fpdu(const struct rr_config *cfg, const uint8_t *data,
		    uint32_t len, bool crc, struct rr_frame *f)
{
	return rr_decode_fpdu_cut(cfg, data, len, len, crc, f);
}

bool rr_decode_fpdu_cut(const struct rr_config *cfg, const uint8_t *data,
			uint32_t caplen, uint32_t len, bool crc,
			struct rr_frame *f)
{
	stream_frame(f, data, caplen < len ? caplen : len, len);
	f->hint.iwarp = true;
	f->hint.iwarp_crc = crc;
	f->next_unit_off = 0;
	f->unit_end = len;
	f->unit_index = 0;
	return rr_decode_iwarp_unit(cfg, f);
}
