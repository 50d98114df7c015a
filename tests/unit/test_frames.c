/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whole frames: every link layer, RoCEv1/v2 and native IB, BTH extension
 * headers, ICRC, CM MADs with the RDMA-CM header and RFC 8797 data, MPA
 * revisions 1 and 2, FPDUs with CRC32c, several FPDUs in one segment.
 */
#include <string.h>

#include "check.h"
#include "vectors.h"

static struct rr_config cfg;
static struct rr_frame f;
static struct vector vecs[64];
static size_t nvecs;

static const struct vector *vec(const char *name)
{
	for (size_t i = 0; i < nvecs; i++)
		if (strcmp(vecs[i].name, name) == 0)
			return &vecs[i];
	printf("# no vector %s\n", name);
	return &vecs[0];
}

static bool decode_vec(const struct vector *v)
{
	check_ctx = v->name;
	return rr_decode_frame(&cfg, v->link, v->bytes, (uint32_t)v->len,
			       (uint32_t)v->len, NULL, &f);
}

static void test_all_complete(void)
{
	for (size_t i = 0; i < nvecs; i++) {
		CHECK(decode_vec(&vecs[i]));
		CHECK_EQ(f.status, RR_COMPLETE);
		if (rr_has(&f, RR_LAYER_BTH)) {
			CHECK(rr_has(&f, RR_LAYER_ICRC));
			CHECK_EQ(f.icrc.state, RR_CRC_GOOD);
		}
	}
}

static void test_rocev2_msg(void)
{
	const struct vector *v = vec("rocev2 msg");
	CHECK(decode_vec(v));
	CHECK_EQ(f.transport, RR_TRANSPORT_ROCEV2);
	CHECK(rr_has(&f, RR_LAYER_ETH) && rr_has(&f, RR_LAYER_IPV4) &&
	      rr_has(&f, RR_LAYER_UDP) && rr_has(&f, RR_LAYER_BTH));
	CHECK_EQ(f.l2.ethertype, 0x0800);
	CHECK_EQ(f.ip.off, 14);
	CHECK_EQ(f.udp.off, 34);
	CHECK_EQ(f.udp.dport, 4791);
	CHECK_EQ(f.bth.off, 42);
	CHECK_EQ(f.bth.opcode, RR_OP_RC_SEND_ONLY);
	CHECK_EQ(f.bth.dqpn, 0x22);
	CHECK_EQ(f.bth.psn, 0x123456);
	CHECK_EQ(f.bth.pkey, 0xFFFF);
	CHECK(f.bth.ackreq);
	CHECK_EQ(f.payload.off, 54);
	CHECK_EQ(f.icrc.off, v->len - 4);
	CHECK(rr_has(&f, RR_LAYER_RPCRDMA));
	CHECK_EQ(f.rdma.off, 54);
	CHECK_EQ(f.rdma.xid, 0x11111111);
	CHECK_EQ(f.rdma.credits, 32);
	CHECK_EQ(f.rdma.confidence, RR_CONF_XID);
	CHECK(rr_has(&f, RR_LAYER_RPC));
	CHECK_EQ(f.rpc.off, 54 + 28);
	CHECK_EQ(f.rpc.prog, 100003);
	CHECK_EQ(f.rpc.proc, 1);
	CHECK(!rr_decode_next_unit(&cfg, &f));

	check_ctx = "a flipped payload bit fails the ICRC";
	struct vector bad = *v;
	bad.bytes[60] ^= 0x40;
	CHECK(rr_decode_frame(&cfg, bad.link, bad.bytes, (uint32_t)bad.len,
			      (uint32_t)bad.len, NULL, &f));
	CHECK_EQ(f.icrc.state, RR_CRC_BAD);
	CHECK_EQ(f.note[RR_LAYER_ICRC].status, RR_MALFORMED);
	CHECK_EQ(f.note[RR_LAYER_ICRC].problem, RR_PROBLEM_BAD_ICRC);
	CHECK_EQ(f.status, RR_MALFORMED);
	check_ctx = "a variant field (TTL) does not";
	bad = *v;
	bad.bytes[14 + 8] = 3;
	rr_decode_frame(&cfg, bad.link, bad.bytes, (uint32_t)bad.len,
			(uint32_t)bad.len, NULL, &f);
	CHECK_EQ(f.icrc.state, RR_CRC_GOOD);
	check_ctx = "verification off";
	cfg.flags &= ~(uint32_t)RR_CFG_VERIFY_ICRC;
	rr_decode_frame(&cfg, v->link, v->bytes, (uint32_t)v->len,
			(uint32_t)v->len, NULL, &f);
	CHECK_EQ(f.icrc.state, RR_CRC_UNCHECKED);
	cfg.flags |= RR_CFG_VERIFY_ICRC;
	check_ctx = "ICRC stripped by the capture tool";
	rr_decode_frame(&cfg, v->link, v->bytes, (uint32_t)v->len - 4,
			(uint32_t)v->len - 4, NULL, &f);
	CHECK_EQ(f.status, RR_COMPLETE);
	CHECK(!rr_has(&f, RR_LAYER_ICRC));
	CHECK(rr_has(&f, RR_LAYER_RPC));
	check_ctx = "another UDP port is not RoCEv2";
	bad = *v;
	bad.bytes[34 + 3] = 0xb8; /* 4792 */
	rr_decode_frame(&cfg, bad.link, bad.bytes, (uint32_t)bad.len,
			(uint32_t)bad.len, NULL, &f);
	CHECK(!rr_has(&f, RR_LAYER_BTH));
	cfg.roce_udp_port = 4792;
	rr_decode_frame(&cfg, bad.link, bad.bytes, (uint32_t)bad.len,
			(uint32_t)bad.len, NULL, &f);
	CHECK(rr_has(&f, RR_LAYER_RPCRDMA));
	cfg.roce_udp_port = 4791;
}

