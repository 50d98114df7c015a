/* SPDX-License-Identifier: BSD-2-Clause */
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <json-c/printbuf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpcrdma/diagnosis.h"
#include "rpcrdma/stat-families.h"
#include "rr_json.h"

/* Every key is a static string added once: json-c need not copy it or
 * look for an earlier one, which is most of its cost per object. */
static void add(json_object *o, const char *k, json_object *v)
{
	json_object_object_add_ex(o, k, v, JSON_C_OBJECT_ADD_KEY_IS_NEW |
						   JSON_C_OBJECT_KEY_IS_CONSTANT);
}

/*
 * Integers without snprintf, and unsigned: every number this writer makes
 * is (docs/json-schema.md), and json-c keeps them in an int64, where an
 * offset of 2^63 or more (Linux puts the xid in an FRWR address's top bits)
 * would read as negative.
 */
static int int_text(json_object *o, struct printbuf *pb, int level, int flags)
{
	(void)level;
	(void)flags;
	char buf[24], *p = buf + sizeof(buf);
	uint64_t u = (uint64_t)json_object_get_int64(o);
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	return printbuf_memappend(pb, p, (int)(buf + sizeof(buf) - p));
}

static json_object *u64(uint64_t v)
{
	json_object *o = json_object_new_int64((int64_t)v);
	json_object_set_serializer(o, int_text, NULL, NULL);
	return o;
}

static json_object *header(const char *type, uint64_t frame, uint64_t ts_ns)
{
	json_object *o = json_object_new_object();
	add(o, "type", json_object_new_string(type));
	add(o, "schema", json_object_new_int(RR_JSON_SCHEMA));
	add(o, "frame", u64(frame));
	/* microseconds, written exactly as a capture's timestamp reads */
	char ts[32];
	snprintf(ts, sizeof(ts), "%llu.%06llu",
		 (unsigned long long)(ts_ns / 1000000000u),
		 (unsigned long long)(ts_ns % 1000000000u / 1000u));
	add(o, "ts", json_object_new_double_s((double)ts_ns / 1e9, ts));
	return o;
}

json_object *rr_json_finding(const struct rr_event *ev)
{
	const struct rr_finding_info *fi = rr_finding_info(ev->finding.id);
	json_object *o = header("finding", ev->frame, ev->ts_ns);
	add(o, "conn", ev->conn_id == RR_CONN_NONE ? NULL : u64(ev->conn_id));
	add(o, "id", json_object_new_string(fi->id));
	add(o, "severity", json_object_new_string(rr_severity_str(fi->severity)));
	add(o, "reference", json_object_new_string(fi->reference));
	add(o, "message", json_object_new_string(fi->message));
	add(o, "detail", ev->finding.detail ? json_object_new_string(ev->finding.detail) : NULL);
	add(o, "advice", json_object_new_string(fi->advice));
	return o;
}

json_object *rr_json_chunk_data(const struct rr_event *ev)
{
	json_object *o = header("chunk_data", ev->frame, ev->ts_ns);
	add(o, "conn", u64(ev->conn_id));
	add(o, "dir", json_object_new_string(rr_dir_id(ev->dir)));
	const struct rr_ev_chunk_data *c = &ev->chunk;
	add(o, "xid", u64(c->xid));
	add(o, "chunk", json_object_new_string(rr_chunk_kind_str(c->source)));
	add(o, "op", json_object_new_string(rr_access_str(c->access)));
	add(o, "handle", u64(c->handle));
	add(o, "offset", u64(c->seg_offset));
	add(o, "len", u64(c->data_len));
	return o;
}

json_object *rr_json_close(const struct rr_event *ev)
{
	json_object *o = header("close", ev->frame, ev->ts_ns);
	add(o, "conn", u64(ev->conn_id));
	add(o, "reset", json_object_new_boolean(ev->connection && ev->connection->reset));
	return o;
}

static json_object *private_data(const struct rr_cm_private *p)
{
	json_object *o = json_object_new_object();
	add(o, "format", u64(RR_CM_PRIVATE_FORMAT));
	add(o, "version", u64(p->version));
	add(o, "rinval", json_object_new_boolean(p->rinval));
	add(o, "send_size", u64(p->send_size));
	add(o, "recv_size", u64(p->recv_size));
	add(o, "status", json_object_new_string(rr_status_str(p->status)));
	return o;
}

