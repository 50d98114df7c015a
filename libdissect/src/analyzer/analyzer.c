/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The stateful analyzer.  Per connection it follows the negotiation
 * (RFC 8797 §3.1), credits (RFC 8166 §3.3.1, RFC 8167 §4.1), calls and
 * replies, and the RDMA traffic of each chunk (§3.4), and raises the
 * findings of RR_FINDING_LIST.
 *
 * Every table is allocated once from the limits.  Connections and calls
 * are found through hash chains and lists (analyzer-int.h); a full table
 * evicts the least recently used entry and counts it.  This file: the
 * analyzer's life and a frame's dispatch to the transports' flows.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyzer-int.h"

void rr_analyzer_limits_init(struct rr_analyzer_limits *lim)
{
	lim->max_connections = 4096;
	lim->max_calls = 65536;
	lim->max_segments = 262144;
	lim->max_message = 262144;
	lim->send_keep = HDR_KEEP;
	lim->reassembly_slots = 256;
	lim->tcp_streams = 16;
	lim->call_timeout_ms = 60000;
	lim->rebuild_slots = 256;
	lim->rebuild_bytes = 8u << 20;
	lim->max_rebuild = 1u << 20;
	lim->report_bytes = 0;
}

static void *alloc(struct rr_analyzer *a, size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	a->memory += n * size;
	return p;
}

static uint32_t pow2_at_least(uint32_t n)
{
	uint32_t p = 64;
	while (p < n && p < (1u << 30))
		p <<= 1;
	return p;
}

struct rr_analyzer *rr_analyzer_new(const struct rr_config *cfg,
				    const struct rr_analyzer_limits *lim)
{
	struct rr_analyzer *a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->memory = sizeof(*a);
	a->cfg = *cfg;
	if (lim)
		a->lim = *lim;
	else
		rr_analyzer_limits_init(&a->lim);
	a->conn_hash_size = pow2_at_least(a->lim.max_connections * 2);
	a->call_hash_size = pow2_at_least(a->lim.max_calls);
	a->seg_hash_size = pow2_at_least(a->lim.max_segments);
	a->conns = alloc(a, a->lim.max_connections, sizeof(struct conn));
	a->conn_hash = alloc(a, a->conn_hash_size, sizeof(uint32_t));
	a->list_hash_size = pow2_at_least(a->lim.max_connections);
	for (unsigned l = LIST_HALF; l < LISTS; l++)
		a->list_heads[l] = alloc(a, a->list_hash_size, sizeof(uint32_t));
	a->calls = alloc(a, a->lim.max_calls, sizeof(struct call));
	a->call_hash = alloc(a, a->call_hash_size, sizeof(uint32_t));
	a->segs = alloc(a, a->lim.max_segments, sizeof(struct seg));
	a->seg_hash = alloc(a, a->seg_hash_size, sizeof(uint32_t));
	if (!a->lim.send_keep)
		a->lim.send_keep = HDR_KEEP;
	a->rsm = alloc(a, a->lim.reassembly_slots, sizeof(struct rsm));
	a->rsm_bytes = alloc(a, a->lim.reassembly_slots, a->lim.send_keep);
	a->streams = alloc(a, a->lim.tcp_streams, sizeof(struct stream));
	a->pool_pages = a->lim.rebuild_bytes / POOL_PAGE;
	if (!a->lim.max_rebuild || !a->pool_pages)
		a->lim.rebuild_slots = 0;
	if (a->lim.rebuild_slots >= NO_REBUILD)
		a->lim.rebuild_slots = NO_REBUILD - 1;
	if (!a->lim.rebuild_slots)
		a->pool_pages = 0;
	a->rebuilds = alloc(a, a->lim.rebuild_slots, sizeof(struct rebuild));
	a->pool = alloc(a, a->pool_pages, POOL_PAGE);
	a->pool_used = alloc(a, (a->pool_pages + 63) / 64, sizeof(uint64_t));
	a->rebuilt = alloc(a, a->lim.rebuild_slots ? a->lim.max_rebuild : 0, 1);
	a->hold.bytes = alloc(a, HELD_PACKETS, HELD_PACKET_BYTES);
	if (!rra_report_alloc(a, alloc) || !a->conns || !a->conn_hash ||
	    !a->list_heads[LIST_HALF] || !a->list_heads[LIST_PAIR] ||
	    !a->list_heads[LIST_COMM] || !a->calls || !a->call_hash ||
	    !a->segs || !a->seg_hash || !a->rsm || !a->rsm_bytes || !a->streams ||
	    !a->rebuilds || !a->pool || !a->pool_used || !a->rebuilt || !a->hold.bytes) {
		rr_analyzer_free(a);
		return NULL;
	}
	for (uint32_t i = 0; i < a->conn_hash_size; i++)
		a->conn_hash[i] = NONE;
	for (unsigned l = LIST_HALF; l < LISTS; l++)
		for (uint32_t i = 0; i < a->list_hash_size; i++)
			a->list_heads[l][i] = NONE;
	a->lru_first = a->lru_last = NONE;
	a->oldest_call = a->newest_call = NONE;
	a->ep_seen[0].conn = a->ep_seen[1].conn = NONE;
	for (uint32_t i = 0; i < a->call_hash_size; i++)
		a->call_hash[i] = NONE;
	for (uint32_t i = 0; i < a->seg_hash_size; i++)
		a->seg_hash[i] = NONE;
	for (uint32_t i = 0; i < a->lim.rebuild_slots; i++)
		a->rebuilds[i].call = NONE;
	/* calls and segments are taken in index order before any freed one
	 * is reused (calls.c): a short capture touches few of their pages */
	a->free_call = a->free_seg = NONE;
	for (unsigned i = 0; i < RECENT; i++)
		a->recent[i] = 0;
	for (uint32_t i = 0; i < a->lim.reassembly_slots; i++)
		a->rsm[i].bytes = a->rsm_bytes + (size_t)i * a->lim.send_keep;
	return a;
}

