/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * RPC-over-RDMA v1 (RFC 8166) for Wireshark, decoded by libdissect: this
 * file maps libdissect's results and offsets into the tree and hands the
 * RPC message to Wireshark's own rpc dissector.  Filter name "rpcrdma"; the
 * built-in dissector is "rpcordma", and its names and heuristic names are
 * left alone (a clash is fatal in Wireshark).  Heuristics on InfiniBand
 * payloads (RoCE and IB) and on iWARP RDMAP, tried before the built-in's.
 */
#include <epan/packet.h>
#include <epan/proto.h>

#include <rpcrdma/dissect.h>

#include "packet-rpcrdma.h"

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

#define RR_X_VS(sym, val, str) { (val), (str) },
static const value_string proc_names[] = { RR_RDMA_PROC_LIST(RR_X_VS) { 0, NULL } };
static const value_string err_names[] = { RR_RDMA_ERR_LIST(RR_X_VS) { 0, NULL } };
static const value_string conf_names[] = { RR_CONFIDENCE_LIST(RR_X_VS) { 0, NULL } };

/* Read list entries start at their position word; write and reply
 * segments at their handle (RFC 8166 §4.2.1). */
static void add_segment(proto_tree *tree, tvbuff_t *tvb, const struct rr_rdma_seg *s)
{
	int off = (int)s->off;
	int len = s->list == RR_LIST_READ ? 20 : 16;
	proto_item *it = proto_tree_add_none_format(tree, hf_segment, tvb, off, len,
		"Segment: handle 0x%08x, length %u, offset 0x%016" PRIx64,
		s->handle, s->length, s->offset);
	proto_tree *st = proto_item_add_subtree(it, ett_segment);
	if (s->list == RR_LIST_READ) {
		proto_tree_add_uint(st, hf_seg_position, tvb, off, 4, s->position);
		off += 4;
	}
	proto_tree_add_uint(st, hf_seg_handle, tvb, off, 4, s->handle);
	proto_tree_add_uint(st, hf_seg_length, tvb, off + 4, 4, s->length);
	proto_tree_add_uint64(st, hf_seg_offset, tvb, off + 8, 8, s->offset);
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
		add_segment(parent, tvb, s);
	}
}

static int dissect_rpcrdma(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			   const struct rr_rpcrdma *h)
{
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "RPCRDMA");
	col_add_fstr(pinfo->cinfo, COL_INFO, "%s xid 0x%08x credits %u",
		     val_to_str(h->proc, proc_names, "proc %u"), h->xid, h->credits);
	proto_item *ti = proto_tree_add_item(tree, proto_rpcrdma, tvb, (int)h->off,
					     (int)h->len, ENC_NA);
	proto_tree *t = proto_item_add_subtree(ti, ett_rpcrdma);
	int o = (int)h->off;
	proto_tree_add_uint(t, hf_xid, tvb, o, 4, h->xid);
	proto_tree_add_uint(t, hf_vers, tvb, o + 4, 4, h->vers);
	proto_tree_add_uint(t, hf_credits, tvb, o + 8, 4, h->credits);
	proto_tree_add_uint(t, hf_proc, tvb, o + 12, 4, h->proc);
	proto_item *c = proto_tree_add_uint(t, hf_confidence, tvb, o, 0, h->confidence);
	proto_item_set_generated(c);
	if (h->body_decoded && h->proc <= RR_RDMA_MSGP)
		add_lists(t, tvb, h);
	if (h->proc == RR_RDMA_MSGP && h->body_decoded) {
		proto_tree_add_uint(t, hf_align, tvb, o + 16, 4, h->align);
		proto_tree_add_uint(t, hf_thresh, tvb, o + 20, 4, h->thresh);
	}
	if (h->proc == RR_RDMA_ERROR && h->body_decoded) {
		proto_tree_add_uint(t, hf_err, tvb, o + 16, 4, h->err);
		if (h->err == RR_ERR_VERS) {
			proto_tree_add_uint(t, hf_vers_low, tvb, o + 20, 4, h->vers_low);
			proto_tree_add_uint(t, hf_vers_high, tvb, o + 24, 4, h->vers_high);
		}
	}
	/* a call whose read chunks hold part of it (position > 0) is not
	 * whole here: its RPC waits for the rebuilt message */
	bool reduced = h->nread_chunks && !h->pzrc;
	if (h->payload.len && (h->proc == RR_RDMA_MSG || h->proc == RR_RDMA_MSGP) &&
	    rpc_handle && !reduced) {
		tvbuff_t *next = tvb_new_subset_remaining(tvb, (int)h->payload.off);
		call_dissector(rpc_handle, next, pinfo, tree);
	}
	return tvb_captured_length(tvb);
}

