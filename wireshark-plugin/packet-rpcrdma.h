/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef PACKET_RPCRDMA_TOOLS_H
#define PACKET_RPCRDMA_TOOLS_H

void proto_register_rpcrdma_tools(void);
void proto_reg_handoff_rpcrdma_tools(void);

#endif
