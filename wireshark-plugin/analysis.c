/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The analyzer's events, kept per frame in the capture file's memory.
 * Wireshark dissects frames again in any order (GUI clicks, filters,
 * taps), but feeds each one to the analyzer only on the first pass.
 */
#include <string.h>

#include <epan/packet.h>
#include <wiretap/pcap-encap.h>
#include <wiretap/wtap.h>

#include "analysis.h"
#include "prefs.h"

#define SCRATCH_ITEMS 256

static struct rr_analyzer *analyzer;
/* each frame's record by Wireshark's frame number (dense from 1): an
 * index, not a hash, as every frame is looked up several times */
static GPtrArray *frame_records;
/* the record of a frame of an RPC-over-RDMA connection with nothing more
 * to say (an ACK, say): shared, not allocated per frame */
static struct rr_ws_frame on_conn_only = { .on_conn = true };
static GArray *fed_numbers;     /* Wireshark's number of each frame fed */
static guint32 last_fed;
static bool finished;
/* the diagnosis of the file read whole, its frames Wireshark's numbers */
static struct rr_diagnosis_item diagnosis[RR_DIAGNOSIS_COUNT];
static unsigned ndiagnosis;
static size_t kept_bytes;
/* messages of the frame just fed, for its first dissection */
static GByteArray *first_pass_bytes;
static guint32 first_pass_frame;
static struct rr_ws_item scratch[SCRATCH_ITEMS];
static guint32 scratch_frame[SCRATCH_ITEMS];
static unsigned nscratch;

const struct rr_analyzer *rr_ws_analyzer(void)
{
	return analyzer;
}

/* The analyzer counts frames from 1 in the order it was fed. */
static guint32 wireshark_number(uint64_t analyzer_frame)
{
	if (analyzer_frame == 0 || analyzer_frame > fed_numbers->len)
		return 0;
	return g_array_index(fed_numbers, guint32, analyzer_frame - 1);
}

/* A message's header for every later dissection of its frame: Wireshark
 * shows it from the analyzer's decode, not from one of its own. */
static const struct rr_rpcrdma *keep_header(const struct rr_rpcrdma *h)
{
	return wmem_memdup(wmem_file_scope(), h, rr_rpcrdma_size(h));
}

/* An event's bytes: for the frame's first dissection, and while the
 * budget lasts for later ones (the GUI, tshark -2). */
static const uint8_t *keep(const uint8_t *data, uint32_t len, struct rr_ws_item *it)
{
	if (!data)
		return NULL;
	it->first_pass_at = first_pass_bytes->len + 1;
	g_byte_array_append(first_pass_bytes, data, len);
	/* rebuilt and reassembled messages kept for later passes, per file */
	size_t budget = rr_ws_prefs()->rebuilt_memory;
	if (kept_bytes > budget || len > budget - kept_bytes)
		return NULL;
	kept_bytes += len;
	return wmem_memdup(wmem_file_scope(), data, len);
}

const uint8_t *rr_ws_item_bytes(const packet_info *pinfo, const struct rr_ws_item *it)
{
	bool message = it->kind == RR_EV_MESSAGE;
	const uint8_t *kept = message ? it->msg.data : it->rebuilt.data;
	if (kept)
		return kept;
	uint32_t len = message ? it->msg.data_len : it->rebuilt.data_len;
	if (it->first_pass_at && pinfo->num == first_pass_frame && first_pass_bytes &&
	    it->first_pass_at - 1 + len <= first_pass_bytes->len)
		return first_pass_bytes->data + it->first_pass_at - 1;
	return NULL;
}

static struct rr_ws_frame *record_of(guint32 number)
{
	if (!frame_records || number >= frame_records->len)
		return NULL;
	return g_ptr_array_index(frame_records, number);
}

/* The call's message, to note which frame answered it. */
static void note_reply(guint32 call_number, const struct rr_ws_item *reply,
		       guint32 reply_number)
{
	struct rr_ws_frame *r = record_of(call_number);
	for (uint32_t i = 0; r && i < r->nitems; i++) {
		struct rr_ws_item *m = &r->items[i];
		if (m->kind == RR_EV_MESSAGE && m->conn == reply->conn &&
		    m->msg.hdr->xid == reply->msg.hdr->xid && m->other_frame == 0 &&
		    (m->dir == RR_DIR_FWD_CALL || m->dir == RR_DIR_BWD_CALL)) {
			m->other_frame = reply_number;
			return;
		}
	}
}

