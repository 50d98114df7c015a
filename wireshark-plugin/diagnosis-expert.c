/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The diagnosis' problems whose events begin in a frame, as expert items
 * at the severity the diagnosis gives them: Expert Information leads to
 * the first frame of each, the worst connection's.  Known once the file
 * was read whole (rr_ws_diagnosis).
 */
#include <glib.h>

#include <epan/packet.h>

#include <rpcrdma/diagnosis.h>

#include "analysis.h"
#include "diagnosis-expert.h"

#define SEVERITIES (RR_SEV_ERROR + 1)

/* a field per problem, for filters (rpcrdma.diagnosis.<problem>), and
 * an expert item per problem and severity, since a problem's grade is
 * the capture's (packet_loss a warning or an error) and Wireshark's is
 * the item's: rpcrdma.diagnosis.<problem>.<severity> */
static int hf_problem[RR_DIAGNOSIS_COUNT];
static expert_field ei_diagnosis[RR_DIAGNOSIS_COUNT][SEVERITIES];

void rr_ws_register_diagnosis_expert(int proto, expert_module_t *em, const int *severity)
{
	static hf_register_info hf[RR_DIAGNOSIS_COUNT];
	/* a sequence of packets tells each problem */
	static ei_register_info diag[RR_DIAGNOSIS_COUNT * SEVERITIES];
	for (unsigned i = 0; i < RR_DIAGNOSIS_COUNT; i++) {
		const struct rr_diagnosis_info *di = rr_diagnosis_info(i);
		hf_problem[i] = -1;
		hf[i] = (hf_register_info){ &hf_problem[i],
			{ di->title, g_strdup_printf("rpcrdma.diagnosis.%s", di->id), FT_NONE,
			  BASE_NONE, NULL, 0, di->reference, HFILL } };
		for (unsigned sev = 0; sev < SEVERITIES; sev++) {
			ei_diagnosis[i][sev] = (expert_field)EI_INIT;
			diag[i * SEVERITIES + sev] = (ei_register_info){ &ei_diagnosis[i][sev],
				{ g_strdup_printf("rpcrdma.diagnosis.%s.%s", di->id,
						  rr_severity_str(sev)),
				  PI_SEQUENCE, severity[sev], di->title, EXPFILL } };
		}
	}
	proto_register_field_array(proto, hf, RR_DIAGNOSIS_COUNT);
	expert_register_field_array(em, diag, RR_DIAGNOSIS_COUNT * SEVERITIES);
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
		char *text = wmem_strdup_printf(pinfo->pool,
						"%s %s: %s; frames %u to %u on conn %u [%s]",
						rr_severity_str(d[i].severity), di->id,
						d[i].evidence, (unsigned)d[i].frames.first,
						(unsigned)d[i].frames.last, d[i].worst_conn,
						di->reference);
		proto_item *it = proto_tree_add_none_format(t, hf_problem[d[i].id], tvb, 0, 0,
							    "%s", text);
		proto_item_set_generated(it);
		unsigned sev = d[i].severity < SEVERITIES ? d[i].severity : RR_SEV_ERROR;
		expert_add_info_format(pinfo, it, &ei_diagnosis[d[i].id][sev], "%s", text);
	}
}