static void test_chunks_in_frame(void)
{
	const struct vector *v = vec("rocev2 ipv6 vlan nomsg chunks");
	CHECK(decode_vec(v));
	CHECK_EQ(f.l2.nvlan, 2);
	CHECK_EQ(f.l2.vlan_tpid[0], 0x88A8);
	CHECK_EQ(f.l2.vlan_tci[1], 200);
	CHECK(rr_has(&f, RR_LAYER_IPV6));
	CHECK_EQ(f.ip.addr_len, 16);
	CHECK_EQ(f.bth.opcode, RR_OP_RC_SEND_ONLY_INV);
	CHECK(f.ext.present & RR_EXT_IETH);
	CHECK_EQ(f.ext.ieth.rkey, 0xb1);
	CHECK_EQ(f.rdma.proc, RR_RDMA_NOMSG);
	CHECK_EQ(f.rdma.nsegs, 8);
	CHECK_EQ(f.rdma.nread_chunks, 2);
	CHECK_EQ(f.rdma.nwrite_chunks, 2);
	CHECK(f.rdma.has_reply_chunk);
	CHECK(f.rdma.pzrc);
	CHECK(!rr_has(&f, RR_LAYER_RPC));
	/* segment offsets are frame offsets: the handle sits 8 bytes in */
	const struct rr_rdma_seg *s = &f.rdma.segs[2];
	CHECK_EQ(s->off, f.payload.off + 16 + 2 * 24 + 4);
	CHECK_EQ(v->bytes[s->off + 4 + 3], 0xa3); /* after the position */
}

static void test_other_transports(void)
{
	CHECK(decode_vec(vec("rocev1 err_vers")));
	CHECK_EQ(f.transport, RR_TRANSPORT_ROCEV1);
	CHECK(rr_has(&f, RR_LAYER_GRH));
	CHECK_EQ(f.grh.nxthdr, 0x1B);
	CHECK_EQ(f.icrc.state, RR_CRC_GOOD);
	CHECK_EQ(f.rdma.vers, 2);
	CHECK_EQ(f.rdma.err, RR_ERR_VERS);
	CHECK(f.rdma.body_decoded);

	CHECK(decode_vec(vec("ib msgp")));
	CHECK_EQ(f.transport, RR_TRANSPORT_IB);
	CHECK_EQ(f.lrh.lnh, 2);
	CHECK_EQ(f.lrh.dlid, 7);
	CHECK_EQ(f.lrh.slid, 9);
	CHECK(f.icrc.vcrc_present);
	CHECK_EQ(f.icrc.state, RR_CRC_GOOD);
	CHECK_EQ(f.rdma.proc, RR_RDMA_MSGP);
	CHECK_EQ(f.rdma.align, 4096);
	CHECK_EQ(f.rdma.thresh, 512);
	CHECK(rr_has(&f, RR_LAYER_RPC));

	CHECK(decode_vec(vec("erf infiniband")));
	CHECK(rr_has(&f, RR_LAYER_ERF));
	CHECK_EQ(f.erf.type, 21);
	CHECK_EQ(f.lrh.off, 16);
	CHECK_EQ(f.rdma.xid, 0x77777777);

	const char *links[] = { "linux sll", "linux sll2", "raw ip" };
	for (int i = 0; i < 3; i++) {
		CHECK(decode_vec(vec(links[i])));
		CHECK_EQ(f.rdma.xid, 0x11111111);
		CHECK_EQ(f.icrc.state, RR_CRC_GOOD);
	}

	CHECK(decode_vec(vec("rocev2 done imm")));
	CHECK(f.ext.present & RR_EXT_IMMDT);
	CHECK_EQ(f.ext.immdt.data, 0xfeedbeef);
	CHECK_EQ(f.rdma.proc, RR_RDMA_DONE);
	CHECK(decode_vec(vec("rocev2 err_chunk")));
	CHECK_EQ(f.rdma.err, RR_ERR_CHUNK);

	CHECK(decode_vec(vec("rocev2 write only")));
	CHECK(f.ext.present & RR_EXT_RETH);
	CHECK_EQ(f.ext.reth.rkey, 0xb1);
	CHECK_EQ(f.ext.reth.va, 0x7f0000001000ull);
	CHECK_EQ(f.ext.reth.dma_len, 200);
	CHECK_EQ(f.payload.len, 200);
	CHECK(!rr_has(&f, RR_LAYER_RPCRDMA));
	CHECK(decode_vec(vec("rocev2 read request")));
	CHECK_EQ(f.payload.len, 0);
	CHECK(decode_vec(vec("rocev2 read response")));
	CHECK_EQ(f.bth.padcnt, 1);
	CHECK_EQ(f.payload.len, 199);
	CHECK_EQ(f.ext.aeth.type, RR_AETH_ACK);
	CHECK_EQ(f.ext.aeth.msn, 77);
	CHECK(decode_vec(vec("rocev2 nak")));
	CHECK_EQ(f.ext.aeth.type, RR_AETH_NAK);
	CHECK_EQ(f.ext.aeth.value, RR_NAK_REMOTE_ACCESS);
	CHECK(decode_vec(vec("rocev2 cmp swap")));
	CHECK_EQ(f.ext.atomic.swap_add, 5);
	CHECK_EQ(f.ext.atomic.compare, 6);
	CHECK(decode_vec(vec("rocev2 atomic ack")));
	CHECK_EQ(f.ext.atomic_ack.orig, 0x0102030405060708ull);
}

