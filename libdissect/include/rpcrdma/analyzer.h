/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The stateful analyzer: fed frames in capture order, it follows each
 * RPC-over-RDMA connection (negotiation, credits, calls and replies, chunk
 * traffic) and answers each frame with a report of what it made of it:
 * the frame's units, its messages with what they completed and rebuilt,
 * chunk traffic, findings.  Statistics can be read at any time.
 *
 * Memory is allocated once, by rr_analyzer_new, from the limits given;
 * what does not fit is evicted and counted, never grown.
 */
#ifndef RPCRDMA_ANALYZER_H
#define RPCRDMA_ANALYZER_H

#include <rpcrdma/dissect.h>
#include <rpcrdma/latency.h>
#include <rpcrdma/nfs.h>
#include <rpcrdma/nfs4.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RR_SEVERITY_LIST(X) \
	X(RR_SEV_NOTE, 0, "note") \
	X(RR_SEV_WARN, 1, "warning") \
	X(RR_SEV_ERROR, 2, "error")

enum rr_severity { RR_SEVERITY_LIST(RR_X_ENUM) };
RR_API const char *rr_severity_str(unsigned v);

/* What a finding is about, as Wireshark's expert groups sort them: a
 * message or setup that does not parse, a checksum, the order and count
 * of messages (credits, xids, releases), or another of the protocol's
 * rules. */
#define RR_FINDING_KIND_LIST(X) \
	X(RR_FIND_KIND_PROTOCOL, 0, "protocol") \
	X(RR_FIND_KIND_MALFORMED, 1, "malformed") \
	X(RR_FIND_KIND_CHECKSUM, 2, "checksum") \
	X(RR_FIND_KIND_SEQUENCE, 3, "sequence")

enum rr_finding_kind { RR_FINDING_KIND_LIST(RR_X_ENUM) };

/*
 * The findings: X(symbol, id, severity, kind, reference, message, advice:
 * what to do).  docs/findings.md describes each; the Wireshark plugin makes
 * an expert item of each id, in the expert group of its kind.
 */
