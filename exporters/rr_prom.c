/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Prometheus text exposition 0.0.4 and OpenMetrics 1.0 of the analyzer's
 * statistics.  Names are rpcrdma_*, in base units (seconds, bytes);
 * counters end in _total; every family has HELP and TYPE.  Labels stay
 * bounded: per-connection series up to a cap, the rest summed into one
 * "other" series, never a label per xid or handle.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpcrdma/diagnosis.h"
#include "rpcrdma/stat-families.h"
#include "rr_prom.h"

void rr_text_init(struct rr_text *t)
{
	memset(t, 0, sizeof(*t));
}

void rr_text_free(struct rr_text *t)
{
	free(t->p);
	rr_text_init(t);
}

void rr_text_printf(struct rr_text *t, const char *fmt, ...)
{
	if (t->failed)
		return;
	for (;;) {
		size_t room = t->cap - t->len;
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(t->p ? t->p + t->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->failed = true;
			return;
		}
		if ((size_t)n < room) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = t->cap ? t->cap * 2 : 65536;
		while (cap - t->len <= (size_t)n)
			cap *= 2;
		char *p = realloc(t->p, cap);
		if (!p) {
			t->failed = true;
			return;
		}
		t->p = p;
		t->cap = cap;
	}
}

/* OpenMetrics names a counter family without its _total. */
void rr_prom_family(struct rr_prom *w, const char *name, const char *type,
		    const char *help)
{
	size_t n = strlen(name);
	if (w->openmetrics && !strcmp(type, "counter") && n > 6 &&
	    !strcmp(name + n - 6, "_total"))
		n -= 6;
	rr_text_printf(w->out, "# HELP %.*s %s\n# TYPE %.*s %s\n", (int)n, name,
		       help, (int)n, name, type);
}

void rr_prom_sample_u64(struct rr_prom *w, const char *name,
			const char *suffix, const char *labels, uint64_t value)
{
	rr_text_printf(w->out, "%s%s%s%s%s %" PRIu64 "\n", name, suffix,
		       labels && *labels ? "{" : "", labels ? labels : "",
		       labels && *labels ? "}" : "", value);
}

void rr_prom_sample(struct rr_prom *w, const char *name, const char *suffix,
		    const char *labels, double value)
{
	rr_text_printf(w->out, "%s%s%s%s%s %.9g\n", name, suffix,
		       labels && *labels ? "{" : "", labels ? labels : "",
		       labels && *labels ? "}" : "", value);
}

/* Label values escape backslash, double quote and newline (both formats). */
void rr_prom_label(char *buf, size_t size, const char *key, const char *value)
{
	size_t n = strlen(buf);
	if (n && n + 1 < size)
		buf[n++] = ',';
	int k = snprintf(buf + n, size > n ? size - n : 0, "%s=\"", key);
	if (k < 0 || (size_t)k >= size - n)
		return;
	n += (size_t)k;
	for (const char *v = value; *v && n + 3 < size; v++) {
		if (*v == '\\' || *v == '"' || *v == '\n') {
			buf[n++] = '\\';
			buf[n++] = *v == '\n' ? 'n' : *v;
		} else {
			buf[n++] = *v;
		}
	}
	if (n + 1 < size)
		buf[n++] = '"';
	buf[n < size ? n : size - 1] = '\0';
}

void rr_prom_end(struct rr_prom *w)
{
	if (w->openmetrics)
		rr_text_printf(w->out, "# EOF\n");
}

static void counter(struct rr_prom *w, const char *name, const char *help,
		    uint64_t v)
{
	rr_prom_family(w, name, "counter", help);
	rr_prom_sample_u64(w, name, "", NULL, v);
}

static void gauge(struct rr_prom *w, const char *name, const char *help,
		  uint64_t v)
{
	rr_prom_family(w, name, "gauge", help);
	rr_prom_sample_u64(w, name, "", NULL, v);
}

/*
 * A log2 histogram as a Prometheus one: bucket b counts values in
 * [2^b, 2^(b+1)) units, so its cumulative upper bound is 2^(b+1) units
 * (scaled to the base unit); one bucket of integers holds [2^b, 2^(b+1) - 1].
 */
