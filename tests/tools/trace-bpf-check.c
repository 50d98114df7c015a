/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The BPF tracepoint programs (ebpf/rpcrdma_trace.bpf.c) configured from
 * real kernels' format files (tests/kernel/tracepoints/linux-*, copied from
 * the lab's Debian guests): each field read where that kernel puts it,
 * strings through their __data_loc word, a missing required event refused
 * by name; then the programs so configured pass the running kernel's
 * verifier and read back, nothing counted and no run skipped (exit 77
 * without the privilege to load them).
 * usage: trace-bpf-check DIR (tests/kernel/tracepoints)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../unit/check.h"

#include "trace-bpf.h"
#include "rpcrdma_trace.h"

static void field_at(const struct rr_tpb_config *cfg, enum rr_tp_event e,
		     unsigned slot, unsigned offset, unsigned size)
{
	char what[160];
	const char *kernel = check_ctx;
	snprintf(what, sizeof(what), "%s: %s.%s at %u, %u bytes", kernel,
		 rr_tpb_event_name(e), rr_tpb_field_name(e, slot), offset, size);
	check_ctx = what;
	CHECK_EQ(cfg->field[e][slot].offset, offset);
	CHECK_EQ(cfg->field[e][slot].size, size);
	check_ctx = kernel;
}

/* Where a kernel puts the fields the programs read. */
struct place {
	enum rr_tp_event e;
	unsigned slot, offset, size;
};

/* Linux 6.1 and 6.12 alike (6.12 adds xprt_id to rpc_stats_latency, after
 * the fields read). */
static const struct place linux_6[] = {
	{ RR_TP_MARSHAL, 0, 12, 4 },       /* client_id */
	{ RR_TP_MARSHAL, 2, 40, 4 },       /* wtype */
	{ RR_TP_MARSHAL, 3, 8, 4 },        /* task_id */
	{ RR_TP_REPLY, 1, 20, 4 },         /* credits */
	{ RR_TP_CHUNK_WRITE, 1, 24, 4 },   /* length */
	{ RR_TP_CHUNK_READ, 1, 28, 4 },    /* length, after pos */
	{ RR_TP_CONNECT, 1, 16, 4 },       /* addr: __data_loc */
	{ RR_TP_LATENCY, 3, 28, 4 },       /* procname: __data_loc */
	{ RR_TP_LATENCY, 4, 40, 8 },       /* rtt: unsigned long */
	{ RR_TP_LATENCY, 5, 8, 4 },        /* task_id */
	{ RR_TP_LATENCY, 6, 32, 8 },       /* backlog: unsigned long */
	{ RR_TP_LATENCY, 7, 48, 8 },       /* execute, after rtt */
	{ RR_TP_SVC_RQST, 0, 8, 4 },       /* cq_id */
	{ RR_TP_SVC_RQST, 1, 24, 4 },      /* proc */
	{ RR_TP_SVC_WSEG, 1, 24, 4 },      /* length */
	{ RR_TP_SVC_RQST, 3, 16, 4 },      /* xid */
	{ RR_TP_SVC_LATENCY, 0, 20, 4 },   /* xid, after the endpoints */
	{ RR_TP_SVC_LATENCY, 1, 24, 8 },   /* execute: unsigned long */
	{ RR_TP_SVC_LATENCY, 2, 32, 4 },   /* procedure: __data_loc */
	{ RR_TP_ERR_VERS, 1, 0, 0 },       /* no second slot */
	{ RR_TP_POST_SEND, 0, 20, 4 },     /* client_id */
	{ RR_TP_POST_SEND, 1, 8, 4 },      /* cq_id: the connection */
};

/* Linux 5.10: pointers before the fields in xprtrdma_reply and
 * xprtrdma_connect, no connection id in svcrdma_decode_wseg. */
static const struct place linux_5_10[] = {
	{ RR_TP_MARSHAL, 0, 12, 4 },
	{ RR_TP_MARSHAL, 3, 8, 4 },
	{ RR_TP_REPLY, 0, 12, 4 },
	{ RR_TP_REPLY, 1, 36, 4 },         /* credits, after rep and req */
	{ RR_TP_CONNECT, 0, 16, 4 },       /* rc, after r_xprt */
	{ RR_TP_CONNECT, 1, 24, 4 },
	{ RR_TP_LATENCY, 4, 40, 8 },
	{ RR_TP_LATENCY, 6, 32, 8 },
	{ RR_TP_LATENCY, 7, 48, 8 },
	{ RR_TP_SVC_RQST, 0, 8, 4 },
	{ RR_TP_SVC_WSEG, 0, 0, 0 },       /* no cq_id: read as 0 */
	{ RR_TP_SVC_WSEG, 1, 12, 4 },
	{ RR_TP_SVC_RQST, 3, 16, 4 },
	{ RR_TP_SVC_LATENCY, 0, 8, 4 },    /* xid first: no endpoints yet */
	{ RR_TP_SVC_LATENCY, 1, 16, 8 },
	{ RR_TP_SVC_LATENCY, 2, 24, 4 },
};

/* The NFS client's and server's statuses in Linux 6.1 (fs/nfs/nfstrace.h,
 * nfs4trace.h, fs/nfsd/trace.h), copied with their modules loaded. */
