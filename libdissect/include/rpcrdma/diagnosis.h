/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The diagnosis: named problems drawn from the analyzer's counters when a
 * report asks for them (never per frame), each with its evidence, graded
 * by the harm it does, worst first.  One list, as the findings are: a
 * finding is one frame that breaks a rule, a problem is what the
 * counters of a whole capture or run say went wrong.
 */
#ifndef RPCRDMA_DIAGNOSIS_H
#define RPCRDMA_DIAGNOSIS_H

#include <stdint.h>

#include "rpcrdma/analyzer.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * X(symbol, id, severity, reference, title, advice).  docs/diagnosis.md
 * says how each is decided.
 */
#define RR_DIAGNOSIS_LIST(X) \
	X(RR_DIAG_FAILED_ON_NAK, "failed_on_nak", RR_SEV_ERROR, "IBA vol. 1 §9.7.5.2", \
	  "connections failed on a NAK of an error (remote access, remote " \
	  "operational, invalid request)", \
	  "Read the rpcrdma.nak_* findings: each names the request refused, " \
	  "and an RDMA access's STag and chunk") \
	X(RR_DIAG_ZERO_GRANT, "zero_grant", RR_SEV_ERROR, "RFC 8166 §3.3.1", \
	  "a responder granted zero credits: its requester may send no call", \
	  "Fix the responder's grant: at least one credit in every reply") \
	X(RR_DIAG_PROTOCOL_ERRORS, "protocol_errors", RR_SEV_ERROR, "docs/findings.md", \
	  "messages that break an RFC's MUST (error findings)", \
	  "rpcrdma-dump --findings -v lists each with its section and what to do") \
	X(RR_DIAG_CALLS_STUCK, "calls_stuck", RR_SEV_ERROR, "RFC 5531 §5, §9", \
	  "calls never answered: sent again on new connections, or far past " \
	  "their procedure's latency (what the client logs as `server not " \
	  "responding`)", \
	  "Look at the server when the evidence's call was first sent: an " \
	  "nfsd stuck on that file (its fh is Wireshark's nfs.fh.hash), a disk " \
	  "that does not answer, or replies lost on the link (packet_loss)") \
	X(RR_DIAG_PACKET_LOSS, "packet_loss", RR_SEV_WARN, "IBA vol. 1 §9.7.5.1, RFC 5681 §3.2", \
	  "packets lost and sent again (RC's on IB and RoCE, TCP's on iWARP)", \
	  "Check the link (cables, optics, port error counters); on RoCE, give " \
	  "the RDMA traffic a lossless class (PFC) or ECN") \
	X(RR_DIAG_CREDIT_BOUND, "credit_bound", RR_SEV_WARN, "RFC 8166 §3.3.1", \
	  "calls held back by the responder's grant: the requester asked for " \
	  "more credits than it got and waited for each one freed", \
	  "Raise the responder's credit limit (Linux's nfsd: " \
	  "/proc/sys/sunrpc/svc_rdma/max_requests) toward what the requester " \
	  "asks (Linux's client: /proc/sys/sunrpc/rdma_slot_table_entries)") \
	X(RR_DIAG_RECEIVER_NOT_READY, "receiver_not_ready", RR_SEV_WARN, "RFC 8166 §3.3.1", \
	  "SENDs refused with RNR NAKs: a receiver with fewer receives posted " \
	  "than the credits say", \
	  "Compare the calls in flight with the grant in the rpcrdma.rnr_nak " \
	  "findings: within it, the responder posts too few receives; past it, " \
	  "the requester ignores its credits") \
	X(RR_DIAG_RECONNECTS, "reconnects", RR_SEV_NOTE, "RFC 5531 §5, §9", \
	  "connections made again between the same ends, the calls the one " \
	  "before left unanswered sent again on the next", \
	  "See what ended each connection (its CM DREQ or REJ, a TCP RST, " \
	  "the kernel's log): a server restarted, or a connection that fails; " \
	  "where calls were answered late, the server did not answer them on " \
	  "the connection that carried them first; where answered calls were " \
	  "sent again, the client did not take their replies (an error such as " \
	  "GARBAGE_ARGS or SYSTEM_ERR, or a reply it could not read): see why " \
	  "the server answered so") \
	X(RR_DIAG_INLINE_PRESSURE, "inline_pressure", RR_SEV_NOTE, "RFC 8166 §3.3.2, §3.5.3", \
	  "messages past the negotiated inline thresholds: Long Calls and " \
	  "replies through reply chunks, each an RDMA round more", \
	  "Raise the thresholds toward the largest sizes the evidence gives " \
	  "(Linux's client: /proc/sys/sunrpc/rdma_max_inline_write for calls, " \
	  "rdma_max_inline_read for replies; its server: " \
	  "/proc/sys/sunrpc/svc_rdma/max_req_size); data that Kerberos " \
	  "integrity or privacy wraps goes so whatever they are") \
	X(RR_DIAG_CONGESTION, "congestion", RR_SEV_NOTE, "RFC 3168 §5, IBA vol. 1 Annex A17", \
	  "packets marked congested (ECN CE, FECN, BECN) or RoCEv2 CNPs", \
	  "Nothing is lost yet: the fabric slows the senders; look at the " \
	  "switches' queues if latency grows")

#define RR_X_DIAG_ENUM(sym, id, sev, ref, title, advice) sym,
enum rr_diagnosis_id { RR_DIAGNOSIS_LIST(RR_X_DIAG_ENUM) RR_DIAGNOSIS_COUNT };

struct rr_diagnosis_info {
	const char *id;
	uint8_t severity;     /* enum rr_severity */
	const char *reference, *title, *advice;
};
RR_API const struct rr_diagnosis_info *rr_diagnosis_info(unsigned id);

/* One problem found, with its figures: `events` of `of` (packets resent
 * of packets sent, say; of 0 where a count has no whole), on `conns`
 * connections, the worst of them `worst_conn` (its id, RR_CONN_NONE when
 * the problem is no connection's), and the same in words. */
struct rr_diagnosis_item {
	uint16_t id;          /* enum rr_diagnosis_id */
	uint8_t severity;     /* enum rr_severity: the list's, or worse */
	uint32_t conns;
	uint32_t worst_conn;
	uint64_t events, of;
	/* the worst connection's first and last frame of the events, where
	 * they are kept ({0, 0}: the findings name their frames) */
	struct rr_frame_span frames;
	char evidence[200];
};

/* The problems the analyzer's counters show now, worst first (by
 * severity, then by events): at most max of them in out; returns how
 * many there are (more than max when out was too short). */
RR_API unsigned rr_diagnose(const struct rr_analyzer *a,
			    struct rr_diagnosis_item *out, unsigned max);

#ifdef __cplusplus
}
#endif

#endif
