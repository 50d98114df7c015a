/* SPDX-License-Identifier: BSD-2-Clause */
/* The tracepoint aggregators' loader (tracepoints.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf-messages.h"
#include "tracepoints.h"
/* after the types of its maps and rodata */
#include "rpcrdma_trace.skel.h"

static const struct {
	const char *system, *name, *field[RR_TPB_SLOTS];
} events[RR_TPB_EVENTS] = {
#define RR_TPB_X_NAMES(sym, sys, name, f0, f1, f2, f3, f4, f5) \
	[sym] = { sys, name, { f0, f1, f2, f3, f4, f5 } },
	RR_TPB_EVENT_LIST(RR_TPB_X_NAMES)
#undef RR_TPB_X_NAMES
};

const char *rr_tpb_system(enum rr_tpb_event e) { return events[e].system; }
const char *rr_tpb_event_name(enum rr_tpb_event e) { return events[e].name; }
const char *rr_tpb_field_name(enum rr_tpb_event e, unsigned s)
{
	return s < RR_TPB_SLOTS ? events[e].field[s] : "";
}

struct rr_tpb {
	struct rpcrdma_trace *skel;
	struct bpf_link *links[RR_TPB_EVENTS];
};

struct rr_tpb *rr_tpb_open(const struct rr_tpb_config *cfg,
			   const bool present[RR_TPB_EVENTS], bool attach,
			   char *msg, size_t msglen)
{
	struct rr_tpb *t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(msg, msglen, "out of memory");
		return NULL;
	}
	rr_bpf_messages_begin();
	t->skel = rpcrdma_trace__open();
	if (!t->skel) {
		rr_bpf_failure(msg, msglen, "opening the tracepoint programs", -errno);
		free(t);
		return NULL;
	}
	t->skel->rodata->config = *cfg;
	for (int e = 0; e < RR_TPB_EVENTS; e++) {
		struct bpf_program *p =
			bpf_object__find_program_by_name(t->skel->obj, events[e].name);
		if (p && !present[e])
			bpf_program__set_autoload(p, false);
	}
	int err = rpcrdma_trace__load(t->skel);
	if (err) {
		rr_bpf_failure(msg, msglen, "loading the tracepoint programs", err);
		rr_tpb_close(t);
		return NULL;
	}
	for (int e = 0; attach && e < RR_TPB_EVENTS; e++) {
		if (!present[e])
			continue;
		struct bpf_program *p =
			bpf_object__find_program_by_name(t->skel->obj, events[e].name);
		t->links[e] = p ? bpf_program__attach_tracepoint(p, events[e].system,
								 events[e].name) : NULL;
		if (!t->links[e]) {
			char what[96];
			snprintf(what, sizeof(what), "attaching to %s:%s",
				 events[e].system, events[e].name);
			rr_bpf_failure(msg, msglen, what, p ? -errno : -ENOENT);
			rr_tpb_close(t);
			return NULL;
		}
	}
	return t;
}

void rr_tpb_close(struct rr_tpb *t)
{
	if (!t)
		return;
	for (int e = 0; e < RR_TPB_EVENTS; e++)
		bpf_link__destroy(t->links[e]);
	rpcrdma_trace__destroy(t->skel);
	free(t);
}

/* Calls each(ctx, key, value) for every entry of map m. */
static int map_each(const struct bpf_map *m, size_t key_size, size_t value_size,
		    void (*each)(void *fn, void *ctx, const void *k, const void *v),
		    void *fn, void *ctx)
{
	int fd = bpf_map__fd(m);
	unsigned char key[64], next[64];
	void *value = malloc(value_size);
	if (!value || key_size > sizeof(key)) {
		free(value);
		return -1;
	}
	int n = 0;
	void *prev = NULL;
	while (bpf_map_get_next_key(fd, prev, next) == 0) {
		memcpy(key, next, key_size);
		prev = key;
		if (bpf_map_lookup_elem(fd, key, value) == 0) {
			each(fn, ctx, key, value);
			n++;
		}
	}
	free(value);
	return n;
}

typedef void (*client_fn)(void *, __u32, const struct rr_tpb_client *);
typedef void (*proc_fn)(void *, const struct rr_tpb_proc_key *, const struct rr_tpb_proc *);
typedef void (*server_fn)(void *, __u32, const struct rr_tpb_server *);
typedef void (*peer_fn)(void *, const struct rr_tpb_peer_key *, const struct rr_tpb_peer *);

static void each_client(void *fn, void *ctx, const void *k, const void *v)
{
	__u32 id;
	memcpy(&id, k, sizeof(id));
	((client_fn)fn)(ctx, id, v);
}

static void each_proc(void *fn, void *ctx, const void *k, const void *v)
{
	((proc_fn)fn)(ctx, k, v);
}

static void each_server(void *fn, void *ctx, const void *k, const void *v)
{
	__u32 id;
	memcpy(&id, k, sizeof(id));
	((server_fn)fn)(ctx, id, v);
}

static void each_peer(void *fn, void *ctx, const void *k, const void *v)
{
	((peer_fn)fn)(ctx, k, v);
}

int rr_tpb_clients(const struct rr_tpb *t, client_fn fn, void *ctx)
{
	return map_each(t->skel->maps.clients, sizeof(__u32),
			sizeof(struct rr_tpb_client), each_client, (void *)fn, ctx);
}

int rr_tpb_procs(const struct rr_tpb *t, proc_fn fn, void *ctx)
{
	return map_each(t->skel->maps.procs, sizeof(struct rr_tpb_proc_key),
			sizeof(struct rr_tpb_proc), each_proc, (void *)fn, ctx);
}

int rr_tpb_servers(const struct rr_tpb *t, server_fn fn, void *ctx)
{
	return map_each(t->skel->maps.servers, sizeof(__u32),
			sizeof(struct rr_tpb_server), each_server, (void *)fn, ctx);
}

int rr_tpb_peers(const struct rr_tpb *t, peer_fn fn, void *ctx)
{
	return map_each(t->skel->maps.peers, sizeof(struct rr_tpb_peer_key),
			sizeof(struct rr_tpb_peer), each_peer, (void *)fn, ctx);
}
