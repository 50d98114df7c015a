/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The eBPF capture path: a TC (clsact) program on an interface's ingress
 * and egress, loaded with libbpf from its bpftool skeleton, hands the first
 * bytes of every RoCEv2 and iWARP frame to user space through a ring
 * buffer and counts packets and bytes per flow in the kernel.
 */
#ifndef RR_EBPF_H
#define RR_EBPF_H

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

#endif