#define RR_FINDING_LIST(X) \
	X(RR_FIND_VERS, "rpcrdma.vers", RR_SEV_ERROR, RR_FIND_KIND_PROTOCOL, "RFC 8166 §4.2.2", \
	  "rdma_vers is not 1", \
	  "Make both peers speak RPC-over-RDMA version 1; a version 1 " \
	  "peer answers another with ERR_VERS") \
	X(RR_FIND_XID_MISMATCH, "rpcrdma.xid_mismatch", RR_SEV_ERROR, RR_FIND_KIND_PROTOCOL, \
	  "RFC 8166 §4.2.1", "transport xid differs from the RPC xid", \
	  "Fix the sender: its transport header must carry the RPC message's xid") \
	X(RR_FIND_ZERO_CREDIT, "rpcrdma.zero_credit", RR_SEV_ERROR, RR_FIND_KIND_SEQUENCE, \
	  "RFC 8166 §3.3.1", "a reply grants zero credits", \
	  "Fix the responder: it must grant at least one credit, or the " \
	  "requester can send no call") \
	X(RR_FIND_OVER_CREDIT, "rpcrdma.over_credit", RR_SEV_ERROR, RR_FIND_KIND_SEQUENCE, \
	  "RFC 8166 §3.3.1", "more calls in flight than credits granted", \
	  "Fix the requester's flow control: it must wait for a credit before sending") \
	X(RR_FIND_BC_ZERO_CREDIT, "rpcrdma.bc_zero_credit", RR_SEV_WARN, RR_FIND_KIND_SEQUENCE, \
	  "RFC 8167 §4.1", "backward-direction message grants zero credits", \
	  "Fix the backward grant: Linux reads 0 as 1, another peer may " \
	  "send no callback") \
	X(RR_FIND_BC_CHUNKS, "rpcrdma.bc_chunks", RR_SEV_NOTE, RR_FIND_KIND_PROTOCOL, "RFC 8167 §4.3", \
	  "backward-direction message carries chunks (Linux and the " \
	  "bidirection draft send none)", \
	  "Check that the receiver takes chunks in the backward " \
	  "direction; one that does not answers ERR_CHUNK") \
	X(RR_FIND_INLINE_TOO_BIG, "rpcrdma.inline_too_big", RR_SEV_ERROR, RR_FIND_KIND_PROTOCOL, \
	  "RFC 8166 §3.3.2, RFC 8797 §3.1", \
	  "inline message larger than the receiver's inline threshold", \
	  "Fix the sender: a message past the threshold goes by a read " \
	  "or reply chunk; or raise the receiver's receive size") \
	X(RR_FIND_WRITE_BEYOND, "rpcrdma.write_beyond_segment", RR_SEV_ERROR, RR_FIND_KIND_PROTOCOL, \
	  "RFC 8166 §3.4.3", "RDMA Write past the end of its chunk segment", \
	  "Fix the responder's RDMA Write: it must stay within the " \
	  "segment the requester registered") \
	X(RR_FIND_REPLY_CHUNK_UNUSABLE, "rpcrdma.reply_chunk_unusable", \
	  RR_SEV_ERROR, RR_FIND_KIND_PROTOCOL, "RFC 8166 §3.5.3", \
	  "reply could not be sent: reply chunk too small, no " \
	  "responder-provided read chunk", \
	  "Have the requester offer a larger reply chunk for this procedure") \
	X(RR_FIND_MSGP, "rpcrdma.msgp", RR_SEV_WARN, RR_FIND_KIND_PROTOCOL, "RFC 8166 §4.6.1", \
	  "RDMA_MSGP is no longer supported", \
	  "Send RDMA_MSG: RFC 8166 peers do not take RDMA_MSGP") \
	X(RR_FIND_DONE_NO_RRC, "rpcrdma.done_without_read_chunk", RR_SEV_WARN, RR_FIND_KIND_PROTOCOL, \
	  "RFC 8166 §4.6.2", \
	  "RDMA_DONE with no responder-provided read chunk to release", \
	  "Fix the requester: RDMA_DONE only releases a responder-provided read chunk") \
	X(RR_FIND_RRC_NOT_RELEASED, "rpcrdma.read_chunk_not_released", \
	  RR_SEV_WARN, RR_FIND_KIND_SEQUENCE, "draft-cel-nfsv4-rpcrdma-reliable-reply §4", \
	  "responder-provided read chunk never released by RDMA_DONE", \
	  "Check that the requester sends RDMA_DONE: the responder's " \
	  "memory stays registered until then") \
	X(RR_FIND_DONE_UNKNOWN, "rpcrdma.done_unknown_xid", RR_SEV_WARN, RR_FIND_KIND_SEQUENCE, \
	  "draft-cel-nfsv4-rpcrdma-reliable-reply §4", \
	  "RDMA_DONE for an xid no reply used", \
	  "Check the requester's RDMA_DONE xids; none to do when the " \
	  "capture began after the reply") \
	X(RR_FIND_SWI_WITHOUT_R, "rpcrdma.invalidate_without_r", RR_SEV_ERROR, RR_FIND_KIND_PROTOCOL, \
	  "RFC 8797 §4.1", \
	  "Send With Invalidate to a peer that did not set R, which may not " \
	  "recognise it", \
	  "Make the sender honour its peer's R, or have the peer set R " \
	  "only if it recognises invalidation") \
	X(RR_FIND_SWI_OWN_R_CLEARED, "rpcrdma.invalidate_own_r_cleared", \
	  RR_SEV_WARN, RR_FIND_KIND_PROTOCOL, "RFC 8797 §4.1", \
	  "Send With Invalidate from a peer that cleared R to one that set it " \
	  "(Linux's nfsd does)", \
	  "Nothing breaks on the wire: the sender's R is misadvertised; " \
	  "upgrade its stack when a fix exists") \
	X(RR_FIND_INV_OTHER_XID, "rpcrdma.invalidate_other_xid", RR_SEV_ERROR, RR_FIND_KIND_PROTOCOL, \
	  "RFC 8797 §4.1", \
	  "Send With Invalidate of a key that is not this reply's", \
	  "Fix the responder: it may invalidate only a key of this reply's own chunks") \
	X(RR_FIND_ERR_VERS, "rpcrdma.err_vers", RR_SEV_WARN, RR_FIND_KIND_PROTOCOL, "RFC 8166 §4.5", \
	  "RDMA_ERROR ERR_VERS", \
	  "Make both peers speak a version they share (version 1)") \
	X(RR_FIND_ERR_CHUNK, "rpcrdma.err_chunk", RR_SEV_WARN, RR_FIND_KIND_PROTOCOL, "RFC 8166 §4.5", \
	  "RDMA_ERROR ERR_CHUNK", \
	  "Look at the call it answers: the responder could not use its chunks") \
	X(RR_FIND_DUP_XID, "rpcrdma.duplicate_xid", RR_SEV_WARN, RR_FIND_KIND_SEQUENCE, \
	  "RFC 8166 §4.2.1", "a call reuses an xid still in flight", \
	  "Fix the requester's xids: a reply may be taken for the wrong call") \
	X(RR_FIND_REPLY_NO_CALL, "rpcrdma.reply_without_call", RR_SEV_NOTE, RR_FIND_KIND_SEQUENCE, \
	  "RFC 5531 §9", "reply to no call seen (capture may have started " \
	  "after it)", \
	  "None when the capture started after the call; else look for " \
	  "calls the capture dropped") \
	X(RR_FIND_TRUNCATED, "rpcrdma.truncated", RR_SEV_NOTE, RR_FIND_KIND_PROTOCOL, "", \
	  "frame cut short by the capture", \
	  "Capture with a larger snapshot length (-s 0) to decode whole frames") \
	X(RR_FIND_MALFORMED, "rpcrdma.malformed", RR_SEV_ERROR, RR_FIND_KIND_MALFORMED, "", \
	  "frame contradicts its protocol", \
	  "Capture again to rule out damage; if it repeats, report it to " \
	  "the sender's implementers") \
	X(RR_FIND_ICRC, "rpcrdma.icrc", RR_SEV_WARN, RR_FIND_KIND_CHECKSUM, "IBA vol. 1 §7.8", \
	  "ICRC mismatch: the receiver drops the packet, RC sends it again", \
	  "Check the link (cables, optics, port error counters); when every " \
	  "packet fails, the capture point saw them before their ICRC was " \
	  "final (rpcrdma-dump -K skips the check)") \
	X(RR_FIND_RNR_NAK, "rpcrdma.rnr_nak", RR_SEV_WARN, RR_FIND_KIND_SEQUENCE, \
	  "RFC 8166 §3.3.1", \
	  "RNR NAK: a SEND found no receive posted; its sender waits and sends " \
	  "it again", \
	  "Compare the calls in flight with the grant: a requester past its " \
	  "credits, or a responder that granted more credits than the " \
	  "receives it posted; for a reply or backward call, the requester's " \
	  "receives") \
	X(RR_FIND_NAK_REMOTE_ACCESS, "rpcrdma.nak_remote_access", RR_SEV_ERROR, \
	  RR_FIND_KIND_PROTOCOL, "IBA vol. 1 §9.7.5.2, RFC 8166 §3.4.3", \
	  "NAK remote access error: an RDMA access to an STag not registered, " \
	  "invalidated or too short (the connection fails)", \
	  "Look at the STag named: a requester that invalidated or " \
	  "deregistered a chunk's memory before the reply, or a responder " \
	  "that used a handle or range no chunk offered") \
	X(RR_FIND_NAK_REMOTE_OPERATIONAL, "rpcrdma.nak_remote_operational", \
	  RR_SEV_ERROR, RR_FIND_KIND_PROTOCOL, "IBA vol. 1 §9.7.5.2", \
	  "NAK remote operational error: the receiver failed a request on a " \
	  "fault of its own (the connection fails)", \
	  "Look at the receiver: its adapter's and kernel's logs (a " \
	  "malformed receive queue entry, a local protection error)") \
	X(RR_FIND_NAK_INVALID_REQUEST, "rpcrdma.nak_invalid_request", \
	  RR_SEV_ERROR, RR_FIND_KIND_PROTOCOL, "IBA vol. 1 §9.7.5.2, RFC 8166 §3.3.2", \
	  "NAK invalid request: the receiver refused a request it cannot take " \
	  "(the connection fails)", \
	  "For a SEND, compare its length with the receiver's inline threshold: " \
	  "a longer message goes by a read or reply chunk; else check the " \
	  "operations the receiver's QP allows") \
	X(RR_FIND_CRC32C, "rpcrdma.crc32c", RR_SEV_ERROR, RR_FIND_KIND_CHECKSUM, "RFC 5044 §6.6", \
	  "MPA CRC32c mismatch: the receiver ends the connection", \
	  "Check the link, the NICs' CRC offload and the capture point") \
	X(RR_FIND_CM_PRIVATE, "rpcrdma.cm_private_data", RR_SEV_ERROR, RR_FIND_KIND_MALFORMED, \
	  "RFC 8797 §4", "RFC 8797 private data malformed", \
	  "Fix the sender's RFC 8797 private data; the defaults apply meanwhile")

#define RR_X_FINDING_ENUM(sym, id, sev, kind, ref, msg, advice) sym,
enum rr_finding_id { RR_FINDING_LIST(RR_X_FINDING_ENUM) RR_FINDING_COUNT };

struct rr_finding_info {
	const char *id;
	uint8_t severity;
	uint8_t kind;         /* enum rr_finding_kind */
	const char *reference;
	const char *message;
	const char *advice;   /* what to do: a sentence, without its full stop */
};
RR_API const struct rr_finding_info *rr_finding_info(unsigned id);

/* Direction of a message (RFC 8167 §3). */
enum rr_dir {
	RR_DIR_FWD_CALL,
	RR_DIR_FWD_REPLY,
	RR_DIR_BWD_CALL,
	RR_DIR_BWD_REPLY,
	RR_DIR_UNKNOWN,
};
RR_API const char *rr_dir_str(unsigned v);
/* The same as an identifier ("backward_call"): JSON values and keys,
 * Prometheus labels. */
