/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RPC-over-RDMA v1 (RFC 8166) for Wireshark, decoded and analysed by
 * libdissect: this file maps libdissect's results and offsets into the
 * tree, makes its findings expert items, and hands RPC messages (inline,
 * reassembled from several packets, or rebuilt from chunk data) to
 * Wireshark's own rpc dissector.  Filter name "rpcrdma"; the built-in
 * dissector is "rpcordma", and its names and heuristic names are left alone
 * (a clash is fatal in Wireshark).  Heuristics on InfiniBand payloads (RoCE
 * and IB) and on iWARP RDMAP, tried before the built-in's; a post-dissector
 * for what arrives in no payload (RDMA Read Requests, findings, MPA private
 * data, rebuilt messages).
 */
#include <epan/packet.h>
#include <epan/proto.h>
#include <epan/exceptions.h>
#include <epan/expert.h>
#include <epan/show_exception.h>
#include <epan/proto_data.h>
#include <epan/tap.h>

#include <rpcrdma/analyzer.h>
#include <rpcrdma/dissect.h>

#include "analysis-tree.h"
#include "analysis.h"
#include "diagnosis-expert.h"
#include "packet-rpcrdma.h"
#include "prefs.h"
#include "ws-compat.h"

/* Wireshark 4.0 wants every id at -1 until it assigns one. */
static int proto_rpcrdma = -1;
static int hf_xid = -1, hf_vers = -1, hf_credits = -1, hf_proc = -1;
static int hf_confidence = -1, hf_reads = -1, hf_writes = -1, hf_reply = -1;
static int hf_seg_position = -1, hf_seg_handle = -1, hf_seg_length = -1;
static int hf_seg_offset = -1, hf_write_chunk = -1, hf_err = -1, hf_segment = -1;
static int hf_vers_low = -1, hf_vers_high = -1, hf_align = -1, hf_thresh = -1;
static int hf_cm = -1, hf_cm_format = -1, hf_cm_version = -1, hf_cm_flags = -1;
static int hf_cm_rinval = -1, hf_cm_send = -1, hf_cm_recv = -1;
static gint ett_rpcrdma = -1, ett_list = -1, ett_chunk = -1, ett_segment = -1;
static gint ett_cm = -1;
static dissector_handle_t rpc_handle;
static int rpcrdma_tap = -1;

#define RR_X_VS(sym, val, str) { (val), (str) },
static const value_string proc_names[] = { RR_RDMA_PROC_LIST(RR_X_VS) { 0, NULL } };
static const value_string err_names[] = { RR_RDMA_ERR_LIST(RR_X_VS) { 0, NULL } };
static const value_string conf_names[] = { RR_CONFIDENCE_LIST(RR_X_VS) { 0, NULL } };

/*
 * An RPC message to the rpc dissector.  It matches replies to calls by
 * conversation, and an IB packet names only its destination QP: both QPNs
 * of the connection, as the analyzer linked them, make the two directions
 * one conversation.  It times a call from the frame it is handed in: a
 * call rebuilt once its read chunks were read is handed in with its SEND's
 * time stamp, so that rpc.time and -z rpc,srt measure from the SEND, as
 * rpcrdma.time does.
 */
static void call_rpc(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
		     const struct rr_ws_item *m)
{
	if (!rpc_handle)
		return;
	port_type ptype = pinfo->ptype;
	guint32 srcport = pinfo->srcport, destport = pinfo->destport;
	nstime_t abs_ts = pinfo->abs_ts;
	if (m && m->kind == RR_EV_RPC_MESSAGE && m->rebuilt.call_ts_ns) {
		pinfo->abs_ts.secs = (time_t)(m->rebuilt.call_ts_ns / 1000000000u);
		pinfo->abs_ts.nsecs = (int)(m->rebuilt.call_ts_ns % 1000000000u);
	}
	const struct rr_ws_conn *c = m ? &m->connection : NULL;
	if (c && !c->iwarp && (c->requester_id || c->responder_id)) {
		bool from_requester = m->dir == RR_DIR_FWD_CALL || m->dir == RR_DIR_BWD_REPLY;
		pinfo->ptype = PT_IBQP;
		pinfo->srcport = from_requester ? c->requester_id : c->responder_id;
		pinfo->destport = from_requester ? c->responder_id : c->requester_id;
	}
	/* an RPC cut short must not end this frame's other items */
	TRY {
		call_dissector(rpc_handle, tvb, pinfo, tree);
	}
	CATCH_NONFATAL_ERRORS {
		show_exception(tvb, pinfo, tree, EXCEPT_CODE, GET_MESSAGE);
	}
	ENDTRY;
	pinfo->abs_ts = abs_ts;
	pinfo->ptype = ptype;
	pinfo->srcport = srcport;
	pinfo->destport = destport;
}