/* The frame's endpoints: IP addresses (and TCP ports), or IB GIDs or LIDs. */
static void add_endpoints(json_object *o, const struct rr_frame *f)
{
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];
	if (rr_has(f, RR_LAYER_IPV4) || rr_has(f, RR_LAYER_IPV6)) {
		int fam = f->ip.addr_len == 4 ? AF_INET : AF_INET6;
		inet_ntop(fam, f->data + f->ip.src_off, s, sizeof(s));
		inet_ntop(fam, f->data + f->ip.dst_off, d, sizeof(d));
	} else if (rr_has(f, RR_LAYER_GRH)) {
		inet_ntop(AF_INET6, f->data + f->grh.sgid_off, s, sizeof(s));
		inet_ntop(AF_INET6, f->data + f->grh.dgid_off, d, sizeof(d));
	} else if (rr_has(f, RR_LAYER_LRH)) {
		snprintf(s, sizeof(s), "lid %u", f->lrh.slid);
		snprintf(d, sizeof(d), "lid %u", f->lrh.dlid);
	} else {
		return;
	}
	add(o, "src", json_object_new_string(s));
	if (rr_has(f, RR_LAYER_TCP))
		add(o, "src_port", u64(f->tcp.sport));
	add(o, "dst", json_object_new_string(d));
	if (rr_has(f, RR_LAYER_TCP))
		add(o, "dst_port", u64(f->tcp.dport));
}

json_object *rr_json_setup(const struct rr_frame *f, uint64_t frame,
			   uint64_t ts_ns, uint32_t conn)
{
	json_object *o;
	if (rr_has(f, RR_LAYER_CM)) {
		o = header("cm", frame, ts_ns);
		add(o, "conn", conn == RR_CONN_NONE ? NULL : u64(conn));
		add(o, "transport", json_object_new_string(rr_transport_str(f->transport)));
		add_endpoints(o, f);
		const char *attr = rr_cm_attr_str(f->cm.attr_id);
		add(o, "attr", attr ? json_object_new_string(attr) :
				      u64(f->cm.attr_id));
		/* null, or left out: the capture cut the message before its
		 * fields */
		bool read = f->cm.fixed_read;
		add(o, "local_comm_id", read ? u64(f->cm.local_comm_id) : NULL);
		add(o, "remote_comm_id", read ? u64(f->cm.remote_comm_id) : NULL);
		if (read && (f->cm.attr_id == RR_CM_REQ || f->cm.attr_id == RR_CM_REP)) {
			add(o, "qpn", u64(f->cm.local_qpn));
			add(o, "starting_psn", u64(f->cm.starting_psn));
		}
		if (read && f->cm.attr_id == RR_CM_REQ)
			add(o, "service_id", u64(f->cm.service_id));
		if (f->cm.attr_id == RR_CM_REJ) {
			const char *why = read ? rr_cm_rej_reason_str(f->cm.reject_reason) : NULL;
			add(o, "reject_reason", read ? u64(f->cm.reject_reason) : NULL);
			add(o, "reject_reason_name", why ? json_object_new_string(why) : NULL);
		}
		if (rr_has(f, RR_LAYER_RDMA_CM)) {
			char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];
			int fam = f->rdma_cm.addr_len == 4 ? AF_INET : AF_INET6;
			inet_ntop(fam, f->data + f->rdma_cm.src_addr_off, s, sizeof(s));
			inet_ntop(fam, f->data + f->rdma_cm.dst_addr_off, d, sizeof(d));
			json_object *r = json_object_new_object();
			add(r, "src", json_object_new_string(s));
			add(r, "src_port", u64(f->rdma_cm.src_port));
			add(r, "dst", json_object_new_string(d));
			add(r, "dst_port", u64(f->rdma_cm.dst_port));
			add(o, "rdma_cm", r);
		}
	} else {
		o = header("mpa", frame, ts_ns);
		add(o, "conn", conn == RR_CONN_NONE ? NULL : u64(conn));
		add_endpoints(o, f);
		add(o, "reply", json_object_new_boolean(f->mpa.reply));
		add(o, "revision", u64(f->mpa.revision));
		add(o, "crc", json_object_new_boolean(f->mpa.crc));
		add(o, "markers", json_object_new_boolean(f->mpa.marker));
		if (f->mpa.has_ird_ord) {
			add(o, "ird", u64(f->mpa.ird));
			add(o, "ord", u64(f->mpa.ord));
		}
	}
	add(o, "private_data", rr_has(f, RR_LAYER_CM_PRIVATE) ?
				       private_data(&f->cm_private) : NULL);
	return o;
}

