/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The analyzer's part of a frame's tree, every item generated (none lies
 * on the frame's bytes): what libdissect's analyzer said of a message
 * (direction, credits, its call or reply, what it moved, the connection's
 * thresholds), chunk data, RC retransmissions, findings as expert items,
 * connections refused, rebuilt messages, and the diagnosis where its
 * events begin.  packet-rpcrdma.c puts them beside the headers it decodes.
 */
#include <stdarg.h>
#include <stdio.h>

#include <epan/expert.h>
#include <epan/packet.h>
#include <epan/proto.h>

#include <rpcrdma/analyzer.h>
#include <rpcrdma/dissect.h>

#include "analysis-tree.h"
#include "analysis.h"
#include "diagnosis-expert.h"

/* the protocol the items belong to (rr_ws_register_analysis_tree) */
static int proto_rpcrdma = -1;
/* Wireshark 4.0 wants every id at -1 until it assigns one. */
static int hf_analysis = -1, hf_dir = -1, hf_granted = -1, hf_in_flight = -1;
static int hf_inv_stag = -1;
static int hf_reply_in = -1, hf_response_to = -1, hf_time = -1;
static int hf_moved_inline = -1, hf_moved_read = -1, hf_moved_write = -1;
static int hf_thr_call = -1, hf_thr_reply = -1, hf_thr_rinval = -1, hf_thr_unknown = -1;
static int hf_chunk = -1, hf_chunk_xid = -1, hf_chunk_kind = -1;
static int hf_chunk_access = -1, hf_chunk_handle = -1, hf_chunk_seg_offset = -1;
static int hf_chunk_bytes = -1, hf_fragment = -1, hf_rebuilt = -1;
static int hf_rebuilt_source = -1, hf_rebuilt_xid = -1;
static int hf_retransmission_of = -1, hf_retransmission_psn = -1;
static int hf_resent_of = -1, hf_cm_reject_reason = -1;
static gint ett_analysis = -1, ett_chunk_data = -1;
static expert_field ei_findings[RR_FINDING_COUNT];
static expert_field ei_retransmission = EI_INIT;
static value_string cm_reject_reasons[RR_CM_REJ_REASONS + 1];

#define RR_X_VS(sym, val, str) { (val), (str) },
static const value_string kind_names[] = { RR_CHUNK_KIND_LIST(RR_X_VS) { 0, NULL } };
static const value_string access_names[] = { RR_ACCESS_LIST(RR_X_VS) { 0, NULL } };
/* the analyzer's names (rr_dir_str), filled in at registration */
static value_string dir_names[RR_DIR_UNKNOWN + 2];

proto_item *rr_ws_generated(proto_item *it)
{
	proto_item_set_generated(it);
	return it;
}

static void add_thresholds(proto_tree *t, tvbuff_t *tvb, const struct rr_ws_item *m)
{
	const struct rr_ws_conn *c = &m->connection;
	if (!c->negotiated) {
		rr_ws_generated(proto_tree_add_none_format(t, hf_thr_unknown, tvb, 0, 0,
			"Inline thresholds and remote invalidation: unknown (the capture "
			"holds no whole connection setup)"));
		return;
	}
	rr_ws_generated(proto_tree_add_uint(t, hf_thr_call, tvb, 0, 0, c->thresholds.call));
	rr_ws_generated(proto_tree_add_uint(t, hf_thr_reply, tvb, 0, 0, c->thresholds.reply));
	rr_ws_generated(proto_tree_add_boolean(t, hf_thr_rinval, tvb, 0, 0,
					 c->thresholds.remote_invalidation));
}

/* What the analyzer knows of a message: credits, its call or reply, what
 * the RPC moved, the connection's thresholds. */
void rr_ws_add_message_analysis(proto_tree *t, tvbuff_t *tvb, const struct rr_ws_item *m)
{
	rr_ws_generated(proto_tree_add_uint(t, hf_dir, tvb, 0, 0, m->dir));
	if (m->connection.grant_known) /* else unknown: left out */
		rr_ws_generated(proto_tree_add_uint(t, hf_granted, tvb, 0, 0,
					      m->msg.credits_granted));
	rr_ws_generated(proto_tree_add_uint(t, hf_in_flight, tvb, 0, 0, m->msg.calls_in_flight));
	if (m->msg.inv_stag)
		rr_ws_generated(proto_tree_add_uint(t, hf_inv_stag, tvb, 0, 0, m->msg.inv_stag));
	if (m->msg.resent_of)
		rr_ws_generated(proto_tree_add_uint(t, hf_resent_of, tvb, 0, 0,
					      (guint32)m->msg.resent_of));
	bool call = m->dir == RR_DIR_FWD_CALL || m->dir == RR_DIR_BWD_CALL;
	if (m->other_frame)
		rr_ws_generated(proto_tree_add_uint(t, call ? hf_reply_in : hf_response_to,
					      tvb, 0, 0, m->other_frame));
	if (m->completed) {
		nstime_t ns;
		ns.secs = (time_t)(m->latency_ns / 1000000000u);
		ns.nsecs = (int)(m->latency_ns % 1000000000u);
		rr_ws_generated(proto_tree_add_time(t, hf_time, tvb, 0, 0, &ns));
		rr_ws_generated(proto_tree_add_uint64(t, hf_moved_inline, tvb, 0, 0, m->bytes_inline));
		rr_ws_generated(proto_tree_add_uint64(t, hf_moved_read, tvb, 0, 0, m->bytes_read));
		rr_ws_generated(proto_tree_add_uint64(t, hf_moved_write, tvb, 0, 0, m->bytes_write));
	}
	add_thresholds(t, tvb, m);
}

void rr_ws_add_direction(proto_tree *t, tvbuff_t *tvb, const struct rr_ws_item *m)
{
	rr_ws_generated(proto_tree_add_uint(t, hf_dir, tvb, 0, 0, m->dir));
}

void rr_ws_add_fragment_note(proto_tree *t, tvbuff_t *tvb, int off, const char *format, ...)
{
	char text[256];
	va_list ap;
	va_start(ap, format);
	vsnprintf(text, sizeof text, format, ap);
	va_end(ap);
	rr_ws_generated(proto_tree_add_none_format(t, hf_fragment, tvb, off, 0, "%s", text));
}

void rr_ws_add_chunk_data(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
			  const struct rr_ws_item *it)
{
	const struct rr_ev_chunk_data *c = &it->chunk;
	proto_item *ti = rr_ws_generated(proto_tree_add_none_format(tree, hf_chunk, tvb, 0, 0,
		"%s chunk of xid 0x%08x: %s, %u bytes at %" PRIu64 " of segment 0x%08x",
		val_to_str_const(c->source, kind_names, "?"), c->xid,
		val_to_str_const(c->access, access_names, "?"), c->data_len,
		c->seg_offset, c->handle));
	proto_tree *t = proto_item_add_subtree(ti, ett_chunk_data);
	rr_ws_generated(proto_tree_add_uint(t, hf_chunk_xid, tvb, 0, 0, c->xid));
	rr_ws_generated(proto_tree_add_uint(t, hf_chunk_kind, tvb, 0, 0, c->source));
	rr_ws_generated(proto_tree_add_uint(t, hf_chunk_access, tvb, 0, 0, c->access));
	rr_ws_generated(proto_tree_add_uint(t, hf_chunk_handle, tvb, 0, 0, c->handle));
	rr_ws_generated(proto_tree_add_uint64(t, hf_chunk_seg_offset, tvb, 0, 0, c->seg_offset));
	rr_ws_generated(proto_tree_add_uint(t, hf_chunk_bytes, tvb, 0, 0, c->data_len));
	col_append_fstr(pinfo->cinfo, COL_INFO, " [%s chunk, xid 0x%08x]",
			val_to_str_const(c->source, kind_names, "?"), c->xid);
}

/* A request packet with a PSN already seen: the receiver drops it
 * (IBA vol. 1 §9.7.5.1.2). */
static void add_retransmission(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
			       const struct rr_ws_item *it)
{
	const struct rr_ev_retransmission *rt = &it->retransmission;
	rr_ws_generated(proto_tree_add_uint(tree, hf_retransmission_psn, tvb, 0, 0, rt->psn));
	if (rt->original_frame)
		rr_ws_generated(proto_tree_add_uint(tree, hf_retransmission_of, tvb, 0, 0,
					      (guint32)rt->original_frame));
	/* one summary for all, as -z expert groups them */
	proto_tree_add_expert(tree, pinfo, &ei_retransmission, tvb, 0, 0);
	col_append_str(pinfo->cinfo, COL_INFO, " [RC retransmission]");
}

static void add_finding(proto_tree *t, packet_info *pinfo, tvbuff_t *tvb,
			const struct rr_ws_item *f)
{
	const struct rr_finding_info *fi = rr_finding_info(f->finding.id);
	if (!fi)
		return;
	const char *detail = f->finding.detail;
	proto_tree_add_expert_format(t, pinfo, &ei_findings[f->finding.id], tvb, 0, 0,
				     "%s%s%s%s [%s]", fi->message, detail ? " (" : "",
				     detail ? detail : "", detail ? ")" : "",
				     fi->reference);
}

void rr_ws_add_rebuilt_item(proto_tree *tree, tvbuff_t *tvb, const struct rr_ws_item *m,
			    bool kept)
{
	proto_item *ti = rr_ws_generated(proto_tree_add_item(tree, proto_rpcrdma, tvb, 0, 0,
							     ENC_NA));
	proto_item_append_text(ti, ": rebuilt RPC message");
	proto_tree *t = proto_item_add_subtree(ti, ett_analysis);
	const struct rr_ev_rpc_message *rm = &m->rebuilt;
	proto_item *it = rr_ws_generated(proto_tree_add_uint(t, hf_rebuilt, tvb, 0, 0,
							     rm->data_len));
	proto_item_append_text(it, " bytes, xid 0x%08x, from the %s chunk%s", rm->xid,
			       val_to_str_const(rm->source, kind_names, "?"),
			       kept ? "" : " (not kept for a second look: memory budget spent)");
	rr_ws_generated(proto_tree_add_uint(t, hf_rebuilt_xid, tvb, 0, 0, rm->xid));
	rr_ws_generated(proto_tree_add_uint(t, hf_rebuilt_source, tvb, 0, 0, rm->source));
}

/* A connection refused, its reason named. */
static void add_cm_reject(proto_tree *t, packet_info *pinfo, tvbuff_t *tvb,
			  const struct rr_ws_item *it)
{
	if (!it->reject_reason) {
		col_append_str(pinfo->cinfo, COL_INFO, " [rejected: reason not captured]");
		return;
	}
	rr_ws_generated(proto_tree_add_uint(t, hf_cm_reject_reason, tvb, 0, 0,
					    it->reject_reason));
	col_append_fstr(pinfo->cinfo, COL_INFO, " [rejected: %s]",
			val_to_str_const(it->reject_reason, cm_reject_reasons, "unknown reason"));
}

void rr_ws_add_frame_analysis(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
			      const struct rr_ws_frame *r, bool claimed, bool diagnosed)
{
	uint32_t n = r ? r->nitems : 0;
	bool shown = false;
	for (uint32_t i = 0; i < n; i++)
		shown |= r->items[i].kind == RR_EV_FINDING ||
			 r->items[i].kind == RR_EV_RETRANSMISSION ||
			 r->items[i].kind == RR_WS_CM_REJECT ||
			 r->items[i].kind == RR_EV_NEGOTIATED ||
			 (!claimed && r->items[i].kind == RR_EV_CHUNK_DATA);
	if (!shown && !diagnosed)
		return;
	proto_item *ti = rr_ws_generated(proto_tree_add_item(tree, hf_analysis, tvb, 0, 0,
							     ENC_NA));
	proto_tree *t = proto_item_add_subtree(ti, ett_analysis);
	rr_ws_add_diagnosis(t, pinfo, tvb);
	for (uint32_t i = 0; i < n; i++) {
		const struct rr_ws_item *it = &r->items[i];
		switch (it->kind) {
		case RR_EV_FINDING:
			add_finding(t, pinfo, tvb, it);
			break;
		case RR_EV_NEGOTIATED:
			proto_item_append_text(ti, ": inline thresholds negotiated");
			add_thresholds(t, tvb, it);
			break;
		case RR_EV_CHUNK_DATA:
			if (!claimed)
				rr_ws_add_chunk_data(t, pinfo, tvb, it);
			break;
		case RR_EV_RETRANSMISSION:
			add_retransmission(t, pinfo, tvb, it);
			break;
		case RR_WS_CM_REJECT:
			add_cm_reject(t, pinfo, tvb, it);
			break;
		default:
			break;
		}
	}
}

static void register_expert(void)
{
	static ei_register_info ei[RR_FINDING_COUNT];
	static const int severity[] = { [RR_SEV_NOTE] = PI_NOTE, [RR_SEV_WARN] = PI_WARN,
					[RR_SEV_ERROR] = PI_ERROR };
	static const int group[] = { [RR_FIND_KIND_PROTOCOL] = PI_PROTOCOL,
				     [RR_FIND_KIND_MALFORMED] = PI_MALFORMED,
				     [RR_FIND_KIND_CHECKSUM] = PI_CHECKSUM,
				     [RR_FIND_KIND_SEQUENCE] = PI_SEQUENCE };
	for (unsigned i = 0; i < RR_FINDING_COUNT; i++) {
		const struct rr_finding_info *fi = rr_finding_info(i);
		ei_findings[i] = (expert_field)EI_INIT;
		ei[i] = (ei_register_info){ &ei_findings[i],
			{ fi->id, group[fi->kind], severity[fi->severity], fi->message,
			  EXPFILL } };
	}
	expert_module_t *em = expert_register_protocol(proto_rpcrdma);
	expert_register_field_array(em, ei, RR_FINDING_COUNT);
	static ei_register_info retransmission[] = {
		{ &ei_retransmission, { "rpcrdma.retransmission", PI_SEQUENCE, PI_NOTE,
					"RC request packet retransmitted", EXPFILL } },
	};
	expert_register_field_array(em, retransmission, 1);
	rr_ws_register_diagnosis_expert(proto_rpcrdma, em, severity);
}

void rr_ws_register_analysis_tree(int proto)
{
	proto_rpcrdma = proto;
	static hf_register_info hf_analysis_fields[] = {
		{ &hf_analysis, { "RPC-over-RDMA analysis", "rpcrdma.analysis", FT_NONE,
				  BASE_NONE, NULL, 0, "what libdissect's analyzer found",
				  HFILL } },
		{ &hf_dir, { "Direction", "rpcrdma.dir", FT_UINT8, BASE_DEC, VALS(dir_names),
			     0, "RFC 8167 §3: forward or backward, call or reply", HFILL } },
		{ &hf_granted, { "Credits granted", "rpcrdma.credits.granted", FT_UINT32,
				 BASE_DEC, NULL, 0,
				 "RFC 8166 §3.3.1: the responder's last grant", HFILL } },
		{ &hf_in_flight, { "Calls in flight", "rpcrdma.credits.in_flight", FT_UINT32,
				   BASE_DEC, NULL, 0, "calls sent and not yet answered",
				   HFILL } },
		{ &hf_inv_stag, { "Invalidated STag", "rpcrdma.invalidated_stag", FT_UINT32,
				  BASE_HEX, NULL, 0,
				  "RFC 8797 §4.1: the STag this Send With Invalidate invalidated",
				  HFILL } },
		{ &hf_cm_reject_reason, { "Connection rejected", "rpcrdma.cm_reject_reason",
					  FT_UINT16, BASE_DEC, VALS(cm_reject_reasons), 0,
					  "IB CM REJ reason, IBA vol. 1 table 112", HFILL } },
		{ &hf_resent_of, { "Resent after a reconnect; first in", "rpcrdma.resent_of",
				   FT_FRAMENUM, BASE_NONE, NULL, 0,
				   "the frame that carried this xid on the previous connection",
				   HFILL } },
		{ &hf_retransmission_of, { "Retransmission of", "rpcrdma.retransmission_of",
					   FT_FRAMENUM, BASE_NONE, NULL, 0,
					   "the frame that carried this PSN first", HFILL } },
		{ &hf_retransmission_psn, { "Retransmitted PSN", "rpcrdma.retransmission_psn",
					    FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL } },
		{ &hf_reply_in, { "Reply in", "rpcrdma.reply_in", FT_FRAMENUM, BASE_NONE,
				  FRAMENUM_TYPE(FT_FRAMENUM_RESPONSE), 0, NULL, HFILL } },
		{ &hf_response_to, { "Call in", "rpcrdma.call_in", FT_FRAMENUM, BASE_NONE,
				     FRAMENUM_TYPE(FT_FRAMENUM_REQUEST), 0, NULL, HFILL } },
		{ &hf_time, { "RPC time", "rpcrdma.time", FT_RELATIVE_TIME, BASE_NONE, NULL,
			      0, "from the call to its reply", HFILL } },
		{ &hf_moved_inline, { "Bytes sent inline", "rpcrdma.moved.inline",
				      FT_UINT64, BASE_DEC, NULL, 0,
				      "the call's and the reply's SENDs", HFILL } },
		{ &hf_moved_read, { "Bytes by RDMA Read", "rpcrdma.moved.read", FT_UINT64,
				    BASE_DEC, NULL, 0, "read chunks of the call", HFILL } },
		{ &hf_moved_write, { "Bytes by RDMA Write", "rpcrdma.moved.write",
				     FT_UINT64, BASE_DEC, NULL, 0,
				     "write and reply chunks", HFILL } },
		{ &hf_thr_call, { "Call inline threshold", "rpcrdma.threshold.call",
				  FT_UINT32, BASE_DEC, NULL, 0,
				  "RFC 8797 §4.2, or RFC 8166 §3.3.3's 1024", HFILL } },
		{ &hf_thr_reply, { "Reply inline threshold", "rpcrdma.threshold.reply",
				   FT_UINT32, BASE_DEC, NULL, 0, NULL, HFILL } },
		{ &hf_thr_unknown, { "Inline thresholds unknown", "rpcrdma.threshold.unknown",
				     FT_NONE, BASE_NONE, NULL, 0,
				     "the capture holds no whole connection setup: "
				     "RFC 8166 §3.3.3's defaults are not assumed", HFILL } },
		{ &hf_thr_rinval, { "Remote invalidation", "rpcrdma.threshold.rinval",
				    FT_BOOLEAN, BASE_NONE, NULL, 0,
				    "both peers set R (RFC 8797 §4.2)", HFILL } },
		{ &hf_chunk, { "Chunk data", "rpcrdma.chunk", FT_NONE, BASE_NONE, NULL, 0,
			       "RFC 8166 §3.4: what this RDMA packet moves", HFILL } },
		{ &hf_chunk_xid, { "XID", "rpcrdma.chunk.xid", FT_UINT32, BASE_HEX, NULL, 0,
				   "of the call that advertised the chunk", HFILL } },
		{ &hf_chunk_kind, { "Chunk", "rpcrdma.chunk.kind", FT_UINT8, BASE_DEC,
				    VALS(kind_names), 0, NULL, HFILL } },
		{ &hf_chunk_access, { "Operation", "rpcrdma.chunk.op", FT_UINT8, BASE_DEC,
				      VALS(access_names), 0, NULL, HFILL } },
		{ &hf_chunk_handle, { "Segment handle", "rpcrdma.chunk.handle", FT_UINT32,
				      BASE_HEX, NULL, 0, NULL, HFILL } },
		{ &hf_chunk_seg_offset, { "Offset in segment", "rpcrdma.chunk.offset",
					  FT_UINT64, BASE_DEC, NULL, 0, NULL, HFILL } },
		{ &hf_chunk_bytes, { "Bytes", "rpcrdma.chunk.bytes", FT_UINT32, BASE_DEC,
				     NULL, 0, "data this packet moves (a Read Request: asks for)",
				     HFILL } },
		{ &hf_fragment, { "SEND fragment", "rpcrdma.fragment", FT_NONE, BASE_NONE,
				  NULL, 0, NULL, HFILL } },
		{ &hf_rebuilt, { "Rebuilt RPC message", "rpcrdma.rebuilt", FT_UINT32,
				 BASE_DEC, NULL, 0, "RFC 8166 §3.5: an RPC message put "
				 "together from chunk data", HFILL } },
		{ &hf_rebuilt_xid, { "XID", "rpcrdma.rebuilt.xid", FT_UINT32, BASE_HEX, NULL,
				     0, "transport xid of the rebuilt message", HFILL } },
		{ &hf_rebuilt_source, { "Rebuilt from", "rpcrdma.rebuilt.source", FT_UINT8,
					BASE_DEC, VALS(kind_names), 0, NULL, HFILL } },
	};
	for (unsigned d = 0; d <= RR_DIR_UNKNOWN; d++)
		dir_names[d] = (value_string){ d, rr_dir_str(d) };
	unsigned nreasons = 0; /* the named ones; the table ends with {0, NULL} */
	for (unsigned r = 0; r < RR_CM_REJ_REASONS; r++)
		if (rr_cm_rej_reason_str(r))
			cm_reject_reasons[nreasons++] = (value_string){ r, rr_cm_rej_reason_str(r) };
	static gint *ett[] = { &ett_analysis, &ett_chunk_data };
	proto_register_field_array(proto_rpcrdma, hf_analysis_fields,
				   array_length(hf_analysis_fields));
	proto_register_subtree_array(ett, array_length(ett));
	register_expert();
}