/* A field of the header on its own bytes, where libdissect places it. */
static proto_item *add_field(proto_tree *tree, int hf, tvbuff_t *tvb,
			     const struct rr_rpcrdma *h, enum rr_field field,
			     unsigned index, uint64_t value)
{
	struct rr_span sp = { 0, 0 };
	if (!rr_rpcrdma_field_span(h, tvb_captured_length(tvb), field, index, &sp))
		sp = (struct rr_span){ h->off, 0 };
	if (field == RR_F_SEG_OFFSET)
		return proto_tree_add_uint64(tree, hf, tvb, (int)sp.off, (int)sp.len, value);
	return proto_tree_add_uint(tree, hf, tvb, (int)sp.off, (int)sp.len, (guint32)value);
}

/* RFC 8166 §4.2.1: read segments start at their position word, write and
 * reply segments at their handle. */
static void add_segment(proto_tree *tree, tvbuff_t *tvb, const struct rr_rpcrdma *h,
			unsigned index)
{
	const struct rr_rdma_seg *s = &h->segs[index];
	int len = s->list == RR_LIST_READ ? 20 : 16;
	proto_item *it = proto_tree_add_none_format(tree, hf_segment, tvb, (int)s->off, len,
		"Segment: handle 0x%08x, length %u, offset 0x%016" PRIx64,
		s->handle, s->length, s->offset);
	proto_tree *st = proto_item_add_subtree(it, ett_segment);
	if (s->list == RR_LIST_READ)
		add_field(st, hf_seg_position, tvb, h, RR_F_SEG_POSITION, index, s->position);
	add_field(st, hf_seg_handle, tvb, h, RR_F_SEG_HANDLE, index, s->handle);
	add_field(st, hf_seg_length, tvb, h, RR_F_SEG_LENGTH, index, s->length);
	add_field(st, hf_seg_offset, tvb, h, RR_F_SEG_OFFSET, index, s->offset);
}

static void add_lists(proto_tree *tree, tvbuff_t *tvb, const struct rr_rpcrdma *h)
{
	proto_tree *lt[3] = { NULL, NULL, NULL };
	proto_tree *chunk_tree = NULL;
	int last_chunk = -1;
	static const int *const hfs[3] = { &hf_reads, &hf_writes, &hf_reply };
	const uint32_t offs[3] = { h->read_list_off, h->write_list_off, h->reply_chunk_off };
	for (unsigned l = 0; l < 3; l++) {
		unsigned n = 0;
		for (unsigned i = 0; i < h->nsegs; i++)
			n += h->segs[i].list == l;
		proto_item *it = proto_tree_add_uint(tree, *hfs[l], tvb, (int)offs[l], 4, n);
		lt[l] = proto_item_add_subtree(it, ett_list);
	}
	for (unsigned i = 0; i < h->nsegs; i++) {
		const struct rr_rdma_seg *s = &h->segs[i];
		proto_tree *parent = lt[s->list < 3 ? s->list : 0];
		if (s->list == RR_LIST_WRITE) {
			if (s->chunk != last_chunk) {
				proto_item *c = proto_tree_add_uint(parent, hf_write_chunk, tvb,
								    (int)s->off, 0, s->chunk);
				chunk_tree = proto_item_add_subtree(c, ett_chunk);
				last_chunk = s->chunk;
			}
			parent = chunk_tree;
		}
		add_segment(parent, tvb, h, i);
	}
}






/* Whether the payload in tvb starts with header h's xid and procedure (RFC
 * 8166 §4.1: the first and fourth words) and is msg_len bytes long: the
 * analyzer's message, seen again. */
static bool starts_with(tvbuff_t *tvb, const struct rr_rpcrdma *h, uint32_t msg_len)
{
	return tvb_captured_length(tvb) >= 16 && tvb_get_ntohl(tvb, 0) == h->xid &&
	       tvb_get_ntohl(tvb, 12) == h->proc && tvb_reported_length(tvb) == msg_len;
}

/*
 * The message item of the payload in tvb, if the analyzer saw that message
 * in this frame: where it lies in the frame, or for one the analyzer read
 * from a copy (an iWARP stream with MPA markers, which Wireshark takes out
 * too), the same xid, procedure and length.
 */
static const struct rr_ws_item *message_item(const struct rr_ws_frame *r, tvbuff_t *tvb)
{
	gint at = tvb_raw_offset(tvb);
	for (uint32_t i = 0; r && i < r->nitems; i++) {
		const struct rr_ws_item *m = &r->items[i];
		if (m->kind != RR_EV_MESSAGE)
			continue;
		if (m->msg.frame_at ? at >= 0 && m->msg.frame_at - 1 == (guint32)at :
				      starts_with(tvb, m->msg.hdr, m->msg.msg_len))
			return m;
	}
	return NULL;
}

