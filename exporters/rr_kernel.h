/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel's own NFS/RDMA transport counters: the "xprt: rdma" lines of
 * /proc/self/mountstats (net/sunrpc/xprtrdma/transport.c,
 * xprt_rdma_print_stats) and /proc/sys/sunrpc/svc_rdma/.  Read by position,
 * as the kernel prints them; older kernels print fewer numbers, and a
 * mount with nconnect prints one line per transport.
 */
#ifndef RR_KERNEL_H
#define RR_KERNEL_H

#include <stdint.h>

#include "rr_prom.h"

#define RR_XPRT_RDMA_FIELDS 27

struct rr_xprt_rdma {
	char device[256];      /* SERVER:/export */
	char mountpoint[256];
	unsigned index;        /* the transport's place among its mount's */
	unsigned n;            /* numbers printed */
	uint64_t v[RR_XPRT_RDMA_FIELDS];
};

/* The name of the number at a position ("bind_count"...), NULL past the
 * last known. */
const char *rr_xprt_rdma_field(unsigned i);

/* The rdma transports of a mountstats text; returns how many, at most max. */
unsigned rr_mountstats_parse(const char *text, struct rr_xprt_rdma *out,
			     unsigned max);

/* Metrics of both sources; a file or folder that is absent gives none. */
void rr_prom_kernel(struct rr_prom *w, const char *mountstats_path,
		    const char *svc_rdma_dir);

#endif
