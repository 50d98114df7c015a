/* SPDX-License-Identifier: BSD-2-Clause */
/* The trace source's in-kernel path (trace-bpf.h). */
#define _GNU_SOURCE
#include "trace-bpf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rr_tp_detail_free(struct rr_tp_detail *d)
{
	free(d->clients);
	free(d->procs);
	free(d->servers);
	free(d->server_procs);
	free(d->peers);
	free(d->statuses);
	free(d->server_statuses);
	free(d->transports);
	memset(d, 0, sizeof(*d));
}

#ifndef RR_HAVE_EBPF
struct rr_trace_bpf *rr_trace_bpf_open(const char *root, bool attach, char *msg,
				       size_t msglen)
{
	(void)root, (void)attach;
	snprintf(msg, msglen, "this build has no eBPF (clang, bpftool, libbpf)");
	return NULL;
}

bool rr_trace_bpf_config(const char *root, struct rr_tpb_config *cfg,
			 bool *present, bool *keyless, char *msg, size_t msglen)
{
	(void)root, (void)cfg, (void)present, (void)keyless;
	snprintf(msg, msglen, "this build has no eBPF (clang, bpftool, libbpf)");
	return false;
}

void rr_trace_bpf_read(struct rr_trace_bpf *b, struct rr_tp_stats *s,
		       struct rr_tp_detail *d)
{
	(void)b, (void)s, (void)d;
}

void rr_trace_bpf_close(struct rr_trace_bpf *b)
{
	(void)b;
}
#else
#include "rpcrdma_trace.h"

_Static_assert(sizeof(struct rr_tpb_latency) == sizeof(struct rr_latency),
	       "the kernel's histograms are rr_latency's");
_Static_assert(RR_TP_CHUNK_TYPES == RR_TPB_CHUNK_TYPES, "chunk types");

/* The counts of a client row, which the kernel adds up per client_id. */
#define CLIENT_COUNTS(X)                                                       \
	X(calls) X(replies) X(read_segments) X(write_segments)                 \
	X(reply_segments) X(read_bytes) X(write_bytes) X(reply_bytes)          \
	X(rdma_errors) X(unrecognized)

struct client_counts {
#define COUNT_FIELD(f) uint64_t f;
	CLIENT_COUNTS(COUNT_FIELD)
#undef COUNT_FIELD
	uint64_t rtype[RR_TP_CHUNK_TYPES], wtype[RR_TP_CHUNK_TYPES];
};

/* A client_id's server as debugfs named it last: a client's folder goes
 * when it does (at unmount), its counts stay.  The kernel reuses ids: a
 * new name for an id is a new client, whose counts start from those the
 * map held at the last read (base); the one before is gone. */
struct client_name {
	uint32_t id;
	char peer[64];
	struct client_counts base, read;  /* the map's: at the reuse, last read */
	struct rr_latency latency;        /* the row's at the last read */
};

struct rr_trace_bpf {
	struct rr_tpb *tpb;
	struct client_name names[RR_TPB_MAX_CLIENTS];
	unsigned nnames;
	struct rr_tp_client gone[RR_TPB_MAX_CLIENTS];
	unsigned ngone;
};

/* The events the totals need: without them the per-record path serves. */
static bool required(enum rr_tp_event e)
{
	return e == RR_TP_MARSHAL || e == RR_TP_REPLY;
}

bool rr_trace_bpf_config(const char *root, struct rr_tpb_config *cfg,
			 bool *present, bool *keyless, char *msg, size_t msglen)
{
	memset(cfg, 0, sizeof(*cfg));
	for (int e = 0; e < RR_TP_EVENTS; e++) {
		struct rr_tp_layout l;
		keyless[e] = false;
		present[e] = rr_tp_load(root, rr_tpb_system(e), rr_tpb_event_name(e), &l);
		if (!present[e]) {
			if (required(e)) {
				snprintf(msg, msglen, "no %s:%s tracepoint",
					 rr_tpb_system(e), rr_tpb_event_name(e));
				return false;
			}
			continue;
		}
		const char *key = rr_tpb_key_field(e);
		unsigned key_off, key_size;
		if (key[0] && !rr_tp_place(&l, key, &key_off, &key_size)) {
			present[e] = false;
			keyless[e] = true;
			rr_tp_layout_free(&l);
			continue;
		}
		for (unsigned s = 0; s < RR_TP_SLOTS; s++) {
			const char *name = rr_tpb_field_name(e, s);
			unsigned off, size;
			if (!name[0] || !rr_tp_place(&l, name, &off, &size))
				continue; /* read as 0: this kernel's event lacks it */
			if (off > 0xffff || (size != 1 && size != 2 && size != 4 &&
					     size != 8))
				continue;
			cfg->field[e][s].offset = (__u16)off;
			cfg->field[e][s].size = (__u16)size;
		}
		rr_tp_layout_free(&l);
	}
	return true;
}

