/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The report of a frame: every event the analyzer raised while it took
 * the frame, in order, with what a front end needs to render them after
 * the frame is taken (the headers, RPC headers and bytes they point to).
 * A message's completion, rebuilt RPC message and findings are joined to
 * it here, where it is known which message raised them, so that no front
 * end has to regroup events.
 */
#include <stdlib.h>

#include "analyzer-int.h"
#include "cursor.h"

bool rra_report_alloc(struct rr_analyzer *a,
		      void *(*alloc)(struct rr_analyzer *, size_t, size_t))
{
	struct report *r = &a->rep;
	r->events = alloc(a, RR_REPORT_EVENTS, sizeof(*r->events));
	r->rpcs = alloc(a, RR_REPORT_EVENTS, sizeof(*r->rpcs));
	r->hdrs = alloc(a, RR_REPORT_MESSAGES, sizeof(*r->hdrs));
	r->conns = alloc(a, RR_REPORT_EVENTS, sizeof(*r->conns));
	r->units = alloc(a, RR_REPORT_SETUPS, sizeof(*r->units));
	r->listed = alloc(a, a->cfg.flags & RR_CFG_LIST_UNITS ? RR_REPORT_UNITS + 1 : 0,
			  sizeof(*r->listed));
	r->pub.unit_list = r->listed;
	r->nfs4 = alloc(a, RR_REPORT_EVENTS, sizeof(*r->nfs4));
	r->bytes = alloc(a, a->lim.report_bytes, 1);
	r->pub.events = r->events;
	return r->events && r->rpcs && r->hdrs && r->conns && r->units && r->listed &&
	       r->nfs4 && r->bytes;
}

void rra_report_free(struct rr_analyzer *a)
{
	free(a->rep.events);
	free(a->rep.rpcs);
	free(a->rep.hdrs);
	free(a->rep.conns);
	free(a->rep.units);
	free(a->rep.listed);
	free(a->rep.nfs4);
	free(a->rep.bytes);
}

void rra_report_begin(struct rr_analyzer *a, uint64_t frame_no, uint64_t ts_ns,
		      const uint8_t *frame, uint32_t len)
{
	struct report *r = &a->rep;
	r->pub.frame = frame_no;
	r->pub.ts_ns = ts_ns;
	r->pub.decoded = frame ? &a->f : NULL;
	memset(&r->pub.units, 0, sizeof(r->pub.units));
	r->pub.units.conn = r->pub.units.conn_id = RR_CONN_NONE;
	r->pub.nevents = r->pub.unreported = r->pub.bytes_unkept = 0;
	r->pub.nunit_list = r->pub.units_unlisted = 0;
	r->nhdrs = r->nconns = r->nunits = 0;
	r->message = NULL;
	r->frame = frame;
	r->frame_len = len;
	r->bytes_used = 0;
}

/* The bytes of a message or rebuilt RPC message (data, len), for as long
 * as the report lasts: where they lie in the caller's frame, else a copy,
 * else NULL.  Whether they lie in the frame. */
static bool keep_bytes(struct rr_analyzer *a, const uint8_t **data, uint32_t len)
{
	struct report *r = &a->rep;
	const uint8_t *d = *data;
	if (!d)
		return false;
	if (r->frame && d >= r->frame && (size_t)(d - r->frame) <= r->frame_len &&
	    len <= r->frame_len - (size_t)(d - r->frame))
		return true;
	if (a->lim.report_bytes - r->bytes_used < len) {
		if (a->lim.report_bytes)
			r->pub.bytes_unkept++;
		*data = NULL;
		return false;
	}
	uint8_t *to = r->bytes + r->bytes_used;
	memcpy(to, d, len);
	r->bytes_used += len;
	*data = to;
	return false;
}

/* An RPC header, for as long as the report lasts (in the slot of event i). */
static const struct rr_rpc *keep_rpc(struct report *r, uint32_t i, const struct rr_rpc *rpc)
{
	if (!rpc)
		return NULL;
	r->rpcs[i] = *rpc;
	return &r->rpcs[i];
}

/* A message's header, its chunk segments in use only (the whole array is
 * 2 KiB). */
static const struct rr_rpcrdma *keep_header(struct report *r,
					    const struct rr_rpcrdma *h)
{
	struct rr_rpcrdma *to = &r->hdrs[r->nhdrs++];
	memcpy(to, h, rr_rpcrdma_size(h));
	return to;
}