static void test_cm(void)
{
	CHECK(decode_vec(vec("cm req")));
	CHECK(rr_has(&f, RR_LAYER_MAD) && rr_has(&f, RR_LAYER_CM));
	CHECK_EQ(f.bth.dqpn, 1);
	CHECK_EQ(f.ext.deth.qkey, 0x80010000);
	CHECK_EQ(f.mad.mgmt_class, RR_MAD_CLASS_CM);
	CHECK_EQ(f.mad.tid, 0x1122334455667788ull);
	CHECK_EQ(f.cm.attr_id, RR_CM_REQ);
	CHECK_EQ(f.cm.local_comm_id, 0xc0de0001);
	CHECK_EQ(f.cm.service_id, 0x0000000001064E51ull);
	CHECK_EQ(f.cm.local_qpn, 0x123);
	CHECK_EQ(f.cm.starting_psn, 0xabcd);
	CHECK_EQ(f.cm.path_mtu, 5);
	CHECK_EQ(f.cm.rnr_retry, 6);
	CHECK_EQ(f.cm.private_data.off, f.mad.off + 164);
	CHECK_EQ(f.cm.private_data.len, 92);
	CHECK(rr_has(&f, RR_LAYER_RDMA_CM));
	CHECK_EQ(f.rdma_cm.ip_version, 4);
	CHECK_EQ(f.rdma_cm.src_port, 0xc5a3);
	CHECK_EQ(f.rdma_cm.dst_port, 20049);
	CHECK_EQ(f.rdma_cm.port_space, 0x06);
	CHECK_EQ(f.data[f.rdma_cm.src_addr_off], 192);
	CHECK_EQ(f.data[f.rdma_cm.dst_addr_off + 3], 2);
	CHECK(rr_has(&f, RR_LAYER_CM_PRIVATE));
	CHECK_EQ(f.cm_private.off, f.mad.off + 200);
	CHECK(f.cm_private.rinval);
	CHECK_EQ(f.cm_private.send_size, 4096);
	CHECK_EQ(f.cm_private.recv_size, 8192);

	CHECK(decode_vec(vec("cm rep")));
	CHECK_EQ(f.cm.attr_id, RR_CM_REP);
	CHECK_EQ(f.cm.remote_comm_id, 0xc0de0002);
	CHECK_EQ(f.cm.local_qpn, 0x123);
	CHECK_EQ(f.cm.local_ca_guid, 0x0002c90300aabbccull);
	CHECK(!rr_has(&f, RR_LAYER_RDMA_CM));
	CHECK_EQ(f.cm_private.off, f.mad.off + 60);
	CHECK(!f.cm_private.rinval);
	CHECK_EQ(f.cm_private.send_size, 16384);

	CHECK(decode_vec(vec("cm rej")));
	CHECK_EQ(f.cm.reject_reason, 28);
	CHECK_EQ(f.cm.msg_rejected, 1);
	CHECK_EQ(f.cm_private.off, f.mad.off + 108);
	CHECK(decode_vec(vec("cm mra")));
	CHECK_EQ(f.cm.msg_mraed, 2);
	CHECK_EQ(f.cm.service_timeout, 9);
	CHECK(!rr_has(&f, RR_LAYER_CM_PRIVATE));
	CHECK(decode_vec(vec("cm rtu")));
	CHECK_EQ(f.cm.attr_id, RR_CM_RTU);
	CHECK(decode_vec(vec("cm dreq")));
	CHECK_EQ(f.cm.remote_qpn, 0x456);
	CHECK(decode_vec(vec("cm drep")));
	CHECK_EQ(f.cm.attr_id, RR_CM_DREP);

	check_ctx = "REQ without private data";
	struct vector v;
	v.len = vec_cm(v.bytes, sizeof(v.bytes), RR_CM_REQ, NULL, 0);
	rr_decode_frame(&cfg, RR_LINK_ETHERNET, v.bytes, (uint32_t)v.len,
			(uint32_t)v.len, NULL, &f);
	CHECK(rr_has(&f, RR_LAYER_CM));
	CHECK(!rr_has(&f, RR_LAYER_CM_PRIVATE));
	CHECK_EQ(f.note[RR_LAYER_RDMA_CM].status, RR_MALFORMED);

	check_ctx = "REP with an RFC 8797 block of version 2";
	uint8_t pd[8];
	rr_cm_private_encode(pd, 2, true, 4096, 4096);
	v.len = vec_cm(v.bytes, sizeof(v.bytes), RR_CM_REP, pd, 8);
	rr_decode_frame(&cfg, RR_LINK_ETHERNET, v.bytes, (uint32_t)v.len,
			(uint32_t)v.len, NULL, &f);
	CHECK(rr_has(&f, RR_LAYER_CM_PRIVATE));
	CHECK_EQ(f.note[RR_LAYER_CM_PRIVATE].status, RR_MALFORMED);
	CHECK_EQ(f.note[RR_LAYER_CM_PRIVATE].problem, RR_PROBLEM_BAD_VERSION);
	CHECK_EQ(f.status, RR_MALFORMED);

	check_ctx = "REP with the block cut by the end of the private data";
	uint8_t full[196] = { 0 };
	rr_cm_private_encode(pd, 1, true, 4096, 4096);
	memcpy(full + 190, pd, 6);
	v.len = vec_cm(v.bytes, sizeof(v.bytes), RR_CM_REP, full, sizeof(full));
	rr_decode_frame(&cfg, RR_LINK_ETHERNET, v.bytes, (uint32_t)v.len,
			(uint32_t)v.len, NULL, &f);
	CHECK_EQ(f.note[RR_LAYER_CM_PRIVATE].status, RR_MALFORMED);
}