static void histogram(struct rr_prom *w, const char *name, const char *labels,
		      const uint64_t *buckets, unsigned n, unsigned shown,
		      double unit, bool integers, double sum)
{
	uint64_t total = 0;
	char lb[512];
	for (unsigned b = 0; b < n; b++) {
		total += buckets[b];
		if (b >= shown)
			continue; /* past the last bound shown: in +Inf */
		double le = (double)((uint64_t)2 << b) * unit;
		if (integers)
			le -= 1;
		snprintf(lb, sizeof(lb), "%s", labels ? labels : "");
		char v[32];
		snprintf(v, sizeof(v), "%.9g", le);
		rr_prom_label(lb, sizeof(lb), "le", v);
		rr_prom_sample_u64(w, name, "_bucket", lb, total);
	}
	snprintf(lb, sizeof(lb), "%s", labels ? labels : "");
	rr_prom_label(lb, sizeof(lb), "le", "+Inf");
	rr_prom_sample_u64(w, name, "_bucket", lb, total);
	rr_prom_sample(w, name, "_sum", labels, sum);
	rr_prom_sample_u64(w, name, "_count", labels, total);
}

/* A latency histogram at the fixed bounds chosen for NFS (10 us to 10 s,
 * rpcrdma/latency.h): exact counts, not estimated from the log-linear
 * buckets. */
void rr_prom_latency_histogram(struct rr_prom *w, const char *name,
			       const char *labels, const struct rr_latency *h)
{
	char lb[512], v[32];
	for (unsigned b = 0; b < RR_LAT_BOUNDS; b++) {
		snprintf(lb, sizeof(lb), "%s", labels);
		snprintf(v, sizeof(v), "%.9g", (double)rr_latency_bound_us(b) / 1e6);
		rr_prom_label(lb, sizeof(lb), "le", v);
		rr_prom_sample_u64(w, name, "_bucket", lb, rr_latency_at_most_bound(h, b));
	}
	snprintf(lb, sizeof(lb), "%s", labels);
	rr_prom_label(lb, sizeof(lb), "le", "+Inf");
	rr_prom_sample_u64(w, name, "_bucket", lb, h->count);
	rr_prom_sample(w, name, "_sum", labels, (double)h->sum_ns / 1e9);
	rr_prom_sample_u64(w, name, "_count", labels, h->count);
}

/* The statistics list's counters that share a name (a family with a
 * "kind" label), from row first: its samples by label value. */
static void stat_family(struct rr_prom *w, const struct rr_stats *st, unsigned first)
{
	const char *name = rr_stat_info(first)->prom_name;
	unsigned rows[RR_STAT_COUNT], n = 0;
	for (unsigned i = first; i < RR_STAT_COUNT; i++) {
		if (strcmp(rr_stat_info(i)->prom_name, name) != 0)
			continue;
		unsigned at = n++;
		for (; at && strcmp(rr_stat_info(rows[at - 1])->prom_label,
				    rr_stat_info(i)->prom_label) > 0; at--)
			rows[at] = rows[at - 1];
		rows[at] = i;
	}
	rr_prom_family(w, name, "counter", rr_stat_info(first)->help);
	for (unsigned k = 0; k < n; k++) {
		char lb[64] = "";
		rr_prom_label(lb, sizeof(lb), "kind", rr_stat_info(rows[k])->prom_label);
		rr_prom_sample_u64(w, name, "", lb, rr_stat_value(st, rows[k]));
	}
}

/* A family of the list's, rows as the list's walker gives them. */
static void family(struct rr_prom *w, const struct rr_stats *st, unsigned id)
{
	const struct rr_stat_family_info *fi = rr_stat_family_info(id);
	rr_prom_family(w, fi->name, rr_stat_type_str(fi->type), fi->help);
	struct rr_stat_row row;
	for (uint32_t at = 0; rr_stat_family_next(st, id, &at, &row);) {
		char lb[256] = "";
		for (unsigned l = 0; fi->labels[l]; l++)
			rr_prom_label(lb, sizeof(lb), fi->labels[l], row.label[l]);
		if (fi->type == RR_STAT_LATENCY)
			rr_prom_latency_histogram(w, fi->name, lb, row.latency);
		else if (fi->type == RR_STAT_LOG2)
			histogram(w, fi->name, NULL, row.buckets, RR_SIZE_BUCKETS,
				  row.bounds, 1, true, (double)row.value);
		else
			rr_prom_sample_u64(w, fi->name, "", lb, row.value);
	}
}

/* The diagnosis's family: a series per problem of the list, whether the
 * counters show it or not (a bounded family for alert rules), by its
 * severity now (the list's while absent). */
