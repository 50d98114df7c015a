/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-top's snapshot rendered: the screen's lines (the same text in
 * batch mode) and the JSON object of -b -j.  Every number is the
 * analyzer's or the snapshot's; nothing is counted here.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "rpcrdma/diagnosis.h"
#include "rpcrdma/stat-families.h"
#include "rr_json.h"
#include "top.h"

static const char *const sort_names[SORT_KEYS] = { "calls/s", "bytes/s",
						   "in flight", "p99", "findings",
						   "peers" };
/* Wall-clock seconds of now for the screen and JSON: the last frame's
 * for a file. */
static time_t shown_time(const struct top *t)
{
	return t->capture_clock ? (time_t)(t->capture_ns / 1000000000u) : time(NULL);
}


/* Messages of one direction (RFC 8167 §3), whatever their proc. */
static uint64_t in_direction(const struct rr_conn_stats *s, uint8_t dir)
{
	uint64_t n = 0;
	for (unsigned p = 0; p < RR_RDMA_PROCS; p++)
		n += s->messages[dir][p];
	return n;
}



static void put(struct lines *L, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void put(struct lines *L, const char *fmt, ...)
{
	if (L->n == L->max)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(L->l[L->n++], LINE, fmt, ap);
	va_end(ap);
}

/* A latency with its unit, at most 6 characters: "850us", "12.3ms", "1.50s";
 * "-" when none was measured. */
static void fmt_latency(char *out, size_t n, uint64_t us)
{
	if (!us)
		snprintf(out, n, "-");
	else if (us < 10000)
		snprintf(out, n, "%" PRIu64 "us", us);
	else if (us < 1000000)
		snprintf(out, n, "%.*fms", us < 100000 ? 1 : 0, (double)us / 1000);
	else
		snprintf(out, n, "%.2fs", (double)us / 1e6);
}

/* Whether the address (/) and program (p) filters let a connection's row
 * be shown: applied as the screen is drawn, so that a filter typed after
 * a replayed file ended still applies. */
static bool row_shown(const struct top *t, const struct row *r)
{
	if (t->addr_filter[0] && !strstr(r->requester, t->addr_filter) &&
	    !strstr(r->responder, t->addr_filter))
		return false;
	if (t->prog_filter[0]) {
		uint8_t want = !strcmp(t->prog_filter, "NFS") ? 1 :
			       !strcmp(t->prog_filter, "NFS4_CB") ? 2 : 4;
		if (!(r->programs & want))
			return false;
	}
	return true;
}

/* Whether a slow call passes the screen's filters: an address either end
 * has, a program its procedure names. */
static bool slow_shown(const struct top *t, const struct top_slow_call *c)
{
	if (t->addr_filter[0] && !strstr(c->client, t->addr_filter) &&
	    !strstr(c->server, t->addr_filter))
		return false;
	if (!t->prog_filter[0])
		return true;
	bool nfs = !strncmp(c->procedure, "NFS v", 5);
	bool cb = !strncmp(c->procedure, "NFS4_CB v", 9);
	return !strcmp(t->prog_filter, "NFS") ? nfs :
	       !strcmp(t->prog_filter, "NFS4_CB") ? cb : !nfs && !cb;
}

/* The slowest calls of the minute up to the last reply, slowest first:
 * when answered, latency, caller, procedure, file handle hash as
 * Wireshark's nfs.fh.hash, NFS status. */
static void render_slow(const struct top *t, struct lines *L)
{
	put(L, "%-8s %8s %-15s %-22s %-8s %s", "TIME", "LATms", "CLIENT", "PROCEDURE",
	    "FH", "STATUS");
	for (unsigned i = 0; i < t->slow.n; i++) {
		const struct top_slow_call *c = &t->slow.call[i];
		if (!slow_shown(t, c))
			continue;
		time_t when = (time_t)(c->ts_ns / 1000000000u);
		char clock[16], fh[12] = "-";
		strftime(clock, sizeof(clock), "%H:%M:%S", localtime(&when));
		if (c->target.fh_known)
			snprintf(fh, sizeof(fh), "%08" PRIx32, c->target.fh_hash);
		put(L, "%-8s %8.3f %-15.15s %-22.22s %-8s %.14s", clock,
		    (double)c->latency_ns / 1e6, c->client, c->procedure, fh, c->status);
	}
}

static void client_line(struct lines *L, const char *name, const struct rr_client_stats *r)
{
	char p50[16], p99[16];
	fmt_latency(p50, sizeof(p50), (rr_latency_quantile_ns(&r->latency, 0.5) + 500) / 1000);
	fmt_latency(p99, sizeof(p99), (rr_latency_quantile_ns(&r->latency, 0.99) + 500) / 1000);
	put(L, "%-24.24s %9" PRIu64 " %8" PRIu64 " %7s %7s %8.2f %8.2f", name, r->calls,
	    r->errors, p50, p99, (double)r->bytes_write / 1e6, (double)r->bytes_read / 1e6);
}

/* A procedure's answered calls that failed: an RPC reply other than
 * SUCCESS (RFC 5531 §9; unseen ones are not known to fail), or an NFS
 * status other than OK, as the clients' errors count them. */
static uint64_t procedure_errors(const struct rr_stats *st, unsigned slot)
{
	uint64_t n = 0;
	for (unsigned s = 0; s < RR_REPLY_STATUS_COUNT; s++)
		if (s != RR_REPLY_ACCEPTED && s != RR_REPLY_UNSEEN)
			n += st->rpc_replies[slot][s];
	for (uint32_t i = 0; i < st->nfs_error_rows; i++)
		if (st->nfs_errors[i].slot == slot)
			n += st->nfs_errors[i].count;
	return n;
}

/* The NFSv4 COMPOUNDs that failed at an operation (by its slot). */
static uint64_t operation_errors(const struct rr_stats *st, unsigned op)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < st->nfs_error_rows; i++)
		if (st->nfs_errors[i].op == op && op)
			n += st->nfs_errors[i].count;
	return n;
}

