/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libdissect: stateless decoders for RPC-over-RDMA traffic on RoCE v1/v2,
 * InfiniBand and iWARP, from the link layer up to the ONC RPC header.
 *
 * Zero-copy: every decoded field is a value copied out of the frame plus the
 * byte offset where it sits, so a front end can highlight it.  Nothing here
 * allocates; the caller owns every structure.  No global state: one
 * struct rr_frame per thread.
 *
 * A frame yields one or more decode units: an IB or RoCE packet is one unit;
 * a TCP segment carrying iWARP holds one unit per whole FPDU.  Loop:
 *
 *	struct rr_frame f;
 *	for (bool more = rr_decode_frame(&cfg, link, data, caplen, wirelen,
 *					 NULL, &f);
 *	     more; more = rr_decode_next_unit(&cfg, &f))
 *		render(&f);
 */
#ifndef RPCRDMA_DISSECT_H
#define RPCRDMA_DISSECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rpcrdma/lists.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define RR_API __attribute__((visibility("default")))
#else
#define RR_API
#endif

#define RR_X_ENUM(sym, val, str) sym = (val),
#define RR_X_ENUM_SEQ(sym, ...) sym,

enum rr_status { RR_STATUS_LIST(RR_X_ENUM) };
enum rr_problem { RR_PROBLEM_LIST(RR_X_ENUM) };
enum rr_layer { RR_LAYER_LIST(RR_X_ENUM) RR_LAYER_COUNT };
enum rr_link { RR_LINK_LIST(RR_X_ENUM) };
enum rr_bth_opcode { RR_BTH_OPCODE_LIST(RR_X_ENUM) };

/* An RC SEND in one packet (IBA vol. 1 §9.2), which holds the whole
 * message. */
static inline bool rr_rc_send_only(unsigned op)
{
	return op == RR_OP_RC_SEND_ONLY || op == RR_OP_RC_SEND_ONLY_IMM ||
	       op == RR_OP_RC_SEND_ONLY_INV;
}

/* An RC SEND's first packet (FIRST or ONLY): the one that carries the
 * message's RPC-over-RDMA header. */
static inline bool rr_rc_send_starts(unsigned op)
{
	return op == RR_OP_RC_SEND_FIRST || rr_rc_send_only(op);
}
enum rr_aeth_type { RR_AETH_TYPE_LIST(RR_X_ENUM) };
enum rr_nak_code { RR_NAK_CODE_LIST(RR_X_ENUM) };
enum rr_mad_class { RR_MAD_CLASS_LIST(RR_X_ENUM) };
enum rr_cm_attr { RR_CM_ATTR_LIST(RR_X_ENUM) };
enum rr_cm_rej_reason { RR_CM_REJ_REASON_LIST(RR_X_ENUM) };
#define RR_CM_REJ_REASONS 34  /* 0 to the last in the list */
enum rr_rdmap_opcode { RR_RDMAP_OPCODE_LIST(RR_X_ENUM) };
/* numbered from 0 without a gap: RR_RDMA_PROCS counts them */
enum rr_rdma_proc { RR_RDMA_PROC_LIST(RR_X_ENUM) RR_RDMA_PROCS };
enum rr_rdma_err { RR_RDMA_ERR_LIST(RR_X_ENUM) };
enum rr_confidence { RR_CONFIDENCE_LIST(RR_X_ENUM) };
enum rr_rpc_msg_type { RR_RPC_MSG_TYPE_LIST(RR_X_ENUM) };
enum rr_rpc_reply_stat { RR_RPC_REPLY_STAT_LIST(RR_X_ENUM) };
enum rr_rpc_accept_stat { RR_RPC_ACCEPT_STAT_LIST(RR_X_ENUM) };
enum rr_rpc_reject_stat { RR_RPC_REJECT_STAT_LIST(RR_X_ENUM) };
enum rr_rpc_auth_stat { RR_RPC_AUTH_STAT_LIST(RR_X_ENUM) };
enum rr_rpc_auth_flavor { RR_RPC_AUTH_FLAVOR_LIST(RR_X_ENUM) };
enum rr_gss_proc { RR_GSS_PROC_LIST(RR_X_ENUM) };
enum rr_gss_service { RR_GSS_SERVICE_LIST(RR_X_ENUM) };
enum rr_rpc_program { RR_RPC_PROGRAM_LIST(RR_X_ENUM) };

