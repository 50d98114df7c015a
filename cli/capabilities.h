/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Capabilities given back once a source is open, as tcpdump gives up root
 * once its capture is: a live capture needs CAP_NET_RAW to start and none
 * to read.  The eBPF program keeps CAP_BPF (its maps are read with bpf(),
 * which kernels with unprivileged BPF disabled refuse without it, 6.1
 * among them) and CAP_NET_ADMIN (its TC hook is taken off the interface at
 * the end).  Through libcap-ng.
 */
#ifndef RR_CAPABILITIES_H
#define RR_CAPABILITIES_H

#include <stdbool.h>
#include <stddef.h>

/* Keeps only CAP_BPF and CAP_NET_ADMIN when keep_ebpf, else nothing:
 * effective, permitted, inheritable, ambient and bounding sets.  False with
 * why in err when the process could not change them (it keeps what it
 * had). */
bool rr_capabilities_drop(bool keep_ebpf, char *err, size_t errlen);

#endif