static void test_iwarp(void)
{
	CHECK(decode_vec(vec("iwarp mpa req v2")));
	CHECK_EQ(f.transport, RR_TRANSPORT_IWARP);
	CHECK(rr_has(&f, RR_LAYER_MPA));
	CHECK(!f.mpa.reply);
	CHECK_EQ(f.mpa.revision, 2);
	CHECK(f.mpa.crc && f.mpa.enhanced && !f.mpa.marker);
	CHECK(f.mpa.has_ird_ord);
	CHECK_EQ(f.mpa.ird, 32);
	CHECK_EQ(f.mpa.ord, 16);
	CHECK(f.mpa.peer_to_peer && f.mpa.read_rtr && !f.mpa.write_rtr);
	CHECK_EQ(f.mpa.ulp_data.off, f.tcp.payload.off + 24);
	CHECK(rr_has(&f, RR_LAYER_CM_PRIVATE));
	CHECK_EQ(f.cm_private.off, f.tcp.payload.off + 24);
	CHECK(!rr_decode_next_unit(&cfg, &f));

	check_ctx = "MPA revision 1 Reply without private data";
	struct rr_endpoints ep;
	vec_endpoints(&ep, 4);
	ep.dst_port = 20049;
	uint8_t mpa[64], frame[256];
	struct rr_buf b, fb;
	struct rr_mpa m1 = { .reply = true, .revision = 1, .marker = true };
	rr_buf_init(&b, mpa, sizeof(mpa));
	rr_mpa_encode(&b, &m1, NULL, 0);
	rr_buf_init(&fb, frame, sizeof(frame));
	rr_frame_tcp(&fb, &ep, 1, 1, 0x18, 100, mpa, b.len);
	rr_decode_frame(&cfg, RR_LINK_ETHERNET, frame, (uint32_t)fb.len,
			(uint32_t)fb.len, NULL, &f);
	CHECK(rr_has(&f, RR_LAYER_MPA));
	CHECK(f.mpa.reply);
	CHECK_EQ(f.mpa.revision, 1);
	CHECK(f.mpa.marker);
	CHECK(!f.mpa.has_ird_ord);
	CHECK_EQ(f.mpa.pd_len, 0);
	CHECK_EQ(f.status, RR_COMPLETE);

	const struct vector *v = vec("iwarp three fpdus");
	CHECK(decode_vec(v));
	CHECK(rr_has(&f, RR_LAYER_DDP));
	CHECK_EQ(f.unit_index, 0);
	CHECK_EQ(f.fpdu.crc_state, RR_CRC_GOOD);
	CHECK_EQ(f.ddp.opcode, RR_RDMAP_SEND);
	CHECK(!f.ddp.tagged && f.ddp.last);
	CHECK_EQ(f.ddp.msn, 1);
	CHECK_EQ(f.rdma.xid, 0x66666666);
	CHECK_EQ(f.rdma.confidence, RR_CONF_XID);
	CHECK(rr_has(&f, RR_LAYER_RPC));
	CHECK(rr_decode_next_unit(&cfg, &f));
	CHECK_EQ(f.unit_index, 1);
	CHECK_EQ(f.ddp.opcode, RR_RDMAP_READ_REQUEST);
	CHECK_EQ(f.ddp.qn, 1);
	CHECK_EQ(f.ddp.src_stag, 0xa3);
	CHECK_EQ(f.ddp.src_to, 0x7f00000000a3ull);
	CHECK_EQ(f.ddp.read_size, 300);
	CHECK_EQ(f.ddp.sink_stag, 0x100);
	CHECK(!rr_has(&f, RR_LAYER_RPCRDMA));
	CHECK_EQ(f.fpdu.crc_state, RR_CRC_GOOD);
	CHECK(rr_decode_next_unit(&cfg, &f));
	CHECK_EQ(f.ddp.opcode, RR_RDMAP_WRITE);
	CHECK(f.ddp.tagged);
	CHECK_EQ(f.ddp.stag, 0xb1);
	CHECK_EQ(f.ddp.to, 0x7f00000000b1ull);
	CHECK_EQ(f.payload.len, 61);
	CHECK_EQ(f.fpdu.pad, 3); /* 2 + 14 + 61 bytes, padded to 80 */
	CHECK(!rr_decode_next_unit(&cfg, &f));
	CHECK_EQ(f.status, RR_COMPLETE);

	check_ctx = "a bad CRC32c in the second FPDU";
	struct vector bad = *v;
	uint32_t second = f.fpdu.off; /* the third FPDU; corrupt its payload */
	bad.bytes[second + 20] ^= 1;
	rr_decode_frame(&cfg, bad.link, bad.bytes, (uint32_t)bad.len,
			(uint32_t)bad.len, NULL, &f);
	CHECK_EQ(f.fpdu.crc_state, RR_CRC_GOOD);
	rr_decode_next_unit(&cfg, &f);
	rr_decode_next_unit(&cfg, &f);
	CHECK_EQ(f.fpdu.crc_state, RR_CRC_BAD);
	CHECK_EQ(f.note[RR_LAYER_DDP].problem, RR_PROBLEM_BAD_CRC32C);
	CHECK_EQ(f.status, RR_MALFORMED);

	check_ctx = "FPDUs on another port: found by their framing";
	bad = *v;
	bad.bytes[34 + 3] = 0x0f; /* destination port 20049 -> 19983 */
	bad.bytes[34 + 2] = 0x4e;
	rr_decode_frame(&cfg, bad.link, bad.bytes, (uint32_t)bad.len,
			(uint32_t)bad.len, NULL, &f);
	CHECK(rr_has(&f, RR_LAYER_RPCRDMA));
	cfg.flags &= ~(uint32_t)RR_CFG_IWARP_HEURISTIC;
	rr_decode_frame(&cfg, bad.link, bad.bytes, (uint32_t)bad.len,
			(uint32_t)bad.len, NULL, &f);
	CHECK(!rr_has(&f, RR_LAYER_DDP));
	struct rr_stream_hint hint = { .iwarp = true, .rpcrdma = true };
	rr_decode_frame(&cfg, bad.link, bad.bytes, (uint32_t)bad.len,
			(uint32_t)bad.len, &hint, &f);
	CHECK(rr_has(&f, RR_LAYER_RPCRDMA));
	CHECK_EQ(f.rdma.confidence, RR_CONF_CONTEXT);
	cfg.flags |= RR_CFG_IWARP_HEURISTIC;

	CHECK(decode_vec(vec("iwarp terminate")));
	CHECK_EQ(f.ddp.opcode, RR_RDMAP_TERMINATE);
	CHECK_EQ(f.ddp.qn, 2);
	CHECK_EQ(f.ddp.term_layer, 1);
	CHECK_EQ(f.ddp.term_etype, 2);
	CHECK_EQ(f.ddp.term_ecode, 3);
	CHECK(f.ddp.term_hdrct_m && !f.ddp.term_hdrct_d);
	CHECK_EQ(f.fpdu.crc_state, RR_CRC_ZERO);
}

