/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * InfiniBand transport: BTH and extension headers (IBA vol. 1 §9.2-§9.3),
 * ICRC (§7.8.1; RoCEv2 annex A17.3.3), MADs (§13.4) and the CM messages
 * (§12.6), the RDMA-CM IP header in REQ private data (annex A11), and the
 * hand-off of SEND payloads to the RPC-over-RDMA decoder.
 *
 *  BTH  0: OpCode  1: SE|M|Pad|TVer  2-3: P_Key  4: resv8a
 *       5-7: DestQP  8: A|resv7  9-11: PSN
 */
#include "cursor.h"

#define BTH_LEN 12
#define ICRC_LEN 4
#define MAD_LEN 256
#define MAD_HDR_LEN 24
#define GSI_QPN 1

/* Extension headers after the BTH, by opcode (§9.2, table 38). */
#define P 0x80 /* carries a payload */
static const uint8_t opcode_ext[0x20] = {
	[0x00] = P, [0x01] = P, [0x02] = P,
	[0x03] = RR_EXT_IMMDT | P, [0x04] = P, [0x05] = RR_EXT_IMMDT | P,
	[0x06] = RR_EXT_RETH | P, [0x07] = P, [0x08] = P,
	[0x09] = RR_EXT_IMMDT | P, [0x0A] = RR_EXT_RETH | P,
	[0x0B] = RR_EXT_RETH | RR_EXT_IMMDT | P,
	[0x0C] = RR_EXT_RETH,
	[0x0D] = RR_EXT_AETH | P, [0x0E] = P, [0x0F] = RR_EXT_AETH | P,
	[0x10] = RR_EXT_AETH | P,
	[0x11] = RR_EXT_AETH,
	[0x12] = RR_EXT_AETH | RR_EXT_ATOMICACKETH,
	[0x13] = RR_EXT_ATOMICETH, [0x14] = RR_EXT_ATOMICETH,
	[0x16] = RR_EXT_IETH | P, [0x17] = RR_EXT_IETH | P,
};

/* Which opcodes have a table entry: RC 0x00-0x17, UC 0x20-0x2B, UD. */
static bool opcode_known(uint8_t op, uint8_t *ext)
{
	uint8_t low = op & 0x1F;
	switch (op >> 5) {
	case 0: /* RC */
		if (low > 0x17 || low == 0x15)
			return false;
		*ext = opcode_ext[low];
		return true;
	case 1: /* UC: SEND and RDMA WRITE only */
		if (low > 0x0B)
			return false;
		*ext = opcode_ext[low];
		return true;
	case 3: /* UD */
		if (low == 0x04) {
			*ext = RR_EXT_DETH | P;
			return true;
		}
		if (low == 0x05) {
			*ext = RR_EXT_DETH | RR_EXT_IMMDT | P;
			return true;
		}
		return false;
	default:
		return false;
	}
}

static bool is_rc_send_start(uint8_t op, bool *first_of_many)
{
	*first_of_many = op == RR_OP_RC_SEND_FIRST;
	return rr_rc_send_starts(op);
}

