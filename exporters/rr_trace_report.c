/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel's view rendered (rr_trace_report.h). */
#include "rr_trace_report.h"

#include <ctype.h>
#include <inttypes.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>
#include <rpcrdma/dissect.h>
#include <rpcrdma/stat-families.h>

#include "rr_json.h"

_Static_assert(RR_TPB_RDMA_PROCS == RR_RDMA_PROCS, "the kernel's procedures are RPC-over-RDMA's");

const char *rr_tp_chunk_type_str(unsigned v)
{
	static const char *const names[RR_TP_CHUNK_TYPES] = {
		"inline", "pullup", "mapped", "read list", "*read list",
		"write list", "reply chunk", "other" };
	return names[v < RR_TP_CHUNK_TYPES ? v : RR_TP_CHUNK_TYPES - 1];
}

/* A procedure's mean of one of its summed times over its calls, as
 * nfsiostat divides mountstats' sums. */
static uint64_t mean_us(const struct rr_tp_proc *p, uint64_t sum_us)
{
	return p->calls ? sum_us / p->calls : 0;
}

/* An NFS status by its RFC name (RFC 1813 §2.6, RFC 8881 §15.1), or its
 * number in num when the version has no such name. */
static const char *status_name(uint32_t version, uint32_t status, char *num, size_t n)
{
	const char *name = rr_nfs_status_str(RR_PROG_NFS, version, status);
	if (name)
		return name;
	snprintf(num, n, "%u", (unsigned)status);
	return num;
}

/* A client's failed reply: the kernel's NFS client names its program
 * "nfs"; another program's status is left a number. */
static const char *client_status_name(const struct rr_tp_status *e, char *num, size_t n)
{
	return status_name(strcmp(e->program, "nfs") ? 0 : e->version, e->status, num, n);
}

/* The NFSv4 operation that failed; "" for other versions. */
static const char *client_status_op(const struct rr_tp_status *e)
{
	if (e->version != 4 || !e->op)
		return "";
	const char *name = rr_nfs4_op_str(e->op);
	return name ? name : "other";
}

static uint64_t in_flight(const struct rr_tp_client *c)
{
	return !c->gone && c->calls > c->replies ? c->calls - c->replies : 0;
}