static void test_multi_packet_send(void)
{
	check_ctx = "SEND FIRST carries the header; the rest follows";
	struct rr_endpoints ep;
	vec_endpoints(&ep, 4);
	uint8_t payload[1024] = { 0 }, frame[1200];
	const uint8_t hdr[] = { 0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 0,
				0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
				0, 0, 0, 9, 0, 0, 0, 1, 0, 0, 0, 0 };
	memcpy(payload, hdr, sizeof(hdr));
	size_t n = vec_rocev2(frame, sizeof(frame), &ep, RR_OP_RC_SEND_FIRST,
			      NULL, payload, sizeof(payload));
	rr_decode_frame(&cfg, RR_LINK_ETHERNET, frame, (uint32_t)n, (uint32_t)n,
			NULL, &f);
	CHECK(rr_has(&f, RR_LAYER_RPCRDMA));
	CHECK_EQ(f.rdma.xid, 9);
	CHECK_EQ(f.note[RR_LAYER_RPCRDMA].status, RR_COMPLETE);
	CHECK(rr_has(&f, RR_LAYER_RPC));
	CHECK_EQ(f.rpc.msg_type, RR_RPC_REPLY);
	check_ctx = "SEND MIDDLE is not decoded as a header";
	n = vec_rocev2(frame, sizeof(frame), &ep, RR_OP_RC_SEND_MIDDLE, NULL,
		       payload, sizeof(payload));
	rr_decode_frame(&cfg, RR_LINK_ETHERNET, frame, (uint32_t)n, (uint32_t)n,
			NULL, &f);
	CHECK(!rr_has(&f, RR_LAYER_RPCRDMA));
	check_ctx = "UC SEND ONLY is not RPC-over-RDMA (it needs RC)";
	n = vec_rocev2(frame, sizeof(frame), &ep, RR_OP_UC_SEND_ONLY, NULL,
		       payload, 40);
	rr_decode_frame(&cfg, RR_LINK_ETHERNET, frame, (uint32_t)n, (uint32_t)n,
			NULL, &f);
	CHECK(!rr_has(&f, RR_LAYER_RPCRDMA));
}

