/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where Wireshark's plugin API differs between the minor versions this
 * plugin builds for (4.0, 4.2, 4.4, 4.6), and nowhere else.
 */
#ifndef RPCRDMA_TOOLS_WS_COMPAT_H
#define RPCRDMA_TOOLS_WS_COMPAT_H

#include <stdbool.h>

#include <glib.h>

#define RR_WS_AT_LEAST(major, minor) \
	(RR_WS_MAJOR > (major) || (RR_WS_MAJOR == (major) && RR_WS_MINOR >= (minor)))

/* 4.2 made heur_dissector_t return bool, and boolean preferences bool */
#if RR_WS_AT_LEAST(4, 2)
typedef bool rr_ws_heur_result;
typedef bool rr_ws_pref_bool;
#else
typedef gboolean rr_ws_heur_result;
typedef gboolean rr_ws_pref_bool;
#endif

#endif
