/* SPDX-License-Identifier: BSD-2-Clause */
/* Encoders; each mirrors the decoder that cites the same RFC section. */
#include <rpcrdma/encode.h>

#include "cursor.h"

void rr_buf_init(struct rr_buf *b, void *mem, size_t cap)
{
	b->p = mem;
	b->cap = cap;
	b->len = 0;
	b->overflow = false;
}

static uint8_t *reserve(struct rr_buf *b, size_t n)
{
	if (b->overflow || n > b->cap - b->len) {
		b->overflow = true;
		return NULL;
	}
	uint8_t *p = b->p + b->len;
	b->len += n;
	return p;
}

void rr_put_u8(struct rr_buf *b, uint8_t v)
{
	uint8_t *p = reserve(b, 1);
	if (p)
		p[0] = v;
}

void rr_put_be16(struct rr_buf *b, uint16_t v)
{
	uint8_t *p = reserve(b, 2);
	if (p) {
		p[0] = (uint8_t)(v >> 8);
		p[1] = (uint8_t)v;
	}
}

void rr_put_be32(struct rr_buf *b, uint32_t v)
{
	uint8_t *p = reserve(b, 4);
	if (p) {
		p[0] = (uint8_t)(v >> 24);
		p[1] = (uint8_t)(v >> 16);
		p[2] = (uint8_t)(v >> 8);
		p[3] = (uint8_t)v;
	}
}

void rr_put_be64(struct rr_buf *b, uint64_t v)
{
	uint8_t *p = reserve(b, 8);
	if (p)
		for (int i = 0; i < 8; i++)
			p[i] = (uint8_t)(v >> (56 - 8 * i));
}

static void put_le32(struct rr_buf *b, uint32_t v)
{
	uint8_t *p = reserve(b, 4);
	if (p)
		for (int i = 0; i < 4; i++)
			p[i] = (uint8_t)(v >> (8 * i));
}

void rr_put_bytes(struct rr_buf *b, const void *src, size_t n)
{
	uint8_t *p = reserve(b, n);
	if (p && n)
		memcpy(p, src, n);
}

void rr_put_zeros(struct rr_buf *b, size_t n)
{
	uint8_t *p = reserve(b, n);
	if (p)
		memset(p, 0, n);
}

void rr_put_xdr_opaque(struct rr_buf *b, const void *p, uint32_t n)
{
	rr_put_be32(b, n);
	rr_put_bytes(b, p, n);
	rr_put_zeros(b, (4 - n % 4) % 4);
}

static void put_seg(struct rr_buf *b, const struct rr_rdma_seg *s)
{
	rr_put_be32(b, s->handle);
	rr_put_be32(b, s->length);
	rr_put_be64(b, s->offset);
}

/* RFC 8166 §4.1-§4.3, §4.5, §4.6. */
bool rr_rpcrdma_add_segment(struct rr_rpcrdma *h, uint8_t list, uint8_t chunk,
			    uint32_t position, uint32_t handle, uint32_t length,
			    uint64_t offset)
{
	if (h->nsegs >= RR_MAX_SEGMENTS)
		return false;
	struct rr_rdma_seg *s = &h->segs[h->nsegs++];
	s->list = list;
	s->chunk = chunk;
	s->position = position;
	s->handle = handle;
	s->length = length;
	s->offset = offset;
	return true;
}

uint8_t rr_rc_packet_opcode(uint8_t kind, bool first, bool last)
{
	static const uint8_t ops[][4] = { /* first, middle, last, only */
		{ RR_OP_RC_SEND_FIRST, RR_OP_RC_SEND_MIDDLE, RR_OP_RC_SEND_LAST,
		  RR_OP_RC_SEND_ONLY },
		{ RR_OP_RC_WRITE_FIRST, RR_OP_RC_WRITE_MIDDLE,
		  RR_OP_RC_WRITE_LAST, RR_OP_RC_WRITE_ONLY },
		{ RR_OP_RC_READ_RESP_FIRST, RR_OP_RC_READ_RESP_MIDDLE,
		  RR_OP_RC_READ_RESP_LAST, RR_OP_RC_READ_RESP_ONLY },
	};
	unsigned k = kind == RR_OP_RC_WRITE_FIRST ? 1 :
		     kind == RR_OP_RC_READ_RESP_FIRST ? 2 : 0;
	return ops[k][first && last ? 3 : first ? 0 : last ? 2 : 1];
}

