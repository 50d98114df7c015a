/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Capabilities given back once a source is open, as tcpdump gives up root
 * once its capture is: a live capture, the eBPF program and the
 * tracepoints need CAP_NET_RAW, CAP_BPF, CAP_PERFMON or CAP_NET_ADMIN to
 * start, and reading what they opened needs none, but for the eBPF
 * program's TC hook, which is taken off the interface at the end
 * (CAP_NET_ADMIN).  Through libcap-ng.
 */
#ifndef RR_CAPABILITIES_H
#define RR_CAPABILITIES_H

#include <stdbool.h>
#include <stddef.h>

/* Keeps only CAP_NET_ADMIN when keep_net_admin, else nothing: effective,
 * permitted, inheritable, ambient and bounding sets.  False with why in
 * err when the process could not change them (it keeps what it had). */
bool rr_capabilities_drop(bool keep_net_admin, char *err, size_t errlen);

#endif
