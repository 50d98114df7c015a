/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-mksample: write a small capture of NFSv3 over RPC-over-RDMA v1,
 * built with libdissect's encoders, on RoCEv2 and on iWARP.
 *
 * The RoCEv2 part connects with IB CM (RDMA-CM header and RFC 8797 data),
 * then carries every RPC-over-RDMA procedure and chunk shape: inline calls
 * and replies, a write chunk filled by RDMA WRITE, a read chunk pulled by
 * RDMA READ, a Long Call (position-zero read chunk), a reply chunk, a
 * multi-packet SEND, Send With Invalidate, RDMA_MSGP, RDMA_DONE, both
 * RDMA_ERRORs and a backward-direction CB_NULL; then it disconnects.  The
 * iWARP part does the same core exchange over TCP with MPA rev 2 and CRC.
 *
 * Until the reference peer exists this is how the bundled sample is made.
 */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rpcrdma/encode.h>

#define MTU 1024
#define NFS_PROG 100003
#define NFS_PORT 20049

struct side {
	struct rr_endpoints ep;
	uint32_t qpn;      /* this side's QP: the peer sends to it */
	uint32_t next_psn; /* PSN of this side's next request packet */
	uint32_t tcp_seq;
	uint32_t msn;      /* iWARP untagged queue 0 MSN */
};

struct gen {
	pcap_dumper_t *out;
	struct timeval ts;
	struct side c, s;  /* requester (client), responder (server) */
	bool iwarp;
	uint32_t xid;
};

static uint8_t frame_buf[9000];

static void emit(struct gen *g, const uint8_t *p, size_t len)
{
	struct pcap_pkthdr h = { .ts = g->ts, .caplen = (bpf_u_int32)len,
				 .len = (bpf_u_int32)len };
	pcap_dump((u_char *)g->out, &h, p);
	g->ts.tv_usec += 7;
	if (g->ts.tv_usec >= 1000000) {
		g->ts.tv_sec++;
		g->ts.tv_usec -= 1000000;
	}
}

static struct side *peer_of(struct gen *g, struct side *from)
{
	return from == &g->c ? &g->s : &g->c;
}

/* ---- RoCEv2 -------------------------------------------------------------- */

static void rocev2_packet(struct gen *g, struct side *from, uint8_t opcode,
			  uint32_t psn, const struct rr_ext *ext,
			  const uint8_t *payload, size_t len, uint32_t dqpn)
{
	uint8_t ib[MTU + 128];
	struct rr_buf b, fb;
	struct rr_bth bth = { .opcode = opcode, .pkey = 0xFFFF, .dqpn = dqpn,
			      .psn = psn & 0xFFFFFF };
	bth.ackreq = opcode != RR_OP_RC_ACK && (opcode & 0x1F) != 0x0D &&
		     (opcode & 0x1F) != 0x0E && opcode < 0x40;
	rr_buf_init(&b, ib, sizeof(ib));
	rr_ib_encode(&b, &bth, ext, payload, len);
	rr_buf_init(&fb, frame_buf, sizeof(frame_buf));
	from->ep.ip_id++;
	if (!rr_frame_rocev2(&fb, &from->ep, ib, b.len)) {
		fprintf(stderr, "rpcrdma-mksample: frame does not fit\n");
		exit(1);
	}
	emit(g, frame_buf, fb.len);
}

static void rocev2_ack(struct gen *g, struct side *from, uint32_t psn)
{
	struct rr_ext x = { .present = RR_EXT_AETH };
	x.aeth.syndrome = 0x1F; /* ACK, no credit information */
	x.aeth.msn = psn;
	rocev2_packet(g, from, RR_OP_RC_ACK, psn, &x, NULL, 0,
		      peer_of(g, from)->qpn);
}

/* SEND ONLY (or FIRST/MIDDLE/LAST past the MTU), acknowledged. */
static void rocev2_send(struct gen *g, struct side *from, const uint8_t *msg,
			size_t len, uint32_t inv_rkey)
{
	struct side *to = peer_of(g, from);
	size_t done = 0;
	uint32_t psn = 0;
	do {
		size_t n = len - done > MTU ? MTU : len - done;
		bool first = done == 0, last = done + n == len;
		uint8_t op = rr_rc_packet_opcode(RR_OP_RC_SEND_FIRST, first, last);
		struct rr_ext x = { 0 };
		if (last && inv_rkey) {
			op = first ? RR_OP_RC_SEND_ONLY_INV : RR_OP_RC_SEND_LAST_INV;
			x.present = RR_EXT_IETH;
			x.ieth.rkey = inv_rkey;
		}
		psn = from->next_psn++;
		rocev2_packet(g, from, op, psn, &x, msg + done, n, to->qpn);
		done += n;
	} while (done < len);
	rocev2_ack(g, to, psn);
}

