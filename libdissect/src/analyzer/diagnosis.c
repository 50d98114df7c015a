/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The diagnosis (rpcrdma/diagnosis.h): the problems the counters show,
 * drawn when a report asks, from the public statistics and connections
 * alone.  Nothing here runs per frame.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "rpcrdma/diagnosis.h"

#define RR_X_DIAG_INFO(sym, id, sev, ref, title, advice) \
	[sym] = { id, sev, ref, title, advice },
static const struct rr_diagnosis_info infos[RR_DIAGNOSIS_COUNT] = {
	RR_DIAGNOSIS_LIST(RR_X_DIAG_INFO)
};

const struct rr_diagnosis_info *rr_diagnosis_info(unsigned id)
{
	return id < RR_DIAGNOSIS_COUNT ? &infos[id] : NULL;
}

/* A stream loses packets when at least this many were resent or missing,
 * and at least one in LOSS_SHARE of its packets: a busy virtual link's
 * occasional resend stays below both. */
#define LOSS_EVENTS 10
#define LOSS_SHARE 100

/* A connection is held back by its grant when at least CREDIT_WAITS of
 * its calls waited for a credit and its calls in flight stood at the
 * grant for one CREDIT_SHARE of its time, while it had asked for more
 * than it was granted. */
#define CREDIT_WAITS 10
#define CREDIT_SHARE 10

struct found {
	struct rr_diagnosis_item *out;
	unsigned max, n;
};

static struct rr_diagnosis_item *start(struct rr_diagnosis_item *d,
					enum rr_diagnosis_id id)
{
	memset(d, 0, sizeof(*d));
	d->id = (uint16_t)id;
	d->severity = infos[id].severity;
	d->worst_conn = RR_CONN_NONE;
	return d;
}

/* A problem found: kept while out has room, counted always. */
static void keep(struct found *f, const struct rr_diagnosis_item *d)
{
	if (f->n < f->max)
		f->out[f->n] = *d;
	f->n++;
}

/* Whether a later connection replaced c (its reconnect). */
static bool replaced(const struct rr_analyzer *a, const struct rr_conn_info *c)
{
	for (uint32_t i = 0; i < rr_analyzer_conn_count(a); i++) {
		const struct rr_conn_info *o = rr_analyzer_conn(a, i);
		if (o && o->previous == c->id)
			return true;
	}
	return false;
}

/* What a stream lost: its resends and the gaps the capture saw, except
 * where RNR NAKs asked for resends (RR_DIAG_RECEIVER_NOT_READY's): then
 * only the gaps and the PSN sequence NAKs tell loss apart. */
static uint64_t lost(const uint64_t *n)
{
	if (n[RR_FABRIC_RNR_NAKS])
		return n[RR_FABRIC_NAK_PSN_SEQUENCE] + n[RR_FABRIC_PSN_GAPS];
	return n[RR_FABRIC_RETRANSMISSIONS] + n[RR_FABRIC_PSN_GAPS];
}

static bool lossy(const uint64_t *n)
{
	uint64_t l = lost(n);
	return l >= LOSS_EVENTS && l * LOSS_SHARE >= n[RR_FABRIC_PACKETS];
}

/* RC packets (IB and RoCE) or TCP segments (iWARP) resent or missing,
 * per side's stream. */
