/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * -w: the frames read, written to a pcap file by libpcap, with every
 * write checked.  A failed write is said with the file's name, the frame
 * and why; a regular file is then cut back to the last whole frame the
 * system took, so that what was written before stays a file every reader
 * opens.
 */
#ifndef RR_CAPTURE_WRITER_H
#define RR_CAPTURE_WRITER_H

#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#endif
#include <pcap/pcap.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rr_capture_writer;

/* PATH ("-": standard output) opened for frames of p's link type, snap
 * length and time-stamp precision; NULL and why in err.  each_frame (-U):
 * every frame handed to the system at once, not a buffer at a time. */
struct rr_capture_writer *rr_capture_writer_open(pcap_t *p, const char *path,
						 bool each_frame, char *err,
						 size_t errlen);
/* Frame number frame, taken at ts_ns: false once a write failed (this
 * frame's or an earlier one's); rr_capture_writer_close then says why. */
bool rr_capture_writer_put(struct rr_capture_writer *w, uint64_t frame,
			   uint64_t ts_ns, const uint8_t *data, uint32_t caplen,
			   uint32_t wirelen);
/* Writes what is buffered, closes and frees: false when a write failed,
 * now or before, with why in err ("PATH: write failed at frame N: reason;
 * the file keeps its first M frames"). */
bool rr_capture_writer_close(struct rr_capture_writer *w, char *err,
			     size_t errlen);

#endif