static void rocev2_write(struct gen *g, struct side *from, uint32_t rkey,
			 uint64_t va, const uint8_t *data, size_t len)
{
	struct side *to = peer_of(g, from);
	size_t done = 0;
	uint32_t psn = 0;
	do {
		size_t n = len - done > MTU ? MTU : len - done;
		bool first = done == 0, last = done + n == len;
		uint8_t op = rr_rc_packet_opcode(RR_OP_RC_WRITE_FIRST, first, last);
		struct rr_ext x = { 0 };
		if (first) {
			x.present = RR_EXT_RETH;
			x.reth.va = va;
			x.reth.rkey = rkey;
			x.reth.dma_len = (uint32_t)len;
		}
		psn = from->next_psn++;
		rocev2_packet(g, from, op, psn, &x, data + done, n, to->qpn);
		done += n;
	} while (done < len);
	rocev2_ack(g, to, psn);
}

static void rocev2_read(struct gen *g, struct side *reader, uint32_t rkey,
			uint64_t va, const uint8_t *data, size_t len)
{
	struct side *owner = peer_of(g, reader);
	struct rr_ext x = { .present = RR_EXT_RETH };
	x.reth.va = va;
	x.reth.rkey = rkey;
	x.reth.dma_len = (uint32_t)len;
	uint32_t psn = reader->next_psn;
	uint32_t npkts = len ? (uint32_t)((len + MTU - 1) / MTU) : 1;
	reader->next_psn += npkts;
	rocev2_packet(g, reader, RR_OP_RC_READ_REQUEST, psn, &x, NULL, 0,
		      owner->qpn);
	size_t done = 0;
	for (uint32_t i = 0; i < npkts; i++) {
		size_t n = len - done > MTU ? MTU : len - done;
		uint8_t op = rr_rc_packet_opcode(RR_OP_RC_READ_RESP_FIRST, i == 0,
						 i + 1 == npkts);
		struct rr_ext a = { 0 };
		if (op != RR_OP_RC_READ_RESP_MIDDLE) {
			a.present = RR_EXT_AETH;
			a.aeth.syndrome = 0x1F;
			a.aeth.msn = psn + i;
		}
		rocev2_packet(g, owner, op, psn + i, &a, data + done, n,
			      reader->qpn);
		done += n;
	}
}

static void rocev2_cm(struct gen *g, struct side *from, uint16_t attr,
		      uint32_t tid, const uint8_t *pd, size_t pd_len)
{
	struct rr_mad mad = { .tid = tid };
	struct rr_cm cm = { .attr_id = attr };
	cm.local_comm_id = from == &g->c ? 0x2c1a0d01 : 0x7a0b3c02;
	cm.remote_comm_id = from == &g->c ? 0x7a0b3c02 : 0x2c1a0d01;
	cm.local_qpn = from->qpn;
	cm.starting_psn = from->next_psn;
	cm.service_id = 0x0000000001060000ull | NFS_PORT;
	cm.local_ca_guid = from == &g->c ? 0x0002c90300a1b2c1ull :
					   0x0002c90300a1b2c2ull;
	cm.resp_resources = cm.initiator_depth = 16;
	cm.path_mtu = 3; /* 1024 */
	cm.rnr_retry = 7;
	cm.retry_count = 7;
	cm.pkey = 0xFFFF;
	cm.remote_qpn = peer_of(g, from)->qpn;
	uint8_t mad_buf[256];
	struct rr_buf b;
	rr_buf_init(&b, mad_buf, sizeof(mad_buf));
	rr_cm_mad_encode(&b, &mad, &cm, pd, pd_len);
	struct rr_ext x = { .present = RR_EXT_DETH };
	x.deth.qkey = 0x80010000;
	x.deth.src_qp = 1;
	rocev2_packet(g, from, RR_OP_UD_SEND_ONLY, 0, &x, mad_buf, b.len, 1);
}

