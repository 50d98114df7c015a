/* SPDX-License-Identifier: BSD-2-Clause */
#include "vectors.h"

#include <stdio.h>
#include <string.h>

void vec_endpoints(struct rr_endpoints *ep, uint8_t ip_version)
{
	memset(ep, 0, sizeof(*ep));
	memcpy(ep->src_mac, "\x02\x00\x00\x00\x00\x01", 6);
	memcpy(ep->dst_mac, "\x02\x00\x00\x00\x00\x02", 6);
	ep->ip_version = ip_version;
	if (ip_version == 4) {
		memcpy(ep->src_ip, "\xc0\x00\x02\x01", 4);
		memcpy(ep->dst_ip, "\xc0\x00\x02\x02", 4);
	} else {
		memcpy(ep->src_ip, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
		memcpy(ep->dst_ip, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x02", 16);
	}
	ep->src_port = 0xc123;
	ep->dst_port = 4791;
	ep->ttl = 64;
}

static size_t ib_bytes(uint8_t *ib, size_t cap, uint8_t opcode, uint32_t dqpn,
		       const struct rr_ext *ext, const uint8_t *payload,
		       size_t len)
{
	struct rr_bth bth = { .opcode = opcode, .pkey = 0xFFFF, .dqpn = dqpn,
			      .psn = 0x123456, .ackreq = true };
	struct rr_buf b;
	rr_buf_init(&b, ib, cap);
	return rr_ib_encode(&b, &bth, ext, payload, len) ? b.len : 0;
}

size_t vec_rocev2(uint8_t *out, size_t cap, const struct rr_endpoints *ep,
		  uint8_t opcode, const struct rr_ext *ext,
		  const uint8_t *payload, size_t len)
{
	uint8_t ib[VEC_MAX_LEN];
	size_t n = ib_bytes(ib, sizeof(ib), opcode,
			    opcode == RR_OP_UD_SEND_ONLY ? 1 : 0x22, ext,
			    payload, len);
	struct rr_buf b;
	rr_buf_init(&b, out, cap);
	return n && rr_frame_rocev2(&b, ep, ib, n) ? b.len : 0;
}

size_t vec_cm(uint8_t *out, size_t cap, uint16_t attr, const uint8_t *pd,
	      size_t pd_len)
{
	struct rr_endpoints ep;
	struct rr_mad mad = { .tid = 0x1122334455667788ull };
	struct rr_cm cm = { .attr_id = attr, .local_comm_id = 0xc0de0001,
			    .remote_comm_id = 0xc0de0002,
			    .service_id = 0x0000000001064E51ull,
			    .local_ca_guid = 0x0002c90300aabbccull,
			    .local_qkey = 0, .local_qpn = 0x000123,
			    .starting_psn = 0x00abcd, .resp_resources = 16,
			    .initiator_depth = 8, .path_mtu = 5,
			    .retry_count = 7, .rnr_retry = 6, .pkey = 0xFFFF,
			    .msg_rejected = 1, .reject_reason = 28,
			    .remote_qpn = 0x000456, .msg_mraed = 2,
			    .service_timeout = 9 };
	uint8_t mad_buf[256];
	struct rr_buf b;
	rr_buf_init(&b, mad_buf, sizeof(mad_buf));
	if (!rr_cm_mad_encode(&b, &mad, &cm, pd, pd_len))
		return 0;
	struct rr_ext x = { .present = RR_EXT_DETH };
	x.deth.qkey = 0x80010000;
	x.deth.src_qp = 1;
	vec_endpoints(&ep, 4);
	return vec_rocev2(out, cap, &ep, RR_OP_UD_SEND_ONLY, &x, mad_buf, b.len);
}

static size_t rpc_null_call(uint8_t *out, size_t cap, uint32_t xid,
			    const struct rr_rpcrdma *h)
{
	struct rr_buf b;
	rr_buf_init(&b, out, cap);
	rr_rpcrdma_encode(&b, h);
	struct rr_rpc r = { .xid = xid, .msg_type = 0, .rpcvers = 2,
			    .prog = 100003, .vers = 3, .proc = 1 };
	if (h->proc == RR_RDMA_MSG || h->proc == RR_RDMA_MSGP)
		rr_rpc_encode(&b, &r, NULL, NULL);
	return b.overflow ? 0 : b.len;
}

static void seg(struct rr_rpcrdma *h, uint8_t list, uint8_t chunk,
		uint32_t position, uint32_t handle, uint32_t length)
{
	rr_rpcrdma_add_segment(h, list, chunk, position, handle, length,
			       0x7f0000000000ull + handle);
}

size_t vectors_build(struct vector *v, size_t max)
{
	size_t n = 0;
	struct rr_endpoints ep;
	uint8_t payload[1024];
	struct rr_rpcrdma h;

#define ADD(nm, lk, expr) \
	do { \
		if (n < max) { \
			v[n].name = (nm); \
			v[n].link = (lk); \
			v[n].len = (expr); \
			if (v[n].len) \
				n++; \
			else \
				fprintf(stderr, "vector %s not built\n", nm); \
		} \
	} while (0)

	/* RDMA_MSG + NFS GETATTR call, RoCEv2 over IPv4 */
	vec_endpoints(&ep, 4);
	memset(&h, 0, sizeof(h));
	h.xid = 0x11111111;
	h.vers = 1;
	h.credits = 32;
	size_t pl = rpc_null_call(payload, sizeof(payload), h.xid, &h);
	ADD("rocev2 msg", RR_LINK_ETHERNET,
	    vec_rocev2(v[n].bytes, VEC_MAX_LEN, &ep, RR_OP_RC_SEND_ONLY, NULL,
		       payload, pl));

	/* every chunk shape in one NOMSG, over IPv6 with two VLAN tags */
	vec_endpoints(&ep, 6);
	ep.nvlan = 2;
	ep.vlan_tci[0] = 100;
	ep.vlan_tci[1] = 200;
	memset(&h, 0, sizeof(h));
	h.xid = 0x22222222;
	h.vers = 1;
	h.credits = 1;
	h.proc = RR_RDMA_NOMSG;
	seg(&h, RR_LIST_READ, 0, 0, 0xa1, 100);
	seg(&h, RR_LIST_READ, 0, 0, 0xa2, 200);
	seg(&h, RR_LIST_READ, 1, 64, 0xa3, 300);
	seg(&h, RR_LIST_WRITE, 0, 0, 0xb1, 4096);
	seg(&h, RR_LIST_WRITE, 0, 0, 0xb2, 4096);
	seg(&h, RR_LIST_WRITE, 1, 0, 0xb3, 512);
	seg(&h, RR_LIST_REPLY, 0, 0, 0xc1, 1024);
	seg(&h, RR_LIST_REPLY, 0, 0, 0xc2, 1024);
	pl = rpc_null_call(payload, sizeof(payload), h.xid, &h);
	ADD("rocev2 ipv6 vlan nomsg chunks", RR_LINK_ETHERNET,
	    vec_rocev2(v[n].bytes, VEC_MAX_LEN, &ep, RR_OP_RC_SEND_ONLY_INV,
		       &(struct rr_ext){ .present = RR_EXT_IETH,
					 .ieth = { .rkey = 0xb1 } },
		       payload, pl));

	/* RDMA_ERROR ERR_VERS with the caller's version 2, RoCEv1 */
	memset(&h, 0, sizeof(h));
	h.xid = 0x33333333;
	h.vers = 2;
	h.credits = 16;
	h.proc = RR_RDMA_ERROR;
	h.err = RR_ERR_VERS;
	h.vers_low = h.vers_high = 1;
	pl = rpc_null_call(payload, sizeof(payload), h.xid, &h);
	{
		uint8_t ib[256];
		size_t il = ib_bytes(ib, sizeof(ib), RR_OP_RC_SEND_ONLY, 0x33,
				     NULL, payload, pl);
		struct rr_buf b;
		vec_endpoints(&ep, 4);
		rr_buf_init(&b, v[n].bytes, VEC_MAX_LEN);
		ADD("rocev1 err_vers", RR_LINK_ETHERNET,
		    rr_frame_rocev1(&b, &ep, ib, il) ? b.len : 0);
		/* RDMA_MSGP on native InfiniBand (link type 247) */
		memset(&h, 0, sizeof(h));
		h.xid = 0x44444444;
		h.vers = 1;
		h.credits = 8;
		h.proc = RR_RDMA_MSGP;
		h.align = 4096;
		h.thresh = 512;
		pl = rpc_null_call(payload, sizeof(payload), h.xid, &h);
		il = ib_bytes(ib, sizeof(ib), RR_OP_RC_SEND_ONLY, 0x44, NULL,
			      payload, pl);
		rr_buf_init(&b, v[n].bytes, VEC_MAX_LEN);
		ADD("ib msgp", RR_LINK_INFINIBAND,
		    rr_frame_ib(&b, 7, 9, 0, ib, il) ? b.len : 0);
	}

	/* RDMA_DONE with immediate data; RDMA_ERROR ERR_CHUNK */
	vec_endpoints(&ep, 4);
	memset(&h, 0, sizeof(h));
	h.xid = 0x55555555;
	h.vers = 1;
	h.credits = 4;
	h.proc = RR_RDMA_DONE;
	pl = rpc_null_call(payload, sizeof(payload), h.xid, &h);
	ADD("rocev2 done imm", RR_LINK_ETHERNET,
	    vec_rocev2(v[n].bytes, VEC_MAX_LEN, &ep, RR_OP_RC_SEND_ONLY_IMM,
		       &(struct rr_ext){ .present = RR_EXT_IMMDT,
					 .immdt = { .data = 0xfeedbeef } },
		       payload, pl));
	h.proc = RR_RDMA_ERROR;
	h.err = RR_ERR_CHUNK;
	pl = rpc_null_call(payload, sizeof(payload), h.xid, &h);
	ADD("rocev2 err_chunk", RR_LINK_ETHERNET,
	    vec_rocev2(v[n].bytes, VEC_MAX_LEN, &ep, RR_OP_RC_SEND_ONLY, NULL,
		       payload, pl));

	/* RDMA WRITE ONLY, READ REQUEST, READ RESPONSE ONLY, ACK, atomics */
	memset(payload, 0x5a, 200);
	struct rr_ext x = { .present = RR_EXT_RETH };
	x.reth.va = 0x7f0000001000ull;
	x.reth.rkey = 0xb1;
	x.reth.dma_len = 200;
	ADD("rocev2 write only", RR_LINK_ETHERNET,
	    vec_rocev2(v[n].bytes, VEC_MAX_LEN, &ep, RR_OP_RC_WRITE_ONLY, &x,
		       payload, 200));
	ADD("rocev2 read request", RR_LINK_ETHERNET,
	    vec_rocev2(v[n].bytes, VEC_MAX_LEN, &ep, RR_OP_RC_READ_REQUEST, &x,
		       NULL, 0));
	x.present = RR_EXT_AETH;
	x.aeth.syndrome = 0x1F;
	x.aeth.msn = 77;
	ADD("rocev2 read response", RR_LINK_ETHERNET,
	    vec_rocev2(v[n].bytes, VEC_MAX_LEN, &ep, RR_OP_RC_READ_RESP_ONLY,
		       &x, payload, 199));
	x.aeth.syndrome = 0x60 | RR_NAK_REMOTE_ACCESS;
	ADD("rocev2 nak", RR_LINK_ETHERNET,
	    vec_rocev2(v[n].bytes, VEC_MAX_LEN, &ep, RR_OP_RC_ACK, &x, NULL, 0));
	x.present = RR_EXT_ATOMICETH;
	x.atomic.va = 0x1000;
	x.atomic.rkey = 0x99;
	x.atomic.swap_add = 5;
	x.atomic.compare = 6;
	ADD("rocev2 cmp swap", RR_LINK_ETHERNET,
	    vec_rocev2(v[n].bytes, VEC_MAX_LEN, &ep, RR_OP_RC_CMP_SWAP, &x,
		       NULL, 0));
	x.present = RR_EXT_AETH | RR_EXT_ATOMICACKETH;
	x.atomic_ack.orig = 0x0102030405060708ull;
	ADD("rocev2 atomic ack", RR_LINK_ETHERNET,
	    vec_rocev2(v[n].bytes, VEC_MAX_LEN, &ep, RR_OP_RC_ATOMIC_ACK, &x,
		       NULL, 0));

	/* CM messages with RFC 8797 data where RPC-over-RDMA puts it */
	uint8_t pd[92] = { 0 };
	rr_rdma_cm_hdr_encode(pd, 4, 0xc5a3, ep.src_ip, ep.dst_ip);
	rr_cm_private_encode(pd + 36, 1, true, 4096, 8192);
	ADD("cm req", RR_LINK_ETHERNET,
	    vec_cm(v[n].bytes, VEC_MAX_LEN, RR_CM_REQ, pd, sizeof(pd)));
	rr_cm_private_encode(pd, 1, false, 16384, 4096);
	ADD("cm rep", RR_LINK_ETHERNET,
	    vec_cm(v[n].bytes, VEC_MAX_LEN, RR_CM_REP, pd, 8));
	ADD("cm rej", RR_LINK_ETHERNET,
	    vec_cm(v[n].bytes, VEC_MAX_LEN, RR_CM_REJ, pd, 8));
	ADD("cm mra", RR_LINK_ETHERNET,
	    vec_cm(v[n].bytes, VEC_MAX_LEN, RR_CM_MRA, NULL, 0));
	ADD("cm rtu", RR_LINK_ETHERNET,
	    vec_cm(v[n].bytes, VEC_MAX_LEN, RR_CM_RTU, NULL, 0));
	ADD("cm dreq", RR_LINK_ETHERNET,
	    vec_cm(v[n].bytes, VEC_MAX_LEN, RR_CM_DREQ, NULL, 0));
	ADD("cm drep", RR_LINK_ETHERNET,
	    vec_cm(v[n].bytes, VEC_MAX_LEN, RR_CM_DREP, NULL, 0));

	/* iWARP: MPA v2 Req with RFC 8797 data, then two FPDUs in a segment */
	vec_endpoints(&ep, 4);
	ep.dst_port = 20049;
	{
		uint8_t tcp[1024], pdv[8];
		struct rr_buf b, fb;
		struct rr_mpa m = { .crc = true, .enhanced = true,
				    .revision = 2, .has_ird_ord = true,
				    .ird = 32, .ord = 16, .peer_to_peer = true,
				    .read_rtr = true };
		rr_cm_private_encode(pdv, 1, true, 4096, 4096);
		rr_buf_init(&b, tcp, sizeof(tcp));
		rr_mpa_encode(&b, &m, pdv, sizeof(pdv));
		rr_buf_init(&fb, v[n].bytes, VEC_MAX_LEN);
		ADD("iwarp mpa req v2", RR_LINK_ETHERNET,
		    rr_frame_tcp(&fb, &ep, 1000, 2000, 0x18, 65535, tcp, b.len) ?
			    fb.len : 0);

		memset(&h, 0, sizeof(h));
		h.xid = 0x66666666;
		h.vers = 1;
		h.credits = 128;
		pl = rpc_null_call(payload, sizeof(payload), h.xid, &h);
		struct rr_ddp d = { .last = true, .dv = 1, .rv = 1,
				    .opcode = RR_RDMAP_SEND, .msn = 1 };
		rr_buf_init(&b, tcp, sizeof(tcp));
		rr_fpdu_encode(&b, &d, payload, pl, true);
		struct rr_ddp r = { .last = true, .dv = 1, .rv = 1, .qn = 1,
				    .opcode = RR_RDMAP_READ_REQUEST, .msn = 1,
				    .sink_stag = 0x100, .sink_to = 0x2000,
				    .read_size = 300, .src_stag = 0xa3,
				    .src_to = 0x7f00000000a3ull };
		rr_fpdu_encode(&b, &r, NULL, 0, true);
		struct rr_ddp w = { .tagged = true, .last = true, .dv = 1,
				    .rv = 1, .opcode = RR_RDMAP_WRITE,
				    .stag = 0xb1, .to = 0x7f00000000b1ull };
		rr_fpdu_encode(&b, &w, payload, 61, true);
		rr_buf_init(&fb, v[n].bytes, VEC_MAX_LEN);
		ADD("iwarp three fpdus", RR_LINK_ETHERNET,
		    rr_frame_tcp(&fb, &ep, 1024, 2000, 0x18, 65535, tcp, b.len) ?
			    fb.len : 0);
		struct rr_ddp t = { .last = true, .dv = 1, .rv = 1, .qn = 2,
				    .opcode = RR_RDMAP_TERMINATE,
				    .term_layer = 1, .term_etype = 2,
				    .term_ecode = 3, .term_hdrct_m = true };
		rr_buf_init(&b, tcp, sizeof(tcp));
		rr_fpdu_encode(&b, &t, payload, 40, false);
		rr_buf_init(&fb, v[n].bytes, VEC_MAX_LEN);
		ADD("iwarp terminate", RR_LINK_ETHERNET,
		    rr_frame_tcp(&fb, &ep, 1200, 2000, 0x18, 65535, tcp, b.len) ?
			    fb.len : 0);
	}
	/* The first vector under other link-layer headers. */
	if (n > 0 && n + 5 <= max && v[0].len > 14 && v[0].len < VEC_MAX_LEN - 20) {
		const struct vector *eth = &v[0];
		size_t ip_len = (eth->len - 14) & 0x7ff;
		struct vector *o = &v[n];
		memset(o->bytes, 0, 16);
		o->bytes[1] = 4;                        /* outgoing */
		o->bytes[3] = 1;                        /* ARPHRD_ETHER */
		o->bytes[5] = 6;
		o->bytes[14] = 0x08;                    /* IPv4 */
		memcpy(o->bytes + 16, eth->bytes + 14, ip_len);
		ADD("linux sll", RR_LINK_LINUX_SLL, 16 + ip_len);
		o = &v[n];
		memset(o->bytes, 0, 20);
		o->bytes[0] = 0x08;
		o->bytes[9] = 1;
		o->bytes[10] = 1;
		memcpy(o->bytes + 20, eth->bytes + 14, ip_len);
		ADD("linux sll2", RR_LINK_LINUX_SLL2, 20 + ip_len);
		o = &v[n];
		memcpy(o->bytes, eth->bytes + 14, ip_len);
		ADD("raw ip", RR_LINK_RAW, ip_len);
		/* ERF type 21 around a native IB RDMA_MSG, as ibdump writes */
		uint8_t ib[512];
		memset(&h, 0, sizeof(h));
		h.xid = 0x77777777;
		h.vers = 1;
		h.credits = 2;
		pl = rpc_null_call(payload, sizeof(payload), h.xid, &h);
		size_t il = ib_bytes(ib, sizeof(ib), RR_OP_RC_SEND_ONLY, 0x77,
				     NULL, payload, pl);
		o = &v[n];
		struct rr_buf b;
		rr_buf_init(&b, o->bytes + 16, VEC_MAX_LEN - 16);
		if (rr_frame_ib(&b, 3, 4, 0, ib, il)) {
			memset(o->bytes, 0, 16);
			o->bytes[8] = 21;
			o->bytes[9] = 0x04;
			o->bytes[10] = (uint8_t)((16 + b.len) >> 8);
			o->bytes[11] = (uint8_t)(16 + b.len);
			o->bytes[14] = (uint8_t)(b.len >> 8);
			o->bytes[15] = (uint8_t)b.len;
			ADD("erf infiniband", RR_LINK_ERF, 16 + b.len);
		}
	}
	return n;
}
