/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * IB CM MADs for the software RoCE transports (IBA vol. 1 §12.6): REQ with
 * the RDMA-CM IP header (annex A11) ahead of the consumer's private data,
 * REP, RTU, DREQ and DREP, sent on UD QP1.
 */
#define _DEFAULT_SOURCE
#include <string.h>

#include "cm.h"

uint32_t cm_build(uint8_t *ib, uint32_t cap, const struct cm_side *me,
		  const struct cm_side *peer, uint16_t attr,
		  const uint8_t *pd, uint32_t pd_len)
{
	uint8_t mad[256], req_pd[92];
	struct rr_mad m = { .tid = me->tid };
	struct rr_cm c = { .attr_id = attr };
	c.local_comm_id = me->comm_id;
	c.remote_comm_id = peer->comm_id;
	c.local_qpn = me->qpn;
	c.starting_psn = me->psn;
	c.service_id = 0x0000000001060000ull | RR_NFS_RDMA_PORT;
	c.local_ca_guid = me->guid;
	c.resp_resources = c.initiator_depth = 16;
	c.path_mtu = me->mtu_code;
	c.rnr_retry = 7;
	c.retry_count = 7;
	c.pkey = 0xFFFF;
	c.remote_qpn = peer->qpn;
	if (attr == RR_CM_REQ) {
		/* the RDMA-CM header, then the consumer's 56 bytes */
		memset(req_pd, 0, sizeof(req_pd));
		rr_rdma_cm_hdr_encode(req_pd, 4, me->port, me->ip, peer->ip);
		if (pd_len > 56)
			pd_len = 56;
		memcpy(req_pd + 36, pd, pd_len);
		pd = req_pd;
		pd_len = sizeof(req_pd);
	}
	struct rr_buf b, ibb;
	rr_buf_init(&b, mad, sizeof(mad));
	if (!rr_cm_mad_encode(&b, &m, &c, pd, pd_len))
		return 0;
	struct rr_bth bth = { .opcode = RR_OP_UD_SEND_ONLY, .pkey = 0xFFFF,
			      .dqpn = 1, .psn = me->mad_psn };
	struct rr_ext x = { .present = RR_EXT_DETH };
	x.deth.qkey = 0x80010000;
	x.deth.src_qp = 1;
	rr_buf_init(&ibb, ib, cap);
	return rr_ib_encode(&ibb, &bth, &x, mad, b.len) ? (uint32_t)ibb.len : 0;
}

bool cm_parse(const struct rr_frame *f, struct cm_msg *out)
{
	if (!rr_has(f, RR_LAYER_CM) || f->note[RR_LAYER_CM].status != RR_COMPLETE)
		return false;
	memset(out, 0, sizeof(*out));
	out->attr = f->cm.attr_id;
	out->comm_id = f->cm.local_comm_id;
	out->remote_comm_id = f->cm.remote_comm_id;
	out->qpn = f->cm.local_qpn;
	out->psn = f->cm.starting_psn;
	out->tid = f->mad.tid;
	/* the consumer's part: after the RDMA-CM header in a REQ */
	uint32_t off = f->cm.private_data.off, len = f->cm.private_data.len;
	if (rr_has(f, RR_LAYER_RDMA_CM)) {
		off = f->rdma_cm.consumer_data.off;
		len = f->rdma_cm.consumer_data.len;
	}
	if (len > sizeof(out->pd))
		len = sizeof(out->pd);
	memcpy(out->pd, f->data + off, len);
	out->pd_len = len;
	return true;
}