/* A reply's completion, on the reply's item. */
static void join_done(struct rr_ws_item *m, const struct rr_ev_rpc_done *done,
		      guint32 number)
{
	m->completed = true;
	m->latency_ns = done->latency_ns;
	m->bytes_inline = done->bytes_inline;
	m->bytes_read = done->bytes_read;
	m->bytes_write = done->bytes_write;
	m->other_frame = wireshark_number(done->call_frame);
	note_reply(m->other_frame, m, number);
}

/*
 * What Wireshark's own dissectors do not show of a connection's setup:
 * RFC 8797 private data in an MPA Request or Reply (its MPA dissector
 * offers no table to show it from), the reason of an IB CM REJ (shown as a
 * number).  False when there is nothing to add.
 */
static bool setup_item(const struct rr_frame *f, struct rr_ws_item *it)
{
	if (rr_has(f, RR_LAYER_MPA) && rr_has(f, RR_LAYER_CM_PRIVATE) &&
	    f->cm_private.status == RR_COMPLETE) {
		it->kind = RR_WS_MPA_PRIVATE;
		it->dir = f->mpa.reply;
		it->private_data = wmem_memdup(wmem_file_scope(), &f->cm_private,
					       sizeof(f->cm_private));
		return true;
	}
	if (rr_has(f, RR_LAYER_CM) && f->cm.attr_id == RR_CM_REJ) {
		it->kind = RR_WS_CM_REJECT;
		/* 0, no reason (IBA's start at 1): cut before it */
		it->reject_reason = f->cm.fixed_read ? f->cm.reject_reason : 0;
		return true;
	}
	return false;
}

/* What the renderers need of the connection c, as it stood. */
static struct rr_ws_conn conn_view(const struct rr_conn_info *c)
{
	if (!c)
		return (struct rr_ws_conn){ 0 };
	return (struct rr_ws_conn){
		.requester_id = c->requester_qpn, .responder_id = c->responder_qpn,
		.iwarp = c->transport == RR_TRANSPORT_IWARP,
		.negotiated = c->negotiated, .grant_known = rr_conn_grant_known(c),
		.thresholds = c->thresholds,
	};
}

static void take_event(const struct rr_event *ev)
{
	guint32 number = wireshark_number(ev->frame);
	/* a completion is its reply's (RR_EV_MESSAGE done) */
	if (nscratch == SCRATCH_ITEMS || ev->kind == RR_EV_RPC_DONE ||
	    ev->kind == RR_EV_CONN_OPEN || ev->kind == RR_EV_CONN_CLOSE)
		return;
	struct rr_ws_item *it = &scratch[nscratch];
	memset(it, 0, sizeof(*it));
	it->kind = (uint8_t)ev->kind;
	it->conn = ev->conn;
	it->dir = ev->dir;
	it->connection = conn_view(ev->connection);
	switch (ev->kind) {
	case RR_EV_MESSAGE: {
		struct rr_ev_message *m = &it->msg;
		*m = ev->msg;
		m->done = m->rebuilt = NULL;
		m->rpc = NULL;
		m->nfs4 = NULL;
		m->hdr = keep_header(ev->msg.hdr);
		m->resent_of = m->resent_of ? wireshark_number(m->resent_of) : 0;
		/* whole in this frame, or kept: a SEND of several packets, or
		 * one reassembled from a TCP stream */
		if (m->frame_at) {
			m->data = NULL;
		} else {
			m->data_len = MIN(m->data_len, m->msg_len);
			m->data = keep(ev->msg.data, m->data_len, it);
		}
		if (ev->msg.done)
			join_done(it, &ev->msg.done->done, number);
		break;
	}
	case RR_EV_RPC_MESSAGE:
		it->rebuilt = ev->rebuilt;
		it->rebuilt.rpc = NULL;
		it->rebuilt.data = keep(ev->rebuilt.data, ev->rebuilt.data_len, it);
		break;
	case RR_EV_CHUNK_DATA:
		it->chunk = ev->chunk;
		break;
	case RR_EV_RETRANSMISSION:
		it->retransmission = ev->retransmission;
		it->retransmission.original_frame = ev->retransmission.original_frame ?
			wireshark_number(ev->retransmission.original_frame) : 0;
		it->retransmission.rpc = NULL;
		if (ev->retransmission.hdr)
			it->retransmission.hdr = keep_header(ev->retransmission.hdr);
		break;
	case RR_EV_FINDING:
		it->finding.id = ev->finding.id;
		it->finding.detail = ev->finding.detail ?
			wmem_strdup(wmem_file_scope(), ev->finding.detail) : NULL;
		break;
	case RR_EV_NEGOTIATED:
		break;
	case RR_EV_SETUP:
		if (!setup_item(ev->setup.unit, it))
			return;
		break;
	default:
		return;
	}
	scratch_frame[nscratch++] = number;
}