uint32_t rr_icrc_compute(enum rr_transport t, const uint8_t *pkt, size_t len)
{
	/* Variant fields are replaced by ones (§7.8.1, annex A17.3.3).  The
	 * masked headers go 16 bytes into run, where zeros may precede them
	 * and the payload's first bytes follow them (below). */
	uint8_t run[16 + 8 + 60 + 8 + BTH_LEN + 16];
	uint8_t *hdr = run + 16;
	size_t n = 0, net = 0;

	if (t == RR_TRANSPORT_IB) {
		size_t lrh_grh = (pkt[1] & 3) == 3 ? 8 + 40 : 8;
		if (len < lrh_grh + BTH_LEN)
			return 0;
		memcpy(hdr, pkt, lrh_grh);
		hdr[0] |= 0xF0; /* VL */
		if (lrh_grh > 8) {
			/* routers rewrite a global packet's whole LRH */
			memset(hdr, 0xFF, 8);
			hdr[8] |= 0x0F;
			hdr[9] = hdr[10] = hdr[11] = 0xFF;
			hdr[15] = 0xFF;
		}
		n = net = lrh_grh;
	} else {
		memset(hdr, 0xFF, 8); /* stands in for the LRH */
		n = 8;
		if (t == RR_TRANSPORT_ROCEV1 ||
		    (t == RR_TRANSPORT_ROCEV2 && len && pkt[0] >> 4 == 6)) {
			net = 40;
			if (len < net)
				return 0;
			memcpy(hdr + n, pkt, 40);
			hdr[n] |= 0x0F; /* traffic class and flow label */
			hdr[n + 1] = hdr[n + 2] = hdr[n + 3] = 0xFF;
			hdr[n + 7] = 0xFF; /* hop limit */
		} else {
			net = len ? (pkt[0] & 0xF) * 4u : 0;
			if (net < 20 || len < net)
				return 0;
			/* without options (nearly always): a copy of known size */
			if (net == 20)
				memcpy(hdr + n, pkt, 20);
			else
				memcpy(hdr + n, pkt, net);
			hdr[n + 1] = 0xFF; /* TOS */
			hdr[n + 8] = 0xFF; /* TTL */
			hdr[n + 10] = hdr[n + 11] = 0xFF; /* checksum */
		}
		n += net;
		if (t == RR_TRANSPORT_ROCEV2) {
			if (len < net + 8)
				return 0;
			memcpy(hdr + n, pkt + net, 8);
			hdr[n + 6] = hdr[n + 7] = 0xFF; /* UDP checksum */
			n += 8;
			net += 8;
		}
	}
	if (len < net + BTH_LEN)
		return 0;
	memcpy(hdr + n, pkt + net, BTH_LEN);
	hdr[n + 4] = 0xFF; /* resv8a */
	n += BTH_LEN;
	const uint8_t *rest = pkt + net + BTH_LEN;
	size_t rest_len = len - net - BTH_LEN;
	if (rest_len > 512) /* the payload in a run of its own, the widest */
		return rr_crc32(rr_crc32(0, hdr, n), rest, rest_len);
	/*
	 * One run of whole 16-byte blocks, the payload read where it lies:
	 * its first rest_len % 16 bytes join the headers, and zeros before
	 * them make the headers' part a multiple of 16.  A CRC register of 0
	 * stays 0 through zeros, so the run starts from 0 and the ones it
	 * would start from are folded into the first four bytes instead.
	 */
	size_t k = rest_len % 16, pad = (16 - (n + k) % 16) % 16;
	uint8_t *start = hdr - pad;
	memset(start, 0, pad);
	for (int i = 0; i < 4; i++)
		hdr[i] ^= 0xFF;
	memcpy(hdr + n, rest, k);
	return rr_crc32_pair(0xFFFFFFFFu, start, pad + n + k, rest + k,
			     rest_len - k);
}

/* RDMA-CM header at the start of an IP-addressed REQ's private data. */
static void decode_rdma_cm(struct rr_frame *f, uint32_t off, uint32_t lim)
{
	struct rr_cur c;
	struct rr_rdma_cm *h = &f->rdma_cm;
	cur_init(&c, f->data, off, f->caplen, lim, &f->note[RR_LAYER_RDMA_CM]);
	h->off = off;
	h->cma_version = cur_u8(&c, "cma_version");
	h->ip_version = cur_u8(&c, "IP version") >> 4;
	h->src_port = cur_be16(&c, "source port");
	h->port_space = (uint8_t)(f->cm.service_id >> 16);
	h->dst_port = (uint16_t)f->cm.service_id;
	if (h->ip_version == 4) {
		h->src_addr_off = off + 4 + 12;
		h->dst_addr_off = off + 20 + 12;
		h->addr_len = 4;
	} else {
		h->src_addr_off = off + 4;
		h->dst_addr_off = off + 20;
		h->addr_len = 16;
	}
	cur_skip(&c, 32, "addresses");
	if (cur_ok(&c) && h->ip_version != 4 && h->ip_version != 6) {
		c.pos = off + 1;
		cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_VALUE, "IP version");
	}
	h->consumer_data.off = off + 36;
	h->consumer_data.len = lim > off + 36 ? lim - (off + 36) : 0;
	frame_mark(f, RR_LAYER_RDMA_CM);
}