struct rr_trace_bpf *rr_trace_bpf_open(const char *root, bool attach, char *msg,
				       size_t msglen)
{
	struct rr_tpb_config cfg;
	bool present[RR_TP_EVENTS], keyless[RR_TP_EVENTS];
	if (!rr_trace_bpf_config(root, &cfg, present, keyless, msg, msglen))
		return NULL;
	struct rr_trace_bpf *b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(msg, msglen, "out of memory");
		return NULL;
	}
	b->tpb = rr_tpb_open(&cfg, present, attach, msg, msglen);
	if (!b->tpb) {
		free(b);
		return NULL;
	}
	size_t used = 0;
	msg[0] = '\0';
	for (int e = 0; e < RR_TP_EVENTS && used < msglen; e++)
		if (!present[e]) {
			int n = snprintf(msg + used, msglen - used, "%s%s:%s%s%s%s", used ? ", " : "",
					 rr_tpb_system(e), rr_tpb_event_name(e),
					 keyless[e] ? " (no " : "", keyless[e] ? rr_tpb_key_field(e) : "",
					 keyless[e] ? ")" : "");
			used += n > 0 ? (size_t)n : 0;
		}
	return b;
}

void rr_trace_bpf_close(struct rr_trace_bpf *b)
{
	if (!b)
		return;
	rr_tpb_close(b->tpb);
	free(b);
}

/* A read of the maps into the detail, whose arrays grow and are reused
 * from read to read. */
struct reading {
	struct rr_trace_bpf *b;
	struct rr_tp_detail *d;
};

/* Array p (cap allocated) with room for entry n: p itself or p grown;
 * NULL when it cannot grow (that entry is left out, p stays). */
static void *room(void *p, unsigned *cap, unsigned n, size_t size)
{
	if (n < *cap)
		return p;
	unsigned want = *cap ? *cap * 2 : 16;
	void *q = realloc(p, (size_t)want * size);
	if (q)
		*cap = want;
	return q;
}

/* The transport of rpc_clnt ID: the kernel's debugfs names its address
 * (sunrpc/rpc_clnt/ID/xprt/info), when debugfs is mounted and that client
 * is still an RDMA one (ids are reused: a TCP client may have it now). */
static void client_peer(uint32_t id, char *out, size_t n)
{
	char path[128], line[128], addr[64] = "", port[16] = "", netid[16] = "";
	out[0] = '\0';
	snprintf(path, sizeof(path), "/sys/kernel/debug/sunrpc/rpc_clnt/%x/xprt/info", id);
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "addr: %63s", addr) == 1 ||
		    sscanf(line, "netid: %15s", netid) == 1)
			continue;
		sscanf(line, "port: %15s", port);
	}
	fclose(f);
	if (addr[0] && !strncmp(netid, "rdma", 4))
		snprintf(out, n, strchr(addr, ':') ? "[%s]:%s" : "%s:%s", addr, port);
}

/* The counts from one struct to the other: a row's and a client_counts. */
#define COUNT_COPY(f) to->f = from->f;
#define COPY_COUNTS                                                            \
	CLIENT_COUNTS(COUNT_COPY)                                              \
	memcpy(to->rtype, from->rtype, sizeof(to->rtype));                     \
	memcpy(to->wtype, from->wtype, sizeof(to->wtype));

static void counts_of(struct client_counts *to, const struct rr_tp_client *from)
{
	COPY_COUNTS
}

static void counts_into(struct rr_tp_client *to, const struct client_counts *from)
{
	COPY_COUNTS
}
#undef COPY_COUNTS
#undef COUNT_COPY

/* c's counts less k's */
static void counts_sub(struct client_counts *c, const struct client_counts *k)
{
#define COUNT_SUB(f) c->f -= k->f;
	CLIENT_COUNTS(COUNT_SUB)
#undef COUNT_SUB
	for (unsigned t = 0; t < RR_TP_CHUNK_TYPES; t++) {
		c->rtype[t] -= k->rtype[t];
		c->wtype[t] -= k->wtype[t];
	}
}

