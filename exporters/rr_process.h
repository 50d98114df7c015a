/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The exporter's own process, as every Prometheus client library exports
 * it (process_cpu_seconds_total, process_resident_memory_bytes, ...), read
 * from /proc/self.  Absent where /proc is.
 */
#ifndef RR_PROCESS_H
#define RR_PROCESS_H

#include "rr_prom.h"

void rr_prom_process(struct rr_prom *w);

#endif