/* The retransmission item of a SEND's first packet sent again, its header
 * the one in tvb: the message is shown again, marked, as tshark shows a
 * retransmitted TCP segment's content. */
static const struct rr_ws_item *retransmitted_item(const struct rr_ws_frame *r,
						   tvbuff_t *tvb)
{
	for (uint32_t i = 0; r && i < r->nitems; i++) {
		const struct rr_ws_item *m = &r->items[i];
		if (m->kind == RR_EV_RETRANSMISSION && m->retransmission.hdr &&
		    starts_with(tvb, m->retransmission.hdr, tvb_reported_length(tvb)))
			return m;
	}
	return NULL;
}

/* A header the analyzer did not see: whether the RPC message after it is
 * a reply, as libdissect reads it. */
static bool rpc_is_reply(tvbuff_t *tvb, const struct rr_rpcrdma *h)
{
	guint captured = tvb_captured_length(tvb);
	if (h->payload.off >= captured)
		return false;
	struct rr_rpc rpc;
	struct rr_note note;
	return rr_rpc_decode(tvb_get_ptr(tvb, 0, (gint)captured), h->payload.off,
			     captured - h->payload.off, h->payload.len, &rpc,
			     &note) != RR_MALFORMED &&
	       rpc.msg_type == RR_RPC_REPLY;
}

/* Whether the analyzer rebuilt, in this frame, the RPC message of xid. */
static bool rebuilt_here(packet_info *pinfo, uint32_t xid)
{
	const struct rr_ws_frame *r = rr_ws_frame_of(pinfo);
	for (uint32_t i = 0; r && i < r->nitems; i++)
		if (r->items[i].kind == RR_EV_RPC_MESSAGE && r->items[i].rebuilt.xid == xid)
			return true;
	return false;
}

/*
 * RFC 8166 §3.5.2: a reply whose result data went by RDMA Write, and was
 * not rebuilt (its place in the reply known only to its program, or no
 * memory left), is dissected as far as this SEND carries it; what its
 * write chunk carried counts as bytes not captured here.
 */
static void without_write_data(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			       proto_tree *t, const struct rr_rpcrdma *h,
			       uint64_t written, const struct rr_ws_item *m)
{
	rr_ws_add_fragment_note(t, tvb, (int)h->payload.off,
		"RPC reply without the %" PRIu64 " bytes its write chunk carried by "
		"RDMA Write: dissected as far as this SEND carries it", written);
	/* past the offset, counted here: the _remaining calls return -1 for
	 * an offset past the end where offsets are signed (before 4.7) */
	guint cap = tvb_captured_length(tvb), rep = tvb_reported_length(tvb);
	guint have = h->payload.off < cap ? cap - h->payload.off : 0;
	guint reported = h->payload.off < rep ? rep - h->payload.off : 0;
	if (written > G_MAXINT - reported)
		return;
	tvbuff_t *inl = tvb_new_child_real_data(tvb, tvb_get_ptr(tvb, (gint)h->payload.off,
								(gint)have),
						have, (gint)(reported + written));
	call_rpc(inl, pinfo, tree, m);
}

/* A message item of the frame's report shown in this dissection: marked,
 * so that the post-dissector shows those no payload brought (proto data
 * key 1 + its index; key 0 marks the frame claimed). */
static void mark_shown(packet_info *pinfo, const struct rr_ws_item *m)
{
	const struct rr_ws_frame *r = rr_ws_frame_of(pinfo);
	if (r && m >= r->items && m < r->items + r->nitems)
		p_add_proto_data(pinfo->pool, pinfo, proto_rpcrdma, 1 + (guint32)(m - r->items),
				 GUINT_TO_POINTER(1));
}

static bool shown(packet_info *pinfo, const struct rr_ws_frame *r, const struct rr_ws_item *m)
{
	return p_get_proto_data(pinfo->pool, pinfo, proto_rpcrdma,
				1 + (guint32)(m - r->items)) != NULL;
}