static struct client_name *name_entry(struct rr_trace_bpf *b, uint32_t id)
{
	for (unsigned i = 0; i < b->nnames; i++)
		if (b->names[i].id == id)
			return &b->names[i];
	if (b->nnames == RR_TPB_MAX_CLIENTS)
		return NULL;
	struct client_name *n = &b->names[b->nnames++];
	memset(n, 0, sizeof(*n));
	n->id = id;
	return n;
}

/* id n->id now names server peer: the client before is gone, with the
 * counts of the last read; a gone client of that name is back (the id
 * came round again), its counts those the base held back. */
static void client_reused(struct rr_trace_bpf *b, struct client_name *n, const char *peer)
{
	if (b->ngone == RR_TPB_MAX_CLIENTS)
		return; /* no room: the counts stay together, under the new name */
	struct rr_tp_client *g = &b->gone[b->ngone++];
	struct client_counts k = n->read;
	memset(g, 0, sizeof(*g));
	counts_sub(&k, &n->base);
	counts_into(g, &k);
	g->id = n->id;
	g->gone = true;
	g->latency = n->latency;
	snprintf(g->peer, sizeof(g->peer), "%s", n->peer);
	n->base = n->read;
	for (unsigned i = 0; i < b->ngone; i++) {
		const struct rr_tp_client *back = &b->gone[i];
		if (back->id != n->id || strcmp(back->peer, peer))
			continue;
		struct client_counts held;
		counts_of(&held, back);
		counts_sub(&n->base, &held);
		b->gone[i] = b->gone[--b->ngone];
		break;
	}
}

/* Row o, the map's counts for its id: named as debugfs names it now, or
 * as it did last; counted from the id's last reuse. */
static void client_row(struct rr_trace_bpf *b, struct rr_tp_client *o)
{
	client_peer(o->id, o->peer, sizeof(o->peer));
	struct client_name *n = name_entry(b, o->id);
	if (!n)
		return;
	if (!o->peer[0])
		snprintf(o->peer, sizeof(o->peer), "%s", n->peer);
	else if (n->peer[0] && strcmp(n->peer, o->peer))
		client_reused(b, n, o->peer);
	snprintf(n->peer, sizeof(n->peer), "%s", o->peer);
	counts_of(&n->read, o);
	struct client_counts k = n->read;
	counts_sub(&k, &n->base);
	counts_into(o, &k);
}

static void on_client(void *ctx, const void *key, const void *value)
{
	const struct rr_tpb_client *c = value;
	__u32 id;
	memcpy(&id, key, sizeof(id));
	struct reading *r = ctx;
	struct rr_tp_detail *d = r->d;
	void *grown = room(d->clients, &d->cap_clients, d->nclients, sizeof(*d->clients));
	if (!grown)
		return;
	d->clients = grown;
	struct rr_tp_client *o = &d->clients[d->nclients++];
	memset(o, 0, sizeof(*o));
	o->id = id;
	o->calls = c->calls;
	o->replies = c->replies;
	o->read_segments = c->read_segments;
	o->write_segments = c->write_segments;
	o->reply_segments = c->reply_segments;
	o->read_bytes = c->read_bytes;
	o->write_bytes = c->write_bytes;
	o->reply_bytes = c->reply_bytes;
	memcpy(o->rtype, c->rtype, sizeof(o->rtype));
	memcpy(o->wtype, c->wtype, sizeof(o->wtype));
	o->rdma_errors = c->rdma_errors;
	o->unrecognized = c->unrecognized;
	o->credits = c->credits;
	o->credits_max = c->credits_max;
	client_row(r->b, o);
}

/* Entry (key, value) of a procedures map into *a (n used, cap allocated). */
static void take_proc(struct rr_tp_proc **a, unsigned *n, unsigned *cap,
		      const void *key, const void *value)
{
	const struct rr_tpb_proc_key *k = key;
	const struct rr_tpb_proc *p = value;
	void *grown = room(*a, cap, *n, sizeof(**a));
	if (!grown)
		return;
	*a = grown;
	struct rr_tp_proc *o = &(*a)[(*n)++];
	o->client_id = k->client_id;
	o->version = k->version;
	snprintf(o->program, sizeof(o->program), "%.*s", (int)sizeof(k->program),
		 k->program);
	snprintf(o->procedure, sizeof(o->procedure), "%.*s",
		 (int)sizeof(k->procedure), k->procedure);
	o->calls = p->calls;
	memcpy(&o->latency, &p->latency, sizeof(o->latency));
	o->queue_us = p->queue_us;
	o->rtt_us = p->rtt_us;
	o->execute_us = p->execute_us;
	o->errors = p->errors;
}