/* The library's version at run time (rpcrdma/version.h: at build time). */
RR_API const char *rr_version(void);

/* Names; an unknown value gives NULL, never a crash. */
RR_API const char *rr_status_str(unsigned v);
RR_API const char *rr_problem_str(unsigned v);
RR_API const char *rr_layer_str(unsigned v);
RR_API const char *rr_link_str(unsigned v);
RR_API const char *rr_ethertype_str(unsigned v);
RR_API const char *rr_ip_proto_str(unsigned v);
RR_API const char *rr_bth_opcode_str(unsigned v);
RR_API const char *rr_aeth_type_str(unsigned v);
RR_API const char *rr_nak_code_str(unsigned v);
/* The wait an RNR NAK's timer code (its AETH value) asks for, in
 * microseconds (IBA vol. 1's table of RNR NAK timer values). */
RR_API uint32_t rr_rnr_timer_us(unsigned code);
RR_API const char *rr_mad_class_str(unsigned v);
RR_API const char *rr_cm_attr_str(unsigned v);
RR_API const char *rr_cm_rej_reason_str(unsigned v);
RR_API const char *rr_rdmap_opcode_str(unsigned v);
RR_API const char *rr_rdma_proc_str(unsigned v);
RR_API const char *rr_rdma_err_str(unsigned v);
RR_API const char *rr_confidence_str(unsigned v);
RR_API const char *rr_rpc_msg_type_str(unsigned v);
RR_API const char *rr_rpc_reply_stat_str(unsigned v);
RR_API const char *rr_rpc_accept_stat_str(unsigned v);
RR_API const char *rr_rpc_reject_stat_str(unsigned v);
RR_API const char *rr_rpc_auth_stat_str(unsigned v);
RR_API const char *rr_rpc_auth_flavor_str(unsigned v);
RR_API const char *rr_gss_proc_str(unsigned v);
RR_API const char *rr_gss_service_str(unsigned v);
RR_API const char *rr_rpc_program_str(unsigned v);
/* Procedure name for a program and version, or NULL. */
RR_API const char *rr_rpc_proc_str(uint32_t prog, uint32_t vers, uint32_t proc);

/* Bytes [off, off + len) of the frame (or message) a field came from. */
struct rr_span {
	uint32_t off;
	uint32_t len;
};

/* Outcome of one layer. */
struct rr_note {
	uint8_t status;      /* enum rr_status */
	uint8_t problem;     /* enum rr_problem; may be set on a complete layer */
	uint32_t off;        /* where the problem was found */
	const char *field;   /* static name of the field concerned, or NULL */
};

/* ---- Link and network layers ------------------------------------------ */

/* ERF record header (ibdump on InfiniBand ports). */
struct rr_erf {
	uint32_t off;
	uint64_t ts;         /* 32.32 fixed point seconds */
	uint8_t type;        /* low 7 bits; 21 INFINIBAND, 25 INFINIBAND_LINK */
	uint8_t flags;
	uint16_t rlen, lctr, wlen;
};

/* Ethernet (with up to RR_MAX_VLAN tags) or Linux cooked header. */
#define RR_MAX_VLAN 2

/* Well-known ports: RoCEv2's UDP port (IBA annex A17), and NFS/RDMA's
 * (IANA "nfsrdma", RFC 5667 §8, RFC 8267 §7): the TCP port of iWARP and the
 * port an RDMA-CM connection to an NFS server names. */
#define RR_ROCEV2_UDP_PORT 4791
#define RR_NFS_RDMA_PORT 20049
struct rr_link_hdr {
	uint32_t off, len;
	uint16_t ethertype;  /* the protocol after the tags */
	uint8_t nvlan;
	uint16_t vlan_tpid[RR_MAX_VLAN];
	uint16_t vlan_tci[RR_MAX_VLAN];
	uint16_t sll_pkttype; /* Linux cooked: 0 to us, 4 outgoing, ... */
};

