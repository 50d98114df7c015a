/* SPDX-License-Identifier: BSD-2-Clause */
/* The plugin's entry points, as Wireshark 4.0 to 4.6 load them. */
#include <epan/packet.h>
#include <epan/proto.h>

#include "packet-rpcrdma.h"
#include "ws-compat.h"

#if RR_WS_AT_LEAST(4, 2)
#include <wsutil/plugins.h>
#endif

/* the project's version, from CMake */
WS_DLL_PUBLIC_DEF const gchar plugin_version[] = RR_PROJECT_VERSION;
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

#if RR_WS_AT_LEAST(4, 2)
/* 4.2 and later load a plugin only when it says what it is */
WS_DLL_PUBLIC uint32_t plugin_describe(void);

uint32_t plugin_describe(void)
{
	return WS_PLUGIN_DESC_DISSECTOR;
}
#endif
