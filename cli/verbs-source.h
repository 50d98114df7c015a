/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An RDMA device as a capture source (rdma-core): every packet of one
 * port, for hardware RoCE and InfiniBand traffic that never reaches a
 * netdev.  DEVICE or DEVICE:PORT (port 1 by default).
 */
#ifndef RR_VERBS_SOURCE_H
#define RR_VERBS_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef void (*rr_verbs_frame_fn)(void *ctx, uint64_t ts_ns, const uint8_t *data,
				  uint32_t caplen, uint32_t wirelen);
struct rr_verbs;

/* Lists the devices and their ports on out: how many, 0 with a clear line
 * when there is none. */
int rr_verbs_list(FILE *out);
/* Opened, or NULL with the reason in msg (msg also says what it opened). */
struct rr_verbs *rr_verbs_open(const char *spec, rr_verbs_frame_fn fn,
			       void *fnctx, char *msg, size_t msglen);
/* DLT_EN10MB on a RoCE port, DLT_INFINIBAND on an IB port. */
int rr_verbs_link(const struct rr_verbs *v);
int rr_verbs_poll(struct rr_verbs *v, int timeout_ms);
/* Packets lost: failed completions and receive buffers not reposted. */
uint64_t rr_verbs_dropped(const struct rr_verbs *v);
void rr_verbs_close(struct rr_verbs *v);

#endif