bool rr_rpcrdma_encode(struct rr_buf *b, const struct rr_rpcrdma *h)
{
	rr_put_be32(b, h->xid);
	rr_put_be32(b, h->vers);
	rr_put_be32(b, h->credits);
	rr_put_be32(b, h->proc);
	switch (h->proc) {
	case RR_RDMA_MSGP:
		rr_put_be32(b, h->align);
		rr_put_be32(b, h->thresh);
		/* fall through */
	case RR_RDMA_MSG:
	case RR_RDMA_NOMSG: {
		unsigned i = 0, n = h->nsegs;
		for (; i < n && h->segs[i].list == RR_LIST_READ; i++) {
			rr_put_be32(b, 1);
			rr_put_be32(b, h->segs[i].position);
			put_seg(b, &h->segs[i]);
		}
		rr_put_be32(b, 0);
		while (i < n && h->segs[i].list == RR_LIST_WRITE) {
			unsigned j = i;
			while (j < n && h->segs[j].list == RR_LIST_WRITE &&
			       h->segs[j].chunk == h->segs[i].chunk)
				j++;
			rr_put_be32(b, 1);
			rr_put_be32(b, j - i);
			for (; i < j; i++)
				put_seg(b, &h->segs[i]);
		}
		rr_put_be32(b, 0);
		if (i < n && h->segs[i].list == RR_LIST_REPLY) {
			unsigned j = i;
			while (j < n && h->segs[j].list == RR_LIST_REPLY)
				j++;
			rr_put_be32(b, 1);
			rr_put_be32(b, j - i);
			for (; i < j; i++)
				put_seg(b, &h->segs[i]);
		} else {
			rr_put_be32(b, 0);
		}
		if (i != n)
			return false;
		break;
	}
	case RR_RDMA_ERROR:
		rr_put_be32(b, h->err);
		if (h->err == RR_ERR_VERS) {
			rr_put_be32(b, h->vers_low);
			rr_put_be32(b, h->vers_high);
		}
		break;
	default:
		break;
	}
	return !b->overflow;
}

/* RFC 5531 §9. */
bool rr_rpc_encode(struct rr_buf *b, const struct rr_rpc *r,
		   const uint8_t *cred_body, const uint8_t *verf_body)
{
	rr_put_be32(b, r->xid);
	rr_put_be32(b, r->msg_type);
	if (r->msg_type == RR_RPC_CALL) {
		rr_put_be32(b, r->rpcvers);
		rr_put_be32(b, r->prog);
		rr_put_be32(b, r->vers);
		rr_put_be32(b, r->proc);
		rr_put_be32(b, r->cred_flavor);
		rr_put_xdr_opaque(b, cred_body, r->cred_len);
		rr_put_be32(b, r->verf_flavor);
		rr_put_xdr_opaque(b, verf_body, r->verf_len);
		return !b->overflow;
	}
	rr_put_be32(b, r->reply_stat);
	if (r->reply_stat == RR_RPC_MSG_ACCEPTED) {
		rr_put_be32(b, r->verf_flavor);
		rr_put_xdr_opaque(b, verf_body, r->verf_len);
		rr_put_be32(b, r->accept_stat);
		if (r->accept_stat == RR_RPC_PROG_MISMATCH) {
			rr_put_be32(b, r->mismatch_low);
			rr_put_be32(b, r->mismatch_high);
		}
	} else {
		rr_put_be32(b, r->reject_stat);
		if (r->reject_stat == RR_RPC_MISMATCH) {
			rr_put_be32(b, r->mismatch_low);
			rr_put_be32(b, r->mismatch_high);
		} else {
			rr_put_be32(b, r->auth_stat);
		}
	}
	return !b->overflow;
}

