/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Shared between the TC program and its loader: what one ring-buffer
 * record holds, and the key and value of the per-connection counters.
 */
#ifndef RPCRDMA_CAPTURE_H
#define RPCRDMA_CAPTURE_H

#include <linux/types.h>

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

#ifndef __bpf__
/*
 * User space's side, the loader (rpcrdma_capture.c): the TC (clsact)
 * program on an interface's ingress and egress, loaded with libbpf from
 * its bpftool skeleton, hands the first bytes of every RoCEv2 and iWARP
 * frame to user space through a ring buffer and counts packets and bytes
 * per flow in the kernel.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rr_ebpf_direction { RR_EBPF_BOTH, RR_EBPF_INGRESS, RR_EBPF_EGRESS };

struct rr_ebpf_opts {
	uint16_t roce_port;           /* 4791 */
	uint16_t iwarp_ports[4];      /* 20049; 0 ends the list */
	uint32_t snap_len;            /* 256, at most 512 */
	enum rr_ebpf_direction direction; /* BOTH: egress only on loopback,
					   * which sees each frame twice */
};

void rr_ebpf_opts_init(struct rr_ebpf_opts *o);

/* A frame: its capture time (CLOCK_REALTIME, ns), first bytes, length. */
typedef void (*rr_ebpf_frame_fn)(void *ctx, uint64_t ts_ns, const uint8_t *data,
				 uint32_t caplen, uint32_t wirelen);

struct rr_ebpf;

/*
 * Loads and attaches; NULL with the reason in msg.  When it succeeds, msg
 * holds what it did besides ("" or, say, that it removed a filter an
 * earlier run left behind).
 */
struct rr_ebpf *rr_ebpf_open(const char *ifname, const struct rr_ebpf_opts *o,
			     rr_ebpf_frame_fn fn, void *ctx, char *msg,
			     size_t msglen);
/* Hands waiting frames to fn: how many, or -1 on an error. */
int rr_ebpf_poll(struct rr_ebpf *e, int timeout_ms);
/* Frames the program matched, sent to user space, and lost because the
 * ring buffer was full. */
void rr_ebpf_counts(const struct rr_ebpf *e, uint64_t *seen, uint64_t *sent,
		    uint64_t *dropped);
/* The in-kernel per-flow counters (each direction of each connection). */
typedef void (*rr_ebpf_flow_fn)(void *ctx, const uint8_t saddr[16],
				const uint8_t daddr[16], uint16_t sport,
				uint16_t dport, uint8_t proto, uint64_t packets,
				uint64_t bytes);
int rr_ebpf_flows(const struct rr_ebpf *e, rr_ebpf_flow_fn fn, void *ctx);
/* Detaches everything it attached; removes the clsact qdisc it made. */
void rr_ebpf_close(struct rr_ebpf *e);
/* The libbpf this program runs with, as "libbpf X.Y". */
const char *rr_ebpf_library_version(void);
#endif /* __bpf__ */

#endif