struct rr_ip {
	uint32_t off, hdr_len;
	uint8_t version;     /* 4 or 6 */
	uint8_t proto;       /* protocol / next header */
	uint8_t tclass;      /* IPv4 TOS or IPv6 traffic class */
	uint8_t ttl;         /* TTL or hop limit */
	uint32_t flow;       /* IPv6 flow label */
	uint32_t total_len;  /* header + payload, from the header */
	uint32_t src_off, dst_off, addr_len;
	bool fragment;       /* IPv4 MF or offset set: payload not decoded */
};

struct rr_udp {
	uint32_t off;
	uint16_t sport, dport, length, checksum;
};

/* TCP flags (RFC 9293 §3.1) */
#define RR_TCP_FIN 0x01
#define RR_TCP_SYN 0x02
#define RR_TCP_RST 0x04
#define RR_TCP_PSH 0x08
#define RR_TCP_ACK 0x10

struct rr_tcp {
	uint32_t off, hdr_len;
	uint16_t sport, dport;
	uint32_t seq, ack;
	uint8_t flags;       /* RR_TCP_FIN ... */
	uint16_t window;
	struct rr_span payload;
};

/* ---- InfiniBand and RoCE (IBA vol. 1 ch. 5, 7, 9; RoCEv2 annex A17) --- */

/* RR_TRANSPORT_IB: LRH [GRH] BTH; ROCEV1: Ethertype 0x8915, GRH BTH;
 * ROCEV2: UDP 4791, BTH; IWARP: TCP, MPA, DDP, RDMAP. */
enum rr_transport { RR_TRANSPORT_LIST(RR_X_ENUM) };
RR_API const char *rr_transport_str(unsigned v);

struct rr_lrh {
	uint32_t off;
	uint8_t vl, lver, sl, lnh;
	uint16_t dlid, slid, pktlen; /* pktlen in 4-byte words */
};

struct rr_grh {
	uint32_t off;
	uint8_t ipver, tclass, nxthdr, hoplmt;
	uint32_t flow;
	uint16_t paylen;
	uint32_t sgid_off, dgid_off; /* 16 bytes each */
};

struct rr_bth {
	uint32_t off;
	uint8_t opcode;
	bool se, migreq, ackreq;
	uint8_t padcnt, tver;
	uint16_t pkey;
	uint8_t resv8a;      /* FECN 0x80, BECN 0x40 */
	uint32_t dqpn, psn;
};

enum {
	RR_EXT_RETH = 1 << 0,
	RR_EXT_AETH = 1 << 1,
	RR_EXT_DETH = 1 << 2,
	RR_EXT_IMMDT = 1 << 3,
	RR_EXT_IETH = 1 << 4,
	RR_EXT_ATOMICETH = 1 << 5,
	RR_EXT_ATOMICACKETH = 1 << 6,
};

struct rr_ext {
	uint32_t present;    /* RR_EXT_* */
	struct { uint32_t off; uint64_t va; uint32_t rkey, dma_len; } reth;
	struct {
		uint32_t off;
		uint8_t syndrome;
		uint8_t type;    /* enum rr_aeth_type */
		uint8_t value;   /* credit code, RNR timer or NAK code */
		uint32_t msn;
	} aeth;
	struct { uint32_t off; uint32_t qkey, src_qp; } deth;
	struct { uint32_t off; uint32_t data; } immdt;
	struct { uint32_t off; uint32_t rkey; } ieth;
	struct { uint32_t off; uint64_t va; uint32_t rkey; uint64_t swap_add, compare; } atomic;
	struct { uint32_t off; uint64_t orig; } atomic_ack;
};

/* ABSENT: not in the capture (cut or stripped); ZERO: an iWARP CRC
 * field of zero, CRC not in use. */
enum rr_crc_state { RR_CRC_STATE_LIST(RR_X_ENUM) };
RR_API const char *rr_crc_state_str(unsigned v);

struct rr_icrc {
	uint32_t off;
	uint8_t state;       /* enum rr_crc_state */
	uint32_t wire, computed;
	bool vcrc_present;   /* native IB: the 2-byte VCRC follows */
};

/* ---- Management datagrams and CM (IBA vol. 1 §13.4, §12.6) ----------- */

struct rr_mad {
	uint32_t off;
	uint8_t base_version, mgmt_class, class_version, method;
	uint16_t status, class_specific, attr_id;
	uint64_t tid;
	uint32_t attr_mod;
};