static void packet_loss(const struct rr_analyzer *a, struct found *f)
{
	uint32_t conns = 0, worst = RR_CONN_NONE, failed = 0;
	unsigned worst_side = 0;
	double worst_share = -1;
	for (uint32_t i = 0; i < rr_analyzer_conn_count(a); i++) {
		const struct rr_conn_info *c = rr_analyzer_conn(a, i);
		if (!c)
			continue;
		bool hit = false;
		for (unsigned s = 0; s < 2; s++) {
			const uint64_t *n = c->st.fabric[s];
			if (!lossy(n))
				continue;
			hit = true;
			double share = n[RR_FABRIC_PACKETS] ?
				(double)lost(n) / (double)n[RR_FABRIC_PACKETS] : 1.0;
			if (share > worst_share) {
				worst_share = share;
				worst = i;
				worst_side = s;
			}
		}
		conns += hit;
		failed += hit && replaced(a, c);
	}
	if (!conns)
		return;
	const struct rr_conn_info *w = rr_analyzer_conn(a, worst);
	const uint64_t *n = w->st.fabric[worst_side];
	const uint64_t *t[2] = { rr_analyzer_stats(a)->total.fabric[0],
				 rr_analyzer_stats(a)->total.fabric[1] };
	struct rr_diagnosis_item item, *d = start(&item, RR_DIAG_PACKET_LOSS);
	d->conns = conns;
	d->worst_conn = w->id;
	d->frames = w->st.lost_at;
	d->events = lost(t[0]) + lost(t[1]);
	d->of = t[0][RR_FABRIC_PACKETS] + t[1][RR_FABRIC_PACKETS];
	if (failed)
		d->severity = RR_SEV_ERROR;
	/* an iWARP stream's are TCP segments, its gaps in sequence numbers,
	 * its timeouts TCP's own, which the capture does not tell apart */
	bool tcp = w->transport == RR_TRANSPORT_IWARP;
	char timeouts[48] = "";
	if (!tcp)
		snprintf(timeouts, sizeof(timeouts), ", %" PRIu64 " timeouts",
			 n[RR_FABRIC_TIMEOUTS]);
	snprintf(d->evidence, sizeof(d->evidence),
		 "worst: conn %u, the %s's stream, %" PRIu64 " of %" PRIu64
		 " %s resent (%.1f%%), %" PRIu64 " %s gaps%s; "
		 "%u connection%s lossy"
		 "%s", w->id, rr_side_str(worst_side), n[RR_FABRIC_RETRANSMISSIONS],
		 n[RR_FABRIC_PACKETS], tcp ? "TCP segments" : "packets",
		 n[RR_FABRIC_PACKETS] ?
		 100.0 * (double)n[RR_FABRIC_RETRANSMISSIONS] /
		 (double)n[RR_FABRIC_PACKETS] : 0.0,
		 n[RR_FABRIC_PSN_GAPS], tcp ? "sequence" : "PSN", timeouts,
		 conns, conns == 1 ? "" : "s",
		 failed ? ", and made again after it" : "");
	keep(f, d);
}

/* "NFS v3 READ fh 0x1a2b3c4d": a resent call's procedure and file. */
static void call_words(char *out, size_t n, const struct rr_call_sends *c)
{
	const char *prog = c->named ? rr_rpc_program_str(c->prog) : NULL;
	const char *proc = c->named ? rr_rpc_proc_str(c->prog, c->vers, c->proc) : NULL;
	char pn[24] = "", fh[20] = "";
	if (!c->named)
		snprintf(pn, sizeof(pn), "an unnamed call");
	else if (!prog)
		snprintf(pn, sizeof(pn), "prog %" PRIu32, c->prog);
	if (c->fh_known)
		snprintf(fh, sizeof(fh), " fh 0x%08" PRIx32, c->fh_hash);
	if (!c->named)
		snprintf(out, n, "%s", pn);
	else if (proc)
		snprintf(out, n, "%s v%" PRIu32 " %s%s", prog ? prog : pn, c->vers, proc, fh);
	else
		snprintf(out, n, "%s v%" PRIu32 " proc %" PRIu32 "%s", prog ? prog : pn,
			 c->vers, c->proc, fh);
}

/* Evidence said in parts: a part that does not fit whole is left out. */
__attribute__((format(printf, 3, 4)))
static void append(char *out, size_t n, const char *fmt, ...)
{
	char part[sizeof(((struct rr_diagnosis_item *)0)->evidence)];
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(part, sizeof(part), fmt, ap);
	va_end(ap);
	size_t used = strlen(out);
	if (w > 0 && (size_t)w < sizeof(part) && used + (size_t)w < n)
		memcpy(out + used, part, (size_t)w + 1);
}