void rr_trace_report_text(FILE *out, const struct rr_tp_stats *s,
			  const struct rr_tp_stats *prev,
			  const struct rr_tp_detail *d, double dt)
{
	if (s->events_missed)
		fprintf(out, "rpcrdma-top  kernel tracepoints  events missed %llu "
			"(counts short by up to that)\n",
			(unsigned long long)s->events_missed);
	else
		fprintf(out, "rpcrdma-top  kernel tracepoints\n");
	fprintf(out, "client: calls/s %.0f  replies/s %.0f  credits %u  chunk segments "
		"read %llu write %llu reply %llu (%.2f MB)\n"
		"server: requests/s %.0f  credits asked %u  segments read %llu "
		"write %llu\n\n",
		(double)(s->calls - prev->calls) / dt,
		(double)(s->replies - prev->replies) / dt, s->credits,
		(unsigned long long)s->read_segments,
		(unsigned long long)s->write_segments,
		(unsigned long long)s->reply_segments,
		(double)s->segment_bytes / 1e6,
		(double)(s->requests - prev->requests) / dt,
		s->requested_credits,
		(unsigned long long)s->server_read_segments,
		(unsigned long long)s->server_write_segments);
	if (!d)
		return;
	fprintf(out, "%-8s %-28s %10s %10s %6s %7s %9s %9s %7s\n", "CLIENT", "SERVER",
		"CALLS", "REPLIES", "INFL", "CREDITS", "P50(us)", "P99(us)", "ERRORS");
	for (unsigned i = 0; i < d->nclients; i++) {
		const struct rr_tp_client *c = &d->clients[i];
		fprintf(out, "%-8x %-28s %10" PRIu64 " %10" PRIu64 " %6" PRIu64
			" %7u %9" PRIu64 " %9" PRIu64 " %7" PRIu64 "\n",
			(unsigned)c->id, c->peer[0] ? c->peer : "-", c->calls, c->replies,
			in_flight(c), c->credits,
			rr_latency_quantile_ns(&c->latency, 0.5) / 1000,
			rr_latency_quantile_ns(&c->latency, 0.99) / 1000,
			c->rdma_errors + c->unrecognized);
	}
	/* a client whose calls went out on several connections (nconnect):
	 * each one's sends, which add up to the client's */
	bool several = false;
	for (unsigned i = 0; i < d->nclients; i++)
		several |= d->clients[i].transports > 1;
	if (several) {
		fprintf(out, "\n%-8s %-28s %10s %10s\n", "CLIENT", "SERVER", "SEND CQ", "SENDS");
		for (unsigned i = 0; i < d->nclients; i++) {
			const struct rr_tp_client *c = &d->clients[i];
			for (unsigned k = 0; c->transports > 1 && k < c->transports; k++) {
				const struct rr_tp_transport *x = &d->transports[c->first_transport + k];
				fprintf(out, "%-8x %-28s %10u %10" PRIu64 "\n", (unsigned)c->id,
					c->peer[0] ? c->peer : "-", (unsigned)x->cq_id, x->sends);
			}
		}
	}
	/* sends of no client: the backchannel's replies to callbacks */
	if (d->nbackchannel) {
		fprintf(out, "\n%-37s %10s %10s\n", "BACKCHANNEL (replies to callbacks)",
			"SEND CQ", "SENDS");
		for (unsigned k = 0; k < d->nbackchannel; k++) {
			const struct rr_tp_transport *x = &d->transports[d->first_backchannel + k];
			fprintf(out, "%-37s %10u %10" PRIu64 "\n", "-", (unsigned)x->cq_id,
				x->sends);
		}
	}
	/* as nfsiostat: each time's mean over the calls, then the errors */
	fprintf(out, "\n%-8s %-8s %-22s %9s %9s %9s %9s %9s %6s\n", "CLIENT",
		"PROGRAM", "PROCEDURE", "CALLS", "QUEUE(us)", "RTT(us)", "EXEC(us)",
		"P99(us)", "ERRORS");
	for (unsigned i = 0; i < d->nprocs; i++) {
		const struct rr_tp_proc *p = &d->procs[i];
		char prog[32];
		snprintf(prog, sizeof(prog), "%sv%u", p->program, (unsigned)p->version);
		fprintf(out, "%-8x %-8s %-22s %9" PRIu64 " %9" PRIu64 " %9" PRIu64
			" %9" PRIu64 " %9" PRIu64 " %6" PRIu64 "\n",
			(unsigned)p->client_id, prog, p->procedure, p->calls,
			mean_us(p, p->queue_us), mean_us(p, p->rtt_us),
			mean_us(p, p->execute_us),
			rr_latency_quantile_ns(&p->latency, 0.99) / 1000, p->errors);
	}
	if (d->nstatuses)
		fprintf(out, "\n%-8s %-8s %-22s %-18s %-24s %7s\n", "CLIENT", "PROGRAM",
			"PROCEDURE", "OPERATION", "NFS STATUS", "REPLIES");
	for (unsigned i = 0; i < d->nstatuses; i++) {
		const struct rr_tp_status *e = &d->statuses[i];
		char prog[32], num[16];
		snprintf(prog, sizeof(prog), "%sv%u", e->program, (unsigned)e->version);
		fprintf(out, "%-8x %-8s %-22s %-18s %-24s %7" PRIu64 "\n",
			(unsigned)e->client_id, prog, e->procedure, client_status_op(e),
			client_status_name(e, num, sizeof(num)), e->count);
	}
	if (d->nservers)
		fprintf(out, "\n%-9s %10s %7s %10s %10s %10s %9s %9s\n", "SERVER CQ",
			"REQUESTS", "CREDITS", "READ SEGS", "WRITE SEGS", "SERVED",
			"P50(us)", "P99(us)");
	for (unsigned i = 0; i < d->nservers; i++) {
		const struct rr_tp_server *v = &d->servers[i];
		fprintf(out, "%-9u %10" PRIu64 " %7u %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			" %9" PRIu64 " %9" PRIu64 "\n",
			(unsigned)v->cq_id, v->requests, v->credits, v->read_segments,
			v->write_segments, v->calls,
			rr_latency_quantile_ns(&v->latency, 0.5) / 1000,
			rr_latency_quantile_ns(&v->latency, 0.99) / 1000);
	}
	/* the server's own time per call: receiving it to sending the reply */
	if (d->nserver_procs)
		fprintf(out, "\n%-9s %-22s %10s %9s %9s %9s\n", "SERVER CQ",
			"PROCEDURE (SERVED)", "CALLS", "MEAN(us)", "P50(us)", "P99(us)");
	for (unsigned i = 0; i < d->nserver_procs; i++) {
		const struct rr_tp_proc *p = &d->server_procs[i];
		fprintf(out, "%-9u %-22s %10" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64
			"\n", (unsigned)p->client_id, p->procedure, p->calls,
			rr_latency_mean_ns(&p->latency) / 1000,
			rr_latency_quantile_ns(&p->latency, 0.5) / 1000,
			rr_latency_quantile_ns(&p->latency, 0.99) / 1000);
	}
	if (d->nserver_statuses)
		fprintf(out, "\n%-9s %-22s %-24s %7s\n", "SERVER CQ", "OPERATION (NFSv4)",
			"NFS STATUS", "REPLIES");
	for (unsigned i = 0; i < d->nserver_statuses; i++) {
		const struct rr_tp_server_status *e = &d->server_statuses[i];
		char num[16];
		fprintf(out, "%-9u %-22s %-24s %7" PRIu64 "\n", (unsigned)e->cq_id,
			e->operation, status_name(4, e->status, num, sizeof(num)), e->count);
	}
	fputc('\n', out);
}

