/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * -w: the frames read, written to a pcap file by libpcap, with every
 * write checked, and rotated as tcpdump's -C, -G and -W rotate it.  A
 * failed write is said with the file's name, the frame and why; a regular
 * file is then cut back to the last whole frame the system took, so that
 * what was written before stays a file every reader opens.
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

/* tcpdump's rotation: -C a new file once one holds more than file_bytes,
 * named PATH1, PATH2 ...; -G a new file each `seconds` of the frames'
 * time, PATH a strftime(3) format of its first frame's time; -W at most
 * `files` files: with -C the names go round (PATH0 ... PATH<files-1>),
 * with -G the writing ends after that many.  Zero: none. */
struct rr_capture_rotation {
	uint64_t file_bytes;
	uint64_t seconds;
	unsigned files;
};

enum rr_capture_put {
	RR_CAPTURE_WRITTEN,
	RR_CAPTURE_FAILED,   /* this write or an earlier one: close says why */
	RR_CAPTURE_ALL_FILES, /* -G with -W: its files are written, as tcpdump ends */
};

struct rr_capture_writer;

/* PATH ("-": standard output) opened for frames of p's link type, snap
 * length and time-stamp precision (with rot->seconds, at the first frame,
 * whose time names it); NULL and why in err.  each_frame (-U): every frame
 * handed to the system at once, not a buffer at a time. */
struct rr_capture_writer *rr_capture_writer_open(pcap_t *p, const char *path,
						 const struct rr_capture_rotation *rot,
						 bool each_frame, char *err, size_t errlen);
/* Frame number frame, taken at ts_ns. */
enum rr_capture_put rr_capture_writer_put(struct rr_capture_writer *w, uint64_t frame,
					  uint64_t ts_ns, const uint8_t *data,
					  uint32_t caplen, uint32_t wirelen);
/* Writes what is buffered, closes and frees: false when a write failed,
 * now or before, with why in err ("NAME: write failed at frame N: reason;
 * the file keeps its first M frames", NAME the file written then). */
bool rr_capture_writer_close(struct rr_capture_writer *w, char *err,
			     size_t errlen);

#endif