static void dissect_header(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			   const struct rr_rpcrdma *h, const struct rr_ws_item *m,
			   bool whole)
{
	if (m && m->kind == RR_EV_MESSAGE)
		mark_shown(pinfo, m);
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "RPCRDMA");
	const char *proc = try_val_to_str(h->proc, proc_names);
	if (proc)
		col_add_fstr(pinfo->cinfo, COL_INFO, "%s xid 0x%08x credits %u", proc,
			     h->xid, h->credits);
	else
		col_add_fstr(pinfo->cinfo, COL_INFO, "proc %u xid 0x%08x credits %u",
			     h->proc, h->xid, h->credits);
	proto_item *ti = proto_tree_add_item(tree, proto_rpcrdma, tvb, (int)h->off,
					     (int)h->len, ENC_NA);
	proto_tree *t = proto_item_add_subtree(ti, ett_rpcrdma);
	add_field(t, hf_xid, tvb, h, RR_F_XID, 0, h->xid);
	add_field(t, hf_vers, tvb, h, RR_F_VERS, 0, h->vers);
	add_field(t, hf_credits, tvb, h, RR_F_CREDITS, 0, h->credits);
	add_field(t, hf_proc, tvb, h, RR_F_PROC, 0, h->proc);
	rr_ws_generated(proto_tree_add_uint(t, hf_confidence, tvb, (int)h->off, 0, h->confidence));
	if (h->body_decoded && h->proc <= RR_RDMA_MSGP)
		add_lists(t, tvb, h);
	if (h->proc == RR_RDMA_MSGP && h->body_decoded) {
		add_field(t, hf_align, tvb, h, RR_F_ALIGN, 0, h->align);
		add_field(t, hf_thresh, tvb, h, RR_F_THRESH, 0, h->thresh);
	}
	if (h->proc == RR_RDMA_ERROR && h->body_decoded) {
		add_field(t, hf_err, tvb, h, RR_F_ERR, 0, h->err);
		if (h->err == RR_ERR_VERS) {
			add_field(t, hf_vers_low, tvb, h, RR_F_VERS_LOW, 0, h->vers_low);
			add_field(t, hf_vers_high, tvb, h, RR_F_VERS_HIGH, 0, h->vers_high);
		}
	}
	/* a retransmitted packet's analysis is the retransmission's: its
	 * direction here, the rest with the retransmission */
	if (m && m->kind == RR_EV_MESSAGE)
		rr_ws_add_message_analysis(t, tvb, m);
	else if (m)
		rr_ws_add_direction(t, tvb, m);
	if (!whole) {
		rr_ws_add_fragment_note(t, tvb, (int)h->off,
			"SEND of %u bytes, of which the capture kept %u: its RPC is "
			"not shown", tvb_reported_length(tvb), tvb_captured_length(tvb));
		return;
	}
	/* RFC 8166 §3.5: a call whose read chunks hold part of it (position
	 * > 0), or a reply whose write chunks do, is not whole here: its RPC
	 * comes with the message rebuilt from them.  A write chunk the reply
	 * reports empty (a READ at end of file) took nothing out. */
	bool reply = m ? m->dir == RR_DIR_FWD_REPLY || m->dir == RR_DIR_BWD_REPLY :
			 rpc_is_reply(tvb, h);
	uint64_t written = 0;
	for (unsigned i = 0; reply && i < h->nsegs; i++)
		if (h->segs[i].list == RR_LIST_WRITE)
			written += h->segs[i].length;
	bool reduced = (h->nread_chunks && !h->pzrc) || written;
	bool has_rpc = h->payload.len && (h->proc == RR_RDMA_MSG || h->proc == RR_RDMA_MSGP);
	if (has_rpc && !reduced)
		call_rpc(tvb_new_subset_remaining(tvb, (int)h->payload.off), pinfo, tree, m);
	else if (has_rpc && written && !rebuilt_here(pinfo, h->xid))
		without_write_data(tvb, pinfo, tree, t, h, written, m);
}

static void add_rebuilt(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
			const struct rr_ws_item *m);

/*
 * This plugin took the frame's payload: the RPC messages rebuilt in this
 * frame are dissected here, where the rpc dissector sees the same
 * addresses as for the calls it matches them to.
 */
static void claim(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
		  const struct rr_ws_frame *r)
{
	/* an iWARP segment may hold several messages: once a frame */
	if (p_get_proto_data(pinfo->pool, pinfo, proto_rpcrdma, 0))
		return;
	p_add_proto_data(pinfo->pool, pinfo, proto_rpcrdma, 0, GUINT_TO_POINTER(1));
	for (uint32_t i = 0; r && i < r->nitems; i++)
		if (r->items[i].kind == RR_EV_RPC_MESSAGE)
			add_rebuilt(tree, pinfo, tvb, &r->items[i]);
}

/*
 * Is this payload RPC-over-RDMA?  What the analyzer saw in this frame
 * answers first: a message (whatever its version or xid), the last packet
 * of a SEND of several (shown from the reassembled message), or any other
 * packet of a connection known to carry RPC-over-RDMA (chunk data, SEND
 * fragments).  Without it, libdissect's decoder answers with the built-in's
 * bar: an RPC xid that matches, or a header with no RPC message (NOMSG,
 * DONE, ERROR) that parses whole.
 */