static double seconds(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* Calls stuck: the ones that ended so, and those outstanding now. */
static void calls_stuck(const struct rr_analyzer *a, struct found *f)
{
	const struct rr_stats *st = rr_analyzer_stats(a);
	struct rr_call_sends now;
	unsigned outstanding = rr_analyzer_stuck_calls(a, &now);
	if (!st->calls_stuck && !outstanding)
		return;
	const struct rr_call_sends *c = &st->stuck_call;
	if (outstanding && (!st->calls_stuck || now.sends > c->sends ||
			    (now.sends == c->sends &&
			     now.last_ns - now.first_ns > c->last_ns - c->first_ns)))
		c = &now;
	struct rr_diagnosis_item item, *d = start(&item, RR_DIAG_CALLS_STUCK);
	d->events = st->calls_stuck + outstanding;
	d->conns = c->sends;
	d->worst_conn = c->conn;
	d->frames = c->frames;
	char what[64];
	call_words(what, sizeof(what), c);
	append(d->evidence, sizeof(d->evidence), "worst: xid 0x%08" PRIx32 ", %s, ", c->xid,
	       what);
	if (c->sends > 1)
		append(d->evidence, sizeof(d->evidence), "sent on %" PRIu32 " connections, ",
		       c->sends);
	append(d->evidence, sizeof(d->evidence), "unanswered %.1f s after its first send "
	       "(conn %u); %" PRIu64 " call%s so", seconds(c->last_ns - c->first_ns), c->conn,
	       d->events, d->events == 1 ? "" : "s");
	if (outstanding)
		append(d->evidence, sizeof(d->evidence), ", %u outstanding now", outstanding);
	keep(f, d);
}

/* The connection another replaced (rr_conn_info previous), by its id. */
static const struct rr_conn_info *conn_by_id(const struct rr_analyzer *a, uint32_t id)
{
	/* an id is its index until an eviction reused one */
	const struct rr_conn_info *c = rr_analyzer_conn(a, id);
	if (c && c->id == id)
		return c;
	for (uint32_t i = 0; i < rr_analyzer_conn_count(a); i++) {
		c = rr_analyzer_conn(a, i);
		if (c && c->id == id)
			return c;
	}
	return NULL;
}

/* A connection replaced within this of its first frame was short-lived. */
#define SHORT_LIFE_NS (10ull * 1000000000ull)

/* Connections made again (conn.c's previous) and what their calls did. */
static void reconnects(const struct rr_analyzer *a, struct found *f)
{
	const struct rr_stats *st = rr_analyzer_stats(a);
	if (!st->reconnects)
		return;
	struct rr_diagnosis_item item, *d = start(&item, RR_DIAG_RECONNECTS);
	const struct rr_conn_info *shortest = NULL;
	uint64_t short_lived = 0;
	for (uint32_t i = 0; i < rr_analyzer_conn_count(a); i++) {
		const struct rr_conn_info *c = rr_analyzer_conn(a, i);
		const struct rr_conn_info *p = c && c->previous != RR_CONN_NONE ?
			conn_by_id(a, c->previous) : NULL;
		if (!p)
			continue;
		d->conns++;
		uint64_t life = rr_conn_seen_ns(p);
		short_lived += life < SHORT_LIFE_NS;
		if (!shortest || life < rr_conn_seen_ns(shortest))
			shortest = p;
	}
	d->events = st->reconnects;
	if (shortest)
		d->worst_conn = shortest->id;
	if (st->calls_late)
		d->severity = RR_SEV_WARN;
	append(d->evidence, sizeof(d->evidence), "%" PRIu64 " reconnect%s, %" PRIu64
	       " after connections under %llu s", st->reconnects,
	       st->reconnects == 1 ? "" : "s", short_lived, SHORT_LIFE_NS / 1000000000ull);
	/* what became of the calls sent again */
	if (st->calls_late) {
		const struct rr_call_sends *c = &st->late_call;
		char what[64];
		call_words(what, sizeof(what), c);
		append(d->evidence, sizeof(d->evidence), "; %" PRIu64 " of %" PRIu64
		       " calls sent again answered only later, worst xid 0x%08" PRIx32
		       " %s after %.1f s on %" PRIu32 " connections", st->calls_late,
		       st->calls_resent, c->xid, what, seconds(c->last_ns - c->first_ns),
		       c->sends);
		d->frames = c->frames;
		d->worst_conn = c->conn;
	} else {
		/* (their answers said only where seen: a capture of the calls'
		 * direction alone holds none) */
		append(d->evidence, sizeof(d->evidence), "; %" PRIu64 " call%s sent again%s",
		       st->calls_resent, st->calls_resent == 1 ? "" : "s",
		       st->calls_stuck ? ", some never answered (calls_stuck)" : "");
	}
	/* answered, and sent again all the same: the replies not taken */
	if (st->calls_retried) {
		const struct rr_call_sends *c = &st->retried_call;
		char what[64];
		call_words(what, sizeof(what), c);
		append(d->evidence, sizeof(d->evidence), ", %" PRIu64 " though answered: "
		       "xid 0x%08" PRIx32 " %s, %s, on %" PRIu32 " connections",
		       st->calls_retried, c->xid, what, rr_reply_status_str(c->status),
		       c->sends);
		if (!st->calls_late) {
			d->frames = c->frames;
			d->worst_conn = c->conn;
		}
	}
	/* (where replies refused made them, the short connections are said) */
	if (shortest && !st->calls_retried)
		append(d->evidence, sizeof(d->evidence), "; shortest conn %u, %.2f s",
		       shortest->id, seconds(rr_conn_seen_ns(shortest)));
	keep(f, d);
}

/* The connections whose fabric counters hold one of counters[]. */
static void by_fabric(const struct rr_analyzer *a, struct rr_diagnosis_item *d,
		      const enum rr_fabric_counter *counters, unsigned ncounters)
{
	uint64_t most = 0;
	for (uint32_t i = 0; i < rr_analyzer_conn_count(a); i++) {
		const struct rr_conn_info *c = rr_analyzer_conn(a, i);
		if (!c)
			continue;
		uint64_t sum = 0;
		for (unsigned s = 0; s < 2; s++)
			for (unsigned k = 0; k < ncounters; k++)
				sum += c->st.fabric[s][counters[k]];
		if (!sum)
			continue;
		d->conns++;
		if (sum > most) {
			most = sum;
			d->worst_conn = c->id;
		}
	}
}

static uint64_t total_of(const struct rr_stats *st, const enum rr_fabric_counter *counters,
			 unsigned ncounters)
{
	uint64_t sum = 0;
	for (unsigned s = 0; s < 2; s++)
		for (unsigned k = 0; k < ncounters; k++)
			sum += st->total.fabric[s][counters[k]];
	return sum;
}

/* A problem the fabric counters c[] count: d started with their total
 * and the connections that hold them; NULL when none does. */
static struct rr_diagnosis_item *fabric_problem(const struct rr_analyzer *a,
						struct rr_diagnosis_item *d,
						enum rr_diagnosis_id id,
						const enum rr_fabric_counter *c, unsigned n)
{
	uint64_t events = total_of(rr_analyzer_stats(a), c, n);
	if (!events)
		return NULL;
	start(d, id);
	d->events = events;
	by_fabric(a, d, c, n);
	return d;
}

static void failed_on_nak(const struct rr_analyzer *a, struct found *f)
{
	static const enum rr_fabric_counter naks[] = {
		RR_FABRIC_NAK_REMOTE_ACCESS, RR_FABRIC_NAK_REMOTE_OPERATIONAL,
		RR_FABRIC_NAK_INVALID_REQUEST,
	};
	const struct rr_stats *st = rr_analyzer_stats(a);
	struct rr_diagnosis_item item, *d = fabric_problem(a, &item, RR_DIAG_FAILED_ON_NAK,
							   naks, 3);
	if (!d)
		return;
	uint64_t n = d->events;
	snprintf(d->evidence, sizeof(d->evidence),
		 "%" PRIu64 " NAK%s: remote access %" PRIu64 ", remote operational %"
		 PRIu64 ", invalid request %" PRIu64 "; %u connection%s", n,
		 n == 1 ? "" : "s", total_of(st, &naks[0], 1), total_of(st, &naks[1], 1),
		 total_of(st, &naks[2], 1), d->conns, d->conns == 1 ? "" : "s");
	keep(f, d);
}

static void zero_grant(const struct rr_analyzer *a, struct found *f)
{
	uint64_t n = rr_analyzer_stats(a)->findings[RR_FIND_ZERO_CREDIT];
	if (!n)
		return;
	struct rr_diagnosis_item item, *d = start(&item, RR_DIAG_ZERO_GRANT);
	d->events = n;
	for (uint32_t i = 0; i < rr_analyzer_conn_count(a); i++) {
		const struct rr_conn_info *c = rr_analyzer_conn(a, i);
		if (c && c->grant_seen && c->st.grant_min == 0) {
			d->conns++;
			if (d->worst_conn == RR_CONN_NONE)
				d->worst_conn = c->id;
		}
	}
	snprintf(d->evidence, sizeof(d->evidence), "%" PRIu64 " repl%s granting 0 credits",
		 n, n == 1 ? "y" : "ies");
	keep(f, d);
}

/* The error findings a problem of their own names: protocol_errors leaves
 * them out. */
static const enum rr_finding_id named_by_problem[] = {
	RR_FIND_ZERO_CREDIT,            /* zero_grant */
	RR_FIND_NAK_REMOTE_ACCESS,      /* failed_on_nak */
	RR_FIND_NAK_REMOTE_OPERATIONAL, /* failed_on_nak */
	RR_FIND_NAK_INVALID_REQUEST,    /* failed_on_nak */
};

static bool named_by_a_problem(unsigned finding)
{
	for (unsigned i = 0; i < sizeof(named_by_problem) / sizeof(named_by_problem[0]); i++)
		if (named_by_problem[i] == finding)
			return true;
	return false;
}

/* The error findings the problems above do not already name. */
static void protocol_errors(const struct rr_analyzer *a, struct found *f)
{
	const struct rr_stats *st = rr_analyzer_stats(a);
	uint64_t n = 0;
	unsigned ids = 0;
	char list[120] = "";
	size_t used = 0;
	for (unsigned i = 0; i < RR_FINDING_COUNT; i++) {
		const struct rr_finding_info *fi = rr_finding_info(i);
		if (fi->severity != RR_SEV_ERROR || !st->findings[i] || named_by_a_problem(i))
			continue;
		n += st->findings[i];
		int w = snprintf(list + used, sizeof(list) - used, "%s%s %" PRIu64,
				 ids++ ? ", " : "", fi->id, st->findings[i]);
		if (w > 0 && used + (size_t)w < sizeof(list))
			used += (size_t)w;
	}
	if (!n)
		return;
	struct rr_diagnosis_item item, *d = start(&item, RR_DIAG_PROTOCOL_ERRORS);
	d->events = n;
	snprintf(d->evidence, sizeof(d->evidence), "%s", list);
	keep(f, d);
}

static uint64_t forward_calls(const struct rr_conn_stats *s)
{
	uint64_t n = 0;
	for (unsigned p = 0; p < RR_RDMA_PROCS; p++)
		n += s->messages[RR_DIR_FWD_CALL][p];
	return n;
}

static bool credit_held(const struct rr_conn_info *c)
{
	const struct rr_conn_stats *s = &c->st;
	/* a lossy connection's calls wait on what is resent, not on the
	 * grant: packet_loss names that */
	return rr_conn_grant_known(c) && !rr_conn_one_way(c) &&
	       !lossy(s->fabric[0]) && !lossy(s->fabric[1]) &&
	       s->requested > s->grant_max && s->credit_waits >= CREDIT_WAITS &&
	       s->at_grant_ns * CREDIT_SHARE >= rr_conn_seen_ns(c);
}

static void credit_bound(const struct rr_analyzer *a, struct found *f)
{
	struct rr_diagnosis_item item, *d = start(&item, RR_DIAG_CREDIT_BOUND);
	const struct rr_conn_info *w = NULL;
	for (uint32_t i = 0; i < rr_analyzer_conn_count(a); i++) {
		const struct rr_conn_info *c = rr_analyzer_conn(a, i);
		if (!c || !credit_held(c))
			continue;
		d->conns++;
		d->events += c->st.credit_waits;
		d->of += forward_calls(&c->st);
		if (!w || c->st.credit_waits > w->st.credit_waits)
			w = c;
	}
	if (!w)
		return;
	const struct rr_conn_stats *s = &w->st;
	uint64_t life = rr_conn_seen_ns(w);
	d->worst_conn = w->id;
	d->frames = s->waited_at;
	snprintf(d->evidence, sizeof(d->evidence),
		 "worst: conn %u, %" PRIu64 " of %" PRIu64 " calls waited for a credit, "
		 "%u in flight at its grant of %u for %.1f%% of the time; the requester "
		 "asked for %u; %u connection%s", w->id, s->credit_waits, forward_calls(s),
		 s->in_flight_max, s->grant, life ? 100.0 * (double)s->at_grant_ns /
		 (double)life : 0.0, s->requested, d->conns, d->conns == 1 ? "" : "s");
	keep(f, d);
}

static void receiver_not_ready(const struct rr_analyzer *a, struct found *f)
{
	static const enum rr_fabric_counter rnr[] = { RR_FABRIC_RNR_NAKS };
	const struct rr_stats *st = rr_analyzer_stats(a);
	struct rr_diagnosis_item item, *d = fabric_problem(a, &item,
							   RR_DIAG_RECEIVER_NOT_READY, rnr, 1);
	if (!d)
		return;
	uint64_t n = d->events;
	uint64_t resent = st->total.fabric[0][RR_FABRIC_RETRANSMISSIONS] +
			  st->total.fabric[1][RR_FABRIC_RETRANSMISSIONS];
	snprintf(d->evidence, sizeof(d->evidence),
		 "%" PRIu64 " RNR NAK%s on %u connection%s (the requester's SENDs %"
		 PRIu64 ", the responder's %" PRIu64 "), %" PRIu64 " packets resent",
		 n, n == 1 ? "" : "s", d->conns, d->conns == 1 ? "" : "s",
		 st->total.fabric[0][RR_FABRIC_RNR_NAKS],
		 st->total.fabric[1][RR_FABRIC_RNR_NAKS], resent);
	keep(f, d);
}

/* Messages past the thresholds are a pressure worth a note when at least
 * PAST_INLINE_EVENTS of them, and one in PAST_INLINE_SHARE forward calls,
 * went so. */
#define PAST_INLINE_EVENTS 10
#define PAST_INLINE_SHARE 20

static void inline_pressure(const struct rr_analyzer *a, struct found *f)
{
	const struct rr_conn_stats *t = &rr_analyzer_stats(a)->total;
	uint64_t n = t->past_inline[0] + t->past_inline[1];
	uint64_t calls = forward_calls(t);
	if (n < PAST_INLINE_EVENTS || n * PAST_INLINE_SHARE < calls)
		return;
	struct rr_diagnosis_item item, *d = start(&item, RR_DIAG_INLINE_PRESSURE);
	const struct rr_conn_info *w = NULL;
	for (uint32_t i = 0; i < rr_analyzer_conn_count(a); i++) {
		const struct rr_conn_info *c = rr_analyzer_conn(a, i);
		if (!c || !(c->st.past_inline[0] + c->st.past_inline[1]))
			continue;
		d->conns++;
		if (!w || c->st.past_inline[0] + c->st.past_inline[1] >
			  w->st.past_inline[0] + w->st.past_inline[1])
			w = c;
	}
	d->events = n;
	d->of = calls;
	d->worst_conn = w->id;
	d->frames = w->st.past_inline_at;
	snprintf(d->evidence, sizeof(d->evidence),
		 "%" PRIu64 " Long Calls (largest %u bytes), %" PRIu64 " replies through "
		 "a reply chunk (largest %u bytes); worst: conn %u, thresholds call %u "
		 "reply %u; %u connection%s", t->past_inline[0], t->past_inline_max[0],
		 t->past_inline[1], t->past_inline_max[1], w->id, w->thresholds.call,
		 w->thresholds.reply, d->conns, d->conns == 1 ? "" : "s");
	keep(f, d);
}

static void congestion(const struct rr_analyzer *a, struct found *f)
{
	static const enum rr_fabric_counter marks[] = {
		RR_FABRIC_ECN_CE, RR_FABRIC_FECN, RR_FABRIC_BECN, RR_FABRIC_CNPS,
	};
	const struct rr_stats *st = rr_analyzer_stats(a);
	struct rr_diagnosis_item item, *d = fabric_problem(a, &item, RR_DIAG_CONGESTION,
							   marks, 4);
	if (!d)
		return;
	snprintf(d->evidence, sizeof(d->evidence),
		 "ECN CE %" PRIu64 ", FECN %" PRIu64 ", BECN %" PRIu64 ", CNPs %" PRIu64
		 " on %u connection%s", total_of(st, &marks[0], 1), total_of(st, &marks[1], 1),
		 total_of(st, &marks[2], 1), total_of(st, &marks[3], 1), d->conns,
		 d->conns == 1 ? "" : "s");
	keep(f, d);
}

static int worse(const struct rr_diagnosis_item *x, const struct rr_diagnosis_item *y)
{
	if (x->severity != y->severity)
		return x->severity > y->severity;
	if (x->events != y->events)
		return x->events > y->events;
	return x->id < y->id;
}

unsigned rr_diagnose(const struct rr_analyzer *a, struct rr_diagnosis_item *out,
		     unsigned max)
{
	struct found f = { out, max, 0 };
	failed_on_nak(a, &f);
	zero_grant(a, &f);
	protocol_errors(a, &f);
	calls_stuck(a, &f);
	packet_loss(a, &f);
	credit_bound(a, &f);
	receiver_not_ready(a, &f);
	reconnects(a, &f);
	inline_pressure(a, &f);
	congestion(a, &f);
	/* worst first: a few items, an insertion sort */
	unsigned kept = f.n < max ? f.n : max;
	for (unsigned i = 1; i < kept; i++) {
		struct rr_diagnosis_item x = out[i];
		unsigned j = i;
		for (; j > 0 && worse(&x, &out[j - 1]); j--)
			out[j] = out[j - 1];
		out[j] = x;
	}
	return f.n;
}