/* RFC 8797 §4.2: bytes / 1024 - 1, so 1024 bytes is 0. */
uint8_t rr_cm_private_size_raw(uint32_t bytes)
{
	uint32_t k = bytes / 1024u;
	if (k == 0)
		return 0;
	return k > 256 ? 255 : (uint8_t)(k - 1);
}

void rr_cm_private_encode(uint8_t out[RR_CM_PRIVATE_LEN], uint8_t version,
			  bool rinval, uint32_t send_bytes, uint32_t recv_bytes)
{
	struct rr_buf b;
	rr_buf_init(&b, out, RR_CM_PRIVATE_LEN);
	rr_put_be32(&b, RR_CM_PRIVATE_FORMAT);
	rr_put_u8(&b, version);
	rr_put_u8(&b, rinval ? 0x01 : 0x00);
	rr_put_u8(&b, rr_cm_private_size_raw(send_bytes));
	rr_put_u8(&b, rr_cm_private_size_raw(recv_bytes));
}

void rr_rdma_cm_hdr_encode(uint8_t out[36], uint8_t ip_version,
			   uint16_t src_port, const uint8_t *src,
			   const uint8_t *dst)
{
	memset(out, 0, 36);
	out[1] = (uint8_t)(ip_version << 4);
	out[2] = (uint8_t)(src_port >> 8);
	out[3] = (uint8_t)src_port;
	size_t n = ip_version == 4 ? 4 : 16;
	memcpy(out + 4 + 16 - n, src, n);
	memcpy(out + 20 + 16 - n, dst, n);
}