static void add_u64(json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_uint64(v));
}

/* The connections a client's calls went out on, each one's sends; none
 * where the kernel does not say (key absent). */
static void client_transports_json(json_object *o, const struct rr_tp_detail *d,
				   const struct rr_tp_client *c)
{
	if (!c->transports)
		return;
	json_object *a = json_object_new_array();
	for (unsigned k = 0; k < c->transports; k++) {
		const struct rr_tp_transport *x = &d->transports[c->first_transport + k];
		json_object *t = json_object_new_object();
		add_u64(t, "cq_id", x->cq_id);
		add_u64(t, "sends", x->sends);
		json_object_array_add(a, t);
	}
	json_object_object_add(o, "transports", a);
}

static json_object *client_json(const struct rr_tp_detail *d, const struct rr_tp_client *c)
{
	json_object *o = json_object_new_object();
	add_u64(o, "client_id", c->id);
	json_object_object_add(o, "server", json_object_new_string(c->peer));
	add_u64(o, "calls", c->calls);
	add_u64(o, "replies", c->replies);
	add_u64(o, "in_flight", in_flight(c));
	add_u64(o, "credits_granted", c->credits);
	add_u64(o, "credits_granted_max", c->credits_max);
	json_object *seg = json_object_new_object(), *bytes = json_object_new_object();
	add_u64(seg, "read", c->read_segments);
	add_u64(seg, "write", c->write_segments);
	add_u64(seg, "reply", c->reply_segments);
	add_u64(bytes, "read", c->read_bytes);
	add_u64(bytes, "write", c->write_bytes);
	add_u64(bytes, "reply", c->reply_bytes);
	json_object_object_add(o, "segments", seg);
	json_object_object_add(o, "segment_bytes", bytes);
	json_object *sent = json_object_new_object(), *asked = json_object_new_object();
	for (unsigned t = 0; t < RR_TP_CHUNK_TYPES; t++) {
		if (c->rtype[t])
			add_u64(sent, rr_tp_chunk_type_str(t), c->rtype[t]);
		if (c->wtype[t])
			add_u64(asked, rr_tp_chunk_type_str(t), c->wtype[t]);
	}
	json_object_object_add(o, "calls_by_rtype", sent);
	json_object_object_add(o, "calls_by_wtype", asked);
	add_u64(o, "rdma_errors", c->rdma_errors);
	add_u64(o, "unrecognized_replies", c->unrecognized);
	add_u64(o, "latency_p50_us", rr_latency_quantile_ns(&c->latency, 0.5) / 1000);
	add_u64(o, "latency_p99_us", rr_latency_quantile_ns(&c->latency, 0.99) / 1000);
	client_transports_json(o, d, c);
	return o;
}

static void latency_json(json_object *o, const struct rr_latency *h)
{
	add_u64(o, "latency_mean_us", rr_latency_mean_ns(h) / 1000);
	add_u64(o, "latency_p50_us", rr_latency_quantile_ns(h, 0.5) / 1000);
	add_u64(o, "latency_p99_us", rr_latency_quantile_ns(h, 0.99) / 1000);
	add_u64(o, "latency_max_us", h->max_ns / 1000);
}

static json_object *proc_json(const struct rr_tp_proc *p)
{
	json_object *o = json_object_new_object();
	add_u64(o, "client_id", p->client_id);
	json_object_object_add(o, "program", json_object_new_string(p->program));
	add_u64(o, "version", p->version);
	json_object_object_add(o, "procedure", json_object_new_string(p->procedure));
	add_u64(o, "calls", p->calls);
	add_u64(o, "answered", p->latency.count);
	latency_json(o, &p->latency);
	add_u64(o, "queue_us_total", p->queue_us);
	add_u64(o, "rtt_us_total", p->rtt_us);
	add_u64(o, "execute_us_total", p->execute_us);
	add_u64(o, "errors", p->errors);
	return o;
}

static json_object *status_json(const struct rr_tp_status *e)
{
	json_object *o = json_object_new_object();
	char num[16];
	add_u64(o, "client_id", e->client_id);
	json_object_object_add(o, "program", json_object_new_string(e->program));
	add_u64(o, "version", e->version);
	json_object_object_add(o, "procedure", json_object_new_string(e->procedure));
	json_object_object_add(o, "operation",
			       json_object_new_string(client_status_op(e)));
	json_object_object_add(o, "status",
			       json_object_new_string(client_status_name(e, num, sizeof(num))));
	add_u64(o, "replies", e->count);
	return o;
}

