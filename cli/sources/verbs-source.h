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

/* Lists the devices and their ports on out: how many, 0 with a clear line
 * when there is none.  The device as a source: rr_verbs_source
 * (source.h). */
int rr_verbs_list(FILE *out);

#endif