/* RFC 8797 §3.1's inline thresholds, null when the capture holds no whole
 * setup (unknown, not RFC 8166's defaults). */
static json_object *thresholds(const struct rr_conn_info *c)
{
	if (!c->negotiated)
		return NULL;
	json_object *t = json_object_new_object();
	add(t, "call", u64(c->thresholds.call));
	add(t, "reply", u64(c->thresholds.reply));
	add(t, "remote_invalidation",
	    json_object_new_boolean(c->thresholds.remote_invalidation));
	return t;
}

json_object *rr_json_negotiated(const struct rr_event *ev)
{
	const struct rr_conn_info *c = ev->connection;
	json_object *o = header("negotiated", ev->frame, ev->ts_ns);
	add(o, "conn", u64(ev->conn_id));
	add(o, "transport", json_object_new_string(rr_transport_str(c->transport)));
	add(o, "requester_private_data",
	    c->have_private[0] ? private_data(&c->priv[0]) : NULL);
	add(o, "responder_private_data",
	    c->have_private[1] ? private_data(&c->priv[1]) : NULL);
	add(o, "thresholds", thresholds(c));
	return o;
}

/* Bytes by SEND, RDMA Read and RDMA Write: {send, rdma_read, rdma_write}. */
static json_object *bytes_moved(uint64_t send, uint64_t read, uint64_t write)
{
	json_object *b = json_object_new_object();
	add(b, rr_byte_kind_str(RR_BYTES_SEND), u64(send));
	add(b, rr_byte_kind_str(RR_BYTES_RDMA_READ), u64(read));
	add(b, rr_byte_kind_str(RR_BYTES_RDMA_WRITE), u64(write));
	return b;
}

/* The fabric under it, by the side whose stream each counter concerns
 * (RR_FABRIC_LIST); a connection's own (conn) also the last RNR NAK's
 * wait, and null for what its unheard side sent. */
static json_object *fabric(const struct rr_conn_stats *s, const struct rr_conn_info *conn)
{
	bool total = !conn;
	json_object *o = json_object_new_object();
	for (int sd = 0; sd < 2; sd++) {
		json_object *stream = json_object_new_object();
		for (unsigned c = 0; c < RR_FABRIC_COUNT; c++)
			add(stream, rr_fabric_counter_info(c)->json_key,
			    total || rr_conn_fabric_known(conn, (unsigned)sd, c) ?
			    u64(s->fabric[sd][c]) : NULL);
		if (!total)
			add(stream, "rnr_timer_us_last", !s->fabric[sd][RR_FABRIC_RNR_NAKS] ?
			    NULL : u64(s->rnr_timer_us_last[sd]));
		add(o, rr_side_str(sd), stream);
	}
	return o;
}

/* Messages past the negotiated inline thresholds (RFC 8166 §3.3.2):
 * null on a connection whose setup the capture did not hold. */
static json_object *past_inline(const struct rr_conn_stats *s,
				const struct rr_conn_info *conn)
{
	if (conn && !conn->negotiated)
		return NULL;
	json_object *o = json_object_new_object();
	add(o, "long_calls", u64(s->past_inline[0]));
	add(o, "long_call_max", u64(s->past_inline_max[0]));
	add(o, "reply_chunk_replies", u64(s->past_inline[1]));
	add(o, "reply_chunk_max", u64(s->past_inline_max[1]));
	return o;
}

/* A connection's counters (conn), or those of all connections (conn
 * NULL), credits a connection's own, left out of them.  Null where unknown: a connection's grant without a reply or a whole setup
 * (rr_conn_grant_known); on a connection seen in one direction, its
 * unanswered calls and calls in flight. */
