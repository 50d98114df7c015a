/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The trace source's in-kernel path: the BPF tracepoint aggregators
 * (ebpf/rpcrdma_trace.h) given each field's place from the running kernel's
 * format files, and their maps read back as totals and per-connection
 * views (trace.h).
 */
#ifndef RR_TRACE_BPF_H
#define RR_TRACE_BPF_H

#include <stdbool.h>
#include <stddef.h>

#include "trace-view.h"
#include "trace-format.h"

struct rr_trace_bpf;
/* The programs configured by the format files under root (NULL: the
 * running kernel's tracefs) and loaded, and with attach attached, msg
 * naming the events this kernel lacks ("" for none: those are not
 * followed); NULL with the reason in msg (this build has no eBPF, a
 * required event missing, privileges, the verifier's refusal). */
struct rr_trace_bpf *rr_trace_bpf_open(const char *root, bool attach, char *msg,
				       size_t msglen);
/* Where the programs read each field, as configured from root's formats,
 * and which events are present; keyless[e]: event e is there but lacks
 * its key field (so counts as absent).  False when a required event is
 * missing (msg says which). */
struct rr_tpb_config;
bool rr_trace_bpf_config(const char *root, struct rr_tpb_config *cfg,
			 bool *present, bool *keyless, char *msg, size_t msglen);
/* Reads the maps: totals into s (as the per-record path counts them),
 * each connection into d (its arrays reused from call to call). */
void rr_trace_bpf_read(struct rr_trace_bpf *b, struct rr_tp_stats *s,
		       struct rr_tp_detail *d);
void rr_trace_bpf_close(struct rr_trace_bpf *b);
void rr_tp_detail_free(struct rr_tp_detail *d);

#endif