/* Who is calling, on what: each client's calls, errors, latency and the
 * megabytes it read (RDMA Write) and wrote (RDMA Read) since the start;
 * then the busiest files by the handle NFS calls name first. */
static void render_clients(const struct top *t, struct lines *L)
{
	const struct rr_stats *st = rr_analyzer_stats(t->a);
	put(L, "%-24s %9s %8s %7s %7s %8s %8s", "CLIENT", "CALLS", "ERRORS", "P50", "P99",
	    "READ MB", "WRITE MB");
	for (uint32_t i = 0; i < st->client_rows; i++) {
		char addr[64];
		rr_addr_str(st->clients[i].transport, st->clients[i].addr, addr, sizeof(addr));
		if (!t->addr_filter[0] || strstr(addr, t->addr_filter))
			client_line(L, addr, &st->clients[i]);
	}
	if (st->clients_other.calls && !t->addr_filter[0])
		client_line(L, "other", &st->clients_other);
	const struct rr_file_stats *f[16];
	unsigned n = rr_stats_busiest_files(st, f, 16);
	if (!n)
		return;
	put(L, "%s", "");
	put(L, "%-24s %9s %8s %7s %7s %8s %8s", "BUSIEST FILES (fh hash)", "CALLS", "", "MEAN",
	    "MAX", "READ MB", "WRITE MB");
	for (unsigned i = 0; i < n; i++) {
		char fh[16], mean[16], max[16];
		snprintf(fh, sizeof(fh), "%08" PRIx32, f[i]->fh_hash);
		fmt_latency(mean, sizeof(mean), (rr_file_latency_mean_ns(f[i]) + 500) / 1000);
		fmt_latency(max, sizeof(max), (f[i]->latency_max_ns + 500) / 1000);
		put(L, "%-24s %9" PRIu64 " %8s %7s %7s %8.2f %8.2f", fh, f[i]->calls, "", mean, max,
		    (double)f[i]->read_bytes / 1e6, (double)f[i]->write_bytes / 1e6);
	}
}