static json_object *conn_stats(const struct rr_conn_stats *s, const struct rr_conn_info *conn)
{
	bool total = !conn;
	bool grant_known = conn && rr_conn_grant_known(conn);
	bool one_way = conn && rr_conn_one_way(conn);
	json_object *o = json_object_new_object();
	json_object *m = json_object_new_object();
	for (unsigned d = 0; d <= RR_DIR_UNKNOWN; d++) {
		json_object *byproc = json_object_new_object();
		for (unsigned p = 0; p < RR_RDMA_PROCS; p++)
			add(byproc, rr_rdma_proc_str(p), u64(s->messages[d][p]));
		add(m, rr_dir_id(d), byproc);
	}
	add(o, "messages", m);
	add(o, "calls", u64(s->calls));
	add(o, "replies", u64(s->replies));
	add(o, "unanswered", one_way ? NULL : u64(s->unmatched));
	if (!total) {
		json_object *cr = json_object_new_object();
		add(cr, "granted", grant_known ? u64(s->grant) : NULL);
		add(cr, "granted_min", !grant_known ? NULL :
		    u64(s->grant_min == UINT32_MAX ? 0 : s->grant_min));
		add(cr, "granted_max", grant_known ? u64(s->grant_max) : NULL);
		add(cr, "in_flight", one_way ? NULL : u64(s->in_flight));
		add(cr, "in_flight_max", one_way ? NULL : u64(s->in_flight_max));
		/* at the grant: known where both the grant and the calls are */
		add(cr, "requested", s->calls ? u64(s->requested) : NULL);
		add(cr, "at_grant_ns", one_way || !grant_known ? NULL : u64(s->at_grant_ns));
		add(cr, "waited", one_way || !grant_known ? NULL : u64(s->credit_waits));
		/* absent where no backchannel exists (NFSv3) */
		if (rr_conn_has_backchannel(s))
			add(cr, "backward_granted", u64(s->bc_grant));
		add(o, "credits", cr);
	}
	json_object *ch = json_object_new_object();
	for (unsigned k = 0; k < RR_KIND_COUNT; k++)
		add(ch, rr_chunk_kind_str(k), u64(s->chunks[k]));
	add(o, "chunks", ch);
	add(o, "bytes", bytes_moved(s->bytes_send, s->bytes_read, s->bytes_write));
	add(o, "findings", u64(s->findings));
	add(o, "retransmissions", u64(s->retransmissions));
	add(o, "past_inline", past_inline(s, conn));
	add(o, "fabric", fabric(s, conn));
	return o;
}

/* Answered calls' latency: percentiles from the log-linear histogram
 * (within 1.6%), count, sum, min and max exact. */