static void wr_be24(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static void wr_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void wr_be32(uint8_t *p, uint32_t v)
{
	wr_be16(p, (uint16_t)(v >> 16));
	wr_be16(p + 2, (uint16_t)v);
}

static void wr_be64(uint8_t *p, uint64_t v)
{
	wr_be32(p, (uint32_t)(v >> 32));
	wr_be32(p + 4, (uint32_t)v);
}

/* IBA vol. 1 §13.4.3 (MAD header) and §12.6 (CM messages). */
bool rr_cm_mad_encode(struct rr_buf *b, const struct rr_mad *mad,
		      const struct rr_cm *cm, const uint8_t *pd, size_t pd_len)
{
	uint8_t *p = reserve(b, 256);
	if (!p)
		return false;
	memset(p, 0, 256);
	p[0] = mad->base_version ? mad->base_version : 1;
	p[1] = mad->mgmt_class ? mad->mgmt_class : RR_MAD_CLASS_CM;
	p[2] = mad->class_version ? mad->class_version : 2;
	p[3] = mad->method ? mad->method : 0x03;
	wr_be16(p + 4, mad->status);
	wr_be16(p + 6, mad->class_specific);
	wr_be64(p + 8, mad->tid);
	wr_be16(p + 16, cm->attr_id);
	wr_be32(p + 20, mad->attr_mod);
	wr_be32(p + 24, cm->local_comm_id);
	uint32_t pd_off = 0, pd_area = 0;
	switch (cm->attr_id) {
	case RR_CM_REQ:
		wr_be64(p + 32, cm->service_id);
		wr_be64(p + 40, cm->local_ca_guid);
		wr_be32(p + 52, cm->local_qkey);
		wr_be24(p + 56, cm->local_qpn);
		p[59] = cm->resp_resources;
		p[63] = cm->initiator_depth;
		p[67] = (uint8_t)((cm->transport_type & 3) << 1);
		wr_be24(p + 68, cm->starting_psn);
		p[71] = cm->retry_count & 7;
		wr_be16(p + 72, cm->pkey);
		p[74] = (uint8_t)(cm->path_mtu << 4 | (cm->rnr_retry & 7));
		wr_be16(p + 76, 0xFFFF);
		wr_be16(p + 78, 0xFFFF);
		pd_off = 164;
		pd_area = 92;
		break;
	case RR_CM_REP:
		wr_be32(p + 28, cm->remote_comm_id);
		wr_be32(p + 32, cm->local_qkey);
		wr_be24(p + 36, cm->local_qpn);
		wr_be24(p + 44, cm->starting_psn);
		p[48] = cm->resp_resources;
		p[49] = cm->initiator_depth;
		p[51] = (uint8_t)(cm->rnr_retry << 5);
		wr_be64(p + 52, cm->local_ca_guid);
		pd_off = 60;
		pd_area = 196;
		break;
	case RR_CM_MRA:
		wr_be32(p + 28, cm->remote_comm_id);
		p[32] = (uint8_t)(cm->msg_mraed << 6);
		p[33] = (uint8_t)(cm->service_timeout << 3);
		pd_off = 34;
		pd_area = 222;
		break;
	case RR_CM_REJ:
		wr_be32(p + 28, cm->remote_comm_id);
		p[32] = (uint8_t)(cm->msg_rejected << 6);
		p[33] = (uint8_t)(cm->reject_info_len << 1);
		wr_be16(p + 34, cm->reject_reason);
		pd_off = 108;
		pd_area = 148;
		break;
	case RR_CM_DREQ:
		wr_be32(p + 28, cm->remote_comm_id);
		wr_be24(p + 32, cm->remote_qpn);
		pd_off = 36;
		pd_area = 220;
		break;
	case RR_CM_RTU:
	case RR_CM_DREP:
		wr_be32(p + 28, cm->remote_comm_id);
		pd_off = 32;
		pd_area = 224;
		break;
	default:
		wr_be32(p + 28, cm->remote_comm_id);
		break;
	}
	if (pd_len > pd_area) {
		b->overflow = true;
		return false;
	}
	if (pd_len)
		memcpy(p + pd_off, pd, pd_len);
	return true;
}

/* IBA vol. 1 §9.2-§9.3: the header set per opcode mirrors the decoder. */
bool rr_ib_encode(struct rr_buf *b, const struct rr_bth *bth,
		  const struct rr_ext *ext, const uint8_t *payload, size_t len)
{
	uint8_t pad = (uint8_t)((4 - len % 4) % 4);
	rr_put_u8(b, bth->opcode);
	rr_put_u8(b, (uint8_t)((bth->se ? 0x80 : 0) | (bth->migreq ? 0x40 : 0) |
			       pad << 4 | (bth->tver & 0xF)));
	rr_put_be16(b, bth->pkey);
	rr_put_u8(b, bth->resv8a);
	rr_put_u8(b, (uint8_t)(bth->dqpn >> 16));
	rr_put_be16(b, (uint16_t)bth->dqpn);
	rr_put_u8(b, bth->ackreq ? 0x80 : 0);
	rr_put_u8(b, (uint8_t)(bth->psn >> 16));
	rr_put_be16(b, (uint16_t)bth->psn);
	uint32_t x = ext ? ext->present : 0;
	if (x & RR_EXT_DETH) {
		rr_put_be32(b, ext->deth.qkey);
		rr_put_be32(b, ext->deth.src_qp & 0xFFFFFF);
	}
	if (x & RR_EXT_RETH) {
		rr_put_be64(b, ext->reth.va);
		rr_put_be32(b, ext->reth.rkey);
		rr_put_be32(b, ext->reth.dma_len);
	}
	if (x & RR_EXT_ATOMICETH) {
		rr_put_be64(b, ext->atomic.va);
		rr_put_be32(b, ext->atomic.rkey);
		rr_put_be64(b, ext->atomic.swap_add);
		rr_put_be64(b, ext->atomic.compare);
	}
	if (x & RR_EXT_AETH)
		rr_put_be32(b, (uint32_t)ext->aeth.syndrome << 24 |
				       (ext->aeth.msn & 0xFFFFFF));
	if (x & RR_EXT_ATOMICACKETH)
		rr_put_be64(b, ext->atomic_ack.orig);
	if (x & RR_EXT_IMMDT)
		rr_put_be32(b, ext->immdt.data);
	if (x & RR_EXT_IETH)
		rr_put_be32(b, ext->ieth.rkey);
	rr_put_bytes(b, payload, len);
	rr_put_zeros(b, pad);
	return !b->overflow;
}

/* RFC 1071's sum, begun at sum (a pseudo-header's), folded and negated. */
static uint16_t ip_checksum(uint32_t sum, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}

uint16_t rr_ipv4_header_checksum(const uint8_t *hdr, size_t len)
{
	return ip_checksum(0, hdr, len);
}

static void put_ethernet(struct rr_buf *b, const struct rr_endpoints *ep,
			 uint16_t type)
{
	rr_put_bytes(b, ep->dst_mac, 6);
	rr_put_bytes(b, ep->src_mac, 6);
	for (unsigned i = 0; i < ep->nvlan && i < 2; i++) {
		rr_put_be16(b, i + 1 < ep->nvlan ? 0x88A8 : 0x8100);
		rr_put_be16(b, ep->vlan_tci[i]);
	}
	rr_put_be16(b, type);
}

/* IPv4 (RFC 791) or IPv6 (RFC 8200) header; returns its offset in b. */
static size_t put_ip(struct rr_buf *b, const struct rr_endpoints *ep,
		     uint8_t proto, size_t payload_len)
{
	size_t at = b->len;
	if (ep->ip_version == 6) {
		rr_put_be32(b, 6u << 28 | (uint32_t)ep->tclass << 20 |
				       (ep->flow & 0xFFFFF));
		rr_put_be16(b, (uint16_t)payload_len);
		rr_put_u8(b, proto);
		rr_put_u8(b, ep->ttl ? ep->ttl : 64);
		rr_put_bytes(b, ep->src_ip, 16);
		rr_put_bytes(b, ep->dst_ip, 16);
		return at;
	}
	rr_put_u8(b, 0x45);
	rr_put_u8(b, ep->tclass);
	rr_put_be16(b, (uint16_t)(20 + payload_len));
	rr_put_be16(b, ep->ip_id);
	rr_put_be16(b, 0x4000); /* DF */
	rr_put_u8(b, ep->ttl ? ep->ttl : 64);
	rr_put_u8(b, proto);
	rr_put_be16(b, 0);
	rr_put_bytes(b, ep->src_ip, 4);
	rr_put_bytes(b, ep->dst_ip, 4);
	if (!b->overflow)
		wr_be16(b->p + at + 10, ip_checksum(0, b->p + at, 20));
	return at;
}

bool rr_frame_rocev2(struct rr_buf *b, const struct rr_endpoints *ep,
		     const uint8_t *ib, size_t len)
{
	put_ethernet(b, ep, ep->ip_version == 6 ? 0x86DD : 0x0800);
	size_t ip = put_ip(b, ep, 17, 8 + len + 4);
	rr_put_be16(b, ep->src_port);
	rr_put_be16(b, ep->dst_port ? ep->dst_port : 4791);
	rr_put_be16(b, (uint16_t)(8 + len + 4));
	rr_put_be16(b, 0); /* RoCEv2 leaves the UDP checksum zero */
	rr_put_bytes(b, ib, len);
	if (b->overflow)
		return false;
	put_le32(b, rr_icrc_compute(RR_TRANSPORT_ROCEV2, b->p + ip,
				    b->len - ip));
	return !b->overflow;
}

bool rr_frame_rocev1(struct rr_buf *b, const struct rr_endpoints *ep,
		     const uint8_t *ib, size_t len)
{
	static const uint8_t v4_mapped[12] = { [10] = 0xFF, [11] = 0xFF };
	put_ethernet(b, ep, 0x8915);
	size_t grh = b->len;
	rr_put_be32(b, 6u << 28 | (uint32_t)ep->tclass << 20 |
			       (ep->flow & 0xFFFFF));
	rr_put_be16(b, (uint16_t)(len + 4));
	rr_put_u8(b, 0x1B);
	rr_put_u8(b, ep->ttl ? ep->ttl : 64);
	if (ep->ip_version == 6) {
		rr_put_bytes(b, ep->src_ip, 16);
		rr_put_bytes(b, ep->dst_ip, 16);
	} else {
		rr_put_bytes(b, v4_mapped, 12);
		rr_put_bytes(b, ep->src_ip, 4);
		rr_put_bytes(b, v4_mapped, 12);
		rr_put_bytes(b, ep->dst_ip, 4);
	}
	rr_put_bytes(b, ib, len);
	if (b->overflow)
		return false;
	put_le32(b, rr_icrc_compute(RR_TRANSPORT_ROCEV1, b->p + grh,
				    b->len - grh));
	return !b->overflow;
}

bool rr_frame_ib(struct rr_buf *b, uint16_t dlid, uint16_t slid, uint8_t sl,
		 const uint8_t *ib, size_t len)
{
	size_t lrh = b->len;
	rr_put_u8(b, 0x00);            /* VL 0, LVer 0 */
	rr_put_u8(b, (uint8_t)(sl << 4 | 2)); /* LNH: IBA local */
	rr_put_be16(b, dlid);
	rr_put_be16(b, (uint16_t)((8 + len + 4) / 4));
	rr_put_be16(b, slid);
	rr_put_bytes(b, ib, len);
	if (b->overflow)
		return false;
	put_le32(b, rr_icrc_compute(RR_TRANSPORT_IB, b->p + lrh, b->len - lrh));
	rr_put_be16(b, 0); /* VCRC: link-local, not computed */
	return !b->overflow;
}

bool rr_frame_tcp(struct rr_buf *b, const struct rr_endpoints *ep,
		  uint32_t seq, uint32_t ack, uint8_t flags, uint16_t window,
		  const uint8_t *payload, size_t len)
{
	put_ethernet(b, ep, ep->ip_version == 6 ? 0x86DD : 0x0800);
	size_t ip = put_ip(b, ep, 6, 20 + len);
	size_t tcp = b->len;
	rr_put_be16(b, ep->src_port);
	rr_put_be16(b, ep->dst_port);
	rr_put_be32(b, seq);
	rr_put_be32(b, ack);
	rr_put_u8(b, 5 << 4);
	rr_put_u8(b, flags);
	rr_put_be16(b, window);
	rr_put_be32(b, 0); /* checksum, urgent pointer */
	rr_put_bytes(b, payload, len);
	if (b->overflow)
		return false;
	/* RFC 9293 §3.1: checksum over the pseudo-header and the segment */
	size_t alen = ep->ip_version == 6 ? 16 : 4;
	size_t src = ip + (ep->ip_version == 6 ? 8 : 12);
	uint32_t sum = 6 + (uint32_t)(b->len - tcp);
	for (size_t i = 0; i < 2 * alen; i += 2)
		sum += (uint32_t)(b->p[src + i] << 8 | b->p[src + i + 1]);
	wr_be16(b->p + tcp + 16,
		ip_checksum(sum, b->p + tcp, b->len - tcp));
	return true;
}

bool rr_mpa_encode(struct rr_buf *b, const struct rr_mpa *m,
		   const uint8_t *ulp_data, size_t len)
{
	rr_put_bytes(b, m->reply ? "MPA ID Rep Frame" : "MPA ID Req Frame", 16);
	rr_put_u8(b, (uint8_t)((m->marker ? 0x80 : 0) | (m->crc ? 0x40 : 0) |
			       (m->reject ? 0x20 : 0) |
			       (m->enhanced ? 0x10 : 0)));
	rr_put_u8(b, m->revision);
	rr_put_be16(b, (uint16_t)(len + (m->has_ird_ord ? 4 : 0)));
	if (m->has_ird_ord) {
		rr_put_be16(b, (uint16_t)((m->peer_to_peer ? 0x8000 : 0) |
					  (m->zero_len_rtr ? 0x4000 : 0) |
					  (m->ird & 0x3FFF)));
		rr_put_be16(b, (uint16_t)((m->write_rtr ? 0x8000 : 0) |
					  (m->read_rtr ? 0x4000 : 0) |
					  (m->ord & 0x3FFF)));
	}
	rr_put_bytes(b, ulp_data, len);
	return !b->overflow;
}

bool rr_fpdu_encode(struct rr_buf *b, const struct rr_ddp *d,
		    const uint8_t *payload, size_t len, bool crc)
{
	size_t start = b->len;
	size_t hdr = d->tagged ? 14 : 18;
	if (!d->tagged && d->opcode == RR_RDMAP_READ_REQUEST)
		hdr += 28;
	else if (!d->tagged && d->opcode == RR_RDMAP_TERMINATE)
		hdr += 4;
	rr_put_be16(b, (uint16_t)(hdr + len));
	rr_put_u8(b, (uint8_t)((d->tagged ? 0x80 : 0) | (d->last ? 0x40 : 0) |
			       (d->dv & 3)));
	rr_put_u8(b, (uint8_t)((d->rv & 3) << 6 | (d->opcode & 0xF)));
	if (d->tagged) {
		rr_put_be32(b, d->stag);
		rr_put_be64(b, d->to);
	} else {
		rr_put_be32(b, d->inv_stag);
		rr_put_be32(b, d->qn);
		rr_put_be32(b, d->msn);
		rr_put_be32(b, d->mo);
		if (d->opcode == RR_RDMAP_READ_REQUEST) {
			rr_put_be32(b, d->sink_stag);
			rr_put_be64(b, d->sink_to);
			rr_put_be32(b, d->read_size);
			rr_put_be32(b, d->src_stag);
			rr_put_be64(b, d->src_to);
		} else if (d->opcode == RR_RDMAP_TERMINATE) {
			rr_put_be32(b, (uint32_t)d->term_layer << 28 |
					       (uint32_t)(d->term_etype & 0xF) << 24 |
					       (uint32_t)d->term_ecode << 16 |
					       (d->term_hdrct_m ? 0x8000u : 0) |
					       (d->term_hdrct_d ? 0x4000u : 0) |
					       (d->term_hdrct_r ? 0x2000u : 0));
		}
	}
	rr_put_bytes(b, payload, len);
	rr_put_zeros(b, (4 - (2 + hdr + len) % 4) % 4);
	if (b->overflow)
		return false;
	put_le32(b, crc ? rr_crc32c(0, b->p + start, b->len - start) : 0);
	return !b->overflow;
}

static void put_marker(struct rr_buf *b, uint32_t *pos, uint32_t fpdu_start)
{
	if (*pos % 512 == 0) {
		rr_put_be16(b, 0);
		rr_put_be16(b, (uint16_t)(*pos - fpdu_start));
		*pos += 4;
	}
}

bool rr_mpa_mark(struct rr_buf *b, const uint8_t *fpdus, size_t len,
		 uint32_t *stream_pos, bool crc)
{
	size_t i = 0;
	while (i + 2 <= len) {
		size_t body = 2 + (size_t)(fpdus[i] << 8 | fpdus[i + 1]);
		size_t total = body + (4 - body % 4) % 4 + 4;
		if (total > len - i) {
			b->overflow = true;
			return false;
		}
		/* a marker due at the FPDU's first octet precedes it */
		put_marker(b, stream_pos, *stream_pos);
		uint32_t start = *stream_pos;
		size_t out_start = b->len;
		for (size_t k = 0; k < total - 4; k++) {
			put_marker(b, stream_pos, start);
			rr_put_u8(b, fpdus[i + k]);
			(*stream_pos)++;
		}
		put_marker(b, stream_pos, start);
		if (b->overflow)
			return false;
		uint32_t c = crc ? rr_crc32c(0, b->p + out_start,
					     b->len - out_start) : 0;
		/* the CRC's own octets may be split by a marker too */
		for (int k = 0; k < 4; k++) {
			if (k)
				put_marker(b, stream_pos, start);
			rr_put_u8(b, (uint8_t)(c >> (8 * k)));
			(*stream_pos)++;
		}
		i += total;
	}
	return !b->overflow && i == len;
}