static json_object *server_proc_json(const struct rr_tp_proc *p)
{
	json_object *o = json_object_new_object();
	add_u64(o, "cq_id", p->client_id);
	json_object_object_add(o, "procedure", json_object_new_string(p->procedure));
	add_u64(o, "calls", p->calls);
	latency_json(o, &p->latency);
	add_u64(o, "errors", p->errors);
	return o;
}

static json_object *server_status_json(const struct rr_tp_server_status *e)
{
	json_object *o = json_object_new_object();
	char num[16];
	add_u64(o, "cq_id", e->cq_id);
	json_object_object_add(o, "operation", json_object_new_string(e->operation));
	json_object_object_add(o, "status",
			       json_object_new_string(status_name(4, e->status, num, sizeof(num))));
	add_u64(o, "replies", e->count);
	return o;
}

static json_object *server_json(const struct rr_tp_server *v)
{
	json_object *o = json_object_new_object();
	add_u64(o, "cq_id", v->cq_id);
	add_u64(o, "requests", v->requests);
	json_object *by = json_object_new_object();
	for (int p = 0; p < RR_TPB_RDMA_PROCS; p++)
		if (v->by_proc[p])
			add_u64(by, rr_rdma_proc_str((unsigned)p), v->by_proc[p]);
	json_object_object_add(o, "requests_by_proc", by);
	add_u64(o, "credits", v->credits);
	add_u64(o, "credits_max", v->credits_max);
	add_u64(o, "read_segments", v->read_segments);
	add_u64(o, "write_segments", v->write_segments);
	add_u64(o, "segment_bytes", v->segment_bytes);
	add_u64(o, "calls", v->calls);
	latency_json(o, &v->latency);
	return o;
}

static json_object *peer_json(const struct rr_tp_peer *p)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "address", json_object_new_string(p->addr));
	json_object_object_add(o, "port", json_object_new_string(p->port));
	add_u64(o, "connects", p->connects);
	add_u64(o, "connect_failures", p->connect_failures);
	add_u64(o, "disconnects", p->disconnects);
	return o;
}