static void test_bad_lengths(void)
{
	const struct vector *v = vec("rocev2 msg");
	struct vector bad;

	check_ctx = "UDP length beyond the IP packet";
	bad = *v;
	bad.bytes[34 + 4] = 0xff;
	rr_decode_frame(&cfg, bad.link, bad.bytes, (uint32_t)bad.len,
			(uint32_t)bad.len, NULL, &f);
	CHECK_EQ(f.note[RR_LAYER_UDP].status, RR_MALFORMED);
	CHECK_EQ(f.note[RR_LAYER_UDP].off, 38);
	CHECK(!rr_has(&f, RR_LAYER_BTH));

	check_ctx = "IPv4 total length beyond the frame: a cut capture";
	bad = *v;
	bad.bytes[16] = 0x10;
	rr_decode_frame(&cfg, bad.link, bad.bytes, (uint32_t)bad.len,
			(uint32_t)bad.len, NULL, &f);
	CHECK_EQ(f.note[RR_LAYER_IPV4].status, RR_TRUNCATED);
	CHECK(rr_has(&f, RR_LAYER_RPCRDMA)); /* decoding goes on */
	/* the total length is covered by the ICRC, which now fails */
	CHECK_EQ(f.icrc.state, RR_CRC_BAD);

	check_ctx = "IPv4 header length below 20";
	bad = *v;
	bad.bytes[14] = 0x44;
	rr_decode_frame(&cfg, bad.link, bad.bytes, (uint32_t)bad.len,
			(uint32_t)bad.len, NULL, &f);
	CHECK_EQ(f.note[RR_LAYER_IPV4].status, RR_MALFORMED);

	check_ctx = "pad count larger than the payload";
	struct rr_endpoints ep;
	vec_endpoints(&ep, 4);
	uint8_t frame[128];
	size_t n = vec_rocev2(frame, sizeof(frame), &ep, RR_OP_RC_SEND_ONLY,
			      NULL, NULL, 0);
	frame[42 + 1] |= 0x30;
	rr_decode_frame(&cfg, RR_LINK_ETHERNET, frame, (uint32_t)n, (uint32_t)n,
			NULL, &f);
	CHECK_EQ(f.note[RR_LAYER_BTH].status, RR_MALFORMED);

	check_ctx = "three VLAN tags";
	uint8_t vl[64] = { 0 };
	for (int i = 0; i < 3; i++) {
		vl[12 + 4 * i] = 0x81;
		vl[13 + 4 * i] = 0x00;
	}
	rr_decode_frame(&cfg, RR_LINK_ETHERNET, vl, sizeof(vl), sizeof(vl),
			NULL, &f);
	CHECK_EQ(f.note[RR_LAYER_ETH].status, RR_MALFORMED);
	CHECK_EQ(f.note[RR_LAYER_ETH].problem, RR_PROBLEM_OVER_CAP);

	check_ctx = "unknown link type";
	CHECK(!rr_decode_frame(&cfg, 9999, vl, sizeof(vl), sizeof(vl), NULL,
			       &f));
}

