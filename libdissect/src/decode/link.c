/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Link, network and transport layers down to where RDMA begins:
 * ERF (ibdump), Ethernet with 802.1Q/802.1ad tags (IEEE 802.1Q §9),
 * Linux cooked v1/v2, IPv4 (RFC 791), IPv6 (RFC 8200), UDP (RFC 768),
 * TCP (RFC 9293), native InfiniBand LRH (IBA vol. 1 §7.7), RoCEv1 GRH
 * (IBA annex A16) and RoCEv2 (annex A17, UDP port 4791).
 */
#include "cursor.h"

#define ETH_P_IPV4 0x0800
#define ETH_P_IPV6 0x86DD
#define ETH_P_IBOE 0x8915
#define ETH_P_8021Q 0x8100
#define ETH_P_8021AD 0x88A8
#define ETH_P_QINQ_OLD 0x9100

#define GRH_LEN 40
#define GRH_NXTHDR_BTH 0x1B

#define ERF_TYPE_ETH 2
#define ERF_TYPE_INFINIBAND 21
#define ERF_TYPE_INFINIBAND_LINK 25

/*
 * A length field that runs past the frame: the capture tool cut the frame
 * (some record the cut length as the wire length), so report truncation
 * and go on decoding what is there, as tcpdump and Wireshark do.
 */
static void note_cut_capture(struct rr_frame *f, struct rr_cur *c,
			     uint32_t end, uint32_t field_off, const char *field,
			     uint32_t icrc_slack)
{
	/* a whole frame short by exactly its ICRC: a sniffer dropped it */
	if (end <= f->wirelen ||
	    (f->caplen == f->wirelen && end == f->wirelen + icrc_slack))
		return;
	c->status = c->note->status = RR_TRUNCATED;
	c->note->problem = RR_PROBLEM_SHORT;
	c->note->off = field_off;
	c->note->field = field;
}

void rr_config_init(struct rr_config *cfg)
{
	cfg->roce_udp_port = RR_ROCEV2_UDP_PORT;
	cfg->iwarp_tcp_port = RR_NFS_RDMA_PORT;
	cfg->flags = RR_CFG_VERIFY_ICRC | RR_CFG_VERIFY_CRC32C |
		     RR_CFG_IWARP_HEURISTIC;
	cfg->min_confidence = RR_CONF_SHAPE;
}

/* GRH, IBA vol. 1 §8.3: what follows is a BTH when NxtHdr is 0x1B. */
static bool decode_grh(struct rr_frame *f, uint32_t off, uint32_t lim)
{
	struct rr_cur c;
	struct rr_grh *g = &f->grh;
	cur_init(&c, f->data, off, f->caplen, lim, &f->note[RR_LAYER_GRH]);
	g->off = off;
	uint32_t w = cur_be32(&c, "GRH version/class/flow");
	g->ipver = (uint8_t)(w >> 28);
	g->tclass = (uint8_t)(w >> 20);
	g->flow = w & 0xFFFFF;
	g->paylen = cur_be16(&c, "GRH PayLen");
	g->nxthdr = cur_u8(&c, "GRH NxtHdr");
	g->hoplmt = cur_u8(&c, "GRH HopLmt");
	g->sgid_off = c.pos;
	cur_skip(&c, 16, "GRH SGID");
	g->dgid_off = c.pos;
	cur_skip(&c, 16, "GRH DGID");
	frame_mark(f, RR_LAYER_GRH);
	return cur_ok(&c) && g->nxthdr == GRH_NXTHDR_BTH;
}

static void decode_rocev1(const struct rr_config *cfg, struct rr_frame *f,
			  uint32_t off)
{
	f->transport = RR_TRANSPORT_ROCEV1;
	if (!decode_grh(f, off, f->wirelen))
		return;
	uint32_t end = off + GRH_LEN + f->grh.paylen;
	struct rr_cur c;
	cur_init(&c, f->data, off + GRH_LEN, f->caplen, end,
		 &f->note[RR_LAYER_GRH]);
	note_cut_capture(f, &c, end, off + 4, "GRH PayLen", 4);
	frame_mark(f, RR_LAYER_GRH);
	rr_decode_ib_transport(cfg, f, off + GRH_LEN, off, end, true);
}