/* Is this SEND's payload RPC-over-RDMA?  libdissect's decoder answers, with
 * the built-in's bar: an RPC xid that matches, or a header with no RPC
 * message (NOMSG, DONE, ERROR) that parses whole. */
static gboolean heur_rpcrdma(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			     void *data)
{
	(void)data;
	guint captured = tvb_captured_length(tvb);
	if (captured < 16)
		return FALSE;
	const guint8 *p = tvb_get_ptr(tvb, 0, (gint)captured);
	struct rr_rpcrdma h;
	struct rr_note note;
	enum rr_status st = rr_rpcrdma_decode(p, 0, captured,
					      tvb_reported_length(tvb), &h, &note);
	if (st == RR_MALFORMED)
		return FALSE;
	bool no_rpc = h.proc == RR_RDMA_NOMSG || h.proc == RR_RDMA_DONE ||
		      h.proc == RR_RDMA_ERROR;
	/* ERR_VERS echoes the call's version (RFC 8166 §4.5) */
	bool err_vers = h.proc == RR_RDMA_ERROR && h.err == RR_ERR_VERS;
	if (h.confidence < RR_CONF_XID &&
	    !(no_rpc && (h.vers == 1 || err_vers) && st == RR_COMPLETE &&
	      h.body_decoded))
		return FALSE;
	dissect_rpcrdma(tvb, pinfo, tree, &h);
	return TRUE;
}

/*
 * RFC 8797 private data in an IB CM REQ or REP (RoCE and IB), anywhere in
 * the private data (§4.1), decoded by libdissect: the sizes shown in bytes.
 */
static gboolean heur_cm_private(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
				void *data)
{
	(void)pinfo;
	(void)data;
	guint captured = tvb_captured_length(tvb);
	if (captured < RR_CM_PRIVATE_LEN)
		return FALSE;
	const guint8 *p = tvb_get_ptr(tvb, 0, (gint)captured);
	struct rr_cm_private cp;
	if (!rr_cm_private_find(p, 0, captured, tvb_reported_length(tvb), &cp) ||
	    cp.status != RR_COMPLETE)
		return FALSE;
	int o = (int)cp.off;
	proto_item *ti = proto_tree_add_item(tree, hf_cm, tvb, o, RR_CM_PRIVATE_LEN,
					     ENC_NA);
	proto_item_append_text(ti, ": v%u R=%u send %u recv %u", cp.version,
			       cp.rinval, cp.send_size, cp.recv_size);
	proto_tree *t = proto_item_add_subtree(ti, ett_cm);
	proto_tree_add_uint(t, hf_cm_format, tvb, o, 4, RR_CM_PRIVATE_FORMAT);
	proto_tree_add_uint(t, hf_cm_version, tvb, o + 4, 1, cp.version);
	proto_tree_add_uint(t, hf_cm_flags, tvb, o + 5, 1, cp.flags);
	proto_tree_add_boolean(t, hf_cm_rinval, tvb, o + 5, 1, cp.rinval);
	proto_tree_add_uint(t, hf_cm_send, tvb, o + 6, 1, cp.send_size);
	proto_tree_add_uint(t, hf_cm_recv, tvb, o + 7, 1, cp.recv_size);
	return TRUE;
}

void proto_register_rpcrdma_tools(void)
{
	static hf_register_info hf[] = {
		{ &hf_xid, { "XID", "rpcrdma.xid", FT_UINT32, BASE_HEX, NULL, 0,
			     "RFC 8166 §4.2.1 rdma_xid", HFILL } },
		{ &hf_vers, { "Version", "rpcrdma.vers", FT_UINT32, BASE_DEC, NULL, 0,
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
}

void proto_reg_handoff_rpcrdma_tools(void)
{
	rpc_handle = find_dissector_add_dependency("rpc", proto_rpcrdma);
	heur_dissector_add("infiniband.payload", heur_rpcrdma,
			   "RPC-over-RDMA on InfiniBand (rpcrdma-tools)",
			   "rpcrdma_tools_infiniband", proto_rpcrdma, HEURISTIC_ENABLE);
	heur_dissector_add("infiniband.mad.cm.private", heur_cm_private,
			   "RPC-over-RDMA private data (rpcrdma-tools)",
			   "rpcrdma_tools_cm", proto_rpcrdma, HEURISTIC_ENABLE);
	heur_dissector_add("iwarp_ddp_rdmap", heur_rpcrdma,
			   "RPC-over-RDMA on iWARP (rpcrdma-tools)",
			   "rpcrdma_tools_iwarp", proto_rpcrdma, HEURISTIC_ENABLE);
}