static void on_status(void *ctx, const void *key, const void *value)
{
	const struct rr_tpb_status_key *k = key;
	struct rr_tp_detail *d = ((struct reading *)ctx)->d;
	void *grown = room(d->statuses, &d->cap_statuses, d->nstatuses,
			   sizeof(*d->statuses));
	if (!grown)
		return;
	d->statuses = grown;
	struct rr_tp_status *o = &d->statuses[d->nstatuses++];
	o->client_id = k->proc.client_id;
	o->version = k->proc.version;
	snprintf(o->program, sizeof(o->program), "%.*s",
		 (int)sizeof(k->proc.program), k->proc.program);
	snprintf(o->procedure, sizeof(o->procedure), "%.*s",
		 (int)sizeof(k->proc.procedure), k->proc.procedure);
	o->op = k->op;
	o->status = k->status;
	memcpy(&o->count, value, sizeof(o->count));
}

static void on_proc(void *ctx, const void *key, const void *value)
{
	struct rr_tp_detail *d = ((struct reading *)ctx)->d;
	take_proc(&d->procs, &d->nprocs, &d->cap_procs, key, value);
}

static void on_server_proc(void *ctx, const void *key, const void *value)
{
	struct rr_tp_detail *d = ((struct reading *)ctx)->d;
	take_proc(&d->server_procs, &d->nserver_procs, &d->cap_server_procs, key, value);
}

static void on_server(void *ctx, const void *key, const void *value)
{
	const struct rr_tpb_server *s = value;
	__u32 id;
	memcpy(&id, key, sizeof(id));
	struct reading *r = ctx;
	struct rr_tp_detail *d = r->d;
	void *grown = room(d->servers, &d->cap_servers, d->nservers, sizeof(*d->servers));
	if (!grown)
		return;
	d->servers = grown;
	struct rr_tp_server *o = &d->servers[d->nservers++];
	memset(o, 0, sizeof(*o));
	o->cq_id = id;
	o->requests = s->requests;
	memcpy(o->by_proc, s->by_proc, sizeof(o->by_proc));
	o->read_segments = s->read_segments;
	o->write_segments = s->write_segments;
	o->segment_bytes = s->segment_bytes;
	o->credits = s->credits;
	o->credits_max = s->credits_max;
}

static void on_peer(void *ctx, const void *key, const void *value)
{
	const struct rr_tpb_peer_key *k = key;
	const struct rr_tpb_peer *p = value;
	struct reading *r = ctx;
	struct rr_tp_detail *d = r->d;
	void *grown = room(d->peers, &d->cap_peers, d->npeers, sizeof(*d->peers));
	if (!grown)
		return;
	d->peers = grown;
	struct rr_tp_peer *o = &d->peers[d->npeers++];
	snprintf(o->addr, sizeof(o->addr), "%.*s", (int)sizeof(k->addr), k->addr);
	snprintf(o->port, sizeof(o->port), "%.*s", (int)sizeof(k->port), k->port);
	o->connects = p->connects;
	o->connect_failures = p->connect_failures;
	o->disconnects = p->disconnects;
}

/* A client's order: its id, the one now before those gone. */
static int by_client(const void *a, const void *b)
{
	const struct rr_tp_client *x = a, *y = b;
	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return x->gone - y->gone;
}

/* A procedure's order: client, program, version, procedure. */
static int compare_procedure(uint32_t client_x, const char *program_x, uint32_t version_x,
			     const char *procedure_x, uint32_t client_y,
			     const char *program_y, uint32_t version_y,
			     const char *procedure_y)
{
	if (client_x != client_y)
		return (client_x > client_y) - (client_x < client_y);
	int c = strcmp(program_x, program_y);
	if (c)
		return c;
	if (version_x != version_y)
		return (version_x > version_y) - (version_x < version_y);
	return strcmp(procedure_x, procedure_y);
}