RR_API const char *rr_dir_id(unsigned v);
/* A connection's side by its index ([0] the requester, [1] the responder,
 * as rr_conn_info's private data and rr_conn_stats' fabric counters):
 * "requester", "responder"; text, JSON keys and Prometheus labels. */
RR_API const char *rr_side_str(unsigned side);

#define RR_SIZE_BUCKETS 24  /* log2 of bytes */
/* An NFS error row's op for a COMPOUND the server answered with no
 * operation's result (RFC 8881 §16.2.3: a minor version it does not
 * support is answered NFS4ERR_MINOR_VERS_MISMATCH with an empty array). */
#define RR_NFS_ERROR_NO_OP 0xffffu
#define RR_PROC_SLOTS 84   /* 83 procedures named, "other" last */

/*
 * How a call was answered (RFC 5531 §9): MSG_ACCEPTED with its accept_stat
 * (SUCCESS 0 to SYSTEM_ERR 5), MSG_DENIED with its reject_stat, or UNSEEN
 * when the reply's RPC header was not in the capture (in a reply chunk
 * that was not rebuilt).  Named by rr_reply_status_str: the accept_stat
 * and reject_stat names, and "unseen".
 */
enum rr_reply_status {
	RR_REPLY_ACCEPTED = 0,   /* + accept_stat */
	RR_REPLY_DENIED = 6,     /* + reject_stat */
	RR_REPLY_UNSEEN = 8,
	RR_REPLY_STATUS_COUNT
};
RR_API const char *rr_reply_status_str(unsigned v);
/* The status of a decoded RPC reply. */
RR_API enum rr_reply_status rr_reply_status_of(const struct rr_rpc *reply);

/* How an RPC's data travelled (RFC 8166 §3.5), and its name in reports. */
#define RR_CHUNK_KIND_LIST(X) \
	X(RR_KIND_INLINE, 0, "inline")              /* no chunk */ \
	X(RR_KIND_READ, 1, "read")                  /* read list, position > 0 */ \
	X(RR_KIND_PZRC, 2, "position_zero_read")    /* Long Call */ \
	X(RR_KIND_WRITE, 3, "write") \
	X(RR_KIND_REPLY, 4, "reply") \
	X(RR_KIND_RRC, 5, "responder_read")         /* responder-provided read chunk */

enum rr_chunk_kind { RR_CHUNK_KIND_LIST(RR_X_ENUM) RR_KIND_COUNT };
RR_API const char *rr_chunk_kind_str(unsigned v);

/*
 * What a connection's packets show of the fabric under it, for the stream
 * of request packets one side sends and what answers it (IBA vol. 1
 * §9.7, RoCEv2 Annex A17): X(symbol, JSON key, text, whether the
 * stream's own sender's packets show it, else the other side's).  The NAKs and RNR
 * NAKs are those the other side sent back, the CNPs those the other side
 * sent to slow it, the ECN and FECN marks those its packets carried, the
 * BECN marks those the other side's packets carried back to it.
 */
#define RR_FABRIC_LIST(X) \
	X(RR_FABRIC_PACKETS, "packets", "packets", true) \
	X(RR_FABRIC_RETRANSMISSIONS, "retransmissions", "resent", true) \
	X(RR_FABRIC_PSN_GAPS, "psn_gaps", "PSN gaps", true) \
	X(RR_FABRIC_TIMEOUTS, "timeouts", "timeouts", true) \
	X(RR_FABRIC_NAK_PSN_SEQUENCE, "nak_psn_sequence", "NAK PSN sequence error", false) \
	X(RR_FABRIC_NAK_INVALID_REQUEST, "nak_invalid_request", "NAK invalid request", false) \
	X(RR_FABRIC_NAK_REMOTE_ACCESS, "nak_remote_access", "NAK remote access error", false) \
	X(RR_FABRIC_NAK_REMOTE_OPERATIONAL, "nak_remote_operational", \
	  "NAK remote operational error", false) \
	X(RR_FABRIC_NAK_OTHER, "nak_other", "NAK of another code", false) \
	X(RR_FABRIC_RNR_NAKS, "rnr_naks", "RNR NAK", false) \
	X(RR_FABRIC_ECN_CE, "ecn_ce", "ECN CE", true) \
	X(RR_FABRIC_FECN, "fecn", "FECN", true) \
	X(RR_FABRIC_BECN, "becn", "BECN", false) \
	X(RR_FABRIC_CNPS, "cnps", "CNP", false)

enum rr_fabric_counter { RR_FABRIC_LIST(RR_X_ENUM_SEQ) RR_FABRIC_COUNT };
struct rr_fabric_counter_info {
	const char *json_key, *text;
};
RR_API const struct rr_fabric_counter_info *rr_fabric_counter_info(unsigned id);
/* Whether the stream's own sender's packets show counter id (else the
 * other side's: its answers and notifications). */
static inline bool rr_fabric_from_sender(unsigned id)
{
#define RR_X_FABRIC_FROM_SENDER(sym, key, text, mine) case sym: return mine;
	switch (id) { RR_FABRIC_LIST(RR_X_FABRIC_FROM_SENDER) default: return false; }
#undef RR_X_FABRIC_FROM_SENDER
}

/* The frames of the first and last of some events (1-based, in the order
 * fed, as rr_frame_report's frame; 0 where there was none). */
struct rr_frame_span {
	uint64_t first, last;
};

struct rr_conn_stats {
	/* by direction and proc; 32 bits keep a connection small */
	uint32_t messages[RR_DIR_UNKNOWN + 1][RR_RDMA_PROCS];
	uint32_t grant, grant_min, grant_max;     /* forward credits */
	uint32_t in_flight, in_flight_max;
	/* RFC 8166 §3.3.1: the credits the requester's last call asked for;
	 * the time its calls in flight stood at the grant (one granted at
	 * least, a reply seen); the calls that waited for a credit: each the
	 * first forward call after a reply freed one from a full grant */
	uint32_t requested;
	uint64_t at_grant_ns, credit_waits;
	/* RFC 8166 §3.3.2, §3.5.3: [0] forward calls sent as Long Calls
	 * (their Position-Zero Read chunk's bytes), [1] replies sent through
	 * a reply chunk (the bytes written to a call with no write chunk),
	 * larger than the negotiated inline threshold (counted where the
	 * setup was captured); and the largest: the threshold that would
	 * have carried them inline */
	uint64_t past_inline[2];
	uint32_t past_inline_max[2];
	uint32_t bc_grant, bc_in_flight;
	uint64_t calls, replies, unmatched;
	uint64_t bytes_send, bytes_read, bytes_write;
	uint64_t chunks[RR_KIND_COUNT];
	uint64_t findings;
	/* IB/RoCE request packets seen again (RR_EV_RETRANSMISSION) */
	uint64_t retransmissions;
	/* by the side whose stream they concern: [0] the requester's
	 * (calls, RDMA Read Requests), [1] the responder's */
	uint64_t fabric[2][RR_FABRIC_COUNT];
	/* the wait the last RNR NAK each side received asked for, in
	 * microseconds (its AETH timer code read by IBA vol. 1's table) */
	uint32_t rnr_timer_us_last[2];
	/* where the diagnosis' events lie: request packets resent or missed
	 * (RR_FABRIC_RETRANSMISSIONS, RR_FABRIC_PSN_GAPS, either stream),
	 * calls that waited for a credit, messages past an inline threshold */
	struct rr_frame_span lost_at, waited_at, past_inline_at;
};