/* One CM message; which members are meaningful depends on attr_id. */
struct rr_cm {
	uint16_t attr_id;
	/* the message's fixed part was captured: its fields below are read
	 * (else zero, as a REJ cut before its reason) */
	bool fixed_read;
	uint32_t local_comm_id, remote_comm_id;
	/* REQ */
	uint64_t service_id, local_ca_guid;
	uint32_t local_qkey;
	uint32_t local_qpn;  /* REQ, REP */
	uint32_t starting_psn; /* REQ, REP */
	uint8_t resp_resources, initiator_depth; /* REQ, REP */
	uint8_t transport_type, path_mtu, retry_count, rnr_retry;
	uint16_t pkey;
	uint32_t primary_local_gid_off, primary_remote_gid_off;
	/* REJ, MRA */
	uint8_t msg_rejected, msg_mraed, reject_info_len, service_timeout;
	uint16_t reject_reason;
	/* DREQ */
	uint32_t remote_qpn;
	struct rr_span private_data;
};

/*
 * RDMA-CM header: the first 36 bytes of an IP-addressed REQ's private data
 * (IBA annex A11; Linux cma_hdr).  Only when the service ID has the IP
 * prefix 0x0000000001.
 */
struct rr_rdma_cm {
	uint32_t off;
	uint8_t cma_version;
	uint8_t ip_version;  /* 4 or 6 */
	uint16_t src_port;   /* the active side's port */
	uint16_t dst_port;   /* from the service ID */
	uint8_t port_space;  /* 0x06 TCP, 0x11 UDP, 0x3F IB */
	uint32_t src_addr_off, dst_addr_off, addr_len;
	struct rr_span consumer_data;
};

/* ---- iWARP (RFC 5044 MPA, RFC 6581, RFC 5041 DDP, RFC 5040 RDMAP) ---- */

struct rr_mpa {
	uint32_t off;
	bool reply;          /* "MPA ID Rep Frame" */
	bool marker, crc, reject, enhanced; /* M, C, R, and RFC 6581's flag */
	uint8_t revision;
	uint16_t pd_len;
	struct rr_span private_data;
	/* RFC 6581 §5: present when enhanced and revision 2 */
	bool has_ird_ord;
	bool peer_to_peer, zero_len_rtr, write_rtr, read_rtr;
	uint16_t ird, ord;
	struct rr_span ulp_data; /* private data after the IRD/ORD words */
};

struct rr_fpdu {
	uint32_t off;
	uint16_t ulpdu_len;
	uint8_t pad;
	uint32_t crc_off;
	uint8_t crc_state;   /* enum rr_crc_state */
	uint32_t crc_wire, crc_computed;
};

struct rr_ddp {
	uint32_t off;
	bool tagged, last;
	uint8_t dv, rv, opcode; /* opcode: enum rr_rdmap_opcode */
	uint32_t hdr_len;
	/* tagged */
	uint32_t stag;
	uint64_t to;
	/* untagged */
	uint32_t inv_stag, qn, msn, mo;
	/* RDMA Read Request body (RFC 5040 §4.4) */
	uint32_t sink_stag, read_size, src_stag;
	uint64_t sink_to, src_to;
	/* Terminate (RFC 5040 §4.8) */
	uint8_t term_layer, term_etype, term_ecode;
	bool term_hdrct_m, term_hdrct_d, term_hdrct_r;
};

/* ---- RFC 8797 CM private data ------------------------------------------ */

#define RR_CM_PRIVATE_FORMAT 0xF6AB0E18u
#define RR_CM_PRIVATE_LEN 8

struct rr_cm_private {
	uint32_t off;        /* of the format identifier */
	uint32_t send_size, recv_size; /* bytes: (raw + 1) * 1024 */
	bool found;          /* the format identifier is present */
	uint8_t status;      /* enum rr_status when found */
	uint8_t version, flags;
	bool rinval;         /* R: remote invalidation supported */
	uint8_t send_raw, recv_raw;
};

/* RFC 8797 §3.1: the default when a peer sent nothing usable. */
#define RR_INLINE_DEFAULT 1024u

/* ---- RPC-over-RDMA v1 (RFC 8166 §4) ----------------------------------- */

enum rr_chunk_list { RR_CHUNK_LIST_LIST(RR_X_ENUM) };
RR_API const char *rr_chunk_list_str(unsigned v);