static rr_ws_heur_result heur_payload(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
				       bool tagged)
{
	const struct rr_ws_frame *r = rr_ws_frame_of(pinfo);
	guint captured = tvb_captured_length(tvb);
	/* tagged data (RDMA Write, Read Response) is chunk data, never a
	 * message, even where one TCP segment also holds a SEND */
	if (tagged) {
		if (!r || !r->on_conn)
			return FALSE;
		goto chunk_data;
	}
	const struct rr_ws_item *m = message_item(r, tvb);
	if (m) {
		dissect_header(tvb, pinfo, tree, m->msg.hdr, m, true);
		claim(tvb, pinfo, tree, r);
		return TRUE;
	}
	const struct rr_ws_item *again = retransmitted_item(r, tvb);
	if (again) {
		/* a SEND's first of several packets holds part of its RPC */
		dissect_header(tvb, pinfo, tree, again->retransmission.hdr, again,
			       rr_rc_send_only(again->retransmission.opcode) &&
				       captured == tvb_reported_length(tvb));
		claim(tvb, pinfo, tree, r);
		return TRUE;
	}
	/* the last packet of a SEND of several: the reassembled message */
	for (uint32_t i = 0; r && i < r->nitems; i++) {
		const struct rr_ws_item *w = &r->items[i];
		if (w->kind != RR_EV_MESSAGE || w->msg.frame_at)
			continue;
		const uint8_t *bytes = rr_ws_item_bytes(pinfo, w);
		if (!bytes) {
			mark_shown(pinfo, w);
			proto_item *ti = proto_tree_add_item(tree, proto_rpcrdma, tvb, 0,
							     (gint)captured, ENC_NA);
			proto_item_append_text(ti, ": last packet of a SEND of %u bytes, "
					       "xid 0x%08x (not kept for a second look: "
					       "memory budget spent)", w->msg.msg_len,
					       w->msg.hdr->xid);
			claim(tvb, pinfo, tree, r);
			return TRUE;
		}
		/* a long one is kept in part: its headers */
		const struct rr_ev_message *wm = &w->msg;
		tvbuff_t *whole = tvb_new_child_real_data(tvb, bytes, wm->data_len, wm->msg_len);
		add_new_data_source(pinfo, whole, "Reassembled RPC-over-RDMA message");
		dissect_header(whole, pinfo, tree, wm->hdr, w, wm->data_len == wm->msg_len);
		claim(tvb, pinfo, tree, r);
		return TRUE;
	}
chunk_data:
	if (r && r->on_conn) {
		/* chunk data, or a SEND's first or middle packet */
		bool chunk = false;
		for (uint32_t i = 0; i < r->nitems; i++)
			chunk |= r->items[i].kind == RR_EV_CHUNK_DATA;
		col_set_str(pinfo->cinfo, COL_PROTOCOL, "RPCRDMA");
		proto_item *ti = proto_tree_add_item(tree, proto_rpcrdma, tvb, 0, (gint)captured,
						     ENC_NA);
		proto_tree *t = proto_item_add_subtree(ti, ett_rpcrdma);
		/* several DDP segments of a frame: its chunk items once */
		if (chunk && !p_get_proto_data(pinfo->pool, pinfo, proto_rpcrdma, 0)) {
			proto_item_append_text(ti, ": chunk data");
			for (uint32_t i = 0; i < r->nitems; i++)
				if (r->items[i].kind == RR_EV_CHUNK_DATA)
					rr_ws_add_chunk_data(t, pinfo, tvb, &r->items[i]);
		} else if (!chunk) {
			/* shown whole with its last packet, once */
			proto_item_append_text(ti, ": SEND fragment");
			col_append_str(pinfo->cinfo, COL_INFO, " [RPC-over-RDMA SEND fragment]");
			rr_ws_add_fragment_note(t, tvb, 0,
				"Part of a SEND of several packets: the message is shown "
				"with its last packet");
		}
		claim(tvb, pinfo, tree, r);
		return TRUE;
	}
	/* the analyzer saw no message here (analysis off, or a RoCEv2 port
	 * it was not given): the header decoded on its own, by its bar */
	if (captured < 16)
		return FALSE;
	struct rr_rpcrdma h;
	struct rr_note note;
	enum rr_status st = rr_rpcrdma_decode(tvb_get_ptr(tvb, 0, (gint)captured), 0, captured,
					      tvb_reported_length(tvb), &h, &note);
	if (!rr_rpcrdma_recognised(&h, st))
		return FALSE;
	dissect_header(tvb, pinfo, tree, &h, NULL, true);
	claim(tvb, pinfo, tree, r);
	return TRUE;
}