/* Has the connection carried backward traffic (RFC 8167)?  Without it
 * there is no backward credit grant to report. */
static inline bool rr_conn_has_backchannel(const struct rr_conn_stats *s)
{
	for (unsigned p = 0; p < RR_RDMA_PROCS; p++)
		if (s->messages[RR_DIR_BWD_CALL][p] || s->messages[RR_DIR_BWD_REPLY][p])
			return true;
	return false;
}

#define RR_NFS_ERROR_ROWS 256

/* Forward RPCs by their requester (an NFS client): its address, as
 * rr_conn_info's requester_addr of its connections, added up over them. */
#define RR_CLIENT_ROWS 64
struct rr_client_stats {
	uint8_t transport;   /* enum rr_transport */
	uint8_t addr[16];
	uint64_t calls;      /* forward calls it sent */
	uint64_t replies;    /* of those, answered */
	/* answered calls whose reply failed: an RPC status other than
	 * SUCCESS (RFC 5531 §9), or an NFS status other than OK */
	uint64_t errors;
	/* what its answered RPCs moved: both SENDs; by RDMA Read of their
	 * read chunks (the data it wrote); by RDMA Write into their write
	 * and reply chunks (the data it read) */
	uint64_t bytes_send, bytes_read, bytes_write;
	struct rr_latency latency;
};

/* Answered NFS calls by the file handle they name first (rr_nfs_target),
 * for the busiest and the slowest files.  The table keeps RR_FILE_ROWS
 * handles; a new one past them takes the place of the least called, with
 * that one's count (the Space-Saving algorithm: every handle called more
 * often than the table's least stays, each count is over by at most its
 * overcount). */
#define RR_FILE_ROWS 256
struct rr_file_stats {
	uint32_t fh_hash;    /* as Wireshark's nfs.fh.hash */
	uint64_t calls;      /* counted, overcount of them inherited */
	uint64_t overcount;
	/* its own calls' latency (calls - overcount of them) */
	uint64_t latency_sum_ns, latency_max_ns;
	/* READ's and COMMIT's bytes asked, WRITE's written */
	uint64_t read_bytes, write_bytes;
};

/* A forward call and its sends: one, or more where it was sent again on
 * a new connection after its send on the one before went unanswered (a
 * client's resend after a reconnect, RFC 5531 §9: the same xid). */
struct rr_call_sends {
	uint32_t xid;
	uint32_t conn;       /* id of the connection of its last send */
	bool named;          /* prog, vers, proc known */
	bool fh_known;       /* fh_hash known (rr_nfs_target) */
	uint32_t prog, vers, proc;
	uint32_t fh_hash;
	uint32_t sends;      /* the connections it was sent on */
	/* retried_call: the status of the reply it had before it was sent
	 * again (enum rr_reply_status), the last */
	uint8_t status;
	/* its first send, and when it was seen stuck or answered */
	uint64_t first_ns, last_ns;
	struct rr_frame_span frames;   /* its first send; its last, or its reply */
};

struct rr_stats {
	struct rr_conn_stats total;
	uint64_t frames, frames_truncated, frames_malformed, frames_dropped;
	uint64_t connections, connections_evicted, calls_evicted;
	uint64_t reassembly_dropped;
	/* RPC messages rebuilt from chunk data, and those that could not be
	 * (a piece missing from the capture, no slot free, too large, or a
	 * write chunk whose place in the reply only its program knows) */
	uint64_t messages_rebuilt, rebuild_incomplete;
	uint64_t tcp_resyncs;       /* iWARP stream gaps that lost FPDUs */
	/* connections carrying calls between two ends that an earlier one
	 * joined (rr_conn_info previous), and forward calls sent again on
	 * such a connection with the xid they had on the earlier one */
	uint64_t reconnects, calls_resent;
	/* forward calls that ended the capture stuck (rr_analyzer_stuck_calls'
	 * rule), and those answered only after being sent again on a new
	 * connection, their send before unanswered (late); of each, the one
	 * sent on the most connections */
	uint64_t calls_stuck, calls_late;
	struct rr_call_sends stuck_call, late_call;
	/* calls sent again on a new connection though their send before was
	 * answered: the requester did not take the reply; the first kept */
	uint64_t calls_retried;
	struct rr_call_sends retried_call;
	/* TCP RSTs of iWARP connections or from or to the iWARP port (a
	 * connection refused) */
	uint64_t tcp_resets;
	/* TCP connections refused on other ports: a RST answering a SYN
	 * (sequence number zero, RFC 9293 §3.10.7.1) from a port that is not
	 * the iWARP port, as an iWARP mount to a port nothing listens on
	 * gets; the last one's ports (responder, requester) */
	uint64_t tcp_refused_other;
	uint16_t tcp_refused_port, tcp_refused_from_port;
	uint8_t tcp_refused_addr[16];    /* the refusing host */
	/* IB CM REJ messages by reason (IBA vol. 1 table 112), reasons past
	 * the table's last under 0 */
	uint64_t cm_rejects[RR_CM_REJ_REASONS];
	/* IB/RoCE request packets out of sequence: lost before the capture
	 * saw them (a gap; replies lost make credits in flight unknown), or
	 * retransmitted (ignored, as the receiver ignores them) */
	uint64_t psn_gaps; /* request packets seen again: total.retransmissions */
	uint64_t findings[RR_FINDING_COUNT];
	uint64_t segments_per_chunk[RR_SIZE_BUCKETS];
	uint64_t segment_size[RR_SIZE_BUCKETS];
	uint64_t segments, segment_bytes;   /* the histograms' sums */
	/* RPC calls, both directions, by procedure (rr_analyzer_proc_slot);
	 * what no slot names in the last */
	uint64_t rpc_calls[RR_PROC_SLOTS];
	/* operations of forward NFSv4 COMPOUND calls by number
	 * (rr_nfs4_op_slot); they add up to the calls' numops */
	uint64_t nfs4_ops[RR_NFS4_OP_SLOTS];
	/* answered calls by the reply's status (enum rr_reply_status) */
	uint64_t rpc_replies[RR_PROC_SLOTS][RR_REPLY_STATUS_COUNT];
	/* answered calls' latency (RR_EV_RPC_DONE's latency_ns) */
	struct rr_latency latency[RR_PROC_SLOTS];
	/* NFS replies that failed, by procedure (slot) and status; NFSv4
	 * COMPOUNDs by the operation that failed (op, its number; none
	 * where it was not followed: RR_NFS4_OP_OTHER; RR_NFS_ERROR_NO_OP
	 * where the server refused the COMPOUND before its first).  Statuses are an
	 * enumeration, but slot, op and status together are not bounded by
	 * them: past RR_NFS_ERROR_ROWS pairs, errors add to nfs_errors_other */
	uint32_t nfs_error_rows;
	struct rr_nfs_error_row {
		uint16_t slot;       /* rr_analyzer_proc_slot */
		uint16_t op;         /* NFSv4: operation slot, or
				      * RR_NFS_ERROR_NO_OP; else 0 */
		uint32_t status;
		uint64_t count;
	} nfs_errors[RR_NFS_ERROR_ROWS];
	uint64_t nfs_errors_other;
	/* by requester, in the order first seen; past RR_CLIENT_ROWS, the
	 * rest summed in clients_other (its address unset) */
	uint32_t client_rows;
	struct rr_client_stats clients[RR_CLIENT_ROWS];
	struct rr_client_stats clients_other;
	uint32_t file_rows;
	struct rr_file_stats files[RR_FILE_ROWS];
	/* RDMA connections of other upper layers (rping's, perftest's,
	 * NVMe-oF's): no RPC-over-RDMA message, RFC 8797 private data or
	 * NFS/RDMA port has shown on them.  Counted here alone, in none of
	 * the figures above, and left out by rr_analyzer_conn; one that
	 * shows RPC-over-RDMA later takes its counts back to them.  packets:
	 * IB packets and iWARP DDP segments; bytes: their payload. */
	struct rr_other_upper_layer {
		uint64_t connections, packets, bytes;
	} other_upper_layer;
};