/*
 * Caps on wire counts; a message asking for more is malformed, never
 * clamped.  Linux uses at most 16 segments per header; 64 leaves room.
 */
#define RR_MAX_SEGMENTS 64
#define RR_MAX_CHUNKS 32

struct rr_rdma_seg {
	uint32_t off;        /* of the segment (the position word in a read list) */
	uint8_t list;        /* enum rr_chunk_list */
	uint8_t chunk;       /* index of the chunk within its list */
	uint32_t position;   /* read list only */
	uint32_t handle, length;
	uint64_t offset;
};

struct rr_rpcrdma {
	uint32_t off, len;   /* the header within the message bytes */
	uint8_t confidence;  /* enum rr_confidence */
	uint32_t xid, vers, credits, proc;
	bool body_decoded;   /* false when vers != 1 (except ERR_VERS) */
	/* RDMA_MSGP */
	uint32_t align, thresh;
	/* RDMA_ERROR */
	uint32_t err, vers_low, vers_high;
	/* chunk lists, in wire order */
	uint16_t nsegs;
	uint8_t nread_chunks, nwrite_chunks;
	bool has_reply_chunk;
	bool pzrc;           /* a read chunk at position zero */
	uint32_t read_list_off, write_list_off, reply_chunk_off;
	/* RDMA_MSG / RDMA_MSGP: where the RPC payload stream starts */
	struct rr_span payload;
	/* last: a copy of rr_rpcrdma_size() bytes holds the nsegs in use */
	struct rr_rdma_seg segs[RR_MAX_SEGMENTS];
};

/* ---- ONC RPC (RFC 5531 §9) --------------------------------------------- */

struct rr_rpc {
	uint32_t off;
	uint32_t xid, msg_type;
	/* CALL; named: prog, vers and proc all captured (a cut header can end
	 * before any of them, which then read zero) */
	uint32_t rpcvers, prog, vers, proc;
	bool named;
	uint32_t cred_flavor, cred_len, verf_flavor, verf_len;
	uint32_t cred_off, verf_off;
	/* a call's RPCSEC_GSS credential (RFC 2203 §5): gss when its version
	 * 1 body was captured up to the service */
	bool gss;
	uint32_t gss_proc, gss_seq, gss_service;
	/* REPLY */
	uint32_t reply_stat, accept_stat, reject_stat, auth_stat;
	uint32_t mismatch_low, mismatch_high;
	uint32_t stat_off;   /* accept_stat or reject_stat word */
	/* arguments or results */
	struct rr_span body;
};

/* Limit on RPC credential and verifier bodies (RFC 5531 §8.2). */
#define RR_RPC_MAX_AUTH 400

/* ---- Configuration ------------------------------------------------------ */

enum {
	RR_CFG_VERIFY_ICRC = 1 << 0,    /* compute the IB ICRC */
	RR_CFG_VERIFY_CRC32C = 1 << 1,  /* compute the MPA CRC when non-zero */
	RR_CFG_IWARP_HEURISTIC = 1 << 2, /* FPDUs on ports not listed */
	/* frames are cut to a snap length on purpose (headers only): the
	 * analyzer counts a cut frame but raises no finding for it */
	RR_CFG_CUTS_EXPECTED = 1 << 3,
	/* the analyzer reports RR_EV_CHUNK_DATA for every RDMA packet that
	 * serves a chunk (off: a packet of data costs no event) */
	RR_CFG_CHUNK_EVENTS = 1 << 4,
	/* the analyzer's reports give the frame's units only, no events: for
	 * a front end that shows statistics alone (a message costs no copy) */
	RR_CFG_NO_EVENTS = 1 << 5,
	/* the analyzer's reports list every unit of the frame as the frame
	 * alone holds it (rr_frame_report unit_list): for a front end that
	 * shows each (rpcrdma-dump -a) without decoding the frame again */
	RR_CFG_LIST_UNITS = 1 << 6,
};

struct rr_config {
	uint16_t roce_udp_port;   /* 4791 */
	uint16_t iwarp_tcp_port;  /* 20049 */
	uint32_t flags;
	/* Lowest confidence at which an RPC-over-RDMA header is reported. */
	uint8_t min_confidence;
};

