// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * TC (clsact) program for ingress and egress: finds RoCEv2 frames (UDP to
 * or from port 4791, configurable) and iWARP frames (TCP to or from the
 * ports configured, 20049 by default), counts them per flow, and sends
 * their first snap_len bytes to user space through a ring buffer.  Every
 * frame passes on untouched (PASS); a full ring buffer is counted.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <stdbool.h>

#include "rpcrdma_capture.h"

/* Not TC_ACT_OK, which ends the hook's filters: the next one runs (another
 * tool's, or another run's of ours, at its own priority), and with none
 * left the frame goes on as it would without us. */
#define PASS TC_ACT_UNSPEC

/* Set by the loader before the program is loaded (the skeleton's rodata). */
const volatile __u16 roce_port = 4791;
const volatile __u16 iwarp_ports[RR_EBPF_IWARP_PORTS] = { 20049 };
const volatile __u32 snap_len = 256;

/*
 * One ring buffer per CPU, so that CPUs sending at once do not take turns
 * at one ring's lock (that alone cost 100 ns a packet); the loader makes
 * them, and merges their records back into time order.
 */
struct ring {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, RR_EBPF_RING_BYTES);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct ring);
} rings SEC(".maps");

/* per CPU: counting takes no atomic operation */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_PERCPU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct rr_ebpf_flow);
	__type(value, struct rr_ebpf_counts);
} flows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, RR_EBPF_STAT_COUNT);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static __always_inline void stat_add(__u32 i)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &i);
	if (v)
		(*v)++;
}

static __always_inline int iwarp_port(__u16 p)
{
	for (int i = 0; i < RR_EBPF_IWARP_PORTS; i++)
		if (iwarp_ports[i] && iwarp_ports[i] == p)
			return 1;
	return 0;
}

static __always_inline int capture(struct __sk_buff *skb, __u32 egress)
{
	void *data = (void *)(long)skb->data;
	void *end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct rr_ebpf_flow flow = {};
	__u32 off = sizeof(*eth);
	if ((void *)(eth + 1) > end)
		return PASS;
	__u16 proto = eth->h_proto;
	/* up to two 802.1Q / 802.1ad tags */
	for (int i = 0; i < 2; i++) {
		if (proto != bpf_htons(ETH_P_8021Q) && proto != bpf_htons(ETH_P_8021AD))
			break;
		__u16 *tag = data + off;
		if ((void *)(tag + 2) > end)
			return PASS;
		proto = tag[1];
		off += 4;
	}
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = data + off;
		if ((void *)(ip + 1) > end || ip->ihl < 5)
			return PASS;
		__builtin_memcpy(flow.saddr, &ip->saddr, 4);
		__builtin_memcpy(flow.daddr, &ip->daddr, 4);
		flow.proto = ip->protocol;
		if (ip->frag_off & bpf_htons(0x1FFF))
			return PASS; /* not a first fragment: no ports */
		off += ip->ihl * 4;
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = data + off;
		if ((void *)(ip6 + 1) > end)
			return PASS;
		__builtin_memcpy(flow.saddr, &ip6->saddr, 16);
		__builtin_memcpy(flow.daddr, &ip6->daddr, 16);
		flow.proto = ip6->nexthdr;
		off += sizeof(*ip6);
	} else {
		return PASS;
	}
	__u16 ports[2];
	if (flow.proto != IPPROTO_UDP && flow.proto != IPPROTO_TCP)
		return PASS;
	/* straight from the packet when the headers are in its linear part */
	off &= 0x3ff;
	__u16 *pp = data + off;
	if ((void *)(pp + 2) <= end) {
		ports[0] = pp[0];
		ports[1] = pp[1];
	} else if (bpf_skb_load_bytes(skb, off, ports, sizeof(ports)) < 0) {
		return PASS;
	}
	flow.sport = bpf_ntohs(ports[0]);
	flow.dport = bpf_ntohs(ports[1]);
	if (flow.proto == IPPROTO_UDP ? flow.dport != roce_port && flow.sport != roce_port
				      : !iwarp_port(flow.dport) && !iwarp_port(flow.sport))
		return PASS;

	struct rr_ebpf_counts *c = bpf_map_lookup_elem(&flows, &flow);
	if (c) {
		c->packets++;
		c->bytes += skb->len;
	} else {
		struct rr_ebpf_counts fresh = { 1, skb->len };
		bpf_map_update_elem(&flows, &flow, &fresh, BPF_NOEXIST);
	}

	__u32 cpu = bpf_get_smp_processor_id();
	void *ring = bpf_map_lookup_elem(&rings, &cpu);
	struct rr_ebpf_record *r = ring ? bpf_ringbuf_reserve(ring, sizeof(*r), 0) :
					  (void *)0;
	if (!r) {
		stat_add(RR_EBPF_STAT_DROPPED);
		return PASS;
	}
	/* 64 bits, so that the bounds the verifier sees are those checked;
	 * a CM MAD (BTH destination QP 1) whole, for its private data */
	__u64 n = skb->len;
	__u8 dqp[3] = { 0xff, 0xff, 0xff };
	__u8 *bth = data + off + 8;
	if (flow.proto == IPPROTO_UDP && (void *)(bth + 8) <= end) {
		dqp[0] = bth[5];
		dqp[1] = bth[6];
		dqp[2] = bth[7];
	} else if (flow.proto == IPPROTO_UDP) {
		bpf_skb_load_bytes(skb, off + 8 + 5, dqp, sizeof(dqp));
	}
	bool cm = !dqp[0] && !dqp[1] && dqp[2] == 1;
	if (n > snap_len && !cm)
		n = snap_len;
	if (n > RR_EBPF_SNAP_MAX)
		n = RR_EBPF_SNAP_MAX;
	/* taken after the reservation: a record reserved later on any CPU
	 * carries a later time, which is what lets the reader merge */
	r->ts_ns = bpf_ktime_get_ns();
	r->wire_len = skb->len;
	r->ifindex = skb->ifindex;
	r->egress = egress;
	r->cap_len = 0;
	/* A lower bound every verifier reads: compilers turn "n >= 1" into
	 * "n != 0", from which older verifiers (Linux 6.1's) learn none and
	 * refuse the call.  A frame that got here holds an Ethernet, an IPv4
	 * and a UDP header at least. */
	if (n >= ETH_HLEN + 20 + 8 && bpf_skb_load_bytes(skb, 0, r->data, n) == 0)
		r->cap_len = (__u32)n;
	/* wake the reader only once data piles up: it also polls on a timer,
	 * and a wakeup per frame would cost more than the frame */
	__u64 queued = bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA);
	bpf_ringbuf_submit(r, queued > RR_EBPF_RING_BYTES / 4 ? BPF_RB_FORCE_WAKEUP :
								 BPF_RB_NO_WAKEUP);
	stat_add(RR_EBPF_STAT_SENT);
	return PASS;
}

SEC("tc")
int rpcrdma_ingress(struct __sk_buff *skb)
{
	return capture(skb, 0);
}

SEC("tc")
int rpcrdma_egress(struct __sk_buff *skb)
{
	return capture(skb, 1);
}

/* A filter that only marks the clsact qdisc as made by one of our runs
 * (rpcrdma_capture.c's qdisc_mark): it lets every packet on. */
SEC("tc")
int rpcrdma_qdisc_mark(struct __sk_buff *skb)
{
	(void)skb;
	return PASS;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
