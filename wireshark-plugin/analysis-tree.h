/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The analyzer's part of a frame's tree (analysis-tree.c): generated items
 * from the items of the frame's report (analysis.h).
 */
#ifndef RPCRDMA_TOOLS_ANALYSIS_TREE_H
#define RPCRDMA_TOOLS_ANALYSIS_TREE_H

#include <stdbool.h>

#include <epan/packet.h>

#include "analysis.h"

/* Its fields, subtrees and expert items (findings, RC retransmissions, the
 * diagnosis), under proto. */
void rr_ws_register_analysis_tree(int proto);
/* it, marked generated */
proto_item *rr_ws_generated(proto_item *it);
/* What the analyzer knows of a MESSAGE item: direction, credits, its call
 * or reply, what the RPC moved, the connection's thresholds. */
void rr_ws_add_message_analysis(proto_tree *t, tvbuff_t *tvb, const struct rr_ws_item *m);
/* The direction alone (a retransmitted packet's header). */
void rr_ws_add_direction(proto_tree *t, tvbuff_t *tvb, const struct rr_ws_item *m);
/* Why a SEND's RPC is shown in part, or not here (rpcrdma.fragment). */
void rr_ws_add_fragment_note(proto_tree *t, tvbuff_t *tvb, int off, const char *format, ...)
	G_GNUC_PRINTF(4, 5);
/* A CHUNK_DATA item: what this RDMA packet moves, for which call. */
void rr_ws_add_chunk_data(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
			  const struct rr_ws_item *it);
/* An RPC_MESSAGE item's summary; kept: its bytes are there to dissect. */
void rr_ws_add_rebuilt_item(proto_tree *tree, tvbuff_t *tvb, const struct rr_ws_item *m,
			    bool kept);
/* "RPC-over-RDMA analysis" of a frame, where it has something to show:
 * the diagnosis' problems that begin here, findings, thresholds negotiated,
 * retransmissions, connections refused, and chunk data the payload's
 * dissection did not show (claimed: it did). */
void rr_ws_add_frame_analysis(proto_tree *tree, packet_info *pinfo, tvbuff_t *tvb,
			      const struct rr_ws_frame *r, bool claimed, bool diagnosed);

#endif
