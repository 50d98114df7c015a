/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The plugin's preferences (Edit > Preferences > Protocols > RPCRDMA, or
 * tshark -o rpcrdma.NAME:VALUE).
 */
#ifndef RPCRDMA_TOOLS_PREFS_H
#define RPCRDMA_TOOLS_PREFS_H

#include <stdbool.h>
#include <stdint.h>

struct rr_ws_prefs {
	bool analyze;              /* the stateful analyzer (off: headers only) */
	uint16_t roce_udp_port;    /* RoCEv2, for the analyzer's decoder */
	uint16_t iwarp_tcp_port;   /* iWARP, for the analyzer's decoder */
	uint32_t rebuilt_memory;   /* bytes of rebuilt messages kept per file */
	bool builtin_off;          /* the built-in rpcordma heuristics off */
};

/* The values in force; read when a file is opened. */
const struct rr_ws_prefs *rr_ws_prefs(void);
void rr_ws_register_prefs(int proto);
/* After handoff, when every heuristic table exists. */
void rr_ws_prefs_handoff(void);

#endif
