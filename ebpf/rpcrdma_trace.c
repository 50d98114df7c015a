/* SPDX-License-Identifier: BSD-2-Clause */
/* The tracepoint aggregators' loader (rpcrdma_trace.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf-messages.h"
#include "rpcrdma_trace.h"
/* after the types of its maps and rodata */
#include "rpcrdma_trace.skel.h"

static const struct {
	const char *system, *name, *key, *field[RR_TP_SLOTS];
} events[RR_TP_EVENTS] = {
#define RR_TP_X_NAMES(sym, sys, name, by_record, key, f0, f1, f2, f3, f4, f5, f6, f7) \
	[sym] = { sys, name, key, { f0, f1, f2, f3, f4, f5, f6, f7 } },
	RR_TP_EVENT_LIST(RR_TP_X_NAMES)
#undef RR_TP_X_NAMES
};

const char *rr_tpb_system(enum rr_tp_event e) { return events[e].system; }
const char *rr_tpb_event_name(enum rr_tp_event e) { return events[e].name; }
const char *rr_tpb_key_field(enum rr_tp_event e) { return events[e].key; }
const char *rr_tpb_field_name(enum rr_tp_event e, unsigned s)
{
	return s < RR_TP_SLOTS ? events[e].field[s] : "";
}

struct rr_tpb {
	struct rpcrdma_trace *skel;
	struct bpf_link *links[RR_TP_EVENTS];
};

struct rr_tpb *rr_tpb_open(const struct rr_tpb_config *cfg,
			   const bool present[RR_TP_EVENTS], bool attach,
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
	for (int e = 0; e < RR_TP_EVENTS; e++) {
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
	for (int e = 0; attach && e < RR_TP_EVENTS; e++) {
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
	for (int e = 0; e < RR_TP_EVENTS; e++)
		bpf_link__destroy(t->links[e]);
	rpcrdma_trace__destroy(t->skel);
	free(t);
}

uint64_t rr_tpb_missed(const struct rr_tpb *t)
{
	uint64_t missed = 0;
	struct bpf_program *p;
	bpf_object__for_each_program(p, t->skel->obj) {
		int fd = bpf_program__fd(p);
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		memset(&info, 0, sizeof(info));
		if (fd >= 0 && bpf_obj_get_info_by_fd(fd, &info, &len) == 0)
			missed += info.recursion_misses;
	}
	return missed;
}

int rr_tpb_each(const struct rr_tpb *t, enum rr_tpb_map m,
		void (*fn)(void *ctx, const void *key, const void *value), void *ctx)
{
	const struct { const struct bpf_map *map; size_t key, value; } maps[] = {
		[RR_TPB_CLIENTS] = { t->skel->maps.clients, sizeof(__u32),
				     sizeof(struct rr_tpb_client) },
		[RR_TPB_PROCS] = { t->skel->maps.procs, sizeof(struct rr_tpb_proc_key),
				   sizeof(struct rr_tpb_proc) },
		[RR_TPB_SERVERS] = { t->skel->maps.servers, sizeof(__u32),
				     sizeof(struct rr_tpb_server) },
		[RR_TPB_PEERS] = { t->skel->maps.peers, sizeof(struct rr_tpb_peer_key),
				   sizeof(struct rr_tpb_peer) },
		[RR_TPB_SERVER_PROCS] = { t->skel->maps.server_procs,
					  sizeof(struct rr_tpb_proc_key),
					  sizeof(struct rr_tpb_proc) },
		[RR_TPB_STATUSES] = { t->skel->maps.statuses,
				      sizeof(struct rr_tpb_status_key), sizeof(__u64) },
		[RR_TPB_SERVER_STATUSES] = { t->skel->maps.server_statuses,
					     sizeof(struct rr_tpb_server_status_key),
					     sizeof(__u64) },
		[RR_TPB_TRANSPORTS] = { t->skel->maps.transports,
					sizeof(struct rr_tpb_transport_key), sizeof(__u64) },
	};
	int fd = bpf_map__fd(maps[m].map);
	unsigned char key[64], next[64];
	void *value = malloc(maps[m].value);
	if (!value || maps[m].key > sizeof(key)) {
		free(value);
		return -1;
	}
	int n = 0;
	void *prev = NULL;
	while (bpf_map_get_next_key(fd, prev, next) == 0) {
		memcpy(key, next, maps[m].key);
		prev = key;
		if (bpf_map_lookup_elem(fd, key, value) == 0) {
			fn(ctx, key, value);
			n++;
		}
	}
	free(value);
	return n;
}