/* Defaults: standard ports, both CRCs verified, iWARP heuristic on, RR_CONF_SHAPE. */
RR_API void rr_config_init(struct rr_config *cfg);

/*
 * What a stateful caller knows about the stream a frame belongs to.
 * Without it the decoder works from the bytes alone.
 */
struct rr_stream_hint {
	bool iwarp;          /* TCP stream is MPA-framed (after Req/Rep) */
	bool iwarp_crc;      /* CRC negotiated: a zero CRC field is an error */
	bool rpcrdma;        /* connection known to carry RPC-over-RDMA */
	/*
	 * MPA markers negotiated (RFC 5044 §5): one every 512 octets of TCP
	 * sequence space from marker_seq0, the sequence number of the first
	 * FPDU's first octet.  The FPDUs are decoded from a copy without the
	 * markers, made in scratch (which must hold the TCP payload); layer
	 * offsets from DDP up then index f->unit_data, and rr_wire_offset()
	 * maps them back to the frame.
	 */
	bool iwarp_markers;
	uint32_t marker_seq0;
	uint8_t *scratch;
	uint32_t scratch_len;
};

/* ---- The decoded frame ------------------------------------------------- */

struct rr_frame {
	const uint8_t *data;
	uint32_t caplen, wirelen;
	uint32_t link;           /* enum rr_link */
	uint8_t transport;       /* enum rr_transport */
	uint32_t present;        /* 1u << enum rr_layer, for this unit */
	struct rr_note note[RR_LAYER_COUNT]; /* valid where present */

	/* the first problem found, for one-line reports */
	uint8_t status;          /* worst enum rr_status of any layer */
	uint8_t bad_layer;

	struct rr_erf erf;
	struct rr_link_hdr l2;
	struct rr_ip ip;
	struct rr_udp udp;
	struct rr_tcp tcp;
	struct rr_lrh lrh;
	struct rr_grh grh;
	struct rr_bth bth;
	struct rr_ext ext;
	struct rr_icrc icrc;
	struct rr_mad mad;
	struct rr_cm cm;
	struct rr_rdma_cm rdma_cm;
	struct rr_mpa mpa;
	struct rr_fpdu fpdu;
	struct rr_ddp ddp;
	struct rr_cm_private cm_private;
	struct rr_rpcrdma rdma;
	struct rr_rpc rpc;

	/* upper-layer payload of this unit (BTH or DDP payload) */
	struct rr_span payload;

	/*
	 * Bytes that the offsets of the DDP layer and above index: data, or
	 * the copy without MPA markers when demarked is set.
	 */
	const uint8_t *unit_data;
	uint32_t unit_cap;     /* readable bytes at unit_data */
	bool demarked;
	uint32_t demark_base;  /* frame offset of unit_data[0] */
	uint32_t marker_first; /* first marker, relative to demark_base */

	/* private to the unit iterator */
	uint32_t next_unit_off, unit_end, unit_limit;
	uint16_t unit_index;
	struct rr_stream_hint hint;
};

static inline bool rr_has(const struct rr_frame *f, enum rr_layer l)
{
	return (f->present >> l) & 1u;
}

/*
 * Decode a frame as captured.  link is a LINKTYPE_ value; caplen bytes are
 * readable at data; wirelen is the original length (caplen when unknown).
 * Returns true when a unit was decoded into *out (possibly partly, see
 * out->status); false only when there is nothing at all to report.
 */
RR_API bool rr_decode_frame(const struct rr_config *cfg, uint32_t link,
			    const uint8_t *data, uint32_t caplen,
			    uint32_t wirelen, const struct rr_stream_hint *hint,
			    struct rr_frame *out);

/*
 * Decode what a RoCEv2 UDP socket receives: BTH, extension headers,
 * payload and ICRC, without the IP and UDP headers the ICRC also covers
 * (so it is not checked).  For software RoCE endpoints.
 */
RR_API bool rr_decode_roce_payload(const struct rr_config *cfg,
				   const uint8_t *data, uint32_t len,
				   struct rr_frame *out);

/*
 * Decode one FPDU taken from an MPA byte stream (after the Req/Rep
 * exchange), as a software iWARP endpoint reads it; crc says whether the
 * connection negotiated CRCs.
 */