/* LRH, IBA vol. 1 §7.7. */
static void decode_lrh(const struct rr_config *cfg, struct rr_frame *f,
		       uint32_t off, uint32_t lim)
{
	struct rr_cur c;
	struct rr_lrh *l = &f->lrh;
	f->transport = RR_TRANSPORT_IB;
	cur_init(&c, f->data, off, f->caplen, lim, &f->note[RR_LAYER_LRH]);
	l->off = off;
	uint8_t b0 = cur_u8(&c, "LRH VL/LVer");
	uint8_t b1 = cur_u8(&c, "LRH SL/LNH");
	l->vl = b0 >> 4;
	l->lver = b0 & 0xF;
	l->sl = b1 >> 4;
	l->lnh = b1 & 3;
	l->dlid = cur_be16(&c, "LRH DLID");
	l->pktlen = cur_be16(&c, "LRH PktLen") & 0x7FF;
	l->slid = cur_be16(&c, "LRH SLID");
	uint32_t end = off + l->pktlen * 4u;
	if (cur_ok(&c) && l->pktlen * 4u < 8 + 12 + 4) {
		c.pos = off + 4;
		cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_LENGTH, "LRH PktLen");
	}
	if (cur_ok(&c))
		note_cut_capture(f, &c, end, off + 4, "LRH PktLen", 4);
	frame_mark(f, RR_LAYER_LRH);
	if (f->note[RR_LAYER_LRH].status == RR_MALFORMED || c.pos < off + 8)
		return;
	if (l->lnh == 2) {
		rr_decode_ib_transport(cfg, f, off + 8, off, end, true);
	} else if (l->lnh == 3) {
		if (decode_grh(f, off + 8, end))
			rr_decode_ib_transport(cfg, f, off + 8 + GRH_LEN, off,
					       end, true);
	}
	/* LNH 0/1: raw packets, not RDMA */
	if (end + 2 <= f->caplen && end + 2 <= lim) {
		f->icrc.vcrc_present = true;
	} else if (end + 2 <= lim && f->note[RR_LAYER_LRH].status == RR_COMPLETE) {
		/* the VCRC is on the wire but not in the capture */
		frame_note(f, RR_LAYER_LRH, RR_TRUNCATED, RR_PROBLEM_SHORT, end,
			   "VCRC");
	}
}

static void decode_udp(const struct rr_config *cfg, struct rr_frame *f,
		       uint32_t off, uint32_t lim)
{
	struct rr_cur c;
	struct rr_udp *u = &f->udp;
	cur_init(&c, f->data, off, f->caplen, lim, &f->note[RR_LAYER_UDP]);
	u->off = off;
	u->sport = cur_be16(&c, "UDP source port");
	u->dport = cur_be16(&c, "UDP destination port");
	u->length = cur_be16(&c, "UDP length");
	u->checksum = cur_be16(&c, "UDP checksum");
	if (cur_ok(&c) && (u->length < 8 || off + u->length > lim)) {
		c.pos = off + 4;
		cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_LENGTH, "UDP length");
	}
	frame_mark(f, RR_LAYER_UDP);
	if (!cur_ok(&c))
		return;
	/* RoCEv2 is recognised by destination port only: sources are entropy. */
	if (u->dport == cfg->roce_udp_port) {
		f->transport = RR_TRANSPORT_ROCEV2;
		rr_decode_ib_transport(cfg, f, off + 8, f->ip.off,
				       off + u->length, true);
	}
}

static void decode_tcp(const struct rr_config *cfg, struct rr_frame *f,
		       uint32_t off, uint32_t lim)
{
	struct rr_cur c;
	struct rr_tcp *t = &f->tcp;
	cur_init(&c, f->data, off, f->caplen, lim, &f->note[RR_LAYER_TCP]);
	t->off = off;
	t->sport = cur_be16(&c, "TCP source port");
	t->dport = cur_be16(&c, "TCP destination port");
	t->seq = cur_be32(&c, "TCP sequence number");
	t->ack = cur_be32(&c, "TCP acknowledgment number");
	uint8_t doff = cur_u8(&c, "TCP data offset");
	t->flags = cur_u8(&c, "TCP flags");
	t->window = cur_be16(&c, "TCP window");
	cur_skip(&c, 4, "TCP checksum/urgent pointer");
	t->hdr_len = (doff >> 4) * 4u;
	if (cur_ok(&c) && (t->hdr_len < 20 || off + t->hdr_len > lim)) {
		c.pos = off + 12;
		cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_LENGTH,
			 "TCP data offset");
	}
	if (cur_ok(&c))
		cur_skip(&c, t->hdr_len - 20, "TCP options");
	frame_mark(f, RR_LAYER_TCP);
	if (!cur_ok(&c))
		return;
	t->payload.off = off + t->hdr_len;
	t->payload.len = lim - t->payload.off;
	if (t->payload.len)
		rr_decode_tcp_payload(cfg, f);
}