static int by_proc(const void *a, const void *b)
{
	const struct rr_tp_proc *x = a, *y = b;
	return compare_procedure(x->client_id, x->program, x->version, x->procedure,
				 y->client_id, y->program, y->version, y->procedure);
}

static void on_transport(void *ctx, const void *key, const void *value)
{
	const struct rr_tpb_transport_key *k = key;
	struct reading *r = ctx;
	struct rr_tp_detail *d = r->d;
	void *grown = room(d->transports, &d->cap_transports, d->ntransports,
			   sizeof(*d->transports));
	if (!grown)
		return;
	d->transports = grown;
	d->transports[d->ntransports++] = (struct rr_tp_transport){
		.client_id = k->client_id, .cq_id = k->cq_id, .sends = *(const __u64 *)value };
}

static int by_transport(const void *a, const void *b)
{
	const struct rr_tp_transport *x = a, *y = b;
	if (x->client_id != y->client_id)
		return (x->client_id > y->client_id) - (x->client_id < y->client_id);
	return (x->cq_id > y->cq_id) - (x->cq_id < y->cq_id);
}

static void on_server_status(void *ctx, const void *key, const void *value)
{
	const struct rr_tpb_server_status_key *k = key;
	struct rr_tp_detail *d = ((struct reading *)ctx)->d;
	void *grown = room(d->server_statuses, &d->cap_server_statuses,
			   d->nserver_statuses, sizeof(*d->server_statuses));
	if (!grown)
		return;
	d->server_statuses = grown;
	struct rr_tp_server_status *o = &d->server_statuses[d->nserver_statuses++];
	o->cq_id = k->cq_id;
	/* nfsd's names are the RFC's with "OP_" before them */
	const char *op = k->op;
	int len = (int)strnlen(op, sizeof(k->op));
	if (len > 3 && !strncmp(op, "OP_", 3)) {
		op += 3;
		len -= 3;
	}
	snprintf(o->operation, sizeof(o->operation), "%.*s", len, op);
	o->status = k->status;
	memcpy(&o->count, value, sizeof(o->count));
}

static int by_server_status(const void *a, const void *b)
{
	const struct rr_tp_server_status *x = a, *y = b;
	if (x->cq_id != y->cq_id)
		return (x->cq_id > y->cq_id) - (x->cq_id < y->cq_id);
	int c = strcmp(x->operation, y->operation);
	return c ? c : (x->status > y->status) - (x->status < y->status);
}

/* by procedure (by_proc's order), then operation and status */
static int by_status(const void *a, const void *b)
{
	const struct rr_tp_status *x = a, *y = b;
	int c = compare_procedure(x->client_id, x->program, x->version, x->procedure,
				  y->client_id, y->program, y->version, y->procedure);
	if (!c)
		c = (x->op > y->op) - (x->op < y->op);
	return c ? c : (x->status > y->status) - (x->status < y->status);
}

static int by_server(const void *a, const void *b)
{
	const struct rr_tp_server *x = a, *y = b;
	return (x->cq_id > y->cq_id) - (x->cq_id < y->cq_id);
}

static int by_peer(const void *a, const void *b)
{
	const struct rr_tp_peer *x = a, *y = b;
	int c = strcmp(x->addr, y->addr);
	return c ? c : strcmp(x->port, y->port);
}

/* qsort and bsearch over n rows, none when n is 0: a table no event
 * has filled yet has no rows to point to (NULL). */
static void sort_rows(void *rows, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(rows, n, size, cmp);
}

static void *find_row(const void *key, void *rows, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	return n ? bsearch(key, rows, n, size, cmp) : NULL;
}

