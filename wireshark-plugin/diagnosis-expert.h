/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The diagnosis as expert items: on a second look at the file (the GUI,
 * tshark -2), rpcrdma.diagnosis.<problem> in the frame where the worst
 * connection's events of each problem begin (rr_diagnosis_item frames),
 * its expert item rpcrdma.diagnosis.<problem>.<severity>.
 */
#ifndef RR_WS_DIAGNOSIS_EXPERT_H
#define RR_WS_DIAGNOSIS_EXPERT_H

#include <stdbool.h>

#include <epan/expert.h>
#include <epan/packet.h>

/* Under proto, into em; severity: Wireshark's PI_ severity of each enum
 * rr_severity */
void rr_ws_register_diagnosis_expert(int proto, expert_module_t *em, const int *severity);
/* Whether a problem's events begin in this frame. */
bool rr_ws_diagnosis_here(const packet_info *pinfo);
/* Their expert items, into t. */
void rr_ws_add_diagnosis(proto_tree *t, packet_info *pinfo, tvbuff_t *tvb);

#endif