static void decode_ipv4(const struct rr_config *cfg, struct rr_frame *f,
			uint32_t off)
{
	struct rr_cur c;
	struct rr_ip *ip = &f->ip;
	f->present &= ~(1u << RR_LAYER_IPV6);
	cur_init(&c, f->data, off, f->caplen, f->wirelen,
		 &f->note[RR_LAYER_IPV4]);
	ip->off = off;
	uint8_t vihl = cur_u8(&c, "IPv4 version/IHL");
	ip->version = vihl >> 4;
	ip->hdr_len = (vihl & 0xF) * 4u;
	ip->tclass = cur_u8(&c, "IPv4 TOS");
	ip->total_len = cur_be16(&c, "IPv4 total length");
	cur_skip(&c, 2, "IPv4 identification");
	uint16_t frag = cur_be16(&c, "IPv4 flags/fragment offset");
	ip->ttl = cur_u8(&c, "IPv4 TTL");
	ip->proto = cur_u8(&c, "IPv4 protocol");
	cur_skip(&c, 2, "IPv4 header checksum");
	ip->src_off = c.pos;
	cur_skip(&c, 4, "IPv4 source");
	ip->dst_off = c.pos;
	cur_skip(&c, 4, "IPv4 destination");
	ip->addr_len = 4;
	ip->flow = 0;
	ip->fragment = (frag & 0x3FFF) != 0;
	if (cur_ok(&c)) {
		c.pos = off;
		if (ip->version != 4)
			cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_VERSION,
				 "IPv4 version");
		else if (ip->hdr_len < 20 || ip->total_len < ip->hdr_len)
			cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_LENGTH,
				 ip->hdr_len < 20 ? "IPv4 IHL" : "IPv4 total length");
		else
			c.pos = off + 20;
	}
	if (cur_ok(&c))
		cur_skip(&c, ip->hdr_len - 20, "IPv4 options");
	if (cur_ok(&c))
		note_cut_capture(f, &c, off + ip->total_len, off + 2,
				 "IPv4 total length", ip->proto == 17 ? 4 : 0);
	frame_mark(f, RR_LAYER_IPV4);
	if (f->note[RR_LAYER_IPV4].status == RR_MALFORMED || ip->fragment ||
	    c.pos < off + ip->hdr_len)
		return;
	uint32_t lim = off + ip->total_len; /* excludes Ethernet padding */
	if (ip->proto == 17)
		decode_udp(cfg, f, off + ip->hdr_len, lim);
	else if (ip->proto == 6)
		decode_tcp(cfg, f, off + ip->hdr_len, lim);
}

