/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The tracepoint aggregators (rpcrdma_trace.bpf.c): loaded with libbpf from
 * their skeleton, attached to each event the running kernel has, read back
 * map by map.  Where each field lies is the caller's to say (the kernel's
 * format files, read through libtraceevent by cli/trace-source.c).
 */
#ifndef RR_TRACEPOINTS_H
#define RR_TRACEPOINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "rpcrdma_trace.h"

/* Names of event e: its subsystem, its own, the field it cannot do
 * without ("" none), its field in slot s ("" none). */
const char *rr_tpb_system(enum rr_tp_event e);
const char *rr_tpb_event_name(enum rr_tp_event e);
const char *rr_tpb_key_field(enum rr_tp_event e);
const char *rr_tpb_field_name(enum rr_tp_event e, unsigned s);

struct rr_tpb;
/* Loads the programs of the events present and, with attach, attaches
 * them; NULL with the reason (the verifier's, when it refused one) in msg. */
struct rr_tpb *rr_tpb_open(const struct rr_tpb_config *cfg,
			   const bool present[RR_TP_EVENTS], bool attach,
			   char *msg, size_t msglen);
void rr_tpb_close(struct rr_tpb *t);
/* Runs of the programs the kernel skipped since they were loaded, summed
 * over the programs (bpf_prog_info's recursion_misses: a tracing program
 * does not run while another runs on that CPU; Linux 5.12 on, 0 before). */
uint64_t rr_tpb_missed(const struct rr_tpb *t);

/* The maps, by the key and value each holds. */
enum rr_tpb_map {
	RR_TPB_CLIENTS,     /* __u32 client_id -> struct rr_tpb_client */
	RR_TPB_PROCS,       /* struct rr_tpb_proc_key -> struct rr_tpb_proc */
	RR_TPB_SERVERS,     /* __u32 cq_id -> struct rr_tpb_server */
	RR_TPB_PEERS,       /* struct rr_tpb_peer_key -> struct rr_tpb_peer */
	RR_TPB_SERVER_PROCS, /* struct rr_tpb_proc_key -> struct rr_tpb_proc */
	RR_TPB_STATUSES,    /* struct rr_tpb_status_key -> __u64 */
	RR_TPB_SERVER_STATUSES, /* struct rr_tpb_server_status_key -> __u64 */
	RR_TPB_TRANSPORTS,  /* struct rr_tpb_transport_key -> __u64 */
};
/* fn(ctx, key, value) for each entry of map m, in no order: how many, or
 * -1 when the map cannot be read. */
int rr_tpb_each(const struct rr_tpb *t, enum rr_tpb_map m,
		void (*fn)(void *ctx, const void *key, const void *value), void *ctx);

#endif
