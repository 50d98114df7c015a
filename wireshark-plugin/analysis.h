/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libdissect's analyzer inside Wireshark: fed every frame once, in order,
 * on the first pass (as tshark reads a file in one pass, or as the GUI
 * loads it), it keeps what it said about each frame so that any later
 * dissection of that frame shows the same.
 */
#ifndef RPCRDMA_TOOLS_ANALYSIS_H
#define RPCRDMA_TOOLS_ANALYSIS_H

#include <epan/packet.h>

#include <rpcrdma/analyzer.h>

/* RFC 8797 private data in an MPA frame: private_data, dir 1 for a Reply
 * (from the analyzer's RR_EV_SETUP) */
#define RR_WS_MPA_PRIVATE 0x80
/* An IB CM REJ: its reason (IBA table 112) in `finding`, its connection
 * in `conn` (Wireshark's own dissector shows the reason as a number) */
#define RR_WS_CM_REJECT 0x81

/* One thing the analyzer said about a frame (one of its events). */
struct rr_ws_item {
	uint8_t kind;         /* enum rr_event_kind, or RR_WS_* */
	uint8_t dir, proc, source, access;
	bool done;            /* MESSAGE: a reply that completed its call */
	uint16_t finding;
	uint32_t conn, xid, credits, grant, in_flight, msg_len;
	/* MESSAGE: the call's reply frame, or the reply's call frame */
	uint32_t other_frame;
	/* CHUNK_DATA: bytes the packet moves; MESSAGE of several packets:
	 * bytes of it kept (a long one in part: its headers) */
	uint32_t handle, data_len, bytes_inline;
	/* MESSAGE: the STag a Send With Invalidate invalidated, or 0 */
	uint32_t inv_stag;
	/* MESSAGE: a call resent after a reconnect: the frame of the first */
	uint32_t resent_of;
	/* RETRANSMISSION: its PSN (other_frame: the frame it repeats);
	 * header_again: a SEND's first packet whose RPC-over-RDMA header (xid,
	 * proc, dir) the analyzer read, shown and handed on again */
	uint32_t psn;
	bool header_again;
	bool whole_again;     /* and it is a SEND ONLY: the whole message */
	/* MESSAGE, RPC_MESSAGE: the connection's QPNs (TCP ports for iWARP) */
	uint32_t requester_id, responder_id;
	bool iwarp;
	uint64_t seg_offset, latency_ns, bytes_read, bytes_write;
	/* RPC_MESSAGE of a call: when its SEND arrived, else 0 */
	uint64_t call_ts_ns;
	struct rr_inline_thresholds thresholds;
	bool negotiated;      /* thresholds known (rr_conn_info negotiated) */
	bool grant_known;     /* MESSAGE: grant known (rr_conn_grant_known) */
	const char *detail;   /* FINDING */
	/* MPA_PRIVATE: as decoded, its offsets the frame's */
	const struct rr_cm_private *private_data;
	/* MESSAGE of several packets, or RPC_MESSAGE: its bytes when kept
	 * for later passes (rr_ws_item_bytes has them on the first) */
	const uint8_t *data;
	uint32_t first_pass_at;   /* 1 + offset in the first pass's copy */
	/* MESSAGE: 1 + where in the frame it lies, whole (0: it does not, as
	 * a SEND of several packets or one reassembled from a TCP stream) */
	uint32_t frame_at;
};

struct rr_ws_frame {
	bool on_conn;         /* on a connection known to carry RPC-over-RDMA */
	uint32_t nitems;
	struct rr_ws_item items[];
};

/* What the analyzer said about this frame (feeding it first if it is new),
 * or NULL when nothing. */
const struct rr_ws_frame *rr_ws_frame_of(packet_info *pinfo);
/* The bytes of a MESSAGE or RPC_MESSAGE item, or NULL when they were
 * neither kept nor is this the first dissection of their frame. */
const uint8_t *rr_ws_item_bytes(const packet_info *pinfo, const struct rr_ws_item *it);
/* The analyzer of the file being read, NULL before the first frame. */
const struct rr_analyzer *rr_ws_analyzer(void);
void rr_ws_analysis_init(void);
void rr_ws_analysis_cleanup(void);

/* The statistics table (-z rpcrdma,stat) on the "rpcrdma" tap, filled
 * from the analyzer. */
void rr_ws_register_stat(void);

#endif
