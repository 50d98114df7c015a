/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The MPA marker rule (RFC 5044 §5), for the frame decoder and the stream
 * reassembly alike: with markers negotiated, a 4-octet marker every 512
 * octets of TCP sequence space, counted from the first FPDU's (seq0).
 */
#ifndef RR_MPA_H
#define RR_MPA_H

#include <stdbool.h>
#include <stdint.h>

#define MPA_MARKER_SPACING 512u
#define MPA_MARKER_LEN 4u

/* Octets from seq to the start of the next marker (0: one starts there). */
static inline uint32_t mpa_to_marker(uint32_t seq, uint32_t seq0)
{
	return (MPA_MARKER_SPACING - ((seq - seq0) & (MPA_MARKER_SPACING - 1))) &
	       (MPA_MARKER_SPACING - 1);
}

/* Whether the octet at seq is one of a marker's. */
static inline bool mpa_in_marker(uint32_t seq, uint32_t seq0)
{
	return ((seq - seq0) & (MPA_MARKER_SPACING - 1)) < MPA_MARKER_LEN;
}

#endif