/* Private data location per CM message (§12.6.5-§12.6.11). */
static void cm_private_area(uint16_t attr, uint32_t *off, uint32_t *len)
{
	switch (attr) {
	case RR_CM_REQ: *off = 164; *len = 92; break;
	case RR_CM_MRA: *off = 34; *len = 222; break;
	case RR_CM_REJ: *off = 108; *len = 148; break;
	case RR_CM_REP: *off = 60; *len = 196; break;
	case RR_CM_RTU: *off = 32; *len = 224; break;
	case RR_CM_DREQ: *off = 36; *len = 220; break;
	case RR_CM_DREP: *off = 32; *len = 224; break;
	default: *off = *len = 0; break;
	}
}

static void decode_cm(struct rr_frame *f, uint32_t mad, uint32_t lim)
{
	struct rr_cur c;
	struct rr_cm *m = &f->cm;
	const uint8_t *d = f->data;
	memset(m, 0, sizeof(*m));
	m->attr_id = f->mad.attr_id;
	cur_init(&c, d, mad + MAD_HDR_LEN, f->caplen, lim, &f->note[RR_LAYER_CM]);
	uint32_t pd_off, pd_len;
	cm_private_area(m->attr_id, &pd_off, &pd_len);
	/* Read the fixed part of the message in one check. */
	uint32_t fixed = pd_len ? pd_off : 32;
	if (!cur_need(&c, fixed - MAD_HDR_LEN, "CM message")) {
		frame_mark(f, RR_LAYER_CM);
		return;
	}
	const uint8_t *p = d + mad;
	m->fixed_read = true;
	m->local_comm_id = rd_be32(p + 24);
	if (m->attr_id != RR_CM_REQ)
		m->remote_comm_id = rd_be32(p + 28);
	switch (m->attr_id) {
	case RR_CM_REQ:
		m->service_id = rd_be64(p + 32);
		m->local_ca_guid = rd_be64(p + 40);
		m->local_qkey = rd_be32(p + 52);
		m->local_qpn = rd_be24(p + 56);
		m->resp_resources = p[59];
		m->initiator_depth = p[63];
		m->transport_type = (p[67] >> 1) & 3;
		m->starting_psn = rd_be24(p + 68);
		m->retry_count = p[71] & 7;
		m->pkey = rd_be16(p + 72);
		m->path_mtu = p[74] >> 4;
		m->rnr_retry = p[74] & 7;
		m->primary_local_gid_off = mad + 80;
		m->primary_remote_gid_off = mad + 96;
		break;
	case RR_CM_REP:
		m->local_qkey = rd_be32(p + 32);
		m->local_qpn = rd_be24(p + 36);
		m->starting_psn = rd_be24(p + 44);
		m->resp_resources = p[48];
		m->initiator_depth = p[49];
		m->rnr_retry = p[51] >> 5;
		m->local_ca_guid = rd_be64(p + 52);
		break;
	case RR_CM_MRA:
		m->msg_mraed = p[32] >> 6;
		m->service_timeout = p[33] >> 3;
		break;
	case RR_CM_REJ:
		m->msg_rejected = p[32] >> 6;
		m->reject_info_len = p[33] >> 1;
		m->reject_reason = rd_be16(p + 34);
		break;
	case RR_CM_DREQ:
		m->remote_qpn = rd_be24(p + 32);
		break;
	default:
		break;
	}
	c.pos = mad + fixed;
	if (pd_len) {
		m->private_data.off = mad + pd_off;
		m->private_data.len = pd_len;
		cur_need(&c, pd_len, "CM private data");
	}
	frame_mark(f, RR_LAYER_CM);
	if (!pd_len)
		return;
	uint32_t search_off = mad + pd_off, search_len = pd_len;
	/* Annex A11: service IDs 0x0000000001xxxxxx carry the RDMA-CM header. */
	if (m->attr_id == RR_CM_REQ && (m->service_id >> 24) == 1) {
		decode_rdma_cm(f, mad + pd_off, mad + pd_off + pd_len);
		search_off += 36;
		search_len -= 36;
	}
	if (m->attr_id == RR_CM_REQ || m->attr_id == RR_CM_REP ||
	    m->attr_id == RR_CM_REJ)
		rr_frame_cm_private(f, search_off, search_len);
}

