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
#include <rpcrdma/diagnosis.h>

/* RFC 8797 private data in an MPA frame: private_data, dir 1 for a Reply
 * (from the analyzer's RR_EV_SETUP) */
#define RR_WS_MPA_PRIVATE 0x80
/* An IB CM REJ: its reason (IBA table 112), its connection in `conn`
 * (Wireshark's own dissector shows the reason as a number) */
#define RR_WS_CM_REJECT 0x81

/* What the renderers need of an event's connection (rr_conn_info). */
struct rr_ws_conn {
	/* its QPNs (TCP ports for iWARP): the rpc dissector's conversation */
	uint32_t requester_id, responder_id;
	bool iwarp;
	bool negotiated;      /* thresholds known (rr_conn_info negotiated) */
	bool grant_known;     /* rr_conn_grant_known */
	struct rr_inline_thresholds thresholds;
};

/*
 * One thing the analyzer said about a frame: the report's event with the
 * payload of its kind, kept for every later dissection of the frame.  What
 * the payload points to is copied into the file's memory (a message's
 * header, a finding's detail, bytes while the budget lasts) or left NULL
 * (RPC headers, completions, NFSv4 operations: the rpc and nfs dissectors
 * show those); its frame numbers are Wireshark's.
 */
struct rr_ws_item {
	uint8_t kind;         /* enum rr_event_kind, or RR_WS_* */
	uint8_t dir;
	uint32_t conn;
	struct rr_ws_conn connection;   /* zero for an event of none */
	union {
		struct rr_ev_message msg;
		struct rr_ev_rpc_message rebuilt;
		struct rr_ev_chunk_data chunk;
		struct rr_ev_retransmission retransmission;
		struct rr_ev_finding finding;
		/* RR_WS_MPA_PRIVATE: as decoded, its offsets the frame's */
		const struct rr_cm_private *private_data;
		/* RR_WS_CM_REJECT: 0 when the capture cut it off */
		unsigned reject_reason;
	};
	/* MESSAGE of a reply that completed its call: what RR_EV_RPC_DONE
	 * said of it */
	bool completed;
	uint32_t bytes_inline;
	uint64_t latency_ns, bytes_read, bytes_write;
	/* MESSAGE: the call's reply frame, or the reply's call frame */
	uint32_t other_frame;
	/* MESSAGE of several packets, RPC_MESSAGE: 1 + offset of its bytes in
	 * the first pass's copy (rr_ws_item_bytes) */
	uint32_t first_pass_at;
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
/* Whether the DDP segment whose payload Wireshark's RDMAP dissector handed
 * over (payload) is tagged (RFC 5041 §2.2, the T flag: RDMA Write or Read
 * Response data), as libdissect decodes the frame: the FPDU whose payload
 * lies where payload does, or, in a copy without MPA markers, the one of
 * its length and first bytes; false where none is found. */
bool rr_ws_payload_tagged(packet_info *pinfo, tvbuff_t *payload);
/* The diagnosis of the file, once it was read whole (a second look at a
 * frame: tshark -2, the GUI), its frames Wireshark's numbers; *n is 0
 * before. */
const struct rr_diagnosis_item *rr_ws_diagnosis(unsigned *n);
/* The analyzer of the file being read, NULL before the first frame. */
const struct rr_analyzer *rr_ws_analyzer(void);
void rr_ws_analysis_init(void);
void rr_ws_analysis_cleanup(void);

/* The statistics table (-z rpcrdma,stat) on the "rpcrdma" tap, filled
 * from the analyzer. */
void rr_ws_register_stat(void);

#endif