static void diagnosis_family(struct rr_prom *w, const struct rr_analyzer *a, unsigned id)
{
	const struct rr_stat_family_info *fi = rr_stat_family_info(id);
	struct rr_diagnosis_item found[RR_DIAGNOSIS_COUNT];
	unsigned n = rr_diagnose(a, found, RR_DIAGNOSIS_COUNT);
	rr_prom_family(w, fi->name, rr_stat_type_str(fi->type), fi->help);
	for (unsigned p = 0; p < RR_DIAGNOSIS_COUNT; p++) {
		const struct rr_diagnosis_info *di = rr_diagnosis_info(p);
		unsigned severity = di->severity;
		uint64_t events = 0;
		for (unsigned i = 0; i < n && i < RR_DIAGNOSIS_COUNT; i++)
			if (found[i].id == p) {
				severity = found[i].severity;
				events = found[i].events;
			}
		char lb[128] = "";
		rr_prom_label(lb, sizeof(lb), fi->labels[0], di->id);
		rr_prom_label(lb, sizeof(lb), fi->labels[1], rr_severity_str(severity));
		rr_prom_sample_u64(w, fi->name, "", lb, events);
	}
}

static void families(struct rr_prom *w, const struct rr_analyzer *a, bool rebuilding)
{
	const struct rr_stats *st = rr_analyzer_stats(a);
	for (unsigned id = 0; id < RR_STAT_FAMILY_COUNT; id++) {
		const struct rr_stat_family_info *fi = rr_stat_family_info(id);
		if (!(fi->shown & RR_SHOWN_PROM))
			continue;
		if (fi->rows == RR_ROWS_STAT_SCALARS) {
			/* no series for what is not counted: without rebuilding
			 * (the exporter's, rpcrdma-top's), no message is rebuilt,
			 * as --stats=json's null "rebuilt" says */
			for (unsigned i = 0; i < RR_STAT_COUNT; i++)
				if (!rr_stat_info(i)->prom_label[0] &&
				    (rebuilding || rr_stat_info(i)->json != RR_STAT_JSON_REBUILT))
					counter(w, rr_stat_info(i)->prom_name,
						rr_stat_info(i)->help, rr_stat_value(st, i));
		} else if (fi->rows == RR_ROWS_STAT_KINDS) {
			for (unsigned i = 0; i < RR_STAT_COUNT; i++)
				if (rr_stat_kind_first(i))
					stat_family(w, st, i);
		} else if (fi->rows == RR_ROWS_DIAGNOSIS) {
			diagnosis_family(w, a, id);
		} else {
			family(w, st, id);
		}
	}
}

/* Per-connection values; the connections past the cap add into one. */
struct conn_values {
	uint64_t calls, replies, findings, bytes[RR_BYTE_KINDS];
	uint64_t granted, in_flight, in_flight_max, granted_max, bc_granted;
	uint64_t credit_waits, at_grant_ns;
	bool backchannel;     /* any backward traffic: else no backward grant */
	/* a grant known (rr_conn_grant_known): else no grant series, as a
	 * capture that starts mid-connection has not seen one */
	bool grant_known;
	/* calls in flight known: a connection seen in both directions (one
	 * seen in one never hears its calls answered, or never their calls) */
	bool in_flight_known;
};

static void conn_values(struct conn_values *v, const struct rr_conn_info *c,
			bool add)
{
	const struct rr_conn_stats *s = &c->st;
	if (!add)
		memset(v, 0, sizeof(*v));
	v->calls += s->calls;
	v->replies += s->replies;
	v->findings += s->findings;
	v->bytes[0] += s->bytes_send;
	v->bytes[1] += s->bytes_read;
	v->bytes[2] += s->bytes_write;
	/* credits add up across connections: what the responders offer */
	if (rr_conn_grant_known(c)) {
		v->granted += s->grant;
		v->grant_known = true;
	}
	if (!rr_conn_one_way(c)) {
		v->in_flight += s->in_flight;
		if (s->in_flight_max > v->in_flight_max)
			v->in_flight_max = s->in_flight_max;
		v->in_flight_known = true;
		if (rr_conn_grant_known(c)) {
			v->credit_waits += s->credit_waits;
			v->at_grant_ns += s->at_grant_ns;
		}
	}
	if (rr_conn_has_backchannel(s)) {
		v->bc_granted += s->bc_grant;
		v->backchannel = true;
	}
	if (s->grant_max > v->granted_max)
		v->granted_max = s->grant_max;
}