RR_API bool rr_decode_fpdu(const struct rr_config *cfg, const uint8_t *data,
			   uint32_t len, bool crc, struct rr_frame *out);
/* The same for an FPDU of len bytes of which the capture kept caplen:
 * its headers, and its payload as far as it was kept. */
RR_API bool rr_decode_fpdu_cut(const struct rr_config *cfg,
			       const uint8_t *data, uint32_t caplen,
			       uint32_t len, bool crc, struct rr_frame *out);

/* Decode an MPA Request or Reply frame read from a TCP stream. */
RR_API bool rr_decode_mpa(const struct rr_config *cfg, const uint8_t *data,
			  uint32_t len, struct rr_frame *out);

/* Bytes an FPDU starting with these two octets takes in the stream. */
RR_API uint32_t rr_fpdu_total_len(const uint8_t first_two[2]);

/* Frame offset of an upper-layer offset (differs when demarked). */
RR_API uint32_t rr_wire_offset(const struct rr_frame *f, uint32_t off);

/* Advance to the next FPDU of the same TCP segment; false when none. */
RR_API bool rr_decode_next_unit(const struct rr_config *cfg,
				struct rr_frame *f);

/* ---- Where each field sits ---------------------------------------------- */

enum rr_anchor {
	RR_ANCHOR_RPCRDMA,     /* f->rdma.off */
	RR_ANCHOR_SEGMENT,     /* f->rdma.segs[index].off (position: read only) */
	RR_ANCHOR_CM_PRIVATE,  /* f->cm_private.off */
	RR_ANCHOR_BTH,
	RR_ANCHOR_RETH,
	RR_ANCHOR_AETH,
	RR_ANCHOR_IETH,
	RR_ANCHOR_ICRC,
	RR_ANCHOR_DDP,         /* tagged or untagged by the field */
	RR_ANCHOR_FPDU_CRC,
	RR_ANCHOR_MPA,
};

enum rr_field { RR_FIELD_LIST(RR_X_ENUM_SEQ) RR_FIELD_COUNT };

struct rr_field_info {
	uint8_t anchor;      /* enum rr_anchor */
	uint8_t off, len;
	const char *abbrev;  /* e.g. "xid", "bth.psn" */
	const char *label;
};

/* Description of a field, or NULL for an unknown one. */
RR_API const struct rr_field_info *rr_field_info(unsigned field);

/*
 * Bytes of a field in the decoded unit, as an offset into f->unit_data
 * for RPC-over-RDMA, segment and DDP fields and into f->data otherwise
 * (the same buffer unless MPA markers were removed; rr_wire_offset maps
 * one to the other).  index selects a segment.  false when the field is
 * not in this unit (layer absent, wrong proc or DDP model, segment index
 * out of range, or bytes not captured).
 */
RR_API bool rr_field_span(const struct rr_frame *f, enum rr_field field,
			  unsigned index, struct rr_span *out);
/* The same for a header decoded on its own (rr_rpcrdma_decode, offsets
 * from its message) and for RFC 8797 private data (rr_cm_private_find):
 * captured is how many bytes of that buffer are present. */
RR_API bool rr_rpcrdma_field_span(const struct rr_rpcrdma *h, uint32_t captured,
				  enum rr_field field, unsigned index,
				  struct rr_span *out);
RR_API bool rr_cm_private_field_span(const struct rr_cm_private *cp,
				     uint32_t captured, enum rr_field field,
				     struct rr_span *out);

/* ---- Decoders of one layer, for reassembled messages ------------------ */

/*
 * RPC-over-RDMA header at msg[base .. base + len).  captured <= len is how
 * many bytes are present; a field beyond captured but within len is
 * truncated, a field beyond len malformed.  Offsets recorded are from msg.
 * Returns the status; out->confidence says how sure the decoder is.
 */
RR_API enum rr_status rr_rpcrdma_decode(const uint8_t *msg, uint32_t base,
					uint32_t captured, uint32_t len,
					struct rr_rpcrdma *out,
					struct rr_note *note);

/* The bytes of h up to its last segment in use: a copy that long is the
 * header whole (the full array of segments is 2 KiB). */
RR_API size_t rr_rpcrdma_size(const struct rr_rpcrdma *h);