/* ---- iWARP --------------------------------------------------------------- */

static void tcp_segment(struct gen *g, struct side *from, uint8_t flags,
			const uint8_t *payload, size_t len)
{
	struct side *to = peer_of(g, from);
	struct rr_buf fb;
	rr_buf_init(&fb, frame_buf, sizeof(frame_buf));
	from->ep.ip_id++;
	rr_frame_tcp(&fb, &from->ep, from->tcp_seq, to->tcp_seq, flags, 65535,
		     payload, len);
	emit(g, frame_buf, fb.len);
	from->tcp_seq += (uint32_t)len + ((flags & 0x03) ? 1 : 0);
}

static void iwarp_fpdu(struct gen *g, struct side *from,
		       const struct rr_ddp *d, const uint8_t *payload,
		       size_t len)
{
	uint8_t buf[MTU + 128];
	struct rr_buf b;
	rr_buf_init(&b, buf, sizeof(buf));
	rr_fpdu_encode(&b, d, payload, len, true);
	tcp_segment(g, from, 0x18, buf, b.len);
}

static void iwarp_send(struct gen *g, struct side *from, const uint8_t *msg,
		       size_t len, uint32_t inv_stag)
{
	struct rr_ddp d = { .last = true, .dv = 1, .rv = 1, .qn = 0 };
	d.opcode = inv_stag ? RR_RDMAP_SEND_INV : RR_RDMAP_SEND;
	d.inv_stag = inv_stag;
	d.msn = ++from->msn;
	size_t done = 0;
	do {
		size_t n = len - done > MTU ? MTU : len - done;
		d.mo = (uint32_t)done;
		d.last = done + n == len;
		iwarp_fpdu(g, from, &d, msg + done, n);
		done += n;
	} while (done < len);
}

static void iwarp_write(struct gen *g, struct side *from, uint32_t stag,
			uint64_t to, const uint8_t *data, size_t len)
{
	struct rr_ddp d = { .tagged = true, .dv = 1, .rv = 1,
			    .opcode = RR_RDMAP_WRITE, .stag = stag };
	size_t done = 0;
	do {
		size_t n = len - done > MTU ? MTU : len - done;
		d.to = to + done;
		d.last = done + n == len;
		iwarp_fpdu(g, from, &d, data + done, n);
		done += n;
	} while (done < len);
}

static void iwarp_read(struct gen *g, struct side *reader, uint32_t stag,
		       uint64_t to, const uint8_t *data, size_t len)
{
	static uint32_t read_msn;
	struct rr_ddp rq = { .last = true, .dv = 1, .rv = 1, .qn = 1,
			     .opcode = RR_RDMAP_READ_REQUEST };
	rq.msn = ++read_msn;
	rq.sink_stag = 0x51c00001;
	rq.sink_to = 0x7f0000100000ull;
	rq.read_size = (uint32_t)len;
	rq.src_stag = stag;
	rq.src_to = to;
	iwarp_fpdu(g, reader, &rq, NULL, 0);
	struct rr_ddp rs = { .tagged = true, .dv = 1, .rv = 1,
			     .opcode = RR_RDMAP_READ_RESPONSE,
			     .stag = rq.sink_stag };
	size_t done = 0;
	do {
		size_t n = len - done > MTU ? MTU : len - done;
		rs.to = rq.sink_to + done;
		rs.last = done + n == len;
		iwarp_fpdu(g, peer_of(g, reader), &rs, data + done, n);
		done += n;
	} while (done < len);
}

/* ---- Transport-neutral operations --------------------------------------- */

static void send_msg(struct gen *g, struct side *from, const uint8_t *m,
		     size_t len, uint32_t inv)
{
	if (g->iwarp)
		iwarp_send(g, from, m, len, inv);
	else
		rocev2_send(g, from, m, len, inv);
}

static void rdma_write(struct gen *g, struct side *from, uint32_t key,
		       uint64_t va, const uint8_t *d, size_t len)
{
	if (g->iwarp)
		iwarp_write(g, from, key, va, d, len);
	else
		rocev2_write(g, from, key, va, d, len);
}

static void rdma_read(struct gen *g, struct side *reader, uint32_t key,
		      uint64_t va, const uint8_t *d, size_t len)
{
	if (g->iwarp)
		iwarp_read(g, reader, key, va, d, len);
	else
		rocev2_read(g, reader, key, va, d, len);
}