/* RFC 8797 §4 private data found at cp->off of tvb. */
static void add_private_data(proto_tree *tree, tvbuff_t *tvb, const struct rr_cm_private *cp)
{
	guint captured = tvb_captured_length(tvb);
	proto_item *ti = proto_tree_add_item(tree, hf_cm, tvb, (int)cp->off,
					     RR_CM_PRIVATE_LEN, ENC_NA);
	proto_item_append_text(ti, ": v%u R=%u send %u recv %u", cp->version,
			       cp->rinval, cp->send_size, cp->recv_size);
	proto_tree *t = proto_item_add_subtree(ti, ett_cm);
	static const struct { int *hf; enum rr_field field; } fields[] = {
		{ &hf_cm_format, RR_F_PRIV_FORMAT }, { &hf_cm_version, RR_F_PRIV_VERSION },
		{ &hf_cm_flags, RR_F_PRIV_FLAGS }, { &hf_cm_rinval, RR_F_PRIV_FLAGS },
		{ &hf_cm_send, RR_F_PRIV_SEND }, { &hf_cm_recv, RR_F_PRIV_RECV },
	};
	const uint32_t values[] = { RR_CM_PRIVATE_FORMAT, cp->version, cp->flags,
				    cp->rinval, cp->send_size, cp->recv_size };
	for (size_t i = 0; i < G_N_ELEMENTS(fields); i++) {
		struct rr_span sp;
		if (!rr_cm_private_field_span(cp, captured, fields[i].field, &sp))
			continue;
		if (fields[i].hf == &hf_cm_rinval)
			proto_tree_add_boolean(t, *fields[i].hf, tvb, (int)sp.off,
					       (int)sp.len, values[i]);
		else
			proto_tree_add_uint(t, *fields[i].hf, tvb, (int)sp.off,
					    (int)sp.len, values[i]);
	}
}

/*
 * RFC 8797 private data in an IB CM REQ or REP (RoCE and IB), anywhere in
 * the private data (§4.1), decoded by libdissect: the sizes shown in bytes.
 */
static rr_ws_heur_result heur_cm_private(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
				void *data)
{
	(void)data;
	rr_ws_frame_of(pinfo);
	guint captured = tvb_captured_length(tvb);
	if (captured < RR_CM_PRIVATE_LEN)
		return FALSE;
	const guint8 *p = tvb_get_ptr(tvb, 0, (gint)captured);
	struct rr_cm_private cp;
	if (!rr_cm_private_find(p, 0, captured, tvb_reported_length(tvb), &cp) ||
	    cp.status != RR_COMPLETE)
		return FALSE;
	add_private_data(tree, tvb, &cp);
	return TRUE;
}

/* MPA Request and Reply frames (RFC 5044 §7.1) carry RFC 8797 private data
 * too (§4.1), where the analyzer found it. */
static void mpa_private_data(tvbuff_t *tvb, proto_tree *tree, const struct rr_ws_item *m)
{
	proto_item *ti = proto_tree_add_item(tree, proto_rpcrdma, tvb, 0, 0, ENC_NA);
	proto_item_append_text(ti, ": MPA %s private data", m->dir ? "Reply" : "Request");
	add_private_data(proto_item_add_subtree(ti, ett_rpcrdma), tvb, m->private_data);
}


/* An RPC message rebuilt from chunk data, to the rpc dissector. */
static void add_rebuilt(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
			const struct rr_ws_item *m)
{
	const uint8_t *bytes = rr_ws_item_bytes(pinfo, m);
	rr_ws_add_rebuilt_item(tree, tvb, m, bytes != NULL);
	if (!bytes)
		return;
	tvbuff_t *rebuilt = tvb_new_child_real_data(tvb, bytes, m->rebuilt.data_len,
						    m->rebuilt.data_len);
	add_new_data_source(pinfo, rebuilt, "Rebuilt RPC message");
	call_rpc(rebuilt, pinfo, tree, m);
}

/*
 * Messages that Wireshark handed to no heuristic: iWARP whose MPA exchange
 * the capture missed (Wireshark's MPA dissector then leaves the stream to
 * TCP), RoCE on a port configured in libdissect only, a SEND that shares
 * its TCP segment with chunk data where Wireshark 4.0's iWARP dissector,
 * on tshark -2's second pass after a first without a tree, hands on only
 * the first.  The analyzer found them in the frame.
 */
static void unshown_messages(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			     const struct rr_ws_frame *r)
{
	for (uint32_t i = 0; i < r->nitems; i++) {
		const struct rr_ws_item *it = &r->items[i];
		if (it->kind != RR_EV_MESSAGE || shown(pinfo, r, it))
			continue;
		const struct rr_ev_message *m = &it->msg;
		tvbuff_t *msg = NULL;
		const uint8_t *bytes = rr_ws_item_bytes(pinfo, it);
		if (m->frame_at && tvb_bytes_exist(tvb, (int)m->frame_at - 1, (int)m->msg_len)) {
			msg = tvb_new_subset_length(tvb, (int)m->frame_at - 1, (int)m->msg_len);
		} else if (bytes) {
			/* reassembled from TCP or from several packets */
			msg = tvb_new_child_real_data(tvb, bytes, m->data_len, m->msg_len);
			add_new_data_source(pinfo, msg, "Reassembled RPC-over-RDMA message");
		} else {
			continue;
		}
		dissect_header(msg, pinfo, tree, m->hdr, it,
			       tvb_captured_length(msg) == m->msg_len);
	}
}

