/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Shared between the TC program and its loader: what one ring-buffer
 * record holds, and the key and value of the per-connection counters.
 */
#ifndef RPCRDMA_CAPTURE_H
#define RPCRDMA_CAPTURE_H

#define RR_EBPF_SNAP_MAX 512    /* bytes of a frame a record can hold */
#define RR_EBPF_IWARP_PORTS 4
#define RR_EBPF_RING_BYTES (4 << 20) /* each CPU's ring buffer */

struct rr_ebpf_record {
	__u64 ts_ns;            /* bpf_ktime_get_ns: CLOCK_MONOTONIC */
	__u32 wire_len;         /* the frame's length */
	__u32 cap_len;          /* bytes in data */
	__u32 ifindex;
	__u32 egress;           /* 1 sent, 0 received */
	__u8 data[RR_EBPF_SNAP_MAX];
};

/* A flow as the wire shows it (one direction of a connection). */
struct rr_ebpf_flow {
	__u8 saddr[16], daddr[16];  /* IPv4 in the first 4 bytes */
	__u16 sport, dport;
	__u8 proto;                 /* IPPROTO_UDP (RoCEv2) or IPPROTO_TCP */
	__u8 pad[3];
};

struct rr_ebpf_counts {
	__u64 packets, bytes;
};

/* Indexes of the per-CPU statistics array. */
enum { RR_EBPF_STAT_SENT, RR_EBPF_STAT_DROPPED, RR_EBPF_STAT_COUNT };

#endif