/* Where --stats=json puts a capture-wide counter: the report's top level,
 * or one of its objects ("frames", "evicted", "rebuilt"); none for one
 * that JSON readers find elsewhere (connections: the "connections"
 * array). */
enum rr_stat_json {
	RR_STAT_JSON_NONE,
	RR_STAT_JSON_TOP,
	RR_STAT_JSON_FRAMES,
	RR_STAT_JSON_EVICTED,
	RR_STAT_JSON_REBUILT,  /* null when rebuilding was off (-q) */
};

/* The capture-wide counters of rr_stats, listed once for every renderer:
 * --stats, --stats=json, the exporter and the plugin's statistics walk
 * it in its order.  Every one is a counter (it only grows).
 * X(symbol, member of rr_stats, JSON object (rr_stat_json), JSON key,
 *   Prometheus name, Prometheus "kind" label ("" for none: the samples of
 *   one name make one family, by label value as client_golang orders
 *   them; the first row's help is the family's), title (the plugin's row),
 *   words in --stats' closing lines with the punctuation before them (""
 *   for a counter --stats says elsewhere), help) */
#define RR_STAT_LIST(X) \
	X(RR_STAT_FRAMES, frames, RR_STAT_JSON_FRAMES, "total", \
	  "rpcrdma_frames_total", "", "frames", "frames", \
	  "frames read from the source") \
	X(RR_STAT_FRAMES_TRUNCATED, frames_truncated, RR_STAT_JSON_FRAMES, "truncated", \
	  "rpcrdma_frames_truncated_total", "", "frames truncated", ": truncated", \
	  "frames cut short by the capture") \
	X(RR_STAT_FRAMES_MALFORMED, frames_malformed, RR_STAT_JSON_FRAMES, "malformed", \
	  "rpcrdma_frames_malformed_total", "", "frames malformed", ", malformed", \
	  "frames that contradict their protocol") \
	X(RR_STAT_FRAMES_DROPPED, frames_dropped, RR_STAT_JSON_FRAMES, "dropped", \
	  "rpcrdma_frames_dropped_total", "", "frames dropped", ", dropped", \
	  "frames the capture source lost (kernel or ring buffer)") \
	X(RR_STAT_TCP_RESETS, tcp_resets, RR_STAT_JSON_TOP, "tcp_resets", \
	  "rpcrdma_tcp_resets_total", "", "TCP resets (iWARP)", "", \
	  "TCP RSTs of iWARP connections or to or from the iWARP port (refused)") \
	X(RR_STAT_TCP_REFUSED_OTHER, tcp_refused_other, RR_STAT_JSON_TOP, "tcp_refused_other", \
	  "rpcrdma_tcp_refused_other_total", "", "TCP connections refused on other ports", "", \
	  "TCP connections refused (a RST answering a SYN) on ports other than the iWARP port: an iWARP mount to another port?") \
	X(RR_STAT_RECONNECTS, reconnects, RR_STAT_JSON_TOP, "reconnects", \
	  "rpcrdma_reconnects_total", "", "reconnects", "", \
	  "connections with calls that replaced a closed one between the same two ends") \
	X(RR_STAT_CALLS_RESENT, calls_resent, RR_STAT_JSON_TOP, "calls_resent", \
	  "rpcrdma_calls_resent_total", "", "calls resent after a reconnect", "", \
	  "forward calls sent again after a reconnect, with the same xid") \
	X(RR_STAT_CONNECTIONS, connections, RR_STAT_JSON_NONE, "connections", \
	  "rpcrdma_connections_total", "", "connections", "", \
	  "connections followed") \
	X(RR_STAT_CONNECTIONS_EVICTED, connections_evicted, RR_STAT_JSON_EVICTED, "connections", \
	  "rpcrdma_connections_evicted_total", "", "connections evicted", \
	  "; connections evicted", "connections forgotten to make room") \
	X(RR_STAT_CALLS_EVICTED, calls_evicted, RR_STAT_JSON_EVICTED, "calls", \
	  "rpcrdma_calls_evicted_total", "", "calls evicted", ", calls evicted", \
	  "outstanding calls forgotten to make room") \
	X(RR_STAT_REASSEMBLY_DROPPED, reassembly_dropped, RR_STAT_JSON_EVICTED, "reassembly", \
	  "rpcrdma_reassembly_dropped_total", "", "reassembly slots exhausted", \
	  "; reassembly slots exhausted", "messages not reassembled for want of a slot") \
	X(RR_STAT_IWARP_STREAM_GAPS, tcp_resyncs, RR_STAT_JSON_FRAMES, "iwarp_stream_gaps", \
	  "rpcrdma_capture_gaps_total", "iwarp_stream", "iWARP stream gaps", \
	  ", iWARP stream gaps", "places where the capture lost frames of a connection") \
	X(RR_STAT_IB_PSN_GAPS, psn_gaps, RR_STAT_JSON_FRAMES, "ib_psn_gaps", \
	  "rpcrdma_capture_gaps_total", "ib_psn", "IB PSN gaps", "; IB PSN gaps", \
	  "places where the capture lost frames of a connection") \
	X(RR_STAT_IB_RETRANSMISSIONS, total.retransmissions, RR_STAT_JSON_FRAMES, \
	  "ib_retransmissions", "rpcrdma_ib_retransmissions_total", "", \
	  "IB retransmissions", ", retransmissions", "IB/RoCE request packets seen again") \
	X(RR_STAT_MESSAGES_REBUILT, messages_rebuilt, RR_STAT_JSON_REBUILT, "messages", \
	  "rpcrdma_messages_rebuilt_total", "", "RPC messages rebuilt", \
	  "\nRPC messages rebuilt from chunks", "RPC messages rebuilt from chunk data") \
	X(RR_STAT_MESSAGES_NOT_REBUILT, rebuild_incomplete, RR_STAT_JSON_REBUILT, "incomplete", \
	  "rpcrdma_messages_not_rebuilt_total", "", "RPC messages not rebuilt", \
	  ", not rebuilt", "RPC messages with chunk data that could not be rebuilt")