/* A retransmitted SEND's headers as the frame's decode read them, their
 * offsets made its message's as a message event's are. */
static void keep_retransmitted(struct report *r, uint32_t i,
			       struct rr_ev_retransmission *rt)
{
	uint32_t base = rt->hdr->off;
	struct rr_rpcrdma *to = &r->hdrs[r->nhdrs++];
	rr_rpcrdma_rebase(to, rt->hdr, base);
	rt->hdr = to;
	if (rt->rpc) {
		rr_rpc_rebase(&r->rpcs[i], rt->rpc, base);
		rt->rpc = &r->rpcs[i];
	}
}

/* The connection of an event as it stands now: the last one kept when it
 * has not changed since (a frame's events are mostly on one). */
static const struct rr_conn_info *keep_conn(struct rr_analyzer *a, uint32_t conn)
{
	struct report *r = &a->rep;
	if (conn >= a->nconns)
		return NULL;
	const struct rr_conn_info *now = &a->conns[conn].info;
	if (r->nconns && !memcmp(&r->conns[r->nconns - 1], now, sizeof(*now)))
		return &r->conns[r->nconns - 1];
	r->conns[r->nconns] = *now;
	return &r->conns[r->nconns++];
}

/* The connection of the event at index i, once the analyzer took the unit
 * that raised it (a setup's connection is known after). */
void rra_report_conn(struct rr_analyzer *a, uint32_t i, uint32_t conn)
{
	struct report *r = &a->rep;
	if (i >= r->pub.nevents)
		return;
	struct rr_event *e = &r->events[i];
	e->conn = conn;
	e->conn_id = conn < a->nconns ? a->conns[conn].info.id : RR_CONN_NONE;
	e->connection = keep_conn(a, conn);
}

/* A connection's setup or teardown message: listed with the unit as
 * decoded, before what it causes.  Its index in the report, or
 * RR_REPORT_EVENTS when not listed. */
uint32_t rra_report_setup(struct rr_analyzer *a, const struct rr_frame *f)
{
	struct report *r = &a->rep;
	if (!rra_reporting(a))
		return RR_REPORT_EVENTS;
	if (r->nunits == RR_REPORT_SETUPS || r->pub.nevents == RR_REPORT_EVENTS) {
		r->pub.unreported++;
		return RR_REPORT_EVENTS;
	}
	struct rr_frame *unit = &r->units[r->nunits++];
	*unit = *f;
	struct rr_event ev = { .kind = RR_EV_SETUP, .conn = NONE, .setup = { .unit = unit },
			       .frame = a->frame_no, .ts_ns = a->now_ns,
			       .conn_id = RR_CONN_NONE };
	r->events[r->pub.nevents] = ev;
	return r->pub.nevents++;
}

void rra_report_unit(struct rr_analyzer *a, const struct rr_frame *f)
{
	struct report *r = &a->rep;
	if (r->pub.nunit_list < RR_REPORT_UNITS)
		r->listed[r->pub.nunit_list++] = *f;
	else
		r->pub.units_unlisted++;
}

void rra_report_segment_units(struct rr_analyzer *a, const struct rr_frame *segment)
{
	struct rr_frame *f = &a->rep.listed[RR_REPORT_UNITS];
	*f = *segment;
	while (rr_decode_next_unit(&a->cfg, f))
		rra_report_unit(a, f);
}