/* text broken at spaces into lines of at most 80 columns, the first after
 * first spaces, the others after more; a word longer than a line is cut. */
static void put_wrapped(struct lines *L, unsigned first, unsigned more, const char *text)
{
	unsigned indent = first;
	while (*text) {
		const unsigned width = 80 - indent;
		size_t n = strlen(text);
		if (n > width) {
			n = width;
			while (n && text[n] != ' ')
				n--;
			if (!n) /* not inside a UTF-8 character */
				for (n = width; n && ((unsigned char)text[n] & 0xC0) == 0x80; n--)
					;
		}
		put(L, "%*s%.*s", (int)indent, "", (int)n, text);
		text += n;
		while (*text == ' ')
			text++;
		indent = more;
	}
}

/* The diagnosis view: each problem the counters show, worst first, with
 * its evidence, frames, reference and what to do, as rpcrdma-dump
 * --stats opens with them; or a line saying there is none. */
static void render_diagnosis(const struct top *t, struct lines *L)
{
	struct rr_diagnosis_item d[RR_DIAGNOSIS_COUNT];
	unsigned n = rr_diagnose(t->a, d, RR_DIAGNOSIS_COUNT);
	put(L, "%-8s %-18s %s", "SEVERITY", "PROBLEM", "TITLE [REFERENCE]");
	if (!n)
		put(L, "no problem in what the counters show");
	for (unsigned i = 0; i < n && i < RR_DIAGNOSIS_COUNT; i++) {
		const struct rr_diagnosis_info *di = rr_diagnosis_info(d[i].id);
		char head[2 * LINE];
		snprintf(head, sizeof(head), "%-8s %-18s %s [%s]",
			 rr_severity_str(d[i].severity), di->id, di->title, di->reference);
		put_wrapped(L, 0, 28, head);
		put_wrapped(L, 9, 9, d[i].evidence);
		if (d[i].frames.first)
			put(L, "%9sframes %llu to %llu on conn %u", "",
			    (unsigned long long)d[i].frames.first,
			    (unsigned long long)d[i].frames.last, d[i].worst_conn);
		char advice[512];
		snprintf(advice, sizeof(advice), "what to do: %s.", di->advice);
		put_wrapped(L, 9, 9, advice);
	}
}