#define RR_X_STAT_ENUM(sym, member, json, key, prom, label, title, text, help) sym,
enum rr_stat_id { RR_STAT_LIST(RR_X_STAT_ENUM) RR_STAT_COUNT };

struct rr_stat_info {
	size_t offset;          /* of its uint64_t in struct rr_stats */
	uint8_t json;           /* enum rr_stat_json */
	const char *json_key, *prom_name, *prom_label, *title, *text, *help;
};
RR_API const struct rr_stat_info *rr_stat_info(unsigned id);
static inline uint64_t rr_stat_value(const struct rr_stats *st, unsigned id)
{
	return *(const uint64_t *)(const void *)((const char *)st + rr_stat_info(id)->offset);
}

struct rr_conn_info {
	uint64_t first_ns, last_ns;
	uint8_t transport;   /* enum rr_transport */
	bool inferred;       /* sides linked from traffic, not from CM/MPA */
	bool roles_inferred; /* requester guessed from the first call */
	uint8_t addr_len;
	uint8_t requester_addr[16], responder_addr[16];
	uint32_t requester_qpn, responder_qpn;   /* or TCP ports (iWARP) */
	/* the connection it replaced (a reconnect): the last one before it
	 * between the same requester and responder addresses, closed by its
	 * first call and not replaced already; its id, else RR_CONN_NONE */
	uint32_t previous;
	/* its number in the run: the connections seen before it, never
	 * reused, where an index (rr_analyzer_conn) is reused once the
	 * connection it held was evicted; what front ends show */
	uint32_t id;
	struct rr_cm_private priv[2];
	bool have_private[2];                    /* [0] requester [1] responder */
	uint8_t mpa_revision;
	bool closed;
	/* both sides' setup captured whole (RR_EV_NEGOTIATED): thresholds
	 * and remote invalidation come from their RFC 8797 private data, or
	 * are RFC 8166 §3.3.3's defaults where it was absent.  False: the
	 * capture missed or cut the setup, and they are unknown (thresholds
	 * then holds the defaults, which front ends do not show as fact) */
	bool negotiated;
	bool grant_seen;     /* a reply carried the responder's forward grant */
	struct rr_inline_thresholds thresholds;
	uint16_t ird, ord;
	bool reset;          /* iWARP: closed by a TCP RST */
	/* RR_HEARD_REQUESTER | RR_HEARD_RESPONDER: the capture holds
	 * something that side sent (its CM or MPA message, an RPC-over-RDMA
	 * message); a capture of one direction never hears the other, whose
	 * calls or replies, credits and calls in flight stay unknown */
	uint8_t heard;
	struct rr_conn_stats st;
};

#define RR_HEARD_REQUESTER 1u
#define RR_HEARD_RESPONDER 2u

/* Seen in one direction only: one side heard, the other never. */
static inline bool rr_conn_one_way(const struct rr_conn_info *c)
{
	return c->heard == RR_HEARD_REQUESTER || c->heard == RR_HEARD_RESPONDER;
}

/* Whether fabric counter id of side's stream is known: on a connection
 * seen one way, what the unheard side sent is not (its packets, or its
 * answers to the other side's). */
static inline bool rr_conn_fabric_known(const struct rr_conn_info *c, unsigned side,
					unsigned id)
{
	unsigned sender = rr_fabric_from_sender(id) ? side : 1 - side;
	return !rr_conn_one_way(c) || (c->heard & (1u << sender));
}

/* Whether st.grant is known: a reply carried it, or the whole setup was
 * seen, after which RFC 8166 §3.3.3's initial grant of one holds.  A
 * capture that starts mid-connection, or holds the requester's side
 * alone, knows no grant until a reply. */
static inline bool rr_conn_grant_known(const struct rr_conn_info *c)
{
	return c->negotiated || c->grant_seen;
}

/* The time from a connection's first frame to its last. */
static inline uint64_t rr_conn_seen_ns(const struct rr_conn_info *c)
{
	return c->last_ns > c->first_ns ? c->last_ns - c->first_ns : 0;
}

enum rr_event_kind {
	RR_EV_MESSAGE,       /* an RPC-over-RDMA message (whole, reassembled) */
	RR_EV_FINDING,
	RR_EV_CONN_OPEN,
	RR_EV_CONN_CLOSE,
	RR_EV_RPC_DONE,      /* a reply matched its call */
	RR_EV_NEGOTIATED,    /* both sides' setup seen: see rr_analyzer_conn */
	RR_EV_RPC_MESSAGE,   /* an RPC message rebuilt from chunk data */
	RR_EV_CHUNK_DATA,    /* an RDMA Read or Write packet serving a chunk
			      * (with RR_CFG_CHUNK_EVENTS) */
	RR_EV_RETRANSMISSION, /* an IB/RoCE request packet with a PSN already
			       * seen: the receiver drops it as a duplicate */
	RR_EV_SETUP,         /* a connection's setup or teardown: an IB CM
			      * MAD (REQ, REP, RTU, REJ, DREQ, DREP) or an
			      * MPA Request or Reply */
};

/* What an RDMA packet serving a chunk does (RR_EV_CHUNK_DATA). */
#define RR_ACCESS_LIST(X) \
	X(RR_ACCESS_READ_REQUEST, 0, "read_request") \
	X(RR_ACCESS_READ_RESPONSE, 1, "read_response") \
	X(RR_ACCESS_WRITE, 2, "write")

enum rr_access { RR_ACCESS_LIST(RR_X_ENUM) };
RR_API const char *rr_access_str(unsigned v);

/* RR_EV_MESSAGE: an RPC-over-RDMA message, whole or reassembled. */
struct rr_ev_message {
	/* the completion of the RPC it answered and the RPC message rebuilt
	 * for it (RR_EV_RPC_DONE, RR_EV_RPC_MESSAGE of the same xid, raised
	 * while it was taken), NULL for none */
	const struct rr_event *done, *rebuilt;
	/* the connection's forward credit grant and calls in flight when it
	 * arrived (RFC 8166 §3.3.1) */
	uint32_t credits_granted, calls_in_flight;
	/* the header and RPC decoded from the whole message; rpc NULL when
	 * it carries none (NOMSG, DONE...) */
	const struct rr_rpcrdma *hdr;
	const struct rr_rpc *rpc;
	uint32_t msg_len;
	/* the first data_len bytes of the SEND (a long one is kept in part),
	 * where hdr's and rpc's offsets point: in the caller's frame when the
	 * message lies whole there (frame_at), else kept in the report while
	 * its report_bytes last, else NULL */
	const uint8_t *data;
	uint32_t data_len;
	/* its offset in the frame plus one when it lies there whole, 0 when
	 * it was reassembled */
	uint32_t frame_at;
	/* the STag a Send With Invalidate invalidated (IB IETH, RFC 5040
	 * §6.6 Invalidate STag), 0 for a plain Send */
	uint32_t inv_stag;
	/* a forward call sent again after a reconnect: the frame that
	 * carried its xid on the previous connection, else 0 */
	uint64_t resent_of;
	/* an NFSv4 COMPOUND call: its operations (RFC 8881 §16.2), else NULL */
	const struct rr_nfs4_compound *nfs4;
};

