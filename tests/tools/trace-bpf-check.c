/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The BPF tracepoint programs (ebpf/rpcrdma_trace.bpf.c) configured from a
 * real kernel's format files (tests/kernel/tracepoints/linux-6.1, copied
 * from the lab's Debian 12 guest): each field read where that kernel puts
 * it, strings through their __data_loc word, a missing required event
 * refused by name; then the programs so configured pass the running
 * kernel's verifier (exit 77 without the privilege to load them).
 * usage: trace-bpf-check DIR (tests/kernel/tracepoints)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../unit/check.h"

#include "trace-bpf.h"
#include "tracepoints.h"

static void field_at(const struct rr_tpb_config *cfg, enum rr_tpb_event e,
		     unsigned slot, unsigned offset, unsigned size)
{
	char what[160];
	snprintf(what, sizeof(what), "%s.%s at %u, %u bytes", rr_tpb_event_name(e),
		 rr_tpb_field_name(e, slot), offset, size);
	check_ctx = what;
	CHECK_EQ(cfg->field[e][slot].offset, offset);
	CHECK_EQ(cfg->field[e][slot].size, size);
	check_ctx = NULL;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: trace-bpf-check DIR\n");
		return 2;
	}
	char root[1024], msg[512];
	snprintf(root, sizeof(root), "%s/linux-6.1", argv[1]);
	struct rr_tpb_config cfg;
	bool present[RR_TPB_EVENTS];
	CHECK(rr_trace_bpf_config(root, &cfg, present, msg, sizeof(msg)));
	for (int e = 0; e < RR_TPB_EVENTS; e++)
		CHECK(present[e]);
	field_at(&cfg, RR_TPB_MARSHAL, 0, 12, 4);        /* client_id */
	field_at(&cfg, RR_TPB_MARSHAL, 2, 40, 4);        /* wtype */
	field_at(&cfg, RR_TPB_MARSHAL, 3, 8, 4);         /* task_id */
	field_at(&cfg, RR_TPB_LATENCY, 5, 8, 4);         /* task_id */
	field_at(&cfg, RR_TPB_REPLY, 1, 20, 4);          /* credits */
	field_at(&cfg, RR_TPB_CHUNK_WRITE, 1, 24, 4);    /* length */
	field_at(&cfg, RR_TPB_CHUNK_READ, 1, 28, 4);     /* length, after pos */
	field_at(&cfg, RR_TPB_CONNECT, 1, 16, 4);        /* addr: __data_loc */
	field_at(&cfg, RR_TPB_LATENCY, 3, 28, 4);        /* procname: __data_loc */
	field_at(&cfg, RR_TPB_LATENCY, 4, 40, 8);        /* rtt: unsigned long */
	field_at(&cfg, RR_TPB_SVC_RQST, 0, 8, 4);        /* cq_id */
	field_at(&cfg, RR_TPB_SVC_RQST, 1, 24, 4);       /* proc */
	field_at(&cfg, RR_TPB_SVC_WSEG, 1, 24, 4);       /* length */
	field_at(&cfg, RR_TPB_ERR_VERS, 1, 0, 0);        /* no second slot */

	/* a kernel without the client's events: refused, by name */
	snprintf(root, sizeof(root), "%s/no-such-kernel", argv[1]);
	CHECK(!rr_trace_bpf_config(root, &cfg, present, msg, sizeof(msg)));
	CHECK(strstr(msg, "rpcrdma:xprtrdma_marshal") != NULL);

	/* the running kernel's verifier, on the programs so configured */
	snprintf(root, sizeof(root), "%s/linux-6.1", argv[1]);
	struct rr_trace_bpf *b = rr_trace_bpf_open(root, false, msg, sizeof(msg));
	if (!b && geteuid() != 0) {
		printf("# %s\n", msg);
		printf("1..0 # SKIP loading BPF programs needs root\n");
		return 77;
	}
	if (!CHECK(b != NULL))
		printf("#   %s\n", msg);
	rr_trace_bpf_close(b);
	return check_done();
}