/*
 * Every frame: what arrives in no payload the heuristics see.  Findings as
 * expert items, negotiated thresholds, chunk data of RDMA Read Requests,
 * rebuilt RPC messages, MPA private data, the diagnosis where its events
 * begin; and the statistics tap.
 */
static int post_rpcrdma(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree, void *data)
{
	(void)data;
	const struct rr_ws_frame *r = rr_ws_frame_of(pinfo);
	tap_queue_packet(rpcrdma_tap, pinfo, NULL);
	bool diagnosed = rr_ws_diagnosis_here(pinfo);
	bool claimed = false;
	if (r && r->nitems) {
		for (uint32_t i = 0; i < r->nitems; i++)
			if (r->items[i].kind == RR_WS_MPA_PRIVATE)
				mpa_private_data(tvb, tree, &r->items[i]);
		claimed = p_get_proto_data(pinfo->pool, pinfo, proto_rpcrdma, 0) != NULL;
		/* a message no payload brought: a frame whose payloads the
		 * plugin did not see, or one of several in a TCP segment that
		 * Wireshark's iWARP dissector did not hand on (4.0 on a second
		 * pass, after a first without a tree) */
		unshown_messages(tvb, pinfo, tree, r);
		for (uint32_t i = 0; !claimed && i < r->nitems; i++)
			if (r->items[i].kind == RR_EV_RPC_MESSAGE)
				add_rebuilt(tree, pinfo, tvb, &r->items[i]);
	}
	rr_ws_add_frame_analysis(tree, pinfo, tvb, r, claimed, diagnosed);
	return 0;
}


static rr_ws_heur_result heur_infiniband(tvbuff_t *tvb, packet_info *pinfo,
					  proto_tree *tree, void *data)
{
	(void)data;
	return heur_payload(tvb, pinfo, tree, false);
}

/* Whether the DDP segment is tagged is read from the frame by libdissect,
 * not from the RDMAP dissector's private data (data), whose header later
 * releases may not install. */
static rr_ws_heur_result heur_iwarp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
				    void *data)
{
	(void)data;
	return heur_payload(tvb, pinfo, tree, rr_ws_payload_tagged(pinfo, tvb));
}