/* A frame's setup items after its other ones: the analysis tree lists
 * what the analyzer found (findings first) before what Wireshark's own
 * dissectors leave out of a setup. */
static void take_report(const struct rr_frame_report *r)
{
	for (uint32_t i = 0; i < r->nevents; i++)
		if (r->events[i].kind != RR_EV_SETUP)
			take_event(&r->events[i]);
	for (uint32_t i = 0; i < r->nevents; i++)
		if (r->events[i].kind == RR_EV_SETUP)
			take_event(&r->events[i]);
}

/* Add the scratch items of frame `number` to its record. */
static void store(guint32 number, bool on_conn)
{
	uint32_t n = 0;
	for (unsigned i = 0; i < nscratch; i++)
		n += scratch_frame[i] == number;
	struct rr_ws_frame *old = record_of(number);
	if (!n && !on_conn)
		return;
	if (number >= frame_records->len)
		g_ptr_array_set_size(frame_records, (guint)number + 1);
	if (!n && !old) {
		frame_records->pdata[number] = &on_conn_only;
		return;
	}
	uint32_t have = old ? old->nitems : 0;
	struct rr_ws_frame *r = wmem_alloc0(wmem_file_scope(),
		sizeof(*r) + (have + n) * sizeof(struct rr_ws_item));
	if (old) {
		memcpy(r, old, sizeof(*r) + have * sizeof(struct rr_ws_item));
		if (old != &on_conn_only)
			wmem_free(wmem_file_scope(), old);
	}
	r->on_conn |= on_conn;
	for (unsigned i = 0; i < nscratch; i++)
		if (scratch_frame[i] == number)
			r->items[r->nitems++] = scratch[i];
	frame_records->pdata[number] = r;
}

/* libdissect's link type of a frame, through Wireshark's own mapping. */
static const uint32_t links[] = {
#define RR_X_LINK(sym, val, str) val,
	RR_LINK_LIST(RR_X_LINK)
#undef RR_X_LINK
};
static int link_encaps[G_N_ELEMENTS(links)]; /* Wireshark's numbers of them */

static int link_type_of(const packet_info *pinfo)
{
	if (pinfo->rec->rec_type != REC_TYPE_PACKET)
		return -1;
	int wtap_encap = pinfo->rec->rec_header.packet_header.pkt_encap;
	for (size_t i = 0; i < G_N_ELEMENTS(links); i++)
		if (link_encaps[i] == wtap_encap)
			return (int)links[i];
	return -1;
}

static struct rr_config decode_cfg; /* the analyzer's, for a frame decoded alone */

/* The frame's whole bytes, its libdissect link type, or false. */
static bool frame_bytes(const packet_info *pinfo, uint32_t *link, const uint8_t **bytes,
			uint32_t *captured, uint32_t *reported)
{
	int l = link_type_of(pinfo);
	if (l < 0 || !pinfo->data_src)
		return false;
	/* the first data source is the whole frame */
	tvbuff_t *frame = get_data_source_tvb(pinfo->data_src->data);
	*captured = tvb_captured_length(frame);
	*reported = tvb_reported_length(frame);
	*bytes = *captured ? tvb_get_ptr(frame, 0, (gint)*captured) : NULL;
	*link = (uint32_t)l;
	return *bytes != NULL;
}

static void feed(packet_info *pinfo)
{
	if (!analyzer || pinfo->num <= last_fed)
		return;
	last_fed = pinfo->num;
	uint32_t link, captured, reported;
	const uint8_t *bytes;
	if (!frame_bytes(pinfo, &link, &bytes, &captured, &reported))
		return;
	uint64_t ts = (uint64_t)pinfo->abs_ts.secs * 1000000000u +
		      (uint64_t)pinfo->abs_ts.nsecs;
	nscratch = 0;
	g_byte_array_set_size(first_pass_bytes, 0);
	first_pass_frame = pinfo->num;
	g_array_append_val(fed_numbers, pinfo->num);
	const struct rr_frame_report *r =
		rr_analyzer_frame(analyzer, link, ts, bytes, captured, reported);
	take_report(r);
	store(pinfo->num, r->units.rpcrdma > 0);
	nscratch = 0;
}

/* The first pass is over: raise the end-of-capture findings on the frames
 * they name. */