/* FPDUs with MPA markers, over two segments of one stream. */
static void test_markers(void)
{
	check_ctx = "MPA markers";
	uint8_t run[2048], marked[2600], frame[3000], scratch[2600];
	uint8_t payload[700], rpc[128];
	struct rr_buf b, rb;
	struct rr_rpcrdma h = { .xid = 0xabcd0001, .vers = 1, .credits = 9 };
	struct rr_rpc call = { .xid = 0xabcd0001, .rpcvers = 2, .prog = 100003,
			       .vers = 3, .proc = 1 };
	rr_buf_init(&rb, rpc, sizeof(rpc));
	rr_rpcrdma_encode(&rb, &h);
	rr_rpc_encode(&rb, &call, NULL, NULL);
	memset(payload, 0x77, sizeof(payload));

	/* Send, Write of 700 bytes, Send: 584 bytes, so markers fall inside */
	rr_buf_init(&b, run, sizeof(run));
	struct rr_ddp send = { .last = true, .dv = 1, .rv = 1,
			       .opcode = RR_RDMAP_SEND, .msn = 1 };
	struct rr_ddp wr = { .tagged = true, .last = true, .dv = 1, .rv = 1,
			     .opcode = RR_RDMAP_WRITE, .stag = 0x55,
			     .to = 0x1000 };
	rr_fpdu_encode(&b, &send, rpc, rb.len, false);
	rr_fpdu_encode(&b, &wr, payload, sizeof(payload), false);
	send.msn = 2;
	rr_fpdu_encode(&b, &send, rpc, rb.len, false);
	CHECK(!b.overflow);

	struct rr_endpoints ep;
	vec_endpoints(&ep, 4);
	ep.dst_port = 20049;
	uint32_t seq0 = 0x10000000, stream = 0, seq = seq0;
	struct rr_stream_hint hint = { .iwarp = true, .iwarp_crc = true,
				       .iwarp_markers = true,
				       .marker_seq0 = seq0,
				       .scratch = scratch,
				       .scratch_len = sizeof(scratch) };
	for (int segment = 0; segment < 2; segment++) {
		struct rr_buf mb, fb;
		rr_buf_init(&mb, marked, sizeof(marked));
		CHECK(rr_mpa_mark(&mb, run, b.len, &stream, true));
		CHECK(mb.len > b.len); /* markers were added */
		rr_buf_init(&fb, frame, sizeof(frame));
		rr_frame_tcp(&fb, &ep, seq, 1, 0x18, 65535, marked, mb.len);
		seq += (uint32_t)mb.len;

		unsigned units = 0, good = 0;
		for (bool more = rr_decode_frame(&cfg, RR_LINK_ETHERNET, frame,
						 (uint32_t)fb.len,
						 (uint32_t)fb.len, &hint, &f);
		     more; more = rr_decode_next_unit(&cfg, &f)) {
			units++;
			CHECK(f.demarked);
			CHECK_EQ(f.status, RR_COMPLETE);
			good += f.fpdu.crc_state == RR_CRC_GOOD;
			if (units == 2) {
				CHECK_EQ(f.ddp.opcode, RR_RDMAP_WRITE);
				CHECK_EQ(f.payload.len, sizeof(payload));
			} else {
				CHECK(rr_has(&f, RR_LAYER_RPCRDMA));
				CHECK_EQ(f.rdma.xid, 0xabcd0001);
				CHECK_EQ(f.rpc.prog, 100003);
				/* the offsets map back to the frame's bytes */
				uint32_t w = rr_wire_offset(&f, f.rdma.off);
				CHECK(memcmp(frame + w, f.unit_data + f.rdma.off,
					     4) == 0);
			}
		}
		CHECK_EQ(units, 3);
		CHECK_EQ(good, 3);
	}

	check_ctx = "MPA markers without scratch space";
	hint.scratch = NULL;
	rr_decode_frame(&cfg, RR_LINK_ETHERNET, frame, sizeof(frame),
			sizeof(frame), &hint, &f);
	CHECK_EQ(f.note[RR_LAYER_DDP].problem, RR_PROBLEM_NO_SCRATCH);
	CHECK_EQ(f.status, RR_MALFORMED);
}