struct conn_series {
	char labels[256];
	struct conn_values v;
};

/* When a connection's series of a family exists: its value known. */
enum conn_known {
	KNOWN_ALWAYS,
	KNOWN_GRANT,        /* a grant seen */
	KNOWN_IN_FLIGHT,    /* both directions seen */
	KNOWN_AT_GRANT,     /* the time at the grant needs both */
	KNOWN_BACKCHANNEL,  /* backward traffic seen */
};

/* The per-connection families: a value of struct conn_values each (by
 * kind: bytes[], one series per kind; in_seconds: a count of ns). */
static const struct conn_family {
	const char *name, *type, *help;
	enum conn_known known;
	size_t value;
	bool by_kind, in_seconds;
} conn_families[] = {
#define CONN_VALUE(field) offsetof(struct conn_values, field)
	{ "rpcrdma_connection_calls_total", "counter", "RPC calls on the connection",
	  KNOWN_ALWAYS, CONN_VALUE(calls), false, false },
	{ "rpcrdma_connection_replies_total", "counter", "RPC replies on the connection",
	  KNOWN_ALWAYS, CONN_VALUE(replies), false, false },
	{ "rpcrdma_connection_findings_total", "counter", "findings on the connection",
	  KNOWN_ALWAYS, CONN_VALUE(findings), false, false },
	{ "rpcrdma_connection_bytes_total", "counter",
	  "bytes by SEND, RDMA Read and RDMA Write on the connection",
	  KNOWN_ALWAYS, CONN_VALUE(bytes), true, false },
	{ "rpcrdma_connection_credits_granted", "gauge",
	  "credits the responder granted last (RFC 8166 section 3.3.1)",
	  KNOWN_GRANT, CONN_VALUE(granted), false, false },
	{ "rpcrdma_connection_credits_granted_max", "gauge",
	  "largest credit grant seen", KNOWN_GRANT, CONN_VALUE(granted_max), false, false },
	{ "rpcrdma_connection_calls_in_flight", "gauge",
	  "forward calls sent and not yet answered",
	  KNOWN_IN_FLIGHT, CONN_VALUE(in_flight), false, false },
	{ "rpcrdma_connection_calls_in_flight_max", "gauge",
	  "most forward calls in flight at once",
	  KNOWN_IN_FLIGHT, CONN_VALUE(in_flight_max), false, false },
	{ "rpcrdma_connection_backward_credits_granted", "gauge",
	  "credits granted in the backward direction (RFC 8167)",
	  KNOWN_BACKCHANNEL, CONN_VALUE(bc_granted), false, false },
	{ "rpcrdma_connection_credit_waits_total", "counter",
	  "forward calls that waited for a credit: each the first after a reply "
	  "freed one from a full grant",
	  KNOWN_AT_GRANT, CONN_VALUE(credit_waits), false, false },
	{ "rpcrdma_connection_credits_at_grant_seconds_total", "counter",
	  "time the calls in flight stood at the grant",
	  KNOWN_AT_GRANT, CONN_VALUE(at_grant_ns), false, true },
#undef CONN_VALUE
};

static bool conn_value_known(const struct conn_values *v, enum conn_known k)
{
	switch (k) {
	case KNOWN_ALWAYS: return true;
	case KNOWN_GRANT: return v->grant_known;
	case KNOWN_IN_FLIGHT: return v->in_flight_known;
	case KNOWN_AT_GRANT: return v->grant_known && v->in_flight_known;
	case KNOWN_BACKCHANNEL: return v->backchannel;
	}
	return false;
}

static void conn_family(struct rr_prom *w, const struct conn_family *f,
			const struct conn_series *cs, unsigned n)
{
	rr_prom_family(w, f->name, f->type, f->help);
	for (unsigned i = 0; i < n; i++) {
		const struct conn_values *v = &cs[i].v;
		if (!conn_value_known(v, f->known))
			continue;
		const uint64_t *value = (const uint64_t *)((const char *)v + f->value);
		if (f->in_seconds) {
			rr_prom_sample(w, f->name, "", cs[i].labels, (double)*value / 1e9);
		} else if (!f->by_kind) {
			rr_prom_sample_u64(w, f->name, "", cs[i].labels, *value);
		} else {
			for (unsigned k = 0; k < RR_BYTE_KINDS; k++) {
				char lb[300];
				snprintf(lb, sizeof(lb), "%s", cs[i].labels);
				rr_prom_label(lb, sizeof(lb), "kind", rr_byte_kind_str(k));
				rr_prom_sample_u64(w, f->name, "", lb, value[k]);
			}
		}
	}
}

