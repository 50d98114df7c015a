/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Preferences.  Wireshark keeps them as guint and gboolean; they are copied
 * into struct rr_ws_prefs (checked) whenever they are applied.
 *
 * The built-in dissector (rpcordma) registers heuristics on the same
 * payloads as this plugin.  Both claiming one payload shows every message
 * twice, and the built-in's weaker test takes non-RPC RDMA payloads for
 * RPC-over-RDMA: so by default its heuristics are turned off while this
 * plugin is loaded, and turned back on when the preference is cleared.
 */
#include <epan/packet.h>
#include <epan/prefs.h>

#include <rpcrdma/dissect.h>

#include "prefs.h"
#include "ws-compat.h"

#define DEFAULT_REBUILT_MIB 64u

static rr_ws_pref_bool pref_analyze = TRUE;
static guint pref_roce_port, pref_iwarp_port; /* libdissect's defaults */
static guint pref_rebuilt_mib = DEFAULT_REBUILT_MIB;
static rr_ws_pref_bool pref_builtin_off = TRUE;
static struct rr_config defaults;
static struct rr_ws_prefs current;

/* the built-in's heuristic names (epan/dissectors/packet-rpcrdma.c) */
static const char *const builtin_heuristics[] = { "rpcrdma_infiniband", "rpcrdma_iwarp" };
/* which of them this plugin turned off, to turn back on */
static bool turned_off[G_N_ELEMENTS(builtin_heuristics)];
static bool handed_off;

const struct rr_ws_prefs *rr_ws_prefs(void)
{
	return &current;
}

static void apply_builtin_heuristics(void)
{
	for (size_t i = 0; i < G_N_ELEMENTS(builtin_heuristics); i++) {
		heur_dtbl_entry_t *e = find_heur_dissector_by_unique_short_name(
			builtin_heuristics[i]);
		if (!e)
			continue;
		if (current.builtin_off && e->enabled) {
			e->enabled = FALSE;
			turned_off[i] = true;
		} else if (!current.builtin_off && turned_off[i]) {
			e->enabled = TRUE;
			turned_off[i] = false;
		}
	}
}

static void apply(void)
{
	current.analyze = pref_analyze;
	/* a port of 0 or beyond 65535 keeps the standard one */
	current.roce_udp_port = pref_roce_port && pref_roce_port <= 0xffff ?
		(uint16_t)pref_roce_port : defaults.roce_udp_port;
	current.iwarp_tcp_port = pref_iwarp_port && pref_iwarp_port <= 0xffff ?
		(uint16_t)pref_iwarp_port : defaults.iwarp_tcp_port;
	current.rebuilt_memory = (pref_rebuilt_mib > 4096 ? 4096u : pref_rebuilt_mib) << 20;
	current.builtin_off = pref_builtin_off;
	if (handed_off)
		apply_builtin_heuristics();
}

void rr_ws_register_prefs(int proto)
{
	rr_config_init(&defaults);
	pref_roce_port = defaults.roce_udp_port;
	pref_iwarp_port = defaults.iwarp_tcp_port;
	apply();
	module_t *m = prefs_register_protocol(proto, apply);
	prefs_register_bool_preference(m, "analyze", "Analyze connections",
		"Follow each connection: credits, call/reply matching, chunk data, "
		"SENDs of several packets, RPC messages rebuilt from chunks, findings "
		"and the statistics. Off: each header is decoded on its own.",
		&pref_analyze);
	prefs_register_uint_preference(m, "roce_udp_port", "RoCEv2 UDP port",
		"The UDP port the analyzer takes for RoCEv2 (IANA: 4791)", 10,
		&pref_roce_port);
	prefs_register_uint_preference(m, "iwarp_tcp_port", "iWARP TCP port",
		"The TCP port of RPC-over-RDMA on iWARP (IANA: 20049, nfsrdma)", 10,
		&pref_iwarp_port);
	prefs_register_uint_preference(m, "rebuilt_memory",
		"Memory for rebuilt messages (MiB)",
		"Reassembled and rebuilt RPC messages kept per file for later looks "
		"(the GUI, tshark -2); beyond it they show on the first pass only", 10,
		&pref_rebuilt_mib);
	prefs_register_bool_preference(m, "builtin_heuristics_off",
		"Turn the built-in RPCoRDMA heuristics off",
		"While this plugin is loaded, the built-in dissector (filter rpcordma) "
		"does not try InfiniBand and iWARP payloads, so that no message shows "
		"twice and no non-RPC payload is taken for RPC-over-RDMA. Its filters "
		"then match nothing.",
		&pref_builtin_off);
}

void rr_ws_prefs_handoff(void)
{
	handed_off = true;
	apply_builtin_heuristics();
}