/* MAD common header, IBA vol. 1 §13.4.3. */
static void decode_mad(struct rr_frame *f, uint32_t off, uint32_t lim)
{
	struct rr_cur c;
	struct rr_mad *m = &f->mad;
	cur_init(&c, f->data, off, f->caplen, lim, &f->note[RR_LAYER_MAD]);
	m->off = off;
	m->base_version = cur_u8(&c, "MAD BaseVersion");
	m->mgmt_class = cur_u8(&c, "MAD MgmtClass");
	m->class_version = cur_u8(&c, "MAD ClassVersion");
	m->method = cur_u8(&c, "MAD Method");
	m->status = cur_be16(&c, "MAD Status");
	m->class_specific = cur_be16(&c, "MAD ClassSpecific");
	m->tid = cur_be64(&c, "MAD TransactionID");
	m->attr_id = cur_be16(&c, "MAD AttributeID");
	cur_skip(&c, 2, "MAD reserved");
	m->attr_mod = cur_be32(&c, "MAD AttributeModifier");
	if (cur_ok(&c) && lim - off != MAD_LEN) {
		c.pos = off;
		cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_LENGTH, "MAD length");
	}
	frame_mark(f, RR_LAYER_MAD);
	if (cur_ok(&c) && m->mgmt_class == RR_MAD_CLASS_CM)
		decode_cm(f, off, lim);
}

void rr_decode_send_payload(const struct rr_config *cfg, struct rr_frame *f,
			    bool first_of_many)
{
	/* iWARP payloads may sit in the copy without MPA markers */
	const uint8_t *data = f->unit_data;
	uint32_t off = f->payload.off, len = f->payload.len;
	uint32_t captured = f->unit_cap > off ? f->unit_cap - off : 0;
	struct rr_note *n = &f->note[RR_LAYER_RPCRDMA];
	if (captured > len)
		captured = len;
	bool packet_whole = captured == len;
	/* A multi-packet message's length is unknown: let reads run long. */
	uint32_t msg_len = first_of_many ? UINT32_MAX - off : len;

	rr_rpcrdma_decode(data, off, captured, msg_len, &f->rdma, n);
	if (first_of_many && packet_whole && n->status == RR_TRUNCATED) {
		n->status = RR_COMPLETE;
		n->problem = RR_PROBLEM_FRAGMENT;
	}
	if (first_of_many && f->rdma.payload.len)
		f->rdma.payload.len = off + len - f->rdma.payload.off;
	if (f->hint.rpcrdma && f->note[RR_LAYER_RPCRDMA].status != RR_MALFORMED)
		f->rdma.confidence = RR_CONF_CONTEXT;
	if (f->rdma.confidence < cfg->min_confidence ||
	    f->rdma.confidence == RR_CONF_NONE)
		return;
	frame_mark(f, RR_LAYER_RPCRDMA);
	if (!f->rdma.payload.len || n->status != RR_COMPLETE)
		return;
	uint32_t roff = f->rdma.payload.off;
	uint32_t rcap = f->unit_cap > roff ? f->unit_cap - roff : 0;
	uint32_t rlen = f->rdma.payload.len;
	struct rr_note *rn = &f->note[RR_LAYER_RPC];
	rr_rpc_decode(data, roff, rcap < rlen ? rcap : rlen,
		      first_of_many ? UINT32_MAX - roff : rlen, &f->rpc, rn);
	if (first_of_many && packet_whole && rn->status == RR_TRUNCATED) {
		rn->status = RR_COMPLETE;
		rn->problem = RR_PROBLEM_FRAGMENT;
	}
	frame_mark(f, RR_LAYER_RPC);
}

