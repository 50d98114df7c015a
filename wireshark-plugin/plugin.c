/* SPDX-License-Identifier: BSD-2-Clause */
/* The plugin's entry points, as Wireshark 4.0 loads them. */
#include <epan/packet.h>
#include <epan/proto.h>

#include "packet-rpcrdma.h"

WS_DLL_PUBLIC_DEF const gchar plugin_version[] = "0.1.0";
WS_DLL_PUBLIC_DEF const int plugin_want_major = RR_WS_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = RR_WS_MINOR;

WS_DLL_PUBLIC void plugin_register(void);

void plugin_register(void)
{
	static proto_plugin plug;
	plug.register_protoinfo = proto_register_rpcrdma_tools;
	plug.register_handoff = proto_reg_handoff_rpcrdma_tools;
	proto_register_plugin(&plug);
}
