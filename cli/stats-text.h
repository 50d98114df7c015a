/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-dump --stats: the analyzer's statistics as text, per connection,
 * per procedure, findings and capture health.
 */
#ifndef RR_STATS_TEXT_H
#define RR_STATS_TEXT_H

#include <stdio.h>

#include <rpcrdma/analyzer.h>

void rr_print_stats_text(const struct rr_analyzer *a, FILE *out);

#endif
