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
	return check_done();
}