/* ---- RPC-over-RDMA and NFSv3 ------------------------------------------- */

static const uint8_t fh[32] = { 1, 0, 6, 0, 0x8c, 0x2d, 0x11, 0x93, 1, 0, 0,
				0, 0, 0, 0, 2, 0xd3, 0x1f, 0x4e, 0x5a };

static void rpc_call_hdr(struct rr_buf *b, uint32_t xid, uint32_t prog,
			 uint32_t vers, uint32_t proc)
{
	static const uint8_t auth_sys[] = {
		0, 0, 0, 0,                    /* stamp */
		0, 0, 0, 6, 'c', 'l', 'i', 'e', 'n', 't', 0, 0, /* machine */
		0, 0, 0x03, 0xe8, 0, 0, 0x03, 0xe8, /* uid, gid 1000 */
		0, 0, 0, 0,                    /* gids<> */
	};
	struct rr_rpc r = { .xid = xid, .msg_type = RR_RPC_CALL, .rpcvers = 2,
			    .prog = prog, .vers = vers, .proc = proc,
			    .cred_flavor = RR_AUTH_SYS,
			    .cred_len = sizeof(auth_sys) };
	rr_rpc_encode(b, &r, auth_sys, NULL);
}

static void rpc_reply_hdr(struct rr_buf *b, uint32_t xid)
{
	struct rr_rpc r = { .xid = xid, .msg_type = RR_RPC_REPLY };
	rr_rpc_encode(b, &r, NULL, NULL);
}

static void put_fattr3(struct rr_buf *b, uint32_t type, uint64_t size)
{
	rr_put_be32(b, type);             /* NF3REG / NF3DIR */
	rr_put_be32(b, 0644);
	rr_put_be32(b, 1);                /* nlink */
	rr_put_be32(b, 1000);
	rr_put_be32(b, 1000);
	rr_put_be64(b, size);
	rr_put_be64(b, size);             /* used */
	rr_put_be64(b, 0);                /* rdev */
	rr_put_be64(b, 0x1234);           /* fsid */
	rr_put_be64(b, 0x2001);           /* fileid */
	for (int i = 0; i < 3; i++) {     /* atime, mtime, ctime */
		rr_put_be32(b, 1767225600);
		rr_put_be32(b, 0);
	}
}

/* Header + RPC message in one buffer, then sent. */
struct msg {
	uint8_t bytes[8192];
	struct rr_buf b;
	struct rr_rpcrdma h;
};

static void msg_start(struct msg *m, uint32_t xid, uint32_t credits,
		      uint32_t proc)
{
	memset(&m->h, 0, sizeof(m->h));
	m->h.xid = xid;
	m->h.vers = 1;
	m->h.credits = credits;
	m->h.proc = proc;
}

static void msg_header(struct msg *m)
{
	rr_buf_init(&m->b, m->bytes, sizeof(m->bytes));
	if (!rr_rpcrdma_encode(&m->b, &m->h)) {
		fprintf(stderr, "rpcrdma-mksample: bad header\n");
		exit(1);
	}
}

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 131 + (i >> 8));
}