/* RR_EV_RPC_MESSAGE: an RPC message rebuilt from chunk data. */
struct rr_ev_rpc_message {
	uint32_t xid;        /* the transport xid */
	uint8_t source;      /* the chunk it was rebuilt from: enum rr_chunk_kind */
	/* the call's program, version and procedure (a reply names none) */
	uint32_t prog, vers, proc;
	/* a call: when its SEND arrived, where its latency begins (rebuilt
	 * later, once its read chunks were read); a reply: 0 */
	uint64_t call_ts_ns;
	const struct rr_rpc *rpc;
	/* a Long Call's NFSv4 COMPOUND: its operations, read from the whole
	 * message; else NULL */
	const struct rr_nfs4_compound *nfs4;
	/* the whole RPC message, kept in the report while its report_bytes
	 * last, else NULL (data_len is its length all the same) */
	const uint8_t *data;
	uint32_t data_len;
};

/* RR_EV_RPC_DONE: a reply matched its call. */
struct rr_ev_rpc_done {
	uint32_t xid;
	/* prog, vers, proc: the call's, when its RPC header was seen
	 * (rpc_known); a capture that cut the call, or a Long Call whose
	 * message was not rebuilt, leaves them unknown (zero) */
	bool rpc_known;
	uint32_t prog, vers, proc;
	uint64_t latency_ns;
	uint64_t call_frame;  /* the frame that ended the call */
	/* enum rr_reply_status: the reply's accept_stat or reject_stat
	 * (GARBAGE_ARGS, PROG_MISMATCH ...), RR_REPLY_UNSEEN where its RPC
	 * header lay in no bytes seen yet (a reply chunk not rebuilt) */
	uint8_t reply_status;
	/* bytes the RPC moved up to its reply: both SENDs, RDMA Reads of its
	 * read chunks, RDMA Writes into its write or reply chunk (a
	 * responder-provided read chunk is read after the reply and is
	 * counted on the connection only) */
	uint32_t bytes_inline;
	uint64_t bytes_read, bytes_write;
	/* the call was an NFSv4 COMPOUND: its operations, else NULL */
	const struct rr_nfs4_compound *nfs4;
	/* an NFS reply's status, when its results were seen (inline, or in
	 * the reply rebuilt from its reply chunk): nfs_known */
	bool nfs_known;
	struct rr_nfs_reply nfs;
	/* what the NFS call acted on, as far as its arguments were seen */
	struct rr_nfs_target target;
};

/* RR_EV_CHUNK_DATA: an RDMA Read or Write packet serving a chunk. */
struct rr_ev_chunk_data {
	uint32_t xid;        /* of the call that advertised the chunk */
	uint8_t source;      /* enum rr_chunk_kind */
	uint8_t access;      /* enum rr_access */
	uint32_t handle;     /* the segment's */
	uint64_t seg_offset; /* where in the segment the packet's data goes */
	uint32_t data_len;   /* what it moves; a Read Request: asks for */
};

/* RR_EV_RETRANSMISSION: an IB/RoCE request packet with a PSN seen before. */
struct rr_ev_retransmission {
	uint8_t opcode;      /* its BTH opcode */
	uint32_t psn;
	/* the frame that carried that PSN first (0 when too far back to be
	 * remembered) */
	uint64_t original_frame;
	/* a SEND's first packet sent again: the RPC-over-RDMA header and RPC
	 * header it carries, as the frame's decode read them (offsets from
	 * the message's start, as a message event's), NULL when it starts no
	 * message or they could not be read; the event's dir is then the
	 * message's.  Shown, never counted: the receiver drops the packet. */
	const struct rr_rpcrdma *hdr;
	const struct rr_rpc *rpc;
};

/* RR_EV_FINDING */
struct rr_ev_finding {
	uint16_t id;         /* enum rr_finding_id */
	const char *detail;  /* static or the report's; NULL for none */
};

/* RR_EV_SETUP: the unit as decoded (its CM MAD with the REJ reason, or its
 * MPA frame; the RFC 8797 private data in cm_private, whose offsets are
 * the frame's), kept in the report. */
struct rr_ev_setup {
	const struct rr_frame *unit;
};

/*
 * One thing a frame made happen: what every kind has, then the payload of
 * its kind (the union member named after it; RR_EV_CONN_OPEN,
 * RR_EV_CONN_CLOSE and RR_EV_NEGOTIATED have none beyond their
 * connection).  Pointers stay valid as long as the report holding the
 * event (until the next rr_analyzer_frame or rr_analyzer_finish).
 */
struct rr_event {
	enum rr_event_kind kind;
	uint64_t frame;      /* 1-based frame number of the frame that ended it */
	uint64_t ts_ns;
	uint32_t conn;       /* index for rr_analyzer_conn() */
	uint32_t conn_id;    /* that connection's id, RR_CONN_NONE for none */
	/* that connection as it stood when the event was raised (its ends,
	 * roles, private data, thresholds, state and counters), kept in the
	 * report: an evicted connection's too; NULL for none */
	const struct rr_conn_info *connection;
	uint8_t dir;         /* enum rr_dir: of the message, or of the call */
	/* RR_EV_FINDING, RR_EV_RPC_DONE, RR_EV_RPC_MESSAGE raised while the
	 * analyzer took a message: that message's event, else NULL */
	const struct rr_event *message;
	union {
		struct rr_ev_message msg;
		struct rr_ev_rpc_message rebuilt;
		struct rr_ev_rpc_done done;
		struct rr_ev_chunk_data chunk;
		struct rr_ev_retransmission retransmission;
		struct rr_ev_finding finding;
		struct rr_ev_setup setup;
	};
};

struct rr_analyzer_limits {
	uint32_t max_connections;   /* 4096 */
	uint32_t max_calls;         /* outstanding RPCs, all connections: 65536 */
	uint32_t max_segments;      /* chunk segments remembered: 262144 */
	uint32_t max_message;       /* largest SEND reassembled: 262144 */
	/* bytes kept of a SEND of several packets: 4096, its headers (a
	 * front end that shows whole RPC messages asks for more) */
	uint32_t send_keep;
	uint32_t reassembly_slots;  /* messages reassembled at once: 256 */
	uint32_t tcp_streams;       /* iWARP directions reassembled at once: 64 */
	uint32_t call_timeout_ms;   /* unanswered calls age out: 60000 */
	/* RPC messages rebuilt from chunk data at once (0 turns rebuilding
	 * off): 256, at most 2046; the bytes they share, in 4 KiB pages: 8 MiB; the
	 * largest one: 1 MiB */
	uint32_t rebuild_slots;
	uint32_t rebuild_bytes;
	uint32_t max_rebuild;
	/* bytes of reassembled and rebuilt messages one report keeps for
	 * the front end that shows them (rr_event data): 0, none */
	uint32_t report_bytes;
};

RR_API void rr_analyzer_limits_init(struct rr_analyzer_limits *lim);

struct rr_analyzer;

/* NULL when the memory for the limits cannot be had. */
RR_API struct rr_analyzer *rr_analyzer_new(const struct rr_config *cfg,
					   const struct rr_analyzer_limits *lim);