/* The screen as lines of at most 80 columns. */
void top_render(const struct top *t, struct lines *L)
{
	const struct rr_stats *st = rr_analyzer_stats(t->a);
	static const char *const kinds[] = { "eBPF", "libpcap", "file", "RDMA" };
	const char *kind = kinds[t->o.src.kind == RR_LIVE_EBPF ? 0 :
				 t->o.src.kind == RR_LIVE_PCAP ? 1 :
				 t->o.src.kind == RR_LIVE_VERBS ? 3 : 2];
	time_t wall = shown_time(t);
	char clock[24];
	strftime(clock, sizeof(clock), "%H:%M:%S", localtime(&wall));
	if (t->capture_clock) /* the time in the capture, not now */
		strncat(clock, " capt", sizeof(clock) - strlen(clock) - 1);
	const char *base = strrchr(t->o.src.name, '/');
	base = base ? base + 1 : t->o.src.name;
	char order[32] = "";
	/* the keys sort the traffic and latency views; the column heads name
	 * the view */
	if (t->view == VIEW_TRAFFIC || t->view == VIEW_LATENCY)
		snprintf(order, sizeof(order), "  sort %s", sort_names[t->o.sort]);
	else if (t->view == VIEW_PROCEDURES) /* / and p choose no procedure */
		snprintf(order, sizeof(order), "  all conns");
	put(L, "rpcrdma-top %.20s (%s) %s%s  conns %u%s", base,
	    kind, clock, t->keys.paused ? " PAUSED" :
	    /* the reason is said in full when top ends */
	    t->ended && rr_live_error(t->src) ? " (ended: damaged file)" :
	    t->ended ? " (ended)" : "",
	    t->nrows, order);
	put(L, "calls/s %.0f  replies/s %.0f  MB/s inline %.2f read %.2f write %.2f",
	    t->calls_s, t->replies_s, t->bytes_s[0] / 1e6, t->bytes_s[1] / 1e6,
	    t->bytes_s[2] / 1e6);
	/* RDMA connections of other upper layers: counted, not listed */
	char other[40] = "";
	if (st->other_upper_layer.connections)
		snprintf(other, sizeof(other), "  non-RPC conns %" PRIu64,
			 st->other_upper_layer.connections);
	put(L, "findings/s %.1f (total %" PRIu64 ")  drops %" PRIu64 " (%.0f/s)"
	    "  truncated %" PRIu64 "%s%s%s%s%s",
	    t->findings_s, st->total.findings, st->frames_dropped, t->drops_s,
	    st->frames_truncated, other, t->addr_filter[0] ? "  addr~" : "", t->addr_filter,
	    t->prog_filter[0] ? "  prog=" : "", t->prog_filter);
	/* the worst problem the counters show (rpcrdma/diagnosis.h) and how
	 * many more; rpcrdma-dump --stats gives each one's evidence */
	struct rr_diagnosis_item worst;
	unsigned problems = rr_diagnose(t->a, &worst, 1);
	if (!problems)
		put(L, "diagnosis: no problem");
	else if (problems == 1)
		put(L, "diagnosis: %s %s", rr_severity_str(worst.severity),
		    rr_diagnosis_info(worst.id)->id);
	else
		put(L, "diagnosis: %s %s, and %u more", rr_severity_str(worst.severity),
		    rr_diagnosis_info(worst.id)->id, problems - 1);
	if (t->final_taken) /* the file's end: what it held, the rates over it */
		put(L, "whole capture: calls %" PRIu64 "  replies %" PRIu64
		    "  MB inline %.2f read %.2f write %.2f", st->total.calls,
		    st->total.replies, (double)st->total.bytes_send / 1e6,
		    (double)st->total.bytes_read / 1e6, (double)st->total.bytes_write / 1e6);
	else
		put(L, "%s", "");
	if (t->view == VIEW_SLOW) {
		render_slow(t, L);
		return;
	}
	if (t->view == VIEW_CLIENTS) {
		render_clients(t, L);
		return;
	}
	if (t->view == VIEW_DIAGNOSIS) {
		render_diagnosis(t, L);
		return;
	}
	if (t->view == VIEW_PROCEDURES) {
		put(L, "%-24s %10s %9s %9s %9s %7s", "PROCEDURE", "CALLS", "P50",
		    "P99", "MEAN", "ERRORS");
		for (unsigned p = 0; p < RR_PROC_SLOTS; p++) {
			if (!st->rpc_calls[p])
				continue;
			struct rr_proc_slot_info si = rr_analyzer_proc_slot_info(p);
			char name[40], p50[16], p99[16], mean[16];
			snprintf(name, sizeof(name), "%s v%u %s", si.program,
				 (unsigned)si.version, si.procedure);
			const struct rr_latency *h = &st->latency[p];
			fmt_latency(p50, sizeof(p50), top_quantile_us(h, 0.5));
			fmt_latency(p99, sizeof(p99), top_quantile_us(h, 0.99));
			fmt_latency(mean, sizeof(mean), (rr_latency_mean_ns(h) + 500) / 1000);
			put(L, "%-24.24s %10" PRIu64 " %9s %9s %9s %7" PRIu64, name,
			    st->rpc_calls[p], p50, p99, mean, procedure_errors(st, p));
		}
		/* the operations those COMPOUNDs carried, as nfsstat lists them,
		 * and the failures each stopped a COMPOUND at */
		for (unsigned op = 0; op < RR_NFS4_OP_SLOTS; op++) {
			if (!st->nfs4_ops[op])
				continue;
			put(L, "  op %-19.19s %10" PRIu64 " %9s %9s %9s %7" PRIu64,
			    rr_nfs4_op_slot_str(op), st->nfs4_ops[op], "", "", "",
			    operation_errors(st, op));
		}
		return;
	}
	if (t->view == VIEW_LATENCY)
		put(L, "%-15s %-15s %-15s %7s %7s %7s %5s", "REQUESTER", "RESPONDER",
		    "QP", "CALL/s", "P50", "P99", "FIND");
	else
		put(L, "%-15s %-15s %-6s %3s %3s %3s %6s %5s %5s %5s %4s", "REQUESTER",
		    "RESPONDER", "QP", "CRD", "INF", "MAX", "CALL/s", "SEND", "READ",
		    "WRITE", "FIND");
	for (unsigned i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		if (!row_shown(t, r))
			continue;
		if (t->view == VIEW_LATENCY) {
			char p50[16], p99[16];
			fmt_latency(p50, sizeof(p50), r->p50_us);
			fmt_latency(p99, sizeof(p99), r->p99_us);
			put(L, "%-15.15s %-15.15s %-15.15s %7.0f %7s %7s %5" PRIu64,
			    r->requester, r->responder, r->qp, r->calls_s, p50, p99,
			    r->findings);
		} else {
			char mb[3][8];
			for (int k = 0; k < 3; k++) /* MB/s in five columns */
				snprintf(mb[k], sizeof(mb[k]), r->bytes_s[k] < 1e8 ? "%.2f" : "%.0f",
					 r->bytes_s[k] / 1e6);
			char crd[8] = "-", infl[8] = "-", infl_max[8] = "-";
			if (r->grant_known)
				snprintf(crd, sizeof(crd), "%u", r->granted);
			if (!r->one_way) {
				snprintf(infl, sizeof(infl), "%u", r->in_flight);
				snprintf(infl_max, sizeof(infl_max), "%u", r->in_flight_max);
			}
			put(L, "%-15.15s %-15.15s %-6.6s %3s %3.3s %3.3s %6.0f %5.5s %5.5s %5.5s %4" PRIu64,
			    r->requester, r->responder, r->id, crd, infl, infl_max,
			    r->calls_s, mb[0], mb[1], mb[2], r->findings);
		}
	}
}