static void finish(void)
{
	finished = true;
	for (const struct rr_frame_report *r; (r = rr_analyzer_finish(analyzer));) {
		nscratch = 0;
		take_report(r);
		for (unsigned i = 0; i < nscratch; i++) {
			guint32 number = scratch_frame[i];
			bool stored = false;
			for (unsigned j = 0; j < i; j++)
				stored |= scratch_frame[j] == number;
			if (!stored)
				store(number, false);
		}
	}
	nscratch = 0;
	unsigned n = rr_diagnose(analyzer, diagnosis, RR_DIAGNOSIS_COUNT);
	ndiagnosis = n < RR_DIAGNOSIS_COUNT ? n : RR_DIAGNOSIS_COUNT;
	for (unsigned i = 0; i < ndiagnosis; i++) {
		diagnosis[i].frames.first = wireshark_number(diagnosis[i].frames.first);
		diagnosis[i].frames.last = wireshark_number(diagnosis[i].frames.last);
	}
}

const struct rr_diagnosis_item *rr_ws_diagnosis(unsigned *n)
{
	*n = finished ? ndiagnosis : 0;
	return diagnosis;
}

bool rr_ws_payload_tagged(packet_info *pinfo, tvbuff_t *payload)
{
	static struct rr_frame f; /* large; Wireshark dissects one frame at a time */
	uint32_t link, captured, reported;
	const uint8_t *bytes;
	if (!frame_bytes(pinfo, &link, &bytes, &captured, &reported) ||
	    !rr_decode_frame(&decode_cfg, link, bytes, captured, reported, NULL, &f))
		return false;
	gint at = tvb_raw_offset(payload);
	guint len = tvb_reported_length(payload);
	guint have = tvb_captured_length(payload);
	guint cmp = MIN(have, 32u);
	const guint8 *head = cmp ? tvb_get_ptr(payload, 0, (gint)cmp) : NULL;
	do {
		if (!rr_has(&f, RR_LAYER_DDP))
			continue;
		if (at >= 0 && !f.demarked && f.payload.off == (uint32_t)at)
			return f.ddp.tagged;
		/* a copy without the MPA markers: the payload of its length
		 * and first bytes */
		if (f.payload.len == len && head && f.payload.off <= f.unit_cap &&
		    cmp <= f.unit_cap - f.payload.off &&
		    !memcmp(f.unit_data + f.payload.off, head, cmp))
			return f.ddp.tagged;
	} while (rr_decode_next_unit(&decode_cfg, &f));
	return false;
}

const struct rr_ws_frame *rr_ws_frame_of(packet_info *pinfo)
{
	if (!analyzer)
		return NULL;
	if (!PINFO_FD_VISITED(pinfo))
		feed(pinfo);
	else if (!finished)
		finish();
	return record_of(pinfo->num);
}

void rr_ws_analysis_init(void)
{
	const struct rr_ws_prefs *prefs = rr_ws_prefs();
	struct rr_config cfg;
	struct rr_analyzer_limits lim;
	rr_config_init(&cfg);
	cfg.flags |= RR_CFG_CHUNK_EVENTS;
	cfg.roce_udp_port = prefs->roce_udp_port;
	cfg.iwarp_tcp_port = prefs->iwarp_tcp_port;
	decode_cfg = cfg;
	rr_analyzer_limits_init(&lim);
	/* SENDs of several packets whole, for the rpc dissector: a 64 KiB
	 * inline threshold is as large as implementations go */
	lim.send_keep = 65536;
	/* the bytes of messages reassembled or rebuilt in a frame, for its
	 * first dissection: a TCP segment's worth of SENDs and rebuilt
	 * messages of the largest size */
	lim.report_bytes = 4u << 20;
	/* without analysis each header is decoded on its own */
	analyzer = prefs->analyze ? rr_analyzer_new(&cfg, &lim) : NULL;
	frame_records = g_ptr_array_new();
	fed_numbers = g_array_new(FALSE, FALSE, sizeof(guint32));
	first_pass_bytes = g_byte_array_new();
	first_pass_frame = 0;
	for (size_t i = 0; i < G_N_ELEMENTS(links); i++)
		link_encaps[i] = wtap_pcap_encap_to_wtap_encap((int)links[i]);
	last_fed = 0;
	finished = false;
	ndiagnosis = 0;
	kept_bytes = 0;
	nscratch = 0;
}

void rr_ws_analysis_cleanup(void)
{
	rr_analyzer_free(analyzer);
	analyzer = NULL;
	if (fed_numbers)
		g_array_free(fed_numbers, TRUE);
	fed_numbers = NULL;
	if (first_pass_bytes)
		g_byte_array_free(first_pass_bytes, TRUE);
	first_pass_bytes = NULL;
	/* the records themselves go with the file's memory */
	if (frame_records)
		g_ptr_array_free(frame_records, TRUE);
	frame_records = NULL;
}