static json_object *latency(const struct rr_latency *h)
{
	static const struct {
		const char *key;
		double q;
	} pct[] = { { "p50_ns", 0.5 }, { "p90_ns", 0.9 }, { "p99_ns", 0.99 },
		    { "p999_ns", 0.999 } };
	json_object *o = json_object_new_object();
	add(o, "count", u64(h->count));
	add(o, "sum_ns", u64(h->sum_ns));
	if (h->count) {
		add(o, "min_ns", u64(h->min_ns));
		add(o, "max_ns", u64(h->max_ns));
		for (unsigned i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
			add(o, pct[i].key, u64(rr_latency_quantile_ns(h, pct[i].q)));
	}
	return o;
}

/* A client's row: its address (null for the sum of those past the
 * table), calls, answered, errors, bytes, latency. */
static json_object *client(const struct rr_client_stats *r, const char *address)
{
	json_object *o = json_object_new_object();
	add(o, "address", address ? json_object_new_string(address) : NULL);
	add(o, "calls", u64(r->calls));
	add(o, "replies", u64(r->replies));
	add(o, "errors", u64(r->errors));
	add(o, "bytes", bytes_moved(r->bytes_send, r->bytes_read, r->bytes_write));
	add(o, "latency", latency(&r->latency));
	return o;
}

/* The n files of a ranking: {fh_hash, calls, overcount, read_bytes,
 * write_bytes, latency_mean_ns, latency_max_ns}. */
static json_object *files(const struct rr_file_stats **f, unsigned n)
{
	json_object *arr = json_object_new_array();
	for (unsigned i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		add(o, "fh_hash", u64(f[i]->fh_hash));
		add(o, "calls", u64(f[i]->calls));
		add(o, "overcount", u64(f[i]->overcount));
		add(o, "read_bytes", u64(f[i]->read_bytes));
		add(o, "write_bytes", u64(f[i]->write_bytes));
		add(o, "latency_mean_ns", u64(rr_file_latency_mean_ns(f[i])));
		add(o, "latency_max_ns", u64(f[i]->latency_max_ns));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* The counters of the statistics list that sit in one JSON object, in the
 * list's order. */
static void add_stats(json_object *o, const struct rr_stats *st, enum rr_stat_json where)
{
	for (unsigned i = 0; i < RR_STAT_COUNT; i++)
		if (rr_stat_info(i)->json == where)
			add(o, rr_stat_info(i)->json_key, u64(rr_stat_value(st, i)));
}

static json_object *stat_object(const struct rr_stats *st, enum rr_stat_json where)
{
	json_object *o = json_object_new_object();
	add_stats(o, st, where);
	return o;
}

json_object *rr_json_diagnosis(const struct rr_analyzer *a)
{
	struct rr_diagnosis_item d[RR_DIAGNOSIS_COUNT];
	unsigned n = rr_diagnose(a, d, RR_DIAGNOSIS_COUNT);
	json_object *list = json_object_new_array();
	for (unsigned i = 0; i < n && i < RR_DIAGNOSIS_COUNT; i++) {
		const struct rr_diagnosis_info *di = rr_diagnosis_info(d[i].id);
		json_object *p = json_object_new_object();
		add(p, "problem", json_object_new_string(di->id));
		add(p, "severity", json_object_new_string(rr_severity_str(d[i].severity)));
		add(p, "title", json_object_new_string(di->title));
		add(p, "evidence", json_object_new_string(d[i].evidence));
		add(p, "events", u64(d[i].events));
		add(p, "of", d[i].of ? u64(d[i].of) : NULL);
		add(p, "connections", u64(d[i].conns));
		add(p, "worst_conn", d[i].worst_conn == RR_CONN_NONE ? NULL : u64(d[i].worst_conn));
		add(p, "first_frame", d[i].frames.first ? u64(d[i].frames.first) : NULL);
		add(p, "last_frame", d[i].frames.first ? u64(d[i].frames.last) : NULL);
		add(p, "reference", json_object_new_string(di->reference));
		add(p, "advice", json_object_new_string(di->advice));
		json_object_array_add(list, p);
	}
	return list;
}

json_object *rr_json_stats(const struct rr_analyzer *a)
{
	const struct rr_stats *st = rr_analyzer_stats(a);
	json_object *o = json_object_new_object();
	add(o, "type", json_object_new_string("stats"));
	add(o, "schema", json_object_new_int(RR_JSON_SCHEMA));
	add(o, "diagnosis", rr_json_diagnosis(a));
	json_object *conns = json_object_new_array();
	for (uint32_t i = 0; i < rr_analyzer_conn_count(a); i++) {
		const struct rr_conn_info *c = rr_analyzer_conn(a, i);
		if (!c)
			continue;
		json_object *co = conn_stats(&c->st, c);
		add(co, "conn", u64(c->id));
		add(co, "transport", json_object_new_string(rr_transport_str(c->transport)));
		add(co, "inferred", json_object_new_boolean(c->inferred));
		json_object *heard = json_object_new_object();
		add(heard, "requester",
		    json_object_new_boolean(c->heard & RR_HEARD_REQUESTER));
		add(heard, "responder",
		    json_object_new_boolean(c->heard & RR_HEARD_RESPONDER));
		add(co, "heard", heard);
		add(co, "previous", c->previous == RR_CONN_NONE ? NULL : u64(c->previous));
		add(co, "requester_id", u64(c->requester_qpn));
		add(co, "responder_id", u64(c->responder_qpn));
		add(co, "thresholds", thresholds(c));
		json_object_array_add(conns, co);
	}
	add(o, "connections", conns);
	add(o, "total", conn_stats(&st->total, NULL));
	json_object *procs = json_object_new_array();
	for (unsigned p = 0; p < RR_PROC_SLOTS; p++) {
		if (!st->rpc_calls[p])
			continue;
		json_object *po = json_object_new_object();
		struct rr_proc_slot_info si = rr_analyzer_proc_slot_info(p);
		add(po, "procedure", json_object_new_string(si.procedure));
		add(po, "program", json_object_new_string(si.program));
		add(po, "version", u64(si.version));
		add(po, "calls", u64(st->rpc_calls[p]));
		/* answered calls by status: those seen only */
		json_object *rs = json_object_new_object();
		for (unsigned r = 0; r < RR_REPLY_STATUS_COUNT; r++)
			if (st->rpc_replies[p][r])
				add(rs, rr_reply_status_str(r), u64(st->rpc_replies[p][r]));
		add(po, "replies", rs);
		add(po, "latency", latency(&st->latency[p]));
		json_object_array_add(procs, po);
	}
	add(o, "procedures", procs);
	/* who is calling: forward RPCs by requester, present once one was
	 * seen (json-c prints an empty array apart between releases) */
	if (st->client_rows) {
		json_object *clients = json_object_new_array();
		for (uint32_t i = 0; i < st->client_rows; i++) {
			char addr[64];
			json_object_array_add(clients, client(&st->clients[i],
				rr_addr_str(st->clients[i].transport, st->clients[i].addr,
					    addr, sizeof(addr))));
		}
		if (st->clients_other.calls)
			json_object_array_add(clients, client(&st->clients_other, NULL));
		add(o, "clients", clients);
	}
	/* the busiest and the slowest files, ten of each, present once an
	 * NFS call named one */
	const struct rr_file_stats *top[10];
	unsigned n = rr_stats_busiest_files(st, top, 10);
	if (n) {
		add(o, "busiest_files", files(top, n));
		n = rr_stats_slowest_files(st, top, 10);
		add(o, "slowest_files", files(top, n));
	}
	/* present once a COMPOUND was seen, so never empty */
	json_object *ops = NULL;
	for (unsigned op = 0; op < RR_NFS4_OP_SLOTS; op++) {
		if (!st->nfs4_ops[op])
			continue;
		if (!ops)
			ops = json_object_new_object();
		add(ops, rr_nfs4_op_slot_str(op), u64(st->nfs4_ops[op]));
	}
	if (ops)
		add(o, "nfs4_operations", ops);
	/* NFS replies that failed: by procedure, or an NFSv4 COMPOUND's by
	 * the operation that failed, and status; present once one was seen,
	 * so never empty (json-c versions print an empty array apart) */
	json_object *errs = st->nfs_error_rows ? json_object_new_array() : NULL;
	for (uint32_t i = 0; i < st->nfs_error_rows; i++) {
		const struct rr_nfs_error_row *r = &st->nfs_errors[i];
		struct rr_proc_slot_info si = rr_analyzer_proc_slot_info(r->slot);
		json_object *eo = json_object_new_object();
		add(eo, "program", json_object_new_string(si.program));
		add(eo, "version", u64(si.version));
		add(eo, "procedure", json_object_new_string(si.procedure));
		const char *op = rr_nfs_error_op_str(r);
		add(eo, "operation", op ? json_object_new_string(op) : NULL);
		const char *name = rr_nfs_error_status_str(r);
		add(eo, "status", name ? json_object_new_string(name) : u64(r->status));
		add(eo, "count", u64(r->count));
		json_object_array_add(errs, eo);
	}
	if (errs)
		add(o, "nfs_errors", errs);
	add(o, "nfs_errors_other", u64(st->nfs_errors_other));
	json_object *fo = json_object_new_object();
	for (unsigned i = 0; i < RR_FINDING_COUNT; i++)
		add(fo, rr_finding_info(i)->id, u64(st->findings[i]));
	add(o, "findings", fo);
	/* the frames, with what the capture itself lost or repeated */
	add(o, "frames", stat_object(st, RR_STAT_JSON_FRAMES));
	/* connections refused, by the IB CM REJ's reason: every reason, as
	 * the findings, so that the object is never empty */
	json_object *rj = json_object_new_object();
	for (unsigned r = 1; r < RR_CM_REJ_REASONS; r++)
		if (rr_cm_rej_reason_str(r))
			add(rj, rr_cm_rej_reason_str(r), u64(st->cm_rejects[r]));
	add(rj, "other", u64(st->cm_rejects[0]));
	add(o, "cm_rejects", rj);
	/* RDMA connections that showed no RPC-over-RDMA, in no figure above */
	json_object *other = json_object_new_object();
	add(other, "connections", u64(st->other_upper_layer.connections));
	add(other, "packets", u64(st->other_upper_layer.packets));
	add(other, "bytes", u64(st->other_upper_layer.bytes));
	add(o, "other_upper_layer", other);
	add_stats(o, st, RR_STAT_JSON_TOP);
	add(o, "evicted", stat_object(st, RR_STAT_JSON_EVICTED));
	/* null: rebuilding was off */
	add(o, "rebuilt", rr_analyzer_limits(a)->rebuild_slots ?
			  stat_object(st, RR_STAT_JSON_REBUILT) : NULL);
	return o;
}

const char *rr_json_library_version(void)
{
	static char v[32];
	snprintf(v, sizeof(v), "json-c %s", json_c_version());
	return v;
}