static void conversation(struct gen *g)
{
	struct msg m;
	struct side *c = &g->c, *s = &g->s;
	static uint8_t data[6000], data2[6000];
	uint32_t xid = g->xid;

	/* NFSv3 NULL, inline both ways */
	msg_start(&m, xid, 128, RR_RDMA_MSG);
	msg_header(&m);
	rpc_call_hdr(&m.b, xid, NFS_PROG, 3, 0);
	send_msg(g, c, m.bytes, m.b.len, 0);
	msg_start(&m, xid, 64, RR_RDMA_MSG);
	msg_header(&m);
	rpc_reply_hdr(&m.b, xid);
	send_msg(g, s, m.bytes, m.b.len, 0);

	/* GETATTR */
	xid++;
	msg_start(&m, xid, 128, RR_RDMA_MSG);
	msg_header(&m);
	rpc_call_hdr(&m.b, xid, NFS_PROG, 3, 1);
	rr_put_xdr_opaque(&m.b, fh, sizeof(fh));
	send_msg(g, c, m.bytes, m.b.len, 0);
	msg_start(&m, xid, 64, RR_RDMA_MSG);
	msg_header(&m);
	rpc_reply_hdr(&m.b, xid);
	rr_put_be32(&m.b, 0);
	put_fattr3(&m.b, 1, 5000);
	send_msg(g, s, m.bytes, m.b.len, 0);

	/* LOOKUP */
	xid++;
	msg_start(&m, xid, 128, RR_RDMA_MSG);
	msg_header(&m);
	rpc_call_hdr(&m.b, xid, NFS_PROG, 3, 3);
	rr_put_xdr_opaque(&m.b, fh, sizeof(fh));
	rr_put_xdr_opaque(&m.b, "data.bin", 8);
	send_msg(g, c, m.bytes, m.b.len, 0);
	msg_start(&m, xid, 64, RR_RDMA_MSG);
	msg_header(&m);
	rpc_reply_hdr(&m.b, xid);
	rr_put_be32(&m.b, 0);
	rr_put_xdr_opaque(&m.b, fh, sizeof(fh));
	rr_put_be32(&m.b, 1);
	put_fattr3(&m.b, 1, 5000);
	rr_put_be32(&m.b, 0);
	send_msg(g, s, m.bytes, m.b.len, 0);

	/* READ 5000 bytes: a write chunk of two segments, filled by RDMA WRITE */
	xid++;
	fill(data, 5000, xid);
	msg_start(&m, xid, 128, RR_RDMA_MSG);
	rr_rpcrdma_add_segment(&m.h, RR_LIST_WRITE, 0, 0, 0x1000a001, 4096, 0x7f3a00001000ull);
	rr_rpcrdma_add_segment(&m.h, RR_LIST_WRITE, 0, 0, 0x1000a002, 4096, 0x7f3a00002000ull);
	msg_header(&m);
	rpc_call_hdr(&m.b, xid, NFS_PROG, 3, 6);
	rr_put_xdr_opaque(&m.b, fh, sizeof(fh));
	rr_put_be64(&m.b, 0);
	rr_put_be32(&m.b, 5000);
	send_msg(g, c, m.bytes, m.b.len, 0);
	rdma_write(g, s, 0x1000a001, 0x7f3a00001000ull, data, 4096);
	rdma_write(g, s, 0x1000a002, 0x7f3a00002000ull, data + 4096, 904);
	msg_start(&m, xid, 64, RR_RDMA_MSG);
	rr_rpcrdma_add_segment(&m.h, RR_LIST_WRITE, 0, 0, 0x1000a001, 4096, 0x7f3a00001000ull);
	rr_rpcrdma_add_segment(&m.h, RR_LIST_WRITE, 0, 0, 0x1000a002, 904, 0x7f3a00002000ull);
	msg_header(&m);
	rpc_reply_hdr(&m.b, xid);
	rr_put_be32(&m.b, 0);
	rr_put_be32(&m.b, 0);             /* post_op_attr absent */
	rr_put_be32(&m.b, 5000);          /* count */
	rr_put_be32(&m.b, 1);             /* eof */
	rr_put_be32(&m.b, 5000);          /* data<>: bytes in the write chunk */
	/* both R bits set: the responder invalidates the write chunk's key */
	send_msg(g, s, m.bytes, m.b.len, 0x1000a001);

	/* WRITE 3000 bytes: a read chunk at the data's XDR position */
	xid++;
	fill(data2, 3000, xid);
	msg_start(&m, xid, 128, RR_RDMA_MSG);
	/* position: RPC header (68) + fh (36) + offset, count, stable (16) */
	rr_rpcrdma_add_segment(&m.h, RR_LIST_READ, 0, 124, 0x2000b001, 3000, 0x7f3a00010000ull);
	msg_header(&m);
	rpc_call_hdr(&m.b, xid, NFS_PROG, 3, 7);
	rr_put_xdr_opaque(&m.b, fh, sizeof(fh));
	rr_put_be64(&m.b, 0);
	rr_put_be32(&m.b, 3000);
	rr_put_be32(&m.b, 2);             /* FILE_SYNC */
	rr_put_be32(&m.b, 3000);          /* data<>: bytes in the read chunk */
	send_msg(g, c, m.bytes, m.b.len, 0);
	rdma_read(g, s, 0x2000b001, 0x7f3a00010000ull, data2, 3000);
	msg_start(&m, xid, 64, RR_RDMA_MSG);
	msg_header(&m);
	rpc_reply_hdr(&m.b, xid);
	rr_put_be32(&m.b, 0);
	rr_put_be32(&m.b, 0);             /* wcc_data: no pre-op attrs */
	rr_put_be32(&m.b, 0);             /* no post-op attrs */
	rr_put_be32(&m.b, 3000);
	rr_put_be32(&m.b, 2);
	rr_put_be64(&m.b, 0x5eed5eed5eed5eedull);
	send_msg(g, s, m.bytes, m.b.len, 0);

	/* Long Call: the whole call in a position-zero read chunk */
	xid++;
	{
		uint8_t call[512];
		struct rr_buf cb;
		rr_buf_init(&cb, call, sizeof(call));
		rpc_call_hdr(&cb, xid, NFS_PROG, 3, 4);  /* ACCESS */
		rr_put_xdr_opaque(&cb, fh, sizeof(fh));
		rr_put_be32(&cb, 0x1f);
		msg_start(&m, xid, 128, RR_RDMA_NOMSG);
		rr_rpcrdma_add_segment(&m.h, RR_LIST_READ, 0, 0, 0x3000c001, (uint32_t)cb.len,
			0x7f3a00020000ull);
		msg_header(&m);
		send_msg(g, c, m.bytes, m.b.len, 0);
		rdma_read(g, s, 0x3000c001, 0x7f3a00020000ull, call, cb.len);
		msg_start(&m, xid, 64, RR_RDMA_MSG);
		msg_header(&m);
		rpc_reply_hdr(&m.b, xid);
		rr_put_be32(&m.b, 0);
		rr_put_be32(&m.b, 0);
		rr_put_be32(&m.b, 0x1f);
		send_msg(g, s, m.bytes, m.b.len, 0);
	}

	/* READDIRPLUS with a reply chunk: the reply goes by RDMA WRITE */
	xid++;
	{
		uint8_t reply[2048];
		struct rr_buf rb;
		rr_buf_init(&rb, reply, sizeof(reply));
		rpc_reply_hdr(&rb, xid);
		rr_put_be32(&rb, 0);
		rr_put_be32(&rb, 0);              /* dir attributes absent */
		rr_put_be64(&rb, 0x0123456789abcdefull); /* cookieverf */
		for (int i = 0; i < 12; i++) {
			char name[16];
			int n = snprintf(name, sizeof(name), "file%02d.dat", i);
			rr_put_be32(&rb, 1);
			rr_put_be64(&rb, 0x3000u + (unsigned)i);
			rr_put_xdr_opaque(&rb, name, (uint32_t)n);
			rr_put_be64(&rb, (uint64_t)i + 1);
			rr_put_be32(&rb, 1);
			put_fattr3(&rb, 1, 4096u * (unsigned)i);
			rr_put_be32(&rb, 1);
			rr_put_xdr_opaque(&rb, fh, sizeof(fh));
		}
		rr_put_be32(&rb, 0);
		rr_put_be32(&rb, 1);              /* eof */
		msg_start(&m, xid, 128, RR_RDMA_MSG);
		rr_rpcrdma_add_segment(&m.h, RR_LIST_REPLY, 0, 0, 0x4000d001, 2048,
			0x7f3a00030000ull);
		msg_header(&m);
		rpc_call_hdr(&m.b, xid, NFS_PROG, 3, 17);
		rr_put_xdr_opaque(&m.b, fh, sizeof(fh));
		rr_put_be64(&m.b, 0);
		rr_put_be64(&m.b, 0);
		rr_put_be32(&m.b, 1024);
		rr_put_be32(&m.b, 8192);
		send_msg(g, c, m.bytes, m.b.len, 0);
		rdma_write(g, s, 0x4000d001, 0x7f3a00030000ull, reply, rb.len);
		msg_start(&m, xid, 64, RR_RDMA_NOMSG);
		rr_rpcrdma_add_segment(&m.h, RR_LIST_REPLY, 0, 0, 0x4000d001, (uint32_t)rb.len,
			0x7f3a00030000ull);
		msg_header(&m);
		send_msg(g, s, m.bytes, m.b.len, 0);
	}

	/* A large inline GETATTR reply padded past the MTU: multi-packet SEND */
	xid++;
	msg_start(&m, xid, 128, RR_RDMA_MSG);
	msg_header(&m);
	rpc_call_hdr(&m.b, xid, NFS_PROG, 3, 18); /* FSSTAT */
	rr_put_xdr_opaque(&m.b, fh, sizeof(fh));
	send_msg(g, c, m.bytes, m.b.len, 0);
	msg_start(&m, xid, 64, RR_RDMA_MSG);
	msg_header(&m);
	rpc_reply_hdr(&m.b, xid);
	rr_put_be32(&m.b, 0);
	rr_put_be32(&m.b, 1);
	put_fattr3(&m.b, 2, 4096);
	for (int i = 0; i < 6; i++)
		rr_put_be64(&m.b, 1ull << (30 + i));
	rr_put_be32(&m.b, 0);
	/* trailing opaque padding makes the message span two packets */
	rr_put_zeros(&m.b, 1500);
	send_msg(g, s, m.bytes, m.b.len, 0);

	/* RDMA_MSGP (RFC 8166 §4.6.1): deprecated, still decoded */
	xid++;
	msg_start(&m, xid, 128, RR_RDMA_MSGP);
	m.h.align = 4096;
	m.h.thresh = 1024;
	msg_header(&m);
	rpc_call_hdr(&m.b, xid, NFS_PROG, 3, 0);
	send_msg(g, c, m.bytes, m.b.len, 0);
	msg_start(&m, xid, 64, RR_RDMA_ERROR);
	m.h.err = RR_ERR_CHUNK;
	msg_header(&m);
	send_msg(g, s, m.bytes, m.b.len, 0);

	/* A call with version 2: ERR_VERS echoes the caller's version */
	xid++;
	msg_start(&m, xid, 128, RR_RDMA_MSG);
	m.h.vers = 2;
	msg_header(&m);
	rpc_call_hdr(&m.b, xid, NFS_PROG, 3, 0);
	send_msg(g, c, m.bytes, m.b.len, 0);
	msg_start(&m, xid, 64, RR_RDMA_ERROR);
	m.h.vers = 2;
	m.h.err = RR_ERR_VERS;
	m.h.vers_low = m.h.vers_high = 1;
	msg_header(&m);
	send_msg(g, s, m.bytes, m.b.len, 0);

	/* RDMA_DONE (reliable-reply extension) */
	msg_start(&m, xid, 128, RR_RDMA_DONE);
	msg_header(&m);
	send_msg(g, c, m.bytes, m.b.len, 0);

	/* Backward direction (RFC 8167): the server calls CB_NULL */
	msg_start(&m, 0xb0000001, 8, RR_RDMA_MSG);
	msg_header(&m);
	rpc_call_hdr(&m.b, 0xb0000001, 0x40000000, 1, 0);
	send_msg(g, s, m.bytes, m.b.len, 0);
	msg_start(&m, 0xb0000001, 8, RR_RDMA_MSG);
	msg_header(&m);
	rpc_reply_hdr(&m.b, 0xb0000001);
	send_msg(g, c, m.bytes, m.b.len, 0);
	g->xid = xid + 1;
}