RR_API void rr_analyzer_free(struct rr_analyzer *a);

/* What a frame's units were, so a caller need not decode it again. */
struct rr_frame_summary {
	uint32_t cm, mpa;              /* CM MADs, MPA Req/Rep */
	uint32_t icrc_good, icrc_bad;
	uint32_t rpcrdma;              /* units of a known RPC-over-RDMA
					* connection: SENDs, chunk RDMA, ACKs */
	/* the connection of the frame's CM message or MPA Request/Reply
	 * (rr_analyzer_conn), RR_CONN_NONE when it belongs to none; its id */
	uint32_t conn, conn_id;
};
#define RR_CONN_NONE UINT32_MAX

/* Events and messages one report lists at most: a TCP segment of an
 * iWARP stream can end hundreds of small messages. */
#define RR_REPORT_EVENTS 1024
#define RR_REPORT_MESSAGES 256
/* connection setups and teardowns one report lists at most: a frame
 * holds one CM MAD, a TCP segment an MPA exchange's message */
#define RR_REPORT_SETUPS 8
/* units one report lists at most (RR_CFG_LIST_UNITS): a TCP segment of an
 * iWARP stream can hold hundreds of small FPDUs */
#define RR_REPORT_UNITS 256

/*
 * What the analyzer made of one frame, read-only, valid until the next
 * rr_analyzer_frame or rr_analyzer_finish.  Front ends render it.
 */
struct rr_frame_report {
	uint64_t frame;      /* 1-based, in the order fed */
	uint64_t ts_ns;
	/* the frame as decoded: its last unit, or for iWARP streamed through
	 * reassembly, the TCP segment; NULL in a report of rr_analyzer_finish */
	const struct rr_frame *decoded;
	struct rr_frame_summary units;
	/* with RR_CFG_LIST_UNITS, every unit of the frame in order, as the
	 * frame alone holds it: an iWARP segment's own FPDUs too, where the
	 * analysis takes them from the reassembled stream; units past
	 * RR_REPORT_UNITS are counted in units_unlisted */
	const struct rr_frame *unit_list;
	uint32_t nunit_list, units_unlisted;
	/* in the order they happened: messages, each followed by the
	 * completion, rebuilt message and findings it raised (their
	 * `message`), chunk data, connection setups and teardowns (before
	 * what they caused), connections opened and closed, findings of the
	 * frame itself (`message` NULL) */
	const struct rr_event *events;
	uint32_t nevents;
	/* events past RR_REPORT_EVENTS (or messages past
	 * RR_REPORT_MESSAGES, setups past RR_REPORT_SETUPS) not listed: the
	 * statistics count them */
	uint32_t unreported;
	/* messages whose bytes report_bytes could not keep (data NULL) */
	uint32_t bytes_unkept;
};

/* Feed the next frame; ts in nanoseconds. */
RR_API const struct rr_frame_report *
rr_analyzer_frame(struct rr_analyzer *a, uint32_t link, uint64_t ts_ns,
		  const uint8_t *data, uint32_t caplen, uint32_t wirelen);
/* The capture source lost frames (live capture drops). */
RR_API void rr_analyzer_dropped(struct rr_analyzer *a, uint64_t n);
/* End of input, once: ages every call out and raises the end-of-capture
 * findings, a report at a time (each event names its frame); call until
 * it returns NULL. */
RR_API const struct rr_frame_report *rr_analyzer_finish(struct rr_analyzer *a);

RR_API const struct rr_stats *rr_analyzer_stats(const struct rr_analyzer *a);
/* The time now, for a live front end while no frame comes (a call
 * outstanding grows old without one); the last frame's time serves
 * where this is earlier. */
RR_API void rr_analyzer_clock(struct rr_analyzer *a, uint64_t now_ns);
/* The forward calls outstanding now that are stuck: sent again on a new
 * connection after their send before went unanswered, a second ago or
 * more, or sent once and unanswered far past their procedure's latency
 * (10 s and ten times its 99th percentile); their number, and in *worst
 * the one sent on the most connections, then the oldest (its last_ns:
 * now).  The same rule counts rr_stats calls_stuck as calls end. */
RR_API unsigned rr_analyzer_stuck_calls(const struct rr_analyzer *a,
					struct rr_call_sends *worst);
/* A file's mean latency over its own calls (0 for none). */
RR_API uint64_t rr_file_latency_mean_ns(const struct rr_file_stats *f);
/* The n busiest files of st (most calls first), or the n slowest (highest
 * mean latency first), into out; how many there were.  Rows whose every
 * call was inherited are left out. */
RR_API unsigned rr_stats_busiest_files(const struct rr_stats *st,
				       const struct rr_file_stats **out, unsigned n);
RR_API unsigned rr_stats_slowest_files(const struct rr_stats *st,
				       const struct rr_file_stats **out, unsigned n);
/* The connections, by index below rr_analyzer_conn_count: those known to
 * carry RPC-over-RDMA; NULL for a free slot and for a connection of
 * another upper layer (counted in rr_stats' other_upper_layer). */
RR_API uint32_t rr_analyzer_conn_count(const struct rr_analyzer *a);
RR_API const struct rr_conn_info *rr_analyzer_conn(const struct rr_analyzer *a,
						   uint32_t index);
/* The limits it runs with (after rr_analyzer_new's adjustments). */
RR_API const struct rr_analyzer_limits *
rr_analyzer_limits(const struct rr_analyzer *a);
/* A connection end's address as text: IPv4, IPv6 or GID, or "lid 0x..."
 * for a local IB packet; buf needs 46 bytes.  Returns buf. */
RR_API const char *rr_conn_addr_str(const struct rr_conn_info *c,
				    bool responder, char *buf, size_t size);
/* The same of an address kept as rr_conn_info keeps them (16 bytes) on
 * transport (enum rr_transport): a client's (rr_client_stats). */
RR_API const char *rr_addr_str(uint8_t transport, const uint8_t addr[16], char *buf,
			       size_t size);
/* Bytes the analyzer allocated for its limits. */
RR_API size_t rr_analyzer_memory(const struct rr_analyzer *a);
/* Slot in rr_stats rpc_calls / latency for a procedure. */
RR_API unsigned rr_analyzer_proc_slot(uint32_t prog, uint32_t vers,
				      uint32_t proc);
/* What a slot counts: program name ("NFS", "NFS4_CB", "other") and
 * number (0 for other), version (0 for other) and procedure ("READ",
 * "COMPOUND", "other"). */
struct rr_proc_slot_info {
	const char *program;
	uint32_t version;
	const char *procedure;
	uint32_t prog;
};
RR_API struct rr_proc_slot_info rr_analyzer_proc_slot_info(unsigned slot);
/* An rr_stats nfs_errors row named: its status as its program's list
 * names it (NULL when none does), and the operation an NFSv4 COMPOUND
 * failed at (NULL for any other procedure's row, and for a COMPOUND
 * refused before its first operation). */
RR_API const char *rr_nfs_error_status_str(const struct rr_nfs_error_row *r);
RR_API const char *rr_nfs_error_op_str(const struct rr_nfs_error_row *r);

#ifdef __cplusplus
}
#endif
#endif
