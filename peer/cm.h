/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef RR_PEER_CM_H
#define RR_PEER_CM_H

#include "peer.h"

struct cm_side {
	uint32_t comm_id, qpn, psn, mad_psn;
	uint64_t tid, guid;
	uint8_t ip[4];
	uint16_t port;       /* RDMA-CM source port of the active side */
	uint8_t mtu_code;    /* 1 = 256 ... 5 = 4096 */
};

struct cm_msg {
	uint16_t attr;
	uint32_t comm_id, remote_comm_id, qpn, psn;
	uint64_t tid;
	uint8_t pd[224];
	uint32_t pd_len;
};

/* A CM MAD from me to peer as IB bytes (BTH, DETH, MAD); 0 on failure. */
uint32_t cm_build(uint8_t *ib, uint32_t cap, const struct cm_side *me,
		  const struct cm_side *peer, uint16_t attr,
		  const uint8_t *pd, uint32_t pd_len);
/* The CM message libdissect decoded in f, with its consumer private data. */
bool cm_parse(const struct rr_frame *f, struct cm_msg *out);

static inline uint8_t mtu_code(uint32_t mtu)
{
	return mtu >= 4096 ? 5 : mtu >= 2048 ? 4 : mtu >= 1024 ? 3 :
	       mtu >= 512 ? 2 : 1;
}

#endif