void rra_emit(struct rr_analyzer *a, struct rr_event *ev)
{
	struct report *r = &a->rep;
	ev->frame = a->frame_no;
	ev->ts_ns = a->now_ns;
	ev->conn_id = ev->conn < a->nconns ? a->conns[ev->conn].info.id : RR_CONN_NONE;
	if (!rra_reporting(a))
		return;
	bool message = ev->kind == RR_EV_MESSAGE;
	bool header = message ||
		      (ev->kind == RR_EV_RETRANSMISSION && ev->retransmission.hdr);
	if (r->pub.nevents == RR_REPORT_EVENTS ||
	    (header && r->nhdrs == RR_REPORT_MESSAGES)) {
		r->pub.unreported++;
		if (message)
			r->message = NULL;
		return;
	}
	uint32_t i = r->pub.nevents++;
	struct rr_event *e = &r->events[i];
	*e = *ev;
	e->connection = keep_conn(a, ev->conn);
	switch (ev->kind) {
	case RR_EV_MESSAGE: {
		struct rr_ev_message *m = &e->msg;
		m->hdr = keep_header(r, m->hdr);
		m->rpc = keep_rpc(r, i, m->rpc);
		if (keep_bytes(a, &m->data, m->data_len) && m->data_len == m->msg_len)
			m->frame_at = (uint32_t)(m->data - r->frame) + 1;
		r->message = e;
		return;
	}
	case RR_EV_RPC_DONE:
		if (e->done.nfs4) {
			r->nfs4[i] = *e->done.nfs4;
			e->done.nfs4 = &r->nfs4[i];
		}
		break;
	case RR_EV_RETRANSMISSION:
		if (e->retransmission.hdr)
			keep_retransmitted(r, i, &e->retransmission);
		break;
	case RR_EV_RPC_MESSAGE:
		e->rebuilt.rpc = keep_rpc(r, i, e->rebuilt.rpc);
		if (e->rebuilt.nfs4) {
			r->nfs4[i] = *e->rebuilt.nfs4;
			e->rebuilt.nfs4 = &r->nfs4[i];
		}
		keep_bytes(a, &e->rebuilt.data, e->rebuilt.data_len);
		break;
	default:
		break;
	}
	/* what the message being taken raised is joined to it; its own RPC's
	 * completion and rebuilt message are named on it (the xid tells a
	 * rebuilt call's from another) */
	struct rr_event *m = r->message;
	if (!m || (ev->kind != RR_EV_FINDING && ev->kind != RR_EV_RPC_DONE &&
		   ev->kind != RR_EV_RPC_MESSAGE))
		return;
	e->message = m;
	if (ev->kind == RR_EV_RPC_DONE && !m->msg.done && e->done.xid == m->msg.hdr->xid)
		m->msg.done = e;
	if (ev->kind == RR_EV_RPC_MESSAGE && !m->msg.rebuilt &&
	    e->rebuilt.xid == m->msg.hdr->xid)
		m->msg.rebuilt = e;
}

/* The operations of an NFSv4 COMPOUND call, once its message (the one
 * being taken, listed before the call was made) was decoded further. */
void rra_report_message_ops(struct rr_analyzer *a, uint32_t xid,
			    const struct rr_nfs4_compound *ops)
{
	struct report *r = &a->rep;
	struct rr_event *m = r->message;
	if (!m || m->kind != RR_EV_MESSAGE || m->msg.hdr->xid != xid)
		return;
	uint32_t i = (uint32_t)(m - r->events);
	r->nfs4[i] = *ops;
	m->msg.nfs4 = &r->nfs4[i];
}

/* The NFS status of the reply being taken, once its message was rebuilt
 * from its reply chunk (after its completion was listed). */
/* The completion of xid that this frame's message reported, NULL when it
 * reported none: the report's own event, writable where it lies. */
static struct rr_event *reported_done(struct rr_analyzer *a, uint32_t xid)
{
	struct rr_event *m = a->rep.message;
	if (!m || m->kind != RR_EV_MESSAGE || !m->msg.done || m->msg.done->done.xid != xid)
		return NULL;
	return &a->rep.events[m->msg.done - a->rep.events];
}

void rra_report_reply_nfs(struct rr_analyzer *a, uint32_t xid,
			  const struct rr_nfs_reply *nfs)
{
	struct rr_event *done = reported_done(a, xid);
	if (!done)
		return;
	done->done.nfs_known = true;
	done->done.nfs = *nfs;
}

void rra_report_reply_status(struct rr_analyzer *a, uint32_t xid,
			     enum rr_reply_status status)
{
	struct rr_event *done = reported_done(a, xid);
	if (done)
		done->done.reply_status = (uint8_t)status;
}

/* A finding (RR_FINDING_LIST) on connection conn, or on none: counted,
 * and reported joined to the message that raised it. */
void rra_finding(struct rr_analyzer *a, uint32_t conn, enum rr_finding_id id,
		 const char *detail)
{
	a->st.findings[id]++;
	a->st.total.findings++;
	if (conn != NONE)
		a->conns[conn].info.st.findings++;
	struct rr_event ev = { .kind = RR_EV_FINDING, .conn = conn,
			       .finding = { .id = (uint16_t)id, .detail = detail } };
	rra_emit(a, &ev);
}

/* The analyzer is done with the message: what follows is not its. */
void rra_message_taken(struct rr_analyzer *a)
{
	a->rep.message = NULL;
}
