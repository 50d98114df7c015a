/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-top's slow view: the slowest calls answered in the minute
 * before the last reply seen (nfsslower's question, asked of a screen), in
 * the frames' own time, whatever the source's clock; kept as text when
 * their reply's report is taken, since a report lives one frame.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rpcrdma/nfs.h>
#include <rpcrdma/nfs4.h>

#include "top.h"

/* An NFSv4 COMPOUND named by what it does: its operations past the
 * SEQUENCE and PUTFH every call of a session starts with; a callback's
 * CB_COMPOUND past its CB_SEQUENCE. */
static bool session_op(const struct rr_nfs4_compound *ops, uint32_t i)
{
	return ops->callback ? ops->op[i] == RR_CB_OP_SEQUENCE :
			       ops->op[i] == RR_OP_SEQUENCE || ops->op[i] == RR_OP_PUTFH;
}

static void compound_name(char *out, size_t n, const struct rr_nfs4_compound *ops)
{
	size_t at = (size_t)snprintf(out, n, ops->callback ? "NFS4_CB" : "NFS v4");
	for (uint32_t i = 0; i < ops->named && i < RR_NFS4_OPS_KEPT && at < n; i++) {
		if (session_op(ops, i))
			continue;
		const char *name = rr_nfs4_compound_op_str(ops, i);
		at += (size_t)(name ? snprintf(out + at, n - at, " %s", name) :
				      snprintf(out + at, n - at, " op%u", (unsigned)ops->op[i]));
	}
}

static void procedure_name(char *out, size_t n, const struct rr_ev_rpc_done *d)
{
	if (d->nfs4) {
		compound_name(out, n, d->nfs4);
		return;
	}
	if (!d->rpc_known) { /* its call header not captured */
		snprintf(out, n, "unknown");
		return;
	}
	const char *prog = rr_rpc_program_str(d->prog);
	const char *proc = rr_rpc_proc_str(d->prog, d->vers, d->proc);
	char pn[16], cn[16];
	if (!prog)
		snprintf(pn, sizeof(pn), "%" PRIu32, d->prog);
	if (!proc)
		snprintf(cn, sizeof(cn), "proc %" PRIu32, d->proc);
	snprintf(out, n, "%s v%" PRIu32 " %s", prog ? prog : pn, d->vers, proc ? proc : cn);
}

static void status_name(char *out, size_t n, const struct rr_ev_rpc_done *d)
{
	if (!d->nfs_known) {
		/* the RPC's own answer where it is no SUCCESS: GARBAGE_ARGS ... */
		bool failed = d->reply_status != RR_REPLY_ACCEPTED &&
			      d->reply_status != RR_REPLY_UNSEEN;
		snprintf(out, n, "%s", failed ? rr_reply_status_str(d->reply_status) : "-");
		return;
	}
	const char *s = rr_nfs_status_str(d->prog, d->vers, d->nfs.status);
	if (s)
		snprintf(out, n, "%s", s);
	else
		snprintf(out, n, "%" PRIu32, d->nfs.status);
}

#define NS_PER_S 1000000000ull

void top_slow_note(struct top_slow *s, const struct rr_event *ev)
{
	const struct rr_ev_rpc_done *d = &ev->done;
	if (ev->ts_ns > s->newest_ns)
		s->newest_ns = ev->ts_ns;
	uint64_t second = ev->ts_ns / NS_PER_S;
	if (second + TOP_SLOW_SECONDS <= s->newest_ns / NS_PER_S)
		return; /* older than the minute shown */
	struct top_slow_second *b = &s->seconds[second % TOP_SLOW_SECONDS];
	if (b->second != second || !b->n) { /* a second gone by: its place */
		b->second = second;
		b->n = 0;
	}
	unsigned at = b->n;
	if (b->n == TOP_SLOW_CALLS) { /* full: in place of the fastest, if slower */
		at = 0;
		for (unsigned i = 1; i < b->n; i++)
			if (b->call[i].latency_ns < b->call[at].latency_ns)
				at = i;
		if (b->call[at].latency_ns >= d->latency_ns)
			return;
	} else {
		b->n++;
	}
	struct top_slow_call *c = &b->call[at];
	memset(c, 0, sizeof(*c));
	c->ts_ns = ev->ts_ns;
	c->latency_ns = d->latency_ns;
	c->conn_id = ev->conn_id;
	c->xid = d->xid;
	bool backward = ev->dir == RR_DIR_BWD_REPLY;
	if (ev->connection) {
		rr_conn_addr_str(ev->connection, backward, c->client, sizeof(c->client));
		rr_conn_addr_str(ev->connection, !backward, c->server, sizeof(c->server));
	}
	procedure_name(c->procedure, sizeof(c->procedure), d);
	status_name(c->status, sizeof(c->status), d);
	c->nfs_status_known = d->nfs_known;
	c->reply_status = d->reply_status;
	c->target = d->target;
}

static int slower_first(const void *x, const void *y)
{
	const struct top_slow_call *a = x, *b = y;
	return a->latency_ns < b->latency_ns ? 1 : a->latency_ns > b->latency_ns ? -1 :
	       (a->ts_ns > b->ts_ns) - (a->ts_ns < b->ts_ns);
}

void top_slow_snapshot(struct top_slow *s)
{
	/* the minute's seconds' slowest, sorted; its slowest are the first */
	static struct top_slow_call all[TOP_SLOW_SECONDS * TOP_SLOW_CALLS];
	unsigned n = 0;
	uint64_t newest = s->newest_ns / NS_PER_S;
	for (unsigned i = 0; i < TOP_SLOW_SECONDS; i++) {
		const struct top_slow_second *b = &s->seconds[i];
		if (!b->n || b->second + TOP_SLOW_SECONDS <= newest)
			continue;
		memcpy(all + n, b->call, b->n * sizeof(b->call[0]));
		n += b->n;
	}
	qsort(all, n, sizeof(all[0]), slower_first);
	s->n = n < TOP_SLOW_CALLS ? n : TOP_SLOW_CALLS;
	memcpy(s->call, all, s->n * sizeof(s->call[0]));
}
