/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libbpf's messages, worded for the tools' users: what failed and why,
 * with the verifier's own reason when it refused a program (the line of its
 * log before its closing count), not only libbpf's error number.
 */
#ifndef RR_BPF_MESSAGES_H
#define RR_BPF_MESSAGES_H

#include <stddef.h>

/* Before opening an object: libbpf's messages are kept from here on. */
void rr_bpf_messages_begin(void);
/* "WHAT: strerror(-err)" and either the privileges it needs or what libbpf
 * (or the verifier) said. */
void rr_bpf_failure(char *msg, size_t n, const char *what, int err);

#endif
