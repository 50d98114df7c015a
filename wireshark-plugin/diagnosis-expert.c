/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The diagnosis' problems whose events begin in a frame, as expert items:
 * Expert Information leads to the first frame of each, the worst
 * connection's.  Known once the file was read whole (rr_ws_diagnosis).
 */
#include <glib.h>

#include <rpcrdma/diagnosis.h>

#include "analysis.h"
#include "diagnosis-expert.h"

static expert_field ei_diagnosis[RR_DIAGNOSIS_COUNT];

void rr_ws_register_diagnosis_expert(expert_module_t *em, const int *severity)
{
	/* a sequence of packets tells each problem */
	static ei_register_info diag[RR_DIAGNOSIS_COUNT];
	for (unsigned i = 0; i < RR_DIAGNOSIS_COUNT; i++) {
		const struct rr_diagnosis_info *di = rr_diagnosis_info(i);
		ei_diagnosis[i] = (expert_field)EI_INIT;
		diag[i] = (ei_register_info){ &ei_diagnosis[i],
			{ g_strdup_printf("rpcrdma.diagnosis.%s", di->id), PI_SEQUENCE,
			  severity[di->severity], di->title, EXPFILL } };
	}
	expert_register_field_array(em, diag, RR_DIAGNOSIS_COUNT);
}

bool rr_ws_diagnosis_here(const packet_info *pinfo)
{
	unsigned n;
	const struct rr_diagnosis_item *d = rr_ws_diagnosis(&n);
	for (unsigned i = 0; i < n; i++)
		if (d[i].frames.first == pinfo->num)
			return true;
	return false;
}

void rr_ws_add_diagnosis(proto_tree *t, packet_info *pinfo, tvbuff_t *tvb)
{
	unsigned n;
	const struct rr_diagnosis_item *d = rr_ws_diagnosis(&n);
	for (unsigned i = 0; i < n; i++) {
		if (d[i].frames.first != pinfo->num)
			continue;
		const struct rr_diagnosis_info *di = rr_diagnosis_info(d[i].id);
		proto_tree_add_expert_format(t, pinfo, &ei_diagnosis[d[i].id], tvb, 0, 0,
					     "%s %s: %s; frames %u to %u on conn %u [%s]",
					     rr_severity_str(d[i].severity), di->id, d[i].evidence,
					     (unsigned)d[i].frames.first, (unsigned)d[i].frames.last,
					     d[i].worst_conn, di->reference);
	}
}