static void decode_ipv6(const struct rr_config *cfg, struct rr_frame *f,
			uint32_t off)
{
	struct rr_cur c;
	struct rr_ip *ip = &f->ip;
	cur_init(&c, f->data, off, f->caplen, f->wirelen,
		 &f->note[RR_LAYER_IPV6]);
	ip->off = off;
	uint32_t w = cur_be32(&c, "IPv6 version/class/flow");
	ip->version = (uint8_t)(w >> 28);
	ip->tclass = (uint8_t)(w >> 20);
	ip->flow = w & 0xFFFFF;
	uint16_t paylen = cur_be16(&c, "IPv6 payload length");
	ip->proto = cur_u8(&c, "IPv6 next header");
	ip->ttl = cur_u8(&c, "IPv6 hop limit");
	ip->src_off = c.pos;
	cur_skip(&c, 16, "IPv6 source");
	ip->dst_off = c.pos;
	cur_skip(&c, 16, "IPv6 destination");
	ip->addr_len = 16;
	ip->hdr_len = 40;
	ip->total_len = 40u + paylen;
	ip->fragment = false;
	if (cur_ok(&c)) {
		c.pos = off;
		if (ip->version != 6)
			cur_fail(&c, RR_MALFORMED, RR_PROBLEM_BAD_VERSION,
				 "IPv6 version");
		c.pos = off + 40;
	}
	if (cur_ok(&c))
		note_cut_capture(f, &c, off + ip->total_len, off + 4,
				 "IPv6 payload length", ip->proto == 17 ? 4 : 0);
	frame_mark(f, RR_LAYER_IPV6);
	if (f->note[RR_LAYER_IPV6].status == RR_MALFORMED || c.pos < off + 40)
		return;
	/* Extension headers are not followed: RoCEv2 and iWARP use none. */
	uint32_t lim = off + ip->total_len;
	if (ip->proto == 17)
		decode_udp(cfg, f, off + 40, lim);
	else if (ip->proto == 6)
		decode_tcp(cfg, f, off + 40, lim);
}

static void decode_ethertype(const struct rr_config *cfg, struct rr_frame *f,
			     uint16_t type, uint32_t off)
{
	switch (type) {
	case ETH_P_IPV4:
		decode_ipv4(cfg, f, off);
		break;
	case ETH_P_IPV6:
		decode_ipv6(cfg, f, off);
		break;
	case ETH_P_IBOE:
		decode_rocev1(cfg, f, off);
		break;
	default:
		break;
	}
}

static void decode_ethernet(const struct rr_config *cfg, struct rr_frame *f,
			    uint32_t off)
{
	struct rr_cur c;
	struct rr_link_hdr *e = &f->l2;
	cur_init(&c, f->data, off, f->caplen, f->wirelen,
		 &f->note[RR_LAYER_ETH]);
	e->off = off;
	e->nvlan = 0;
	cur_skip(&c, 12, "Ethernet addresses");
	uint16_t type = cur_be16(&c, "EtherType");
	while (cur_ok(&c) && (type == ETH_P_8021Q || type == ETH_P_8021AD ||
			      type == ETH_P_QINQ_OLD)) {
		if (e->nvlan == RR_MAX_VLAN) {
			c.pos -= 2;
			cur_fail(&c, RR_MALFORMED, RR_PROBLEM_OVER_CAP,
				 "VLAN tag count");
			break;
		}
		e->vlan_tpid[e->nvlan] = type;
		e->vlan_tci[e->nvlan] = cur_be16(&c, "VLAN TCI");
		type = cur_be16(&c, "EtherType");
		if (cur_ok(&c))
			e->nvlan++;
	}
	e->ethertype = type;
	e->len = c.pos - off;
	frame_mark(f, RR_LAYER_ETH);
	if (cur_ok(&c))
		decode_ethertype(cfg, f, type, c.pos);
}

/* Linux cooked capture: v1 (16 bytes, protocol last), v2 (20, first). */
static void decode_sll(const struct rr_config *cfg, struct rr_frame *f,
		       bool v2)
{
	struct rr_cur c;
	struct rr_link_hdr *e = &f->l2;
	cur_init(&c, f->data, 0, f->caplen, f->wirelen, &f->note[RR_LAYER_SLL]);
	e->off = 0;
	e->nvlan = 0;
	if (v2) {
		e->ethertype = cur_be16(&c, "SLL2 protocol");
		cur_skip(&c, 8, "SLL2 reserved/ifindex/hatype");
		e->sll_pkttype = cur_u8(&c, "SLL2 packet type");
		cur_skip(&c, 9, "SLL2 address");
	} else {
		e->sll_pkttype = cur_be16(&c, "SLL packet type");
		cur_skip(&c, 12, "SLL hatype/address");
		e->ethertype = cur_be16(&c, "SLL protocol");
	}
	e->len = c.pos;
	frame_mark(f, RR_LAYER_SLL);
	if (cur_ok(&c))
		decode_ethertype(cfg, f, e->ethertype, c.pos);
}