void rr_trace_report_json(FILE *out, const struct rr_tp_stats *s,
			  const struct rr_tp_detail *d)
{
	const struct { const char *key; uint64_t v; } client[] = {
		{ "calls", s->calls }, { "replies", s->replies },
		{ "credits", s->credits },
		{ "read_segments", s->read_segments },
		{ "write_segments", s->write_segments },
		{ "reply_segments", s->reply_segments },
		{ "segment_bytes", s->segment_bytes },
	}, server[] = {
		{ "requests", s->requests },
		{ "credits", s->requested_credits },
		{ "read_segments", s->server_read_segments },
		{ "write_segments", s->server_write_segments },
		{ "segment_bytes", s->server_segment_bytes },
	};
	json_object *o = json_object_new_object();
	json_object *c = json_object_new_object(), *v = json_object_new_object();
	for (size_t i = 0; i < sizeof(client) / sizeof(client[0]); i++)
		add_u64(c, client[i].key, client[i].v);
	for (size_t i = 0; i < sizeof(server) / sizeof(server[0]); i++)
		add_u64(v, server[i].key, server[i].v);
	json_object_object_add(o, "type", json_object_new_string("top_tracepoints"));
	json_object_object_add(o, "schema", json_object_new_int(RR_JSON_SCHEMA));
	json_object_object_add(o, "time", json_object_new_int64(time(NULL)));
	json_object_object_add(o, "source", json_object_new_string("tracepoints"));
	json_object_object_add(o, "client", c);
	json_object_object_add(o, "server", v);
	add_u64(o, "events_missed", s->events_missed);
	if (d) {
		json_object *a = json_object_new_array();
		for (unsigned i = 0; i < d->nclients; i++)
			json_object_array_add(a, client_json(d, &d->clients[i]));
		json_object_object_add(o, "connections", a);
		a = json_object_new_array();
		for (unsigned i = 0; i < d->nprocs; i++)
			json_object_array_add(a, proc_json(&d->procs[i]));
		json_object_object_add(o, "procedures", a);
		a = json_object_new_array();
		for (unsigned i = 0; i < d->nstatuses; i++)
			json_object_array_add(a, status_json(&d->statuses[i]));
		json_object_object_add(o, "nfs_errors", a);
		a = json_object_new_array();
		for (unsigned i = 0; i < d->nservers; i++)
			json_object_array_add(a, server_json(&d->servers[i]));
		json_object_object_add(o, "server_connections", a);
		a = json_object_new_array();
		for (unsigned i = 0; i < d->nserver_procs; i++)
			json_object_array_add(a, server_proc_json(&d->server_procs[i]));
		json_object_object_add(o, "server_procedures", a);
		a = json_object_new_array();
		for (unsigned i = 0; i < d->nserver_statuses; i++)
			json_object_array_add(a, server_status_json(&d->server_statuses[i]));
		json_object_object_add(o, "server_nfs_errors", a);
		a = json_object_new_array();
		for (unsigned i = 0; i < d->npeers; i++)
			json_object_array_add(a, peer_json(&d->peers[i]));
		json_object_object_add(o, "connection_events", a);
		a = json_object_new_array();
		for (unsigned k = 0; k < d->nbackchannel; k++) {
			const struct rr_tp_transport *x = &d->transports[d->first_backchannel + k];
			json_object *t = json_object_new_object();
			add_u64(t, "cq_id", x->cq_id);
			add_u64(t, "sends", x->sends);
			json_object_array_add(a, t);
		}
		json_object_object_add(o, "backchannel_sends", a);
	}
	fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

/* ---- Prometheus ---------------------------------------------------------- */

static void totals_prom(struct rr_prom *w, const struct rr_tp_stats *s)
{
	static const struct {
		const char *name, *type, *help;
		size_t off;
		bool u32;
	} m[] = {
		{ "rpcrdma_trace_client_calls_total", "counter",
		  "calls the NFS client marshalled (xprtrdma_marshal)",
		  offsetof(struct rr_tp_stats, calls), false },
		{ "rpcrdma_trace_client_replies_total", "counter",
		  "replies the NFS client received (xprtrdma_reply)",
		  offsetof(struct rr_tp_stats, replies), false },
		{ "rpcrdma_trace_client_credits_granted", "gauge",
		  "the last grant a reply carried", offsetof(struct rr_tp_stats, credits), true },
		{ "rpcrdma_trace_client_read_segments_total", "counter",
		  "read chunk segments registered", offsetof(struct rr_tp_stats, read_segments), false },
		{ "rpcrdma_trace_client_write_segments_total", "counter",
		  "write chunk segments registered", offsetof(struct rr_tp_stats, write_segments), false },
		{ "rpcrdma_trace_client_reply_segments_total", "counter",
		  "reply chunk segments registered", offsetof(struct rr_tp_stats, reply_segments), false },
		{ "rpcrdma_trace_client_segment_bytes_total", "counter",
		  "bytes of the chunk segments registered", offsetof(struct rr_tp_stats, segment_bytes), false },
		{ "rpcrdma_trace_server_requests_total", "counter",
		  "requests the NFS server decoded (svcrdma_decode_rqst)",
		  offsetof(struct rr_tp_stats, requests), false },
		{ "rpcrdma_trace_server_credits_requested", "gauge",
		  "the credits the last request asked for",
		  offsetof(struct rr_tp_stats, requested_credits), true },
		{ "rpcrdma_trace_server_read_segments_total", "counter",
		  "read segments the server decoded", offsetof(struct rr_tp_stats, server_read_segments), false },
		{ "rpcrdma_trace_server_write_segments_total", "counter",
		  "write segments the server decoded", offsetof(struct rr_tp_stats, server_write_segments), false },
		{ "rpcrdma_trace_events_missed_total", "counter",
		  "events the kernel raised and did not hand over (BPF programs it skipped, "
		  "records a full perf ring lost): the other counts are short by up to that many",
		  offsetof(struct rr_tp_stats, events_missed), false },
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		uint64_t v = 0;
		if (m[i].u32) {
			uint32_t x;
			memcpy(&x, (const char *)s + m[i].off, 4);
			v = x;
		} else {
			memcpy(&v, (const char *)s + m[i].off, 8);
		}
		rr_prom_family(w, m[i].name, m[i].type, m[i].help);
		rr_prom_sample_u64(w, m[i].name, "", NULL, v);
	}
}

/* The packet path's program label for the kernel's program name: "NFS"
 * for "nfs", "NFS_ACL" for "nfsacl", others in capitals; the procedure
 * alone for the server's (no program). */
static void program_label(char *lb, size_t n, const struct rr_tp_proc *p)
{
	char prog[sizeof(p->program)], v[16];
	size_t i = 0;
	lb[0] = '\0';
	if (!p->program[0]) {
		rr_prom_label(lb, n, "procedure", p->procedure);
		return;
	}
	if (!strcmp(p->program, "nfsacl")) {
		snprintf(prog, sizeof(prog), "NFS_ACL");
	} else {
		for (; p->program[i] && i < sizeof(prog) - 1; i++)
			prog[i] = (char)toupper((unsigned char)p->program[i]);
		prog[i] = '\0';
	}
	snprintf(v, sizeof(v), "%u", (unsigned)p->version);
	rr_prom_label(lb, n, "program", prog);
	rr_prom_label(lb, n, "version", v);
	rr_prom_label(lb, n, "procedure", p->procedure);
}

static bool same_procedure(const struct rr_tp_proc *x, const struct rr_tp_proc *y)
{
	return x->version == y->version && !strcmp(x->program, y->program) &&
	       !strcmp(x->procedure, y->procedure);
}

/* Whether p[i] is the first of its (program, version, procedure) in p. */
static bool first_of_procedure(const struct rr_tp_proc *p, unsigned i)
{
	for (unsigned j = 0; j < i; j++)
		if (same_procedure(&p[j], &p[i]))
			return false;
	return true;
}

/* Procedure i's calls and histogram summed over every connection, when i
 * is the first of its (program, version, procedure) in p; false for the
 * others. */
static bool procedure_total(const struct rr_tp_proc *p, unsigned n, unsigned i,
			    uint64_t *calls, struct rr_latency *h)
{
	if (!first_of_procedure(p, i))
		return false;
	*calls = 0;
	memset(h, 0, sizeof(*h));
	for (unsigned j = i; j < n; j++) {
		if (!same_procedure(&p[j], &p[i]))
			continue;
		*calls += p[j].calls;
		rr_latency_merge(h, &p[j].latency);
	}
	return true;
}

/* The calls and latency histogram of each procedure in p, summed over
 * connections. */
static void procedures_prom(struct rr_prom *w, const struct rr_tp_proc *p, unsigned n,
			    const char *calls_name, const char *calls_help,
			    const char *latency_name, const char *latency_help)
{
	char lb[256];
	uint64_t calls;
	struct rr_latency h;
	rr_prom_family(w, calls_name, "counter", calls_help);
	for (unsigned i = 0; i < n; i++) {
		if (!procedure_total(p, n, i, &calls, &h))
			continue;
		program_label(lb, sizeof(lb), &p[i]);
		rr_prom_sample_u64(w, calls_name, "", lb, calls);
	}
	rr_prom_family(w, latency_name, "histogram", latency_help);
	for (unsigned i = 0; i < n; i++) {
		if (!procedure_total(p, n, i, &calls, &h))
			continue;
		program_label(lb, sizeof(lb), &p[i]);
		rr_prom_latency_histogram(w, latency_name, lb, &h);
	}
}

/* The client's three times of each procedure summed over connections,
 * in seconds, as node_exporter's mountstats collector gives them. */
static void times_prom(struct rr_prom *w, const struct rr_tp_detail *d)
{
	static const struct { const char *name, *help; size_t off; } f[] = {
		{ "rpcrdma_rpc_queue_seconds_total",
		  "time RPCs waited before they were sent, by procedure "
		  "(rpc_stats_latency backlog; mountstats queue)",
		  offsetof(struct rr_tp_proc, queue_us) },
		{ "rpcrdma_rpc_rtt_seconds_total",
		  "time from sending RPCs to their replies, by procedure "
		  "(rpc_stats_latency rtt; mountstats rtt)",
		  offsetof(struct rr_tp_proc, rtt_us) },
		{ "rpcrdma_rpc_execute_seconds_total",
		  "time from starting RPCs to their end, by procedure "
		  "(rpc_stats_latency execute; mountstats execute)",
		  offsetof(struct rr_tp_proc, execute_us) },
	};
	const struct rr_tp_proc *p = d->procs;
	char lb[256];
	for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		rr_prom_family(w, f[k].name, "counter", f[k].help);
		for (unsigned i = 0; i < d->nprocs; i++) {
			if (!first_of_procedure(p, i))
				continue;
			uint64_t us = 0, v;
			for (unsigned j = i; j < d->nprocs; j++) {
				if (!same_procedure(&p[j], &p[i]))
					continue;
				memcpy(&v, (const char *)&p[j] + f[k].off, sizeof(v));
				us += v;
			}
			program_label(lb, sizeof(lb), &p[i]);
			rr_prom_sample(w, f[k].name, "", lb, (double)us / 1e6);
		}
	}
}