void rr_analyzer_free(struct rr_analyzer *a)
{
	if (!a)
		return;
	free(a->conns);
	free(a->conn_hash);
	for (unsigned l = LIST_HALF; l < LISTS; l++)
		free(a->list_heads[l]);
	free(a->calls);
	free(a->call_hash);
	free(a->segs);
	free(a->seg_hash);
	free(a->rsm);
	free(a->rsm_bytes);
	free(a->streams);
	free(a->rebuilds);
	free(a->pool);
	free(a->pool_used);
	free(a->rebuilt);
	free(a->hold.bytes);
	rra_report_free(a);
	free(a);
}

const struct rr_stats *rr_analyzer_stats(const struct rr_analyzer *a)
{
	return &a->st;
}

uint32_t rr_analyzer_conn_count(const struct rr_analyzer *a)
{
	return a->nconns;
}

const struct rr_conn_info *rr_analyzer_conn(const struct rr_analyzer *a,
					    uint32_t i)
{
	return i < a->nconns && a->conns[i].used && a->conns[i].rpcrdma ?
		       &a->conns[i].info : NULL;
}

const char *rr_addr_str(uint8_t transport, const uint8_t p[16], char *buf, size_t size)
{
	static const uint8_t zero[16];
	if ((transport == RR_TRANSPORT_ROCEV2 || transport == RR_TRANSPORT_IWARP) &&
	    !memcmp(p + 4, zero, 12)) {
		inet_ntop(AF_INET, p, buf, (socklen_t)size);
	} else if (transport == RR_TRANSPORT_IB && !memcmp(p + 2, zero, 14)) {
		snprintf(buf, size, "lid 0x%04x", (unsigned)(p[0] << 8 | p[1]));
	} else {
		inet_ntop(AF_INET6, p, buf, (socklen_t)size);
	}
	return buf;
}

const char *rr_conn_addr_str(const struct rr_conn_info *c, bool responder,
			     char *buf, size_t size)
{
	return rr_addr_str(c->transport, responder ? c->responder_addr : c->requester_addr,
			   buf, size);
}

const struct rr_analyzer_limits *rr_analyzer_limits(const struct rr_analyzer *a)
{
	return &a->lim;
}

size_t rr_analyzer_memory(const struct rr_analyzer *a)
{
	return a->memory;
}

static void frame_findings(struct rr_analyzer *a, const struct rr_frame *f)
{
	if (rr_has(f, RR_LAYER_ICRC) && f->icrc.state == RR_CRC_BAD)
		rra_finding(a, NONE, RR_FIND_ICRC, NULL);
	else if (rr_has(f, RR_LAYER_DDP) && f->fpdu.crc_state == RR_CRC_BAD)
		rra_finding(a, NONE, RR_FIND_CRC32C, NULL);
	else if (f->status == RR_MALFORMED && f->bad_layer != RR_LAYER_CM_PRIVATE)
		rra_finding(a, NONE, RR_FIND_MALFORMED,
			    rr_layer_str(f->bad_layer));
}

