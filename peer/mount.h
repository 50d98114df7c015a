/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Real file handles for a requester that talks to a real NFS server: the
 * export's, from the server's MOUNT service (RFC 1813 appendix I), and a
 * file's in it, from NFSv3 LOOKUP (RFC 1813 §3.3.3), both over TCP as
 * mount(8) gets them before it speaks RDMA.
 */
#ifndef PE_MOUNT_H
#define PE_MOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"

/* The handles of export EXPORT on server ADDR (IPv4 or IPv6) and of FILE
 * in it, into h, waiting up to wait_s seconds for each connection and
 * reply; false with the reason in err. */
bool pe_mount(const char *addr, const char *export, const char *file,
	      unsigned wait_s, struct pe_handles *h, char *err, size_t errlen);

#endif