void top_print_json(const struct top *t)
{
	const struct rr_stats *st = rr_analyzer_stats(t->a);
	json_object *o = json_object_new_object();
	/* docs/json-schema.md, docs/schema/rpcrdma-top.schema.json */
	json_object_object_add(o, "type", json_object_new_string("top"));
	json_object_object_add(o, "schema", json_object_new_int(RR_JSON_SCHEMA));
	json_object_object_add(o, "time", json_object_new_int64((int64_t)shown_time(t)));
	json_object_object_add(o, "source", json_object_new_string(t->o.src.name));
	json_object_object_add(o, "diagnosis", rr_json_diagnosis(t->a));
	json_object *tot = json_object_new_object();
	/* RPC calls and replies in both directions, as every front end
	 * counts them; the backward ones also apart */
	json_object_object_add(tot, "calls", json_object_new_int64((int64_t)st->total.calls));
	json_object_object_add(tot, "replies", json_object_new_int64((int64_t)st->total.replies));
	json_object_object_add(tot, "backward_calls", json_object_new_int64(
		(int64_t)in_direction(&st->total, RR_DIR_BWD_CALL)));
	json_object_object_add(tot, "calls_per_s", json_object_new_double(t->calls_s));
	json_object_object_add(tot, "replies_per_s", json_object_new_double(t->replies_s));
	const uint64_t b[] = { st->total.bytes_send, st->total.bytes_read,
			       st->total.bytes_write };
	json_object *bytes = json_object_new_object(), *rates = json_object_new_object();
	for (int k = 0; k < 3; k++) {
		json_object_object_add(bytes, rr_byte_kind_str(k), json_object_new_int64((int64_t)b[k]));
		json_object_object_add(rates, rr_byte_kind_str(k), json_object_new_double(t->bytes_s[k]));
	}
	json_object_object_add(tot, "bytes", bytes);
	json_object_object_add(tot, "bytes_per_s", rates);
	json_object_object_add(tot, "findings", json_object_new_int64((int64_t)st->total.findings));
	json_object_object_add(tot, "frames", json_object_new_int64((int64_t)st->frames));
	json_object_object_add(tot, "dropped", json_object_new_int64((int64_t)st->frames_dropped));
	json_object_object_add(tot, "truncated", json_object_new_int64((int64_t)st->frames_truncated));
	json_object *fo = json_object_new_object();
	for (unsigned i = 0; i < RR_FINDING_COUNT; i++)
		if (st->findings[i])
			json_object_object_add(fo, rr_finding_info(i)->id,
					       json_object_new_int64((int64_t)st->findings[i]));
	json_object_object_add(tot, "findings_by_id", fo);
	json_object *other = json_object_new_object();
	json_object_object_add(other, "connections",
			       json_object_new_int64((int64_t)st->other_upper_layer.connections));
	json_object_object_add(other, "packets",
			       json_object_new_int64((int64_t)st->other_upper_layer.packets));
	json_object_object_add(other, "bytes",
			       json_object_new_int64((int64_t)st->other_upper_layer.bytes));
	json_object_object_add(tot, "other_upper_layer", other);
	json_object_object_add(o, "totals", tot);
	json_object *conns = json_object_new_array();
	for (unsigned i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		const struct rr_conn_info *c = rr_analyzer_conn(t->a, r->conn);
		json_object *co = json_object_new_object();
		json_object_object_add(co, "conn", json_object_new_int64(c->id));
		json_object_object_add(co, "requester", json_object_new_string(r->requester));
		json_object_object_add(co, "responder", json_object_new_string(r->responder));
		json_object_object_add(co, "qp", json_object_new_string(r->qp));
		json_object_object_add(co, "credits_granted", r->grant_known ?
				       json_object_new_int64(r->granted) : NULL);
		/* unknown (null) on a connection seen in one direction */
		json_object_object_add(co, "in_flight", r->one_way ? NULL :
				       json_object_new_int64(r->in_flight));
		json_object_object_add(co, "in_flight_max", r->one_way ? NULL :
				       json_object_new_int64(r->in_flight_max));
		json_object_object_add(co, "calls", json_object_new_int64((int64_t)c->st.calls));
		json_object_object_add(co, "calls_per_s", json_object_new_double(r->calls_s));
		json_object *cb = json_object_new_object();
		const uint64_t cbv[] = { c->st.bytes_send, c->st.bytes_read, c->st.bytes_write };
		for (int k = 0; k < 3; k++)
			json_object_object_add(cb, rr_byte_kind_str(k), json_object_new_int64((int64_t)cbv[k]));
		json_object_object_add(co, "bytes", cb);
		json_object_object_add(co, "latency_p50_us", json_object_new_int64((int64_t)r->p50_us));
		json_object_object_add(co, "latency_p99_us", json_object_new_int64((int64_t)r->p99_us));
		json_object_object_add(co, "findings", json_object_new_int64((int64_t)r->findings));
		json_object_array_add(conns, co);
	}
	json_object_object_add(o, "connections", conns);
	json_object *slow = json_object_new_array();
	for (unsigned i = 0; i < t->slow.n; i++) {
		const struct top_slow_call *c = &t->slow.call[i];
		json_object *so = json_object_new_object();
		json_object_object_add(so, "ts", json_object_new_double((double)c->ts_ns / 1e9));
		json_object_object_add(so, "latency_ns", json_object_new_int64((int64_t)c->latency_ns));
		json_object_object_add(so, "conn", json_object_new_int64(c->conn_id));
		json_object_object_add(so, "xid", json_object_new_int64(c->xid));
		json_object_object_add(so, "client", json_object_new_string(c->client));
		json_object_object_add(so, "server", json_object_new_string(c->server));
		json_object_object_add(so, "procedure", json_object_new_string(c->procedure));
		json_object_object_add(so, "fh_hash", c->target.fh_known ?
				       json_object_new_int64(c->target.fh_hash) : NULL);
		if (c->target.range_known) {
			json_object_object_add(so, "offset",
					       json_object_new_int64((int64_t)c->target.offset));
			json_object_object_add(so, "count", json_object_new_int64(c->target.count));
		}
		json_object_object_add(so, "rpc_status", c->reply_status == RR_REPLY_UNSEEN ? NULL :
				       json_object_new_string(rr_reply_status_str(c->reply_status)));
		json_object_object_add(so, "nfs_status", c->nfs_status_known ?
				       json_object_new_string(c->status) : NULL);
		json_object_array_add(slow, so);
	}
	/* the slow view's calls, slowest first */
	json_object_object_add(o, "slow_calls", slow);
	/* the clients view: who is calling, and the busiest files */
	json_object *clients = json_object_new_array();
	for (uint32_t i = 0; i <= st->client_rows && i <= RR_CLIENT_ROWS; i++) {
		const struct rr_client_stats *r = i < st->client_rows ? &st->clients[i] :
									 &st->clients_other;
		if (i == st->client_rows && !r->calls)
			break;
		char addr[64];
		json_object *co = json_object_new_object();
		json_object_object_add(co, "address", i < st->client_rows ?
				       json_object_new_string(rr_addr_str(r->transport, r->addr,
									  addr, sizeof(addr))) :
				       NULL);
		json_object_object_add(co, "calls", json_object_new_int64((int64_t)r->calls));
		json_object_object_add(co, "errors", json_object_new_int64((int64_t)r->errors));
		json_object_object_add(co, "latency_p50_us", json_object_new_int64(
			(int64_t)top_quantile_us(&r->latency, 0.5)));
		json_object_object_add(co, "latency_p99_us", json_object_new_int64(
			(int64_t)top_quantile_us(&r->latency, 0.99)));
		json_object *cb = json_object_new_object();
		const uint64_t cbv[] = { r->bytes_send, r->bytes_read, r->bytes_write };
		for (int k = 0; k < 3; k++)
			json_object_object_add(cb, rr_byte_kind_str(k), json_object_new_int64((int64_t)cbv[k]));
		json_object_object_add(co, "bytes", cb);
		json_object_array_add(clients, co);
	}
	json_object_object_add(o, "clients", clients);
	const struct rr_file_stats *f[16];
	unsigned nf = rr_stats_busiest_files(st, f, 16);
	json_object *files = json_object_new_array();
	for (unsigned i = 0; i < nf; i++) {
		json_object *file = json_object_new_object();
		json_object_object_add(file, "fh_hash", json_object_new_int64(f[i]->fh_hash));
		json_object_object_add(file, "calls", json_object_new_int64((int64_t)f[i]->calls));
		json_object_object_add(file, "overcount",
				       json_object_new_int64((int64_t)f[i]->overcount));
		json_object_object_add(file, "latency_mean_us", json_object_new_int64(
			(int64_t)((rr_file_latency_mean_ns(f[i]) + 500) / 1000)));
		json_object_object_add(file, "latency_max_us", json_object_new_int64(
			(int64_t)((f[i]->latency_max_ns + 500) / 1000)));
		json_object_object_add(file, "read_bytes", json_object_new_int64((int64_t)f[i]->read_bytes));
		json_object_object_add(file, "write_bytes",
				       json_object_new_int64((int64_t)f[i]->write_bytes));
		json_object_array_add(files, file);
	}
	json_object_object_add(o, "busiest_files", files);
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}