/* Extension headers in the order §9.2 lays them out. */
static void decode_ext(struct rr_cur *c, struct rr_ext *x, uint8_t mask)
{
	x->present = mask & 0x7F;
	if (mask & RR_EXT_DETH) {
		x->deth.off = c->pos;
		x->deth.qkey = cur_be32(c, "DETH Q_Key");
		x->deth.src_qp = cur_be32(c, "DETH SrcQP") & 0xFFFFFF;
	}
	if (mask & RR_EXT_RETH) {
		x->reth.off = c->pos;
		x->reth.va = cur_be64(c, "RETH VA");
		x->reth.rkey = cur_be32(c, "RETH R_Key");
		x->reth.dma_len = cur_be32(c, "RETH DMA Length");
	}
	if (mask & RR_EXT_ATOMICETH) {
		x->atomic.off = c->pos;
		x->atomic.va = cur_be64(c, "AtomicETH VA");
		x->atomic.rkey = cur_be32(c, "AtomicETH R_Key");
		x->atomic.swap_add = cur_be64(c, "AtomicETH Swap/Add");
		x->atomic.compare = cur_be64(c, "AtomicETH Compare");
	}
	if (mask & RR_EXT_AETH) {
		/* IBA vol. 1 §9.7.5.2.1: type in bits 6-5, value in 4-0 */
		x->aeth.off = c->pos;
		uint32_t w = cur_be32(c, "AETH");
		x->aeth.syndrome = (uint8_t)(w >> 24);
		x->aeth.type = (x->aeth.syndrome >> 5) & 3;
		x->aeth.value = x->aeth.syndrome & 0x1F;
		x->aeth.msn = w & 0xFFFFFF;
	}
	if (mask & RR_EXT_ATOMICACKETH) {
		x->atomic_ack.off = c->pos;
		x->atomic_ack.orig = cur_be64(c, "AtomicAckETH");
	}
	if (mask & RR_EXT_IMMDT) {
		x->immdt.off = c->pos;
		x->immdt.data = cur_be32(c, "ImmDt");
	}
	if (mask & RR_EXT_IETH) {
		x->ieth.off = c->pos;
		x->ieth.rkey = cur_be32(c, "IETH R_Key");
	}
}

static void check_icrc(const struct rr_config *cfg, struct rr_frame *f,
		       uint32_t pkt_off, uint32_t icrc_off)
{
	struct rr_icrc *ic = &f->icrc;
	bool bad = false;
	ic->off = icrc_off;
	if (!(cfg->flags & RR_CFG_VERIFY_ICRC)) {
		/* not even read: the frame's last cache line stays cold */
		ic->state = RR_CRC_UNCHECKED;
		ic->wire = ic->computed = 0;
	} else {
		ic->wire = rd_le32(f->data + icrc_off);
		ic->computed = rr_icrc_compute(f->transport, f->data + pkt_off,
					       icrc_off - pkt_off);
		bad = ic->computed != ic->wire;
		ic->state = bad ? RR_CRC_BAD : RR_CRC_GOOD;
	}
	frame_note(f, RR_LAYER_ICRC, bad ? RR_MALFORMED : RR_COMPLETE,
		   bad ? RR_PROBLEM_BAD_ICRC : RR_PROBLEM_NONE, icrc_off,
		   bad ? "ICRC" : NULL);
}