/*
 * Whether a decoded header shows by itself that its message is
 * RPC-over-RDMA, where nothing else does (no connection setup with RFC 8797
 * private data, no earlier message on the connection): an RDMA_MSG or
 * RDMA_MSGP whose RPC header follows with the same xid, or an RDMA_NOMSG,
 * RDMA_DONE or RDMA_ERROR of version 1 (an ERR_VERS echoes any version,
 * RFC 8166 §4.5) decoded whole, its size exactly its lists'.  The analyzer
 * and the Wireshark plugin decide with this one rule.
 */
RR_API bool rr_rpcrdma_recognised(const struct rr_rpcrdma *h,
				  enum rr_status status);

/* ONC RPC message header (RFC 5531 §9) at msg[base ..]. */
RR_API enum rr_status rr_rpc_decode(const uint8_t *msg, uint32_t base,
				    uint32_t captured, uint32_t len,
				    struct rr_rpc *out, struct rr_note *note);

/*
 * Whether call's arguments, and its reply's results, are not the
 * procedure's own XDR: an RPCSEC_GSS call (RFC 2203 §5.3.2) whose service
 * wraps them (integrity: a length, a sequence number and a checksum around
 * them; privacy: encrypted), whose credential the capture cut, or which
 * makes or destroys a context (a GSS token, not the procedure's).  Such
 * bodies are not read as the procedure's.
 */
RR_API bool rr_rpc_body_wrapped(const struct rr_rpc *call);

/*
 * Whether call's arguments, and its reply's results, are wrapped by the
 * RPCSEC_GSS integrity service (RFC 2203 §5.3.2.2, sec=krb5i): readable
 * with rr_rpc_gss_integ_body.
 */
RR_API bool rr_rpc_body_integrity(const struct rr_rpc *call);

/*
 * The procedure's own XDR inside an RPCSEC_GSS integrity body (RFC 2203
 * §5.3.2.2): rpc_gss_integ_data is databody_integ<>, a sequence number
 * followed by the arguments (a call's) or the results (a reply's), then a
 * checksum<>.  The body starts at msg[off], `have` bytes readable from
 * there.  On success *inner is where the arguments or results start,
 * *inner_end where databody_integ ends (past the readable bytes when the
 * capture cut it) and *seq its sequence number, which repeats the
 * credential's.  False when the bytes end before the sequence number or
 * databody_integ's length is not XDR's (a multiple of 4, at least 4).
 */
RR_API bool rr_rpc_gss_integ_body(const uint8_t *msg, uint32_t off, uint32_t have,
				  uint32_t *inner, uint32_t *inner_end, uint32_t *seq);

/*
 * Search CM private data for an RFC 8797 block (§4.1: at any offset).
 * Returns false when absent; when found, out->status tells whether it is
 * complete (version 1, 8 bytes), truncated or malformed.
 */
RR_API bool rr_cm_private_find(const uint8_t *msg, uint32_t base,
			       uint32_t captured, uint32_t len,
			       struct rr_cm_private *out);

/* RFC 8797 §3.1: thresholds from each side's block (NULL = absent). */
struct rr_inline_thresholds {
	uint32_t call;       /* requester -> responder */
	uint32_t reply;      /* responder -> requester */
	bool remote_invalidation; /* both set R */
};
RR_API void rr_inline_thresholds(const struct rr_cm_private *requester,
				 const struct rr_cm_private *responder,
				 struct rr_inline_thresholds *out);

/* ---- Checksums ----------------------------------------------------------- */

/* CRC-32 (IEEE, reflected; zlib's), and CRC-32C (Castagnoli). */
RR_API uint32_t rr_crc32(uint32_t crc, const void *buf, size_t len);
RR_API uint32_t rr_crc32c(uint32_t crc, const void *buf, size_t len);

/*
 * ICRC of an IB packet (IBA vol. 1 §7.8.1; RoCEv2 annex A17.3.3).
 * pkt points at the LRH (IB), GRH (RoCEv1) or IP header (RoCEv2); len runs
 * to the start of the ICRC.
 */
RR_API uint32_t rr_icrc_compute(enum rr_transport t, const uint8_t *pkt,
				size_t len);

#ifdef __cplusplus
}
#endif
#endif /* RPCRDMA_DISSECT_H */