const struct rr_frame_report *
rr_analyzer_frame(struct rr_analyzer *a, uint32_t link, uint64_t ts_ns,
		  const uint8_t *data, uint32_t caplen, uint32_t wirelen)
{
	uint64_t frame_no = ++a->frame_no;
	a->now_ns = ts_ns;
	a->st.frames++;
	struct rr_frame *f = &a->f;
	struct rr_frame_summary *units = &a->rep.pub.units;
	bool counted_trunc = false, counted_bad = false, streamed = false;
	rra_report_begin(a, frame_no, ts_ns, data, caplen);
	for (bool more = rr_decode_frame(&a->cfg, link, data, caplen, wirelen,
					 NULL, f);
	     more; more = rr_decode_next_unit(&a->cfg, f)) {
		if (a->cfg.flags & RR_CFG_LIST_UNITS)
			rra_report_unit(a, f);
		bool setup = rr_has(f, RR_LAYER_CM) || rr_has(f, RR_LAYER_MPA);
		uint32_t setup_event = setup ? rra_report_setup(a, f) : RR_REPORT_EVENTS;
		if (rr_has(f, RR_LAYER_ICRC)) {
			units->icrc_good += f->icrc.state == RR_CRC_GOOD;
			units->icrc_bad += f->icrc.state == RR_CRC_BAD;
		}
		units->cm += rr_has(f, RR_LAYER_CM);
		units->mpa += rr_has(f, RR_LAYER_MPA);
		if (rr_has(f, RR_LAYER_TCP) && f->unit_index == 0 &&
		    (f->tcp.flags & (RR_TCP_FIN | RR_TCP_RST)))
			rra_tcp_end(a, f);
		/* Any TCP segment may belong to an iWARP connection MPA
		 * opened: on a port not configured as iWARP, one that starts
		 * mid-FPDU does not look like iWARP by itself (senders need
		 * not align FPDUs with segments: Linux 6.12's siw does not
		 * always).  The flow finds its connection or declines it. */
		if (rr_has(f, RR_LAYER_TCP) && !rr_has(f, RR_LAYER_MPA)) {
			/* FPDUs come from the reassembled stream, not this
			 * segment alone: only its own layers count here */
			if (!streamed)
				streamed = rra_iwarp_segment(a, f);
			if (streamed) {
				/* a cut segment is a truncated frame (its
				 * stream has a gap); the rest is the stream's */
				if (caplen < wirelen) {
					a->st.frames_truncated++;
					if (!(a->cfg.flags & RR_CFG_CUTS_EXPECTED))
						rra_finding(a, NONE, RR_FIND_TRUNCATED, "TCP");
				} else if (f->status == RR_MALFORMED &&
					   f->bad_layer < RR_LAYER_MPA) {
					a->st.frames_malformed++;
					frame_findings(a, f);
				}
				if (a->cfg.flags & RR_CFG_LIST_UNITS)
					rra_report_segment_units(a, f);
				break;
			}
		}
		if (f->status == RR_TRUNCATED && !counted_trunc) {
			counted_trunc = true;
			a->st.frames_truncated++;
			if (!(a->cfg.flags & RR_CFG_CUTS_EXPECTED))
				rra_finding(a, NONE, RR_FIND_TRUNCATED,
					    rr_layer_str(f->bad_layer));
		}
		/* a segment no followed stream takes may begin mid-FPDU:
		 * its FPDU layers are no evidence, its own layers are */
		bool unfollowed = rr_has(f, RR_LAYER_TCP) &&
				  !rr_has(f, RR_LAYER_MPA) &&
				  f->bad_layer >= RR_LAYER_MPA;
		if (f->status == RR_MALFORMED && !counted_bad && !unfollowed) {
			counted_bad = true;
			a->st.frames_malformed++;
			frame_findings(a, f);
		}
		if (rr_has(f, RR_LAYER_CM))
			rra_cm(a, f);
		else if (rr_has(f, RR_LAYER_BTH))
			rra_ib_packet(a, f);
		else if (rr_has(f, RR_LAYER_MPA))
			rra_iwarp_mpa(a, f);
		if (setup)
			rra_report_conn(a, setup_event, units->conn);
	}
	return &a->rep.pub;
}

void rr_analyzer_dropped(struct rr_analyzer *a, uint64_t n)
{
	a->st.frames_dropped += n;
}

const struct rr_frame_report *rr_analyzer_finish(struct rr_analyzer *a)
{
	struct report *r = &a->rep;
	uint32_t i = r->finish_at;
	if (i >= a->lim.max_calls)
		return NULL;
	rra_report_begin(a, a->frame_no, a->now_ns, NULL, 0);
	/* packets held past a gap no resend filled: the capture's loss */
	rra_ib_hold_release(a, true);
	/* a finding per call at most: stop while one more fits */
	for (; i < a->calls_taken && r->pub.nevents < RR_REPORT_EVENTS; i++) {
		struct call *c = &a->calls[i];
		if (!c->used)
			continue;
		if (c->rrc_pending)
			rra_finding(a, c->conn, RR_FIND_RRC_NOT_RELEASED, NULL);
		else if (!c->answered && c->dir == RR_DIR_FWD_CALL) {
			a->conns[c->conn].info.st.unmatched++;
			rra_resend_unanswered(a, i);
		}
		rra_call_end(a, i);
	}
	r->finish_at = i < a->calls_taken ? i : a->lim.max_calls;
	if (r->pub.nevents)
		return &r->pub;
	return rr_analyzer_finish(a);
}
