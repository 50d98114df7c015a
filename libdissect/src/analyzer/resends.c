/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Forward calls sent again on a new connection after their send on the
 * one before went unanswered: a client that lost its connection resends
 * what was in flight with the same xid (RFC 5531 §9), as Linux's does
 * after a reconnect.  Followed from send to send, each such call ends
 * answered only after a resend (late) or never (stuck): the diagnosis's
 * evidence (rr_stats calls_stuck, calls_late).  A call sent again though
 * its send before was answered is one whose reply the requester did not
 * take (Linux's client, answered GARBAGE_ARGS or SYSTEM_ERR, sends it
 * again on a new connection): rr_stats calls_retried.
 */
#include "analyzer-int.h"

/* The entry of call ci (c->resent), RESENT_CALLS where it has none. */
static unsigned entry_of(const struct rr_analyzer *a, uint32_t ci)
{
	const struct call *c = &a->calls[ci];
	unsigned i = 0;
	if (c->resent)
		for (; i < RESENT_CALLS; i++) {
			const struct resent *r = &a->resent[i];
			if (r->call == ci && r->xid == c->xid && r->conn == c->conn)
				return i;
		}
	return RESENT_CALLS;
}

/* A place for a new entry: one whose call ended, else the oldest. */
static struct resent *resent_slot(struct rr_analyzer *a)
{
	for (unsigned i = 0; i < RESENT_CALLS; i++) {
		struct resent *r = &a->resent[i];
		const struct call *c = r->sends ? &a->calls[r->call] : NULL;
		if (!c || !c->used || !c->resent || c->xid != r->xid || c->conn != r->conn)
			return r;
	}
	struct resent *r = &a->resent[a->resent_next];
	a->resent_next = (a->resent_next + 1) % RESENT_CALLS;
	if (a->calls[r->call].used)
		a->calls[r->call].resent = false;
	return r;
}

static uint64_t frame_of(const struct rr_analyzer *a, uint32_t low_bits)
{
	return a->frame_no - (uint32_t)((uint32_t)a->frame_no - low_bits);
}

/* A call's sends so far: from its entry where it was sent again, else
 * its one send. */
struct history {
	uint32_t sends;
	uint64_t first_ns, first_frame;
};

static struct history history_of(const struct rr_analyzer *a, uint32_t ci)
{
	unsigned e = entry_of(a, ci);
	if (e < RESENT_CALLS)
		return (struct history){ a->resent[e].sends, a->resent[e].first_ns,
					 a->resent[e].first_frame };
	const struct call *c = &a->calls[ci];
	return (struct history){ 1, c->ts_ns, frame_of(a, c->frame) };
}

/* What the evidence says of call ci: its name, file and sends, up to
 * last_ns in last_frame. */
static struct rr_call_sends sends_of(const struct rr_analyzer *a, uint32_t ci,
				     struct history h, uint64_t last_ns, uint64_t last_frame)
{
	const struct call *c = &a->calls[ci];
	return (struct rr_call_sends){
		.xid = c->xid, .conn = a->conns[c->conn].info.id,
		.named = c->named, .fh_known = c->fh_known,
		.prog = c->prog, .vers = c->vers, .proc = c->proc,
		.fh_hash = c->fh_known ? c->fh_hash : 0,
		.sends = h.sends, .first_ns = h.first_ns, .last_ns = last_ns,
		.frames = { h.first_frame, last_frame },
	};
}

/* Call ci sent again after its send before was answered with status:
 * counted, and the first such call kept, with each of its sends. */
static void retried(struct rr_analyzer *a, uint32_t cn, uint32_t ci,
		    enum rr_reply_status status, uint64_t first_frame)
{
	const struct call *c = &a->calls[ci];
	struct rr_call_sends *k = &a->st.retried_call;
	a->st.calls_retried++;
	if (k->sends && k->xid == c->xid) {
		k->sends++;
		k->conn = a->conns[cn].info.id;
		k->status = (uint8_t)status;
		k->last_ns = a->now_ns;
		k->frames.last = a->frame_no;
		return;
	}
	if (k->sends)
		return;
	struct history h = { 2, a->now_ns, first_frame };
	*k = sends_of(a, ci, h, a->now_ns, a->frame_no);
	k->status = (uint8_t)status;
}

/* Call ci, just sent on cn with an xid the connection cn replaced
 * carried (rra_resent_of, before): answered there, a retry; else, where
 * that send is still unanswered, ci takes its place, with its first send
 * and one send more. */