static bool same_status(const struct rr_tp_status *x, const struct rr_tp_status *y)
{
	return x->version == y->version && x->op == y->op && x->status == y->status &&
	       !strcmp(x->program, y->program) && !strcmp(x->procedure, y->procedure);
}

/* NFS errors by procedure, operation and status summed over connections,
 * under the packet path's name and labels (rpcrdma_nfs_errors_total). */
static void statuses_prom(struct rr_prom *w, const struct rr_tp_detail *d)
{
	const struct rr_tp_status *e = d->statuses;
	const char *name = rr_stat_family_info(RR_FAM_NFS_ERRORS)->name;
	rr_prom_family(w, name, "counter",
		       "NFS replies that failed as the client decoded them, by procedure, "
		       "the NFSv4 operation that failed and status (nfs_xdr_status, "
		       "nfs4_xdr_status)");
	for (unsigned i = 0; i < d->nstatuses; i++) {
		bool seen = false;
		for (unsigned j = 0; j < i && !seen; j++)
			seen = same_status(&e[j], &e[i]);
		if (seen)
			continue;
		uint64_t n = 0;
		for (unsigned j = i; j < d->nstatuses; j++)
			if (same_status(&e[j], &e[i]))
				n += e[j].count;
		struct rr_tp_proc p = { .version = e[i].version };
		memcpy(p.program, e[i].program, sizeof(p.program));
		memcpy(p.procedure, e[i].procedure, sizeof(p.procedure));
		char lb[320], num[16];
		program_label(lb, sizeof(lb), &p);
		rr_prom_label(lb, sizeof(lb), "operation", client_status_op(&e[i]));
		rr_prom_label(lb, sizeof(lb), "status", client_status_name(&e[i], num, sizeof(num)));
		rr_prom_sample_u64(w, name, "", lb, n);
	}
}