static void private_data(uint8_t *pd, bool rinval)
{
	rr_cm_private_encode(pd, 1, rinval, 4096, 4096);
}

static void rocev2_part(struct gen *g, long repeat)
{
	uint8_t req_pd[92] = { 0 }, rep_pd[8];
	rr_rdma_cm_hdr_encode(req_pd, 4, 0xc5a3, g->c.ep.src_ip, g->s.ep.src_ip);
	private_data(req_pd + 36, true);
	private_data(rep_pd, true);
	rocev2_cm(g, &g->c, RR_CM_REQ, 0x11, req_pd, sizeof(req_pd));
	rocev2_cm(g, &g->s, RR_CM_REP, 0x11, rep_pd, sizeof(rep_pd));
	rocev2_cm(g, &g->c, RR_CM_RTU, 0x11, NULL, 0);
	for (long i = 0; i < repeat; i++)
		conversation(g);
	rocev2_cm(g, &g->c, RR_CM_DREQ, 0x12, NULL, 0);
	rocev2_cm(g, &g->s, RR_CM_DREP, 0x12, NULL, 0);
}

static void iwarp_part(struct gen *g)
{
	g->iwarp = true;
	g->c.ep.src_port = 40312;
	g->c.ep.dst_port = NFS_PORT;
	g->s.ep.src_port = NFS_PORT;
	g->s.ep.dst_port = 40312;
	g->c.tcp_seq = 0x1a2b0000;
	g->s.tcp_seq = 0x5c6d0000;
	tcp_segment(g, &g->c, 0x02, NULL, 0);          /* SYN */
	tcp_segment(g, &g->s, 0x12, NULL, 0);          /* SYN ACK */
	tcp_segment(g, &g->c, 0x10, NULL, 0);          /* ACK */
	uint8_t pd[8], buf[64];
	struct rr_buf b;
	struct rr_mpa mpa = { .crc = true, .enhanced = true, .revision = 2,
			      .has_ird_ord = true, .ird = 16, .ord = 16 };
	private_data(pd, false);
	rr_buf_init(&b, buf, sizeof(buf));
	rr_mpa_encode(&b, &mpa, pd, sizeof(pd));
	tcp_segment(g, &g->c, 0x18, buf, b.len);
	mpa.reply = true;
	rr_buf_init(&b, buf, sizeof(buf));
	rr_mpa_encode(&b, &mpa, pd, sizeof(pd));
	tcp_segment(g, &g->s, 0x18, buf, b.len);
	conversation(g);
	tcp_segment(g, &g->c, 0x11, NULL, 0);          /* FIN ACK */
	tcp_segment(g, &g->s, 0x11, NULL, 0);
	tcp_segment(g, &g->c, 0x10, NULL, 0);
}