void rra_resend_carry(struct rr_analyzer *a, uint32_t cn, uint32_t ci,
		      struct sent_before before)
{
	if (before.answered) {
		retried(a, cn, ci, (enum rr_reply_status)(before.answered - 1), before.frame);
		return;
	}
	uint32_t pcn = rra_previous_index(a, cn);
	if (pcn == NONE)
		return;
	uint32_t oi = rra_call_find(a, pcn, RR_DIR_FWD_CALL, a->calls[ci].xid);
	if (oi == NONE || a->calls[oi].answered)
		return;
	struct call *old = &a->calls[oi];
	/* sent again before: its entry moves on to this send */
	unsigned e = entry_of(a, oi);
	struct resent *r = e < RESENT_CALLS ? &a->resent[e] : NULL;
	if (r) {
		r->sends++;
	} else {
		r = resent_slot(a);
		*r = (struct resent){ .sends = 2, .first_ns = old->ts_ns,
				      .first_frame = frame_of(a, old->frame) };
	}
	r->call = ci;
	r->xid = old->xid;
	r->conn = cn;
	old->resent = false;
	old->superseded = true;
	a->calls[ci].resent = true;
}

/* A resend still unanswered this long after it is not one whose answer
 * the capture's end cut off: an answer takes a round trip. */
#define STUCK_RESENT_NS 1000000000ull
/* A call sent once is stuck this long unanswered, and STUCK_P99_TIMES
 * its procedure's 99th percentile where STUCK_P99_CALLS answered calls
 * give one: far past what the server takes (Linux's client says `server
 * not responding` after its timeo, 60 s over RDMA). */
#define STUCK_ALONE_NS 10000000000ull
#define STUCK_P99_TIMES 10
#define STUCK_P99_CALLS 20

/* Whether forward call ci, unanswered at now, is stuck: sent again after
 * its send before went unanswered and a second gone since, or sent once
 * and far past its procedure's latency; on a connection still open whose
 * responder the capture heard (a capture of the calls' direction alone
 * answers nothing; a closed one answers no more, its calls sent again on
 * the next), and not sent again since (superseded). */
static bool stuck(const struct rr_analyzer *a, uint32_t ci, uint64_t now)
{
	const struct call *c = &a->calls[ci];
	const struct conn *k = &a->conns[c->conn];
	if (c->dir != RR_DIR_FWD_CALL || c->answered || c->superseded ||
	    !(k->info.heard & RR_HEARD_RESPONDER) || now < c->ts_ns)
		return false;
	uint64_t age = now - c->ts_ns;
	if (c->resent)
		return age >= STUCK_RESENT_NS;
	if (k->info.closed || age < STUCK_ALONE_NS)
		return false;
	const struct rr_latency *h = &a->st.latency[c->slot];
	return h->count < STUCK_P99_CALLS ||
	       age >= STUCK_P99_TIMES * rr_latency_quantile_ns(h, 0.99);
}

/* The evidence of one call: kept where it was sent on more connections
 * than the one kept before, or as often and over a longer time. */
static void keep(const struct rr_analyzer *a, struct rr_call_sends *kept, uint32_t ci,
		 struct history h, uint64_t last_ns, uint64_t last_frame)
{
	uint64_t span = last_ns - h.first_ns;
	if (kept->sends && (h.sends < kept->sends ||
			    (h.sends == kept->sends && span <= kept->last_ns - kept->first_ns)))
		return;
	*kept = sends_of(a, ci, h, last_ns, last_frame);
}

/* Call ci answered now: late, where it was sent again first. */
void rra_resend_answered(struct rr_analyzer *a, uint32_t ci)
{
	struct history h = history_of(a, ci);
	if (h.sends < 2)
		return;
	a->st.calls_late++;
	keep(a, &a->st.late_call, ci, h, a->now_ns, a->frame_no);
}

/* Call ci ends the capture unanswered: counted where it was stuck. */
void rra_resend_unanswered(struct rr_analyzer *a, uint32_t ci)
{
	if (!stuck(a, ci, a->now_ns))
		return;
	a->st.calls_stuck++;
	keep(a, &a->st.stuck_call, ci, history_of(a, ci), a->now_ns,
	     frame_of(a, a->calls[ci].frame));
}

void rr_analyzer_clock(struct rr_analyzer *a, uint64_t now_ns)
{
	a->clock_ns = now_ns;
}

unsigned rr_analyzer_stuck_calls(const struct rr_analyzer *a, struct rr_call_sends *worst)
{
	uint64_t now = a->clock_ns > a->now_ns ? a->clock_ns : a->now_ns;
	unsigned n = 0;
	memset(worst, 0, sizeof(*worst));
	/* oldest first: the walk ends at the first call too young to be stuck */
	for (uint32_t i = a->oldest_call; i != NONE; i = a->calls[i].age.next) {
		const struct call *c = &a->calls[i];
		if (now < c->ts_ns || now - c->ts_ns < STUCK_RESENT_NS)
			break;
		if (!stuck(a, i, now))
			continue;
		n++;
		keep(a, worst, i, history_of(a, i), now, frame_of(a, c->frame));
	}
	return n;
}