static const struct place nfs_6_1[] = {
	{ RR_TP_NFS_STATUS, 0, 12, 4 },    /* client_id */
	{ RR_TP_NFS_STATUS, 1, 8, 4 },     /* task_id */
	{ RR_TP_NFS_STATUS, 2, 24, 8 },    /* error: the nfsstat3 */
	{ RR_TP_NFS_STATUS, 3, 0, 0 },     /* no operation */
	{ RR_TP_NFS_STATUS, 4, 20, 4 },    /* version */
	{ RR_TP_NFS_STATUS, 6, 36, 4 },    /* procedure: __data_loc */
	{ RR_TP_NFS4_STATUS, 1, 8, 4 },
	{ RR_TP_NFS4_STATUS, 2, 24, 8 },   /* error: the nfsstat4 */
	{ RR_TP_NFS4_STATUS, 3, 20, 4 },   /* op */
	{ RR_TP_NFSD_STATUS, 0, 12, 4 },   /* resp_opcnt: the operation's index */
	{ RR_TP_NFSD_STATUS, 1, 16, 4 },   /* status: the nfsstat4 */
	{ RR_TP_NFSD_STATUS, 2, 20, 4 },   /* name: __data_loc */
};

/* Events a kernel does not have (its programs are not loaded); the NFS
 * client's where its modules were not loaded when the formats were
 * copied; 5.10's xprtrdma_post_send, which names no cq_id (its send
 * context's address instead): without it a send's connection is not
 * known. */
static const enum rr_tp_event absent_5_10[] = {
	RR_TP_ERR_VERS, RR_TP_ERR_CHUNK, RR_TP_ERR_UNRECOGNIZED, RR_TP_SVC_RSEG,
	RR_TP_NFS_STATUS, RR_TP_NFS4_STATUS, RR_TP_NFSD_STATUS, RR_TP_POST_SEND,
};
static const enum rr_tp_event absent_6_12[] = {
	RR_TP_NFS_STATUS, RR_TP_NFS4_STATUS, RR_TP_NFSD_STATUS,
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
static const struct kernel {
	const char *dir;
	const struct place *places, *more;
	unsigned nplaces, nmore;
	const enum rr_tp_event *absent;
	unsigned nabsent;
} kernels[] = {
	{ "linux-5.10", linux_5_10, NULL, N(linux_5_10), 0, absent_5_10, N(absent_5_10) },
	{ "linux-6.1", linux_6, nfs_6_1, N(linux_6), N(nfs_6_1), NULL, 0 },
	{ "linux-6.12", linux_6, NULL, N(linux_6), 0, absent_6_12, N(absent_6_12) },
};

static bool absent(const struct kernel *k, enum rr_tp_event e)
{
	for (unsigned i = 0; i < k->nabsent; i++)
		if (k->absent[i] == e)
			return true;
	return false;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: trace-bpf-check DIR\n");
		return 2;
	}
	char root[1024], msg[512];
	struct rr_tpb_config cfg;
	bool present[RR_TP_EVENTS], keyless[RR_TP_EVENTS];
	for (unsigned k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		snprintf(root, sizeof(root), "%s/%s", argv[1], kernels[k].dir);
		check_ctx = kernels[k].dir;
		CHECK(rr_trace_bpf_config(root, &cfg, present, keyless, msg, sizeof(msg)));
		for (int e = 0; e < RR_TP_EVENTS; e++)
			CHECK(present[e] == !absent(&kernels[k], (enum rr_tp_event)e));
		/* 5.10's post_send is there, without the cq_id it is keyed by */
		CHECK(keyless[RR_TP_POST_SEND] == absent(&kernels[k], RR_TP_POST_SEND));
		for (unsigned i = 0; i < kernels[k].nplaces; i++) {
			const struct place *p = &kernels[k].places[i];
			field_at(&cfg, p->e, p->slot, p->offset, p->size);
		}
		for (unsigned i = 0; i < kernels[k].nmore; i++) {
			const struct place *p = &kernels[k].more[i];
			field_at(&cfg, p->e, p->slot, p->offset, p->size);
		}
	}
	check_ctx = NULL;

	/* a kernel without the client's events: refused, by name */
	snprintf(root, sizeof(root), "%s/no-such-kernel", argv[1]);
	CHECK(!rr_trace_bpf_config(root, &cfg, present, keyless, msg, sizeof(msg)));
	CHECK(strstr(msg, "rpcrdma:xprtrdma_marshal") != NULL);

	/* the running kernel's verifier, on the programs each configured */
	for (unsigned k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		snprintf(root, sizeof(root), "%s/%s", argv[1], kernels[k].dir);
		struct rr_trace_bpf *b = rr_trace_bpf_open(root, false, msg, sizeof(msg));
		if (!b && geteuid() != 0) {
			printf("# %s\n", msg);
			printf("1..0 # SKIP loading BPF programs needs root\n");
			return 77;
		}
		check_ctx = kernels[k].dir;
		if (!CHECK(b != NULL))
			printf("#   %s\n", msg);
		if (b) {
			/* read back: nothing counted, the kernel's skipped runs
			 * (recursion_misses) read and none */
			struct rr_tp_stats st = { .events_missed = 99 };
			struct rr_tp_detail d = { 0 };
			rr_trace_bpf_read(b, &st, &d);
			CHECK_EQ(st.calls + st.replies + st.requests, 0);
			CHECK_EQ(st.events_missed, 0);
			CHECK_EQ(d.ntransports, 0);
			rr_tp_detail_free(&d);
			/* an event there without its key field named with it */
			if (absent(&kernels[k], RR_TP_POST_SEND))
				CHECK(strstr(msg, "rpcrdma:xprtrdma_post_send (no cq_id)") != NULL);
		}
		rr_trace_bpf_close(b);
	}
	return check_done();
}
