/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Encoders for the structures libdissect decodes: the reference peer and
 * the tests build packets with them, and decode(encode(x)) == x.
 *
 * Every writer appends to a caller-owned struct rr_buf; a write that does
 * not fit sets `overflow` and writes nothing more, so a sequence of writes
 * is checked once at the end.
 */
#ifndef RPCRDMA_ENCODE_H
#define RPCRDMA_ENCODE_H

#include <rpcrdma/dissect.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rr_buf {
	uint8_t *p;
	size_t cap, len;
	bool overflow;
};

RR_API void rr_buf_init(struct rr_buf *b, void *mem, size_t cap);
RR_API void rr_put_u8(struct rr_buf *b, uint8_t v);
RR_API void rr_put_be16(struct rr_buf *b, uint16_t v);
RR_API void rr_put_be32(struct rr_buf *b, uint32_t v);
RR_API void rr_put_be64(struct rr_buf *b, uint64_t v);
RR_API void rr_put_bytes(struct rr_buf *b, const void *p, size_t n);
RR_API void rr_put_zeros(struct rr_buf *b, size_t n);
/* XDR variable-length opaque: length word, bytes, zero pad to 4. */
RR_API void rr_put_xdr_opaque(struct rr_buf *b, const void *p, uint32_t n);

/*
 * RFC 8166 header from xid, vers, credits, proc, align/thresh (MSGP),
 * err/vers_low/vers_high (ERROR) and segs[0..nsegs) in wire order: read
 * segments, then write segments (consecutive equal `chunk` values make one
 * write chunk), then reply segments.  The body follows proc whatever vers
 * says, so faults can be built.  false if the segments are out of order.
 */
RR_API bool rr_rpcrdma_encode(struct rr_buf *b, const struct rr_rpcrdma *h);
/* Appends a segment to h->segs for rr_rpcrdma_encode; false when full. */
RR_API bool rr_rpcrdma_add_segment(struct rr_rpcrdma *h, uint8_t list,
				   uint8_t chunk, uint32_t position,
				   uint32_t handle, uint32_t length,
				   uint64_t offset);

/*
 * The opcode of one packet of an RC SEND, RDMA WRITE or RDMA READ
 * response that may span several (IBA vol. 1 §9.4): kind is
 * RR_OP_RC_SEND_FIRST, RR_OP_RC_WRITE_FIRST or RR_OP_RC_READ_RESP_FIRST;
 * first and last say where the packet falls.
 */
RR_API uint8_t rr_rc_packet_opcode(uint8_t kind, bool first, bool last);

/* RFC 5531 call or reply header; bodies of cred_len / verf_len bytes. */
RR_API bool rr_rpc_encode(struct rr_buf *b, const struct rr_rpc *r,
			  const uint8_t *cred_body, const uint8_t *verf_body);

/* RFC 8797 block; sizes in bytes, rounded down to a multiple of 1024. */
RR_API uint8_t rr_cm_private_size_raw(uint32_t bytes);
RR_API void rr_cm_private_encode(uint8_t out[RR_CM_PRIVATE_LEN],
				 uint8_t version, bool rinval,
				 uint32_t send_bytes, uint32_t recv_bytes);

/* 36-byte RDMA-CM header; addresses of 4 (IPv4) or 16 (IPv6) bytes. */
RR_API void rr_rdma_cm_hdr_encode(uint8_t out[36], uint8_t ip_version,
				  uint16_t src_port, const uint8_t *src,
				  const uint8_t *dst);

/*
 * 256-byte CM MAD: common header from *mad (class, version and method
 * default to CM, 2, Send when zero), message fields from *cm as
 * rr_decode_frame reports them, and pd_len bytes of private data.
 */
RR_API bool rr_cm_mad_encode(struct rr_buf *b, const struct rr_mad *mad,
			     const struct rr_cm *cm, const uint8_t *pd,
			     size_t pd_len);

/* BTH, the extension headers its opcode needs, payload and zero pad. */
RR_API bool rr_ib_encode(struct rr_buf *b, const struct rr_bth *bth,
			 const struct rr_ext *ext, const uint8_t *payload,
			 size_t len);

/* Addresses and ports for the Ethernet/IP framings. */
struct rr_endpoints {
	uint8_t src_mac[6], dst_mac[6];
	uint8_t nvlan;            /* 0, 1 or 2 802.1Q tags */
	uint16_t vlan_tci[2];
	uint8_t ip_version;       /* 4 or 6 */
	uint8_t src_ip[16], dst_ip[16]; /* IPv4 in the first 4 bytes */
	uint16_t src_port, dst_port;
	uint8_t ttl, tclass;
	uint32_t flow;
	uint16_t ip_id;
};

/* The checksum of an IPv4 header (RFC 791 §3.1) whose checksum field is
 * zero, in host order. */
RR_API uint16_t rr_ipv4_header_checksum(const uint8_t *hdr, size_t len);
/* Ethernet, IP, UDP, the IB bytes from rr_ib_encode, and the ICRC. */
RR_API bool rr_frame_rocev2(struct rr_buf *b, const struct rr_endpoints *ep,
			    const uint8_t *ib, size_t len);
/* Ethernet (0x8915), GRH with IPv4-mapped GIDs, IB bytes, ICRC. */
RR_API bool rr_frame_rocev1(struct rr_buf *b, const struct rr_endpoints *ep,
			    const uint8_t *ib, size_t len);
/* LRH (LNH 2), IB bytes, ICRC, and a zero VCRC. */
RR_API bool rr_frame_ib(struct rr_buf *b, uint16_t dlid, uint16_t slid,
			uint8_t sl, const uint8_t *ib, size_t len);
/* Ethernet, IP and TCP (checksums filled in) around a payload. */
RR_API bool rr_frame_tcp(struct rr_buf *b, const struct rr_endpoints *ep,
			 uint32_t seq, uint32_t ack, uint8_t flags,
			 uint16_t window, const uint8_t *payload, size_t len);

/* MPA Request or Reply (RFC 5044 §7.1, RFC 6581 §5 when has_ird_ord). */
RR_API bool rr_mpa_encode(struct rr_buf *b, const struct rr_mpa *m,
			  const uint8_t *ulp_data, size_t len);
/*
 * One FPDU: DDP/RDMAP header from *d (plus the Read Request or Terminate
 * body), payload, pad and the CRC32c (zero when crc is false).
 */
RR_API bool rr_fpdu_encode(struct rr_buf *b, const struct rr_ddp *d,
			   const uint8_t *payload, size_t len, bool crc);

/*
 * Insert MPA markers (RFC 5044 §5) into len bytes of whole FPDUs written
 * without them, the CRC of each computed over the FPDU as sent: call it
 * with crc true to have each FPDU's CRC32c recomputed over its markers.
 * *stream_pos counts the octets sent since the first FPDU, markers
 * included; a marker goes wherever it is a multiple of 512, holding the
 * distance back to the start of the FPDU it falls in.
 */
RR_API bool rr_mpa_mark(struct rr_buf *b, const uint8_t *fpdus, size_t len,
			uint32_t *stream_pos, bool crc);

#ifdef __cplusplus
}
#endif
#endif /* RPCRDMA_ENCODE_H */