void rr_trace_bpf_read(struct rr_trace_bpf *b, struct rr_tp_stats *s,
		       struct rr_tp_detail *d)
{
	struct reading r = { .b = b, .d = d };
	d->nclients = d->nprocs = d->nservers = d->nserver_procs = d->npeers = 0;
	d->nstatuses = d->nserver_statuses = d->ntransports = 0;
	rr_tpb_each(b->tpb, RR_TPB_CLIENTS, on_client, &r);
	rr_tpb_each(b->tpb, RR_TPB_PROCS, on_proc, &r);
	rr_tpb_each(b->tpb, RR_TPB_SERVERS, on_server, &r);
	rr_tpb_each(b->tpb, RR_TPB_PEERS, on_peer, &r);
	rr_tpb_each(b->tpb, RR_TPB_SERVER_PROCS, on_server_proc, &r);
	rr_tpb_each(b->tpb, RR_TPB_STATUSES, on_status, &r);
	rr_tpb_each(b->tpb, RR_TPB_SERVER_STATUSES, on_server_status, &r);
	rr_tpb_each(b->tpb, RR_TPB_TRANSPORTS, on_transport, &r);
	for (unsigned i = 0; i < b->ngone; i++) {
		void *grown = room(d->clients, &d->cap_clients, d->nclients, sizeof(*d->clients));
		if (!grown)
			break;
		d->clients = grown;
		d->clients[d->nclients++] = b->gone[i];
	}
	sort_rows(d->clients, d->nclients, sizeof(*d->clients), by_client);
	sort_rows(d->procs, d->nprocs, sizeof(*d->procs), by_proc);
	sort_rows(d->servers, d->nservers, sizeof(*d->servers), by_server);
	sort_rows(d->peers, d->npeers, sizeof(*d->peers), by_peer);
	sort_rows(d->server_procs, d->nserver_procs, sizeof(*d->server_procs), by_proc);
	sort_rows(d->statuses, d->nstatuses, sizeof(*d->statuses), by_status);
	sort_rows(d->server_statuses, d->nserver_statuses, sizeof(*d->server_statuses),
	      by_server_status);
	sort_rows(d->transports, d->ntransports, sizeof(*d->transports), by_transport);
	/* a client's latency: its procedures' together */
	for (unsigned i = 0; i < d->nprocs; i++) {
		struct rr_tp_client key = { .id = d->procs[i].client_id };
		struct rr_tp_client *c = find_row(&key, d->clients, d->nclients,
						 sizeof(*d->clients), by_client);
		if (c)
			rr_latency_merge(&c->latency, &d->procs[i].latency);
	}
	for (unsigned i = 0; i < d->nclients; i++) {
		struct client_name *n = d->clients[i].gone ? NULL : name_entry(b, d->clients[i].id);
		if (n)
			n->latency = d->clients[i].latency;
	}
	/* a client's connections: its rows of the transports, in a run; the
	 * backchannel's, no client's, last */
	d->nbackchannel = 0;
	for (unsigned i = 0; i < d->ntransports; i++) {
		if (d->transports[i].client_id == RR_TP_NO_CLIENT) {
			if (!d->nbackchannel++)
				d->first_backchannel = i;
			continue;
		}
		struct rr_tp_client key = { .id = d->transports[i].client_id };
		struct rr_tp_client *c = find_row(&key, d->clients, d->nclients,
						 sizeof(*d->clients), by_client);
		if (c && !c->transports++)
			c->first_transport = i;
	}
	/* and a server connection's, its procedures' */
	for (unsigned i = 0; i < d->nserver_procs; i++) {
		struct rr_tp_server key = { .cq_id = d->server_procs[i].client_id };
		struct rr_tp_server *v = find_row(&key, d->servers, d->nservers,
						 sizeof(*d->servers), by_server);
		if (v) {
			v->calls += d->server_procs[i].calls;
			rr_latency_merge(&v->latency, &d->server_procs[i].latency);
		}
	}
	/* the totals, as the per-record path counts them */
	uint64_t events[RR_TP_EVENTS];
	memcpy(events, s->events, sizeof(events));
	memset(s, 0, sizeof(*s));
	memcpy(s->events, events, sizeof(events));
	for (unsigned i = 0; i < d->nclients; i++) {
		const struct rr_tp_client *c = &d->clients[i];
		s->calls += c->calls;
		s->replies += c->replies;
		s->read_segments += c->read_segments;
		s->write_segments += c->write_segments;
		s->reply_segments += c->reply_segments;
		s->segment_bytes += c->read_bytes + c->write_bytes + c->reply_bytes;
		if (c->replies)
			s->credits = c->credits;
	}
	for (unsigned i = 0; i < d->nservers; i++) {
		const struct rr_tp_server *v = &d->servers[i];
		s->requests += v->requests;
		for (int p = 0; p < RR_TPB_RDMA_PROCS; p++)
			s->requests_by_proc[p] += v->by_proc[p];
		if (v->requests)
			s->requested_credits = v->credits;
		s->server_read_segments += v->read_segments;
		s->server_write_segments += v->write_segments;
		s->server_segment_bytes += v->segment_bytes;
	}
	s->events_missed = rr_tpb_missed(b->tpb);
}
#endif