static void endpoints(struct gen *g)
{
	static const uint8_t cmac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
	static const uint8_t smac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
	memset(g, 0, sizeof(*g));
	g->ts.tv_sec = 1767225600; /* 2026-01-01 00:00:00 UTC */
	g->xid = 0x5a17c001;
	memcpy(g->c.ep.src_mac, cmac, 6);
	memcpy(g->c.ep.dst_mac, smac, 6);
	memcpy(g->s.ep.src_mac, smac, 6);
	memcpy(g->s.ep.dst_mac, cmac, 6);
	g->c.ep.ip_version = g->s.ep.ip_version = 4;
	memcpy(g->c.ep.src_ip, (uint8_t[]){ 192, 0, 2, 1 }, 4);
	memcpy(g->c.ep.dst_ip, (uint8_t[]){ 192, 0, 2, 2 }, 4);
	memcpy(g->s.ep.src_ip, (uint8_t[]){ 192, 0, 2, 2 }, 4);
	memcpy(g->s.ep.dst_ip, (uint8_t[]){ 192, 0, 2, 1 }, 4);
	g->c.ep.src_port = 0xc011;
	g->s.ep.src_port = 0xc022;
	g->c.ep.dst_port = g->s.ep.dst_port = 4791;
	g->c.qpn = 0x000011;
	g->s.qpn = 0x000022;
	g->c.next_psn = 0x1000;
	g->s.next_psn = 0x8000;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: rpcrdma-mksample [-n REPEAT] OUTPUT.pcap\n"
		"  -n REPEAT  repeat the RoCEv2 conversation REPEAT times "
		"(default 1)\n");
}

int main(int argc, char **argv)
{
	long repeat = 1;
	int argi = 1;
	if (argc == 4 && strcmp(argv[1], "-n") == 0) {
		char *end;
		repeat = strtol(argv[2], &end, 10);
		if (*end || repeat < 1 || repeat > 10000000) {
			fprintf(stderr, "rpcrdma-mksample: bad count '%s'\n",
				argv[2]);
			usage();
			return 1;
		}
		argi = 3;
	}
	if (argc != argi + 1 || argv[argi][0] == '-') {
		usage();
		return 1;
	}
	pcap_t *dead = pcap_open_dead(DLT_EN10MB, 65535);
	pcap_dumper_t *out = dead ? pcap_dump_open(dead, argv[argi]) : NULL;
	if (!out) {
		fprintf(stderr, "rpcrdma-mksample: %s: %s\n", argv[argi],
			dead ? pcap_geterr(dead) : "cannot open");
		return 2;
	}
	struct gen g;
	endpoints(&g);
	g.out = out;
	rocev2_part(&g, repeat);
	iwarp_part(&g);
	pcap_dump_close(out);
	pcap_close(dead);
	return 0;
}