void proto_register_rpcrdma_tools(void)
{
	static hf_register_info hf[] = {
		{ &hf_xid, { "XID", "rpcrdma.xid", FT_UINT32, BASE_HEX, NULL, 0,
			     "RFC 8166 §4.2.1 rdma_xid", HFILL } },
		{ &hf_vers, { "Version", "rpcrdma.version", FT_UINT32, BASE_DEC, NULL, 0,
			      "RFC 8166 §4.2.2 rdma_vers", HFILL } },
		{ &hf_credits, { "Credits", "rpcrdma.credits", FT_UINT32, BASE_DEC, NULL, 0,
				 "RFC 8166 §3.3.1 credits requested or granted", HFILL } },
		{ &hf_proc, { "Procedure", "rpcrdma.proc", FT_UINT32, BASE_DEC,
			      VALS(proc_names), 0, "RFC 8166 §4.2.4 rdma_proc", HFILL } },
		{ &hf_confidence, { "Recognised by", "rpcrdma.confidence", FT_UINT8,
				    BASE_DEC, VALS(conf_names), 0, NULL, HFILL } },
		{ &hf_reads, { "Read list", "rpcrdma.reads", FT_UINT32, BASE_DEC, NULL, 0,
			       "segments in the read list", HFILL } },
		{ &hf_writes, { "Write list", "rpcrdma.writes", FT_UINT32, BASE_DEC, NULL, 0,
				"segments in the write list", HFILL } },
		{ &hf_reply, { "Reply chunk", "rpcrdma.reply", FT_UINT32, BASE_DEC, NULL, 0,
			       "segments in the reply chunk", HFILL } },
		{ &hf_write_chunk, { "Write chunk", "rpcrdma.write_chunk", FT_UINT32,
				     BASE_DEC, NULL, 0, NULL, HFILL } },
		{ &hf_segment, { "Segment", "rpcrdma.segment", FT_NONE, BASE_NONE, NULL, 0,
				 "RFC 8166 §4.1.1 RDMA segment", HFILL } },
		{ &hf_seg_position, { "Position", "rpcrdma.segment.position", FT_UINT32,
				      BASE_DEC, NULL, 0, "XDR position of a read chunk", HFILL } },
		{ &hf_seg_handle, { "Handle", "rpcrdma.segment.handle", FT_UINT32, BASE_HEX,
				    NULL, 0, "R_key or STag", HFILL } },
		{ &hf_seg_length, { "Length", "rpcrdma.segment.length", FT_UINT32, BASE_DEC,
				    NULL, 0, NULL, HFILL } },
		{ &hf_seg_offset, { "Offset", "rpcrdma.segment.offset", FT_UINT64, BASE_HEX,
				    NULL, 0, "virtual address or tagged offset", HFILL } },
		{ &hf_err, { "Error", "rpcrdma.err", FT_UINT32, BASE_DEC, VALS(err_names), 0,
			     "RFC 8166 §4.5 rdma_err", HFILL } },
		{ &hf_vers_low, { "Lowest version", "rpcrdma.vers_low", FT_UINT32, BASE_DEC,
				  NULL, 0, NULL, HFILL } },
		{ &hf_vers_high, { "Highest version", "rpcrdma.vers_high", FT_UINT32,
				   BASE_DEC, NULL, 0, NULL, HFILL } },
		{ &hf_align, { "Alignment", "rpcrdma.align", FT_UINT32, BASE_DEC, NULL, 0,
			       NULL, HFILL } },
		{ &hf_thresh, { "Threshold", "rpcrdma.thresh", FT_UINT32, BASE_DEC, NULL, 0,
				NULL, HFILL } },
	};
	static hf_register_info hf_cm_fields[] = {
		{ &hf_cm, { "RPC-over-RDMA private data", "rpcrdma.cm", FT_NONE, BASE_NONE,
			    NULL, 0, "RFC 8797 §4 in CM private data", HFILL } },
		{ &hf_cm_format, { "Format identifier", "rpcrdma.cm.format", FT_UINT32,
				   BASE_HEX, NULL, 0, NULL, HFILL } },
		{ &hf_cm_version, { "Version", "rpcrdma.cm.version", FT_UINT8, BASE_DEC,
				    NULL, 0, NULL, HFILL } },
		{ &hf_cm_flags, { "Flags", "rpcrdma.cm.flags", FT_UINT8, BASE_HEX, NULL, 0,
				  NULL, HFILL } },
		{ &hf_cm_rinval, { "Remote invalidation (R)", "rpcrdma.cm.rinval",
				   FT_BOOLEAN, BASE_NONE, NULL, 0,
				   "RFC 8797 §4.2: this peer can have its memory invalidated remotely",
				   HFILL } },
		{ &hf_cm_send, { "Send size", "rpcrdma.cm.send_size", FT_UINT32, BASE_DEC,
				 NULL, 0, "largest message this peer sends, bytes", HFILL } },
		{ &hf_cm_recv, { "Receive size", "rpcrdma.cm.recv_size", FT_UINT32, BASE_DEC,
				 NULL, 0, "largest message this peer receives, bytes", HFILL } },
	};
	static gint *ett[] = { &ett_rpcrdma, &ett_list, &ett_chunk, &ett_segment, &ett_cm };
	proto_rpcrdma = proto_register_protocol("RPC-over-RDMA (rpcrdma-tools)",
						"RPCRDMA", "rpcrdma");
	proto_register_field_array(proto_rpcrdma, hf, array_length(hf));
	proto_register_field_array(proto_rpcrdma, hf_cm_fields, array_length(hf_cm_fields));
	proto_register_subtree_array(ett, array_length(ett));
	rr_ws_register_analysis_tree(proto_rpcrdma);
	register_init_routine(rr_ws_analysis_init);
	register_cleanup_routine(rr_ws_analysis_cleanup);
	rpcrdma_tap = register_tap("rpcrdma");
	rr_ws_register_stat();
	rr_ws_register_prefs(proto_rpcrdma);
}

void proto_reg_handoff_rpcrdma_tools(void)
{
	rpc_handle = find_dissector_add_dependency("rpc", proto_rpcrdma);
	register_postdissector(create_dissector_handle(post_rpcrdma, proto_rpcrdma));
	heur_dissector_add("infiniband.payload", heur_infiniband,
			   "RPC-over-RDMA on InfiniBand (rpcrdma-tools)",
			   "rpcrdma_tools_infiniband", proto_rpcrdma, HEURISTIC_ENABLE);
	heur_dissector_add("infiniband.mad.cm.private", heur_cm_private,
			   "RPC-over-RDMA private data (rpcrdma-tools)",
			   "rpcrdma_tools_cm", proto_rpcrdma, HEURISTIC_ENABLE);
	heur_dissector_add("iwarp_ddp_rdmap", heur_iwarp,
			   "RPC-over-RDMA on iWARP (rpcrdma-tools)",
			   "rpcrdma_tools_iwarp", proto_rpcrdma, HEURISTIC_ENABLE);
	rr_ws_prefs_handoff();
}
