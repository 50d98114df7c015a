/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A classic pcap file's records read in place, from a read-only mapping
 * of the file, beside the libpcap handle that opened it.  libpcap copies
 * every record out of the file (glibc's fread), which was 37 % of
 * `rpcrdma-dump -q --stats` on the lab's Linux captures
 * (docs/performance.md); here each record is handed over where it lies.
 *
 * libpcap still opens the file and checks its header: the link type, the
 * snapshot length, the precision and -w's writer come from its handle.
 * The first record this walk does not take as it stands (cut short,
 * longer than the snapshot) is left to libpcap from the same offset, so a
 * damaged file is reported in libpcap's words.  pcapng files, standard
 * input, filtered reads and link types whose records libpcap rewrites are
 * libpcap's throughout.
 */
#ifndef RR_MAPPED_CAPTURE_H
#define RR_MAPPED_CAPTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "capture-source.h"

struct rr_mapped;

/* The file p has just opened (its header read, nothing else), or NULL
 * when it is not one this walk reads: libpcap reads it then.  Time stamps
 * come at p's precision (pcap_get_tstamp_precision), scaled as libpcap
 * scales them. */
struct rr_mapped *rr_mapped_open(pcap_t *p, const char *path);

/* 1 and the next record; 0 when the walk stops (the end of the file, or a
 * record it leaves to libpcap): the file of p is then positioned at that
 * record for pcap_next_ex; -1 when it could not be positioned. */
int rr_mapped_next(struct rr_mapped *m, uint64_t *ts_ns, const uint8_t **data,
		   uint32_t *caplen, uint32_t *wirelen);

void rr_mapped_close(struct rr_mapped *m);

#endif