static void connections(struct rr_prom *w, const struct rr_analyzer *a,
			const struct rr_prom_options *o)
{
	uint32_t n = rr_analyzer_conn_count(a), open = 0;
	/* calls in flight: on the connections seen in both directions (on
	 * one seen in one they are unknown) */
	uint64_t granted = 0, in_flight = 0;
	unsigned cap = o->max_connection_series;
	struct conn_series *cs = calloc((size_t)cap + 1, sizeof(*cs));
	if (!cs) {
		w->out->failed = true;
		return;
	}
	unsigned used = 0, folded = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct rr_conn_info *c = rr_analyzer_conn(a, i);
		if (!c)
			continue;
		open += !c->closed;
		granted += c->closed || !rr_conn_grant_known(c) ? 0 : c->st.grant;
		in_flight += rr_conn_one_way(c) ? 0 : c->st.in_flight;
		if (used == cap) {
			conn_values(&cs[cap].v, c, folded > 0);
			folded++;
			continue;
		}
		char local[48], remote[48], id[16];
		bool responder_local =
			o->is_local && !o->is_local(c->requester_addr, 16, o->ctx) &&
			o->is_local(c->responder_addr, 16, o->ctx);
		rr_conn_addr_str(c, responder_local, local, sizeof(local));
		rr_conn_addr_str(c, !responder_local, remote, sizeof(remote));
		uint32_t qpn = responder_local ? c->responder_qpn : c->requester_qpn;
		snprintf(id, sizeof(id), c->transport == RR_TRANSPORT_IWARP ?
					 "%u" : "0x%06x", (unsigned)qpn);
		struct conn_series *s = &cs[used++];
		s->labels[0] = '\0';
		rr_prom_label(s->labels, sizeof(s->labels), "transport",
			      rr_transport_str(c->transport));
		rr_prom_label(s->labels, sizeof(s->labels), "local", local);
		rr_prom_label(s->labels, sizeof(s->labels), "remote", remote);
		/* the local QPN, or for iWARP the local TCP port */
		rr_prom_label(s->labels, sizeof(s->labels), "qpn", id);
		conn_values(&s->v, c, false);
	}
	if (folded) {
		/* used == cap: the "other" series follows the named ones */
		struct conn_series *s = &cs[used++];
		s->labels[0] = '\0';
		rr_prom_label(s->labels, sizeof(s->labels), "transport", "other");
		rr_prom_label(s->labels, sizeof(s->labels), "local", "other");
		rr_prom_label(s->labels, sizeof(s->labels), "remote", "other");
		rr_prom_label(s->labels, sizeof(s->labels), "qpn", "other");
	}
	gauge(w, "rpcrdma_calls_in_flight",
	      "forward calls in flight, all connections seen in both directions", in_flight);
	gauge(w, "rpcrdma_connections_open", "connections followed and not closed",
	      open);
	gauge(w, "rpcrdma_credits_granted",
	      "credits granted last on each open connection whose grant is known, summed",
	      granted);
	gauge(w, "rpcrdma_connection_series_folded",
	      "connections past the series cap, summed into the \"other\" series",
	      folded);
	/* gauges: a connection that shows RPC-over-RDMA later leaves them,
	 * its counts going to the rpcrdma_ series above */
	const struct rr_other_upper_layer *other = &rr_analyzer_stats(a)->other_upper_layer;
	gauge(w, "rpcrdma_other_upper_layer_connections",
	      "RDMA connections on which no RPC-over-RDMA message, private data or "
	      "NFS/RDMA port was seen (rping, perftest, NVMe-oF), counted in no other series",
	      other->connections);
	gauge(w, "rpcrdma_other_upper_layer_packets",
	      "IB packets and iWARP DDP segments of those connections", other->packets);
	gauge(w, "rpcrdma_other_upper_layer_bytes",
	      "payload bytes of those connections' packets", other->bytes);
	for (unsigned f = 0; f < sizeof(conn_families) / sizeof(conn_families[0]); f++)
		conn_family(w, &conn_families[f], cs, used);
	free(cs);
}

void rr_prom_analyzer(struct rr_prom *w, const struct rr_analyzer *a,
		      const struct rr_prom_options *o)
{
	families(w, a, rr_analyzer_limits(a)->rebuild_slots > 0);
	connections(w, a, o);
}