/* The server's failed NFSv4 replies by operation and status, summed over
 * connections. */
static void server_statuses_prom(struct rr_prom *w, const struct rr_tp_detail *d)
{
	const struct rr_tp_server_status *e = d->server_statuses;
	const char *name = "rpcrdma_trace_server_nfs_errors_total";
	rr_prom_family(w, name, "counter",
		       "NFSv4 replies the server sent over RDMA that failed, by the "
		       "operation that failed and status (nfsd_compound_status)");
	for (unsigned i = 0; i < d->nserver_statuses; i++) {
		bool seen = false;
		for (unsigned j = 0; j < i && !seen; j++)
			seen = e[j].status == e[i].status &&
			       !strcmp(e[j].operation, e[i].operation);
		if (seen)
			continue;
		uint64_t n = 0;
		for (unsigned j = i; j < d->nserver_statuses; j++)
			if (e[j].status == e[i].status && !strcmp(e[j].operation, e[i].operation))
				n += e[j].count;
		char lb[160], num[16];
		lb[0] = '\0';
		rr_prom_label(lb, sizeof(lb), "operation", e[i].operation);
		rr_prom_label(lb, sizeof(lb), "status",
			      status_name(4, e[i].status, num, sizeof(num)));
		rr_prom_sample_u64(w, name, "", lb, n);
	}
}

static void procs_prom(struct rr_prom *w, const struct rr_tp_detail *d)
{
	procedures_prom(w, d->procs, d->nprocs, rr_stat_family_info(RR_FAM_RPC_CALLS)->name,
			"RPCs xprtrdma sent that the kernel completed, by program, "
			"version and procedure (rpc_stats_latency)",
			rr_stat_family_info(RR_FAM_RPC_LATENCY)->name,
			"the kernel's round trip of an RPC (rpc_stats_latency rtt), "
			"by procedure");
	procedures_prom(w, d->server_procs, d->nserver_procs,
			"rpcrdma_trace_server_rpc_calls_total",
			"RPC calls the server answered over RDMA, by procedure "
			"(svc_stats_latency)",
			"rpcrdma_trace_server_rpc_latency_seconds",
			"the server's time from receiving an RPC call to sending its "
			"reply (svc_stats_latency execute), by procedure");
}