/* The decoded value of a field, to compare with its bytes. */
static uint64_t field_value(enum rr_field field, unsigned i)
{
	const struct rr_rdma_seg *s = &f.rdma.segs[i];
	switch (field) {
	case RR_F_XID: return f.rdma.xid;
	case RR_F_VERS: return f.rdma.vers;
	case RR_F_CREDITS: return f.rdma.credits;
	case RR_F_PROC: return f.rdma.proc;
	case RR_F_ALIGN: return f.rdma.align;
	case RR_F_THRESH: return f.rdma.thresh;
	case RR_F_ERR: return f.rdma.err;
	case RR_F_VERS_LOW: return f.rdma.vers_low;
	case RR_F_VERS_HIGH: return f.rdma.vers_high;
	case RR_F_SEG_POSITION: return s->position;
	case RR_F_SEG_HANDLE: return s->handle;
	case RR_F_SEG_LENGTH: return s->length;
	case RR_F_SEG_OFFSET: return s->offset;
	case RR_F_PRIV_FORMAT: return RR_CM_PRIVATE_FORMAT;
	case RR_F_PRIV_VERSION: return f.cm_private.version;
	case RR_F_PRIV_FLAGS: return f.cm_private.flags;
	case RR_F_PRIV_SEND: return f.cm_private.send_raw;
	case RR_F_PRIV_RECV: return f.cm_private.recv_raw;
	case RR_F_BTH_OPCODE: return f.bth.opcode;
	case RR_F_BTH_PKEY: return f.bth.pkey;
	case RR_F_BTH_DESTQP: return f.bth.dqpn;
	case RR_F_BTH_PSN: return f.bth.psn;
	case RR_F_RETH_VA: return f.ext.reth.va;
	case RR_F_RETH_RKEY: return f.ext.reth.rkey;
	case RR_F_RETH_LEN: return f.ext.reth.dma_len;
	case RR_F_AETH_SYNDROME: return f.ext.aeth.syndrome;
	case RR_F_AETH_MSN: return f.ext.aeth.msn;
	case RR_F_IETH_RKEY: return f.ext.ieth.rkey;
	case RR_F_DDP_STAG: return f.ddp.stag;
	case RR_F_DDP_TO: return f.ddp.to;
	case RR_F_DDP_INV_STAG: return f.ddp.inv_stag;
	case RR_F_DDP_QN: return f.ddp.qn;
	case RR_F_DDP_MSN: return f.ddp.msn;
	case RR_F_DDP_MO: return f.ddp.mo;
	case RR_F_MPA_IRD: return (uint64_t)f.mpa.ird |
				  (f.mpa.peer_to_peer ? 0x8000 : 0) |
				  (f.mpa.zero_len_rtr ? 0x4000 : 0);
	case RR_F_MPA_ORD: return (uint64_t)f.mpa.ord |
				  (f.mpa.write_rtr ? 0x8000 : 0) |
				  (f.mpa.read_rtr ? 0x4000 : 0);
	default: return UINT64_MAX; /* CRCs: little-endian, checked apart */
	}
}

/* Every field span of every unit holds the value the decoder reports. */
static void test_field_spans(void)
{
	unsigned checked = 0;
	bool seen[RR_FIELD_COUNT] = { false };
	for (size_t v = 0; v < nvecs; v++) {
		for (bool more = decode_vec(&vecs[v]); more;
		     more = rr_decode_next_unit(&cfg, &f)) {
			for (unsigned fld = 0; fld < RR_FIELD_COUNT; fld++) {
				unsigned n = rr_field_info(fld)->anchor ==
							     RR_ANCHOR_SEGMENT ?
						     f.rdma.nsegs : 1;
				for (unsigned i = 0; i < n; i++) {
					struct rr_span sp;
					if (!rr_field_span(&f, fld, i, &sp))
						continue;
					uint64_t want = field_value(fld, i);
					seen[fld] = true;
					if (want == UINT64_MAX)
						continue;
					uint64_t got = 0;
					for (uint32_t k = 0; k < sp.len; k++)
						got = got << 8 |
						      f.unit_data[sp.off + k];
					if (!CHECK_EQ_RET(got, want))
						printf("#   field %s segment %u\n",
						       rr_field_info(fld)->abbrev, i);
					checked++;
				}
			}
		}
	}
	check_ctx = "field table";
	CHECK(checked > 150);
	for (unsigned fld = 0; fld < RR_FIELD_COUNT; fld++)
		if (!CHECK(seen[fld]))
			printf("#   no vector holds %s\n",
			       rr_field_info(fld)->abbrev);
	CHECK(rr_field_info(RR_FIELD_COUNT) == NULL);
}

int main(void)
{
	rr_config_init(&cfg);
	nvecs = vectors_build(vecs, sizeof(vecs) / sizeof(vecs[0]));
	check_ctx = "vectors";
	CHECK(nvecs >= 25);
	test_all_complete();
	test_rocev2_msg();
	test_chunks_in_frame();
	test_other_transports();
	test_cm();
	test_iwarp();
	test_multi_packet_send();
	test_bad_lengths();
	test_markers();
	test_field_spans();
	return check_done();
}