/* ERF record (Endace ERF types; ibdump writes type 21 on IB ports). */
static void decode_erf(const struct rr_config *cfg, struct rr_frame *f)
{
	struct rr_cur c;
	struct rr_erf *r = &f->erf;
	cur_init(&c, f->data, 0, f->caplen, f->wirelen, &f->note[RR_LAYER_ERF]);
	r->off = 0;
	if (cur_need(&c, 16, "ERF header")) {
		r->ts = rd_le64(f->data);
		c.pos = 8;
	}
	uint8_t type = cur_u8(&c, "ERF type");
	r->type = type & 0x7F;
	r->flags = cur_u8(&c, "ERF flags");
	r->rlen = cur_be16(&c, "ERF rlen");
	r->lctr = cur_be16(&c, "ERF lctr");
	r->wlen = cur_be16(&c, "ERF wlen");
	/* Extension headers: 8 bytes each while bit 7 of the type is set. */
	while (cur_ok(&c) && (type & 0x80)) {
		if (!cur_need(&c, 8, "ERF extension header"))
			break;
		type = f->data[c.pos];
		c.pos += 8;
	}
	frame_mark(f, RR_LAYER_ERF);
	if (!cur_ok(&c))
		return;
	uint32_t lim = r->rlen && r->rlen <= f->wirelen ? r->rlen : f->wirelen;
	if (r->type == ERF_TYPE_INFINIBAND || r->type == ERF_TYPE_INFINIBAND_LINK)
		decode_lrh(cfg, f, c.pos, lim);
	else if (r->type == ERF_TYPE_ETH)
		decode_ethernet(cfg, f, c.pos + 2); /* 2 bytes of padding */
}

static void frame_reset(struct rr_frame *f, uint32_t link, const uint8_t *data,
			uint32_t caplen, uint32_t wirelen,
			const struct rr_stream_hint *hint)
{
	f->data = data;
	f->caplen = caplen;
	f->wirelen = wirelen < caplen ? caplen : wirelen;
	f->link = link;
	f->transport = RR_TRANSPORT_NONE;
	f->present = 0;
	f->status = RR_COMPLETE;
	f->bad_layer = 0;
	f->payload.off = f->payload.len = 0;
	f->icrc.state = RR_CRC_ABSENT;
	f->icrc.vcrc_present = false;
	f->next_unit_off = f->unit_end = f->unit_limit = 0;
	f->unit_data = data;
	f->unit_cap = caplen;
	f->demarked = false;
	f->unit_index = 0;
	if (hint)
		f->hint = *hint;
	else
		memset(&f->hint, 0, sizeof(f->hint));
}

bool rr_decode_frame(const struct rr_config *cfg, uint32_t link,
		     const uint8_t *data, uint32_t caplen, uint32_t wirelen,
		     const struct rr_stream_hint *hint, struct rr_frame *f)
{
	frame_reset(f, link, data, caplen, wirelen, hint);
	switch (link) {
	case RR_LINK_ETHERNET:
		decode_ethernet(cfg, f, 0);
		break;
	case RR_LINK_RAW:
	case RR_LINK_RAW_DLT:
		if (caplen && data[0] >> 4 == 6)
			decode_ipv6(cfg, f, 0);
		else
			decode_ipv4(cfg, f, 0);
		break;
	case RR_LINK_IPV4:
		decode_ipv4(cfg, f, 0);
		break;
	case RR_LINK_IPV6:
		decode_ipv6(cfg, f, 0);
		break;
	case RR_LINK_LINUX_SLL:
		decode_sll(cfg, f, false);
		break;
	case RR_LINK_LINUX_SLL2:
		decode_sll(cfg, f, true);
		break;
	case RR_LINK_INFINIBAND:
		decode_lrh(cfg, f, 0, f->wirelen);
		break;
	case RR_LINK_ERF:
		decode_erf(cfg, f);
		break;
	default:
		return false;
	}
	return true;
}

bool rr_decode_roce_payload(const struct rr_config *cfg, const uint8_t *data,
			    uint32_t len, struct rr_frame *f)
{
	struct rr_config c = *cfg;
	c.flags &= ~(uint32_t)RR_CFG_VERIFY_ICRC; /* it covers IP and UDP */
	frame_reset(f, 0, data, len, len, NULL);
	f->transport = RR_TRANSPORT_ROCEV2;
	rr_decode_ib_transport(&c, f, 0, 0, len, true);
	return true;
}