void rr_decode_ib_transport(const struct rr_config *cfg, struct rr_frame *f,
			    uint32_t bth_off, uint32_t pkt_off, uint32_t end,
			    bool end_known)
{
	struct rr_cur c;
	struct rr_bth *b = &f->bth;
	(void)end_known;
	/* The ICRC is in the capture when the packet's last byte is. */
	bool icrc_in_capture = end <= f->caplen;
	/* Some sniffers strip it: a whole frame exactly 4 bytes short. */
	bool icrc_stripped = !icrc_in_capture && f->caplen == f->wirelen &&
			     end == f->caplen + ICRC_LEN;
	uint32_t lim = end >= bth_off + ICRC_LEN ? end - ICRC_LEN : bth_off;

	cur_init(&c, f->data, bth_off, icrc_stripped ? lim : f->caplen, lim,
		 &f->note[RR_LAYER_BTH]);
	b->off = bth_off;
	b->opcode = cur_u8(&c, "BTH OpCode");
	uint8_t b1 = cur_u8(&c, "BTH flags");
	b->se = b1 & 0x80;
	b->migreq = b1 & 0x40;
	b->padcnt = (b1 >> 4) & 3;
	b->tver = b1 & 0xF;
	b->pkey = cur_be16(&c, "BTH P_Key");
	b->resv8a = cur_u8(&c, "BTH reserved");
	if (cur_need(&c, 3, "BTH DestQP")) {
		b->dqpn = rd_be24(f->data + c.pos);
		c.pos += 3;
	}
	if (cur_need(&c, 4, "BTH PSN")) {
		b->ackreq = f->data[c.pos] & 0x80;
		b->psn = rd_be24(f->data + c.pos + 1);
		c.pos += 4;
	}
	frame_mark(f, RR_LAYER_BTH);
	if (!cur_ok(&c))
		return;
	if (icrc_in_capture && end >= bth_off + BTH_LEN + ICRC_LEN) {
		check_icrc(cfg, f, pkt_off, end - ICRC_LEN);
	} else if (!icrc_stripped) {
		/* the capture was cut before the packet's end */
		f->icrc.state = RR_CRC_ABSENT;
		frame_note(f, RR_LAYER_ICRC, RR_TRUNCATED, RR_PROBLEM_SHORT, lim,
			   "ICRC");
	}

	uint8_t mask = 0;
	if (!opcode_known(b->opcode, &mask)) {
		/* CNP, RD, vendor opcodes: headers not decoded further. */
		return;
	}
	struct rr_cur x;
	cur_init(&x, f->data, c.pos, icrc_stripped ? lim : f->caplen, lim,
		 &f->note[RR_LAYER_EXT]);
	decode_ext(&x, &f->ext, mask);
	if (mask & 0x7F)
		frame_mark(f, RR_LAYER_EXT);
	if (!cur_ok(&x) || !(mask & P))
		return;
	if (x.pos + b->padcnt > lim) {
		/* pad count larger than what follows the headers */
		frame_note(f, RR_LAYER_BTH, RR_MALFORMED, RR_PROBLEM_BAD_LENGTH,
			   bth_off + 1, "BTH PadCnt");
		return;
	}
	f->payload.off = x.pos;
	f->payload.len = lim - b->padcnt - x.pos;

	bool first_of_many;
	if (b->dqpn == GSI_QPN && (b->opcode == RR_OP_UD_SEND_ONLY)) {
		decode_mad(f, f->payload.off, f->payload.off + f->payload.len);
	} else if (is_rc_send_start(b->opcode, &first_of_many)) {
		if (f->payload.len)
			rr_decode_send_payload(cfg, f, first_of_many);
	}
}

uint32_t rr_rnr_timer_us(unsigned code)
{
	static const uint32_t us[32] = {
		655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960,
		1280, 1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720,
		40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520,
	};
	return us[code & 31];
}