static void connections_prom(struct rr_prom *w, const struct rr_tp_detail *d)
{
	static const struct { const char *name, *type, *help; } f[] = {
		{ "rpcrdma_connection_calls_total", "counter",
		  "RPC calls the client marshalled on the connection" },
		{ "rpcrdma_connection_replies_total", "counter",
		  "RPC replies the client received on the connection" },
		{ "rpcrdma_connection_credits_granted", "gauge",
		  "credits the server granted last (RFC 8166 section 3.3.1)" },
		{ "rpcrdma_connection_credits_granted_max", "gauge",
		  "largest credit grant seen" },
		{ "rpcrdma_connection_calls_in_flight", "gauge",
		  "calls marshalled and not yet answered" },
		{ "rpcrdma_trace_connection_rdma_errors_total", "counter",
		  "RDMA_ERROR replies (xprtrdma_err_vers, xprtrdma_err_chunk)" },
	};
	uint64_t inflight = 0;
	for (unsigned i = 0; i < d->nclients; i++)
		inflight += in_flight(&d->clients[i]);
	rr_prom_family(w, "rpcrdma_calls_in_flight", "gauge",
		       "calls marshalled and not yet answered, all connections");
	rr_prom_sample_u64(w, "rpcrdma_calls_in_flight", "", NULL, inflight);
	for (unsigned k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
		rr_prom_family(w, f[k].name, f[k].type, f[k].help);
		for (unsigned i = 0; i < d->nclients; i++) {
			const struct rr_tp_client *c = &d->clients[i];
			const uint64_t v[] = { c->calls, c->replies, c->credits,
					       c->credits_max, in_flight(c), c->rdma_errors };
			char lb[256], id[16];
			snprintf(id, sizeof(id), "%x", (unsigned)c->id);
			lb[0] = '\0';
			rr_prom_label(lb, sizeof(lb), "remote", c->peer);
			rr_prom_label(lb, sizeof(lb), "client", id);
			rr_prom_sample_u64(w, f[k].name, "", lb, v[k]);
		}
	}
	rr_prom_family(w, "rpcrdma_trace_transport_sends_total", "counter",
		       "RPC-over-RDMA messages a client sent, by the connection (its send "
		       "completion queue, cq_id) they went out on: a transport each, several "
		       "for an nconnect mount (xprtrdma_post_send)");
	for (unsigned i = 0; i < d->nclients; i++) {
		const struct rr_tp_client *c = &d->clients[i];
		for (unsigned k = 0; k < c->transports; k++) {
			const struct rr_tp_transport *x = &d->transports[c->first_transport + k];
			char lb[256], id[16], cq[16];
			snprintf(id, sizeof(id), "%x", (unsigned)c->id);
			snprintf(cq, sizeof(cq), "%u", (unsigned)x->cq_id);
			lb[0] = '\0';
			rr_prom_label(lb, sizeof(lb), "remote", c->peer);
			rr_prom_label(lb, sizeof(lb), "client", id);
			rr_prom_label(lb, sizeof(lb), "cq_id", cq);
			rr_prom_sample_u64(w, "rpcrdma_trace_transport_sends_total", "", lb, x->sends);
		}
	}
	rr_prom_family(w, "rpcrdma_trace_backchannel_sends_total", "counter",
		       "RPC-over-RDMA messages sent by no RPC client, by the connection (its "
		       "send completion queue, cq_id): on an NFSv4.1 client, the backchannel's "
		       "replies to the server's callbacks (xprtrdma_post_send, client_id -1)");
	for (unsigned k = 0; k < d->nbackchannel; k++) {
		const struct rr_tp_transport *x = &d->transports[d->first_backchannel + k];
		char lb[64], cq[16];
		snprintf(cq, sizeof(cq), "%u", (unsigned)x->cq_id);
		lb[0] = '\0';
		rr_prom_label(lb, sizeof(lb), "cq_id", cq);
		rr_prom_sample_u64(w, "rpcrdma_trace_backchannel_sends_total", "", lb, x->sends);
	}
	static const struct { const char *name, *help; } pf[] = {
		{ "rpcrdma_trace_connects_total",
		  "connections the client made, by server (xprtrdma_connect)" },
		{ "rpcrdma_trace_connect_failures_total",
		  "connection attempts that failed, by server" },
		{ "rpcrdma_trace_disconnects_total",
		  "connections lost or closed, by server (xprtrdma_disconnect)" },
	};
	for (unsigned k = 0; k < 3; k++) {
		rr_prom_family(w, pf[k].name, "counter", pf[k].help);
		for (unsigned i = 0; i < d->npeers; i++) {
			const struct rr_tp_peer *p = &d->peers[i];
			const uint64_t v[] = { p->connects, p->connect_failures,
					       p->disconnects };
			char lb[160], peer[64];
			snprintf(peer, sizeof(peer), "%s:%s", p->addr, p->port);
			lb[0] = '\0';
			rr_prom_label(lb, sizeof(lb), "remote", peer);
			rr_prom_sample_u64(w, pf[k].name, "", lb, v[k]);
		}
	}
	rr_prom_family(w, "rpcrdma_trace_server_connection_requests_total", "counter",
		       "requests the server decoded, by connection (its receive CQ)");
	for (unsigned i = 0; i < d->nservers; i++) {
		char lb[64], cq[16];
		snprintf(cq, sizeof(cq), "%u", (unsigned)d->servers[i].cq_id);
		lb[0] = '\0';
		rr_prom_label(lb, sizeof(lb), "cq", cq);
		rr_prom_sample_u64(w, "rpcrdma_trace_server_connection_requests_total", "",
				   lb, d->servers[i].requests);
	}
}

void rr_trace_report_prom(struct rr_prom *w, const struct rr_tp_stats *s,
			  const struct rr_tp_detail *d)
{
	totals_prom(w, s);
	if (!d)
		return;
	/* the packet path's families, with the kernel's meaning in HELP */
	const char *replies = rr_stat_family_info(RR_FAM_RPC_REPLIES)->name;
	rr_prom_family(w, replies, "counter", "RPC replies the client received");
	rr_prom_sample_u64(w, replies, "", NULL, s->replies);
	procs_prom(w, d);
	times_prom(w, d);
	statuses_prom(w, d);
	server_statuses_prom(w, d);
	connections_prom(w, d);
}
