/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "rpcrdma_capture.h"
#include "rpcrdma_capture.skel.h"
#include "rr_ebpf.h"

/* How our filters are told from others' on the same hook: 'rp' 'rd'. */
#define TC_HANDLE 0x7270
#define TC_PRIORITY 0x7264

struct rr_ebpf {
	struct rpcrdma_capture *skel;
	struct ring_buffer *rb;
	struct bpf_tc_hook hook;
	bool attached[2];        /* [0] ingress [1] egress */
	bool destroy_hook;       /* the clsact qdisc is ours to remove */
	int64_t mono_to_real;    /* CLOCK_REALTIME - CLOCK_MONOTONIC */
	rr_ebpf_frame_fn fn;
	void *ctx;
};

void rr_ebpf_opts_init(struct rr_ebpf_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->roce_port = 4791;
	o->iwarp_ports[0] = 20049;
	o->snap_len = 256;
	o->direction = RR_EBPF_BOTH;
}

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct rr_ebpf *e = ctx;
	const struct rr_ebpf_record *r = data;
	if (size < sizeof(*r) || r->cap_len > RR_EBPF_SNAP_MAX)
		return 0;
	e->fn(e->ctx, (uint64_t)((int64_t)r->ts_ns + e->mono_to_real), r->data,
	      r->cap_len, r->wire_len);
	return 0;
}

static bool is_loopback(const char *ifname)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	bool lo = ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_LOOPBACK);
	close(fd);
	return lo;
}

static const char *const point_names[] = { "ingress", "egress" };

/* Our filter at one attach point: remove one left by an earlier run,
 * then attach. */
static int attach(struct rr_ebpf *e, int i, int prog_fd, bool *stale)
{
	e->hook.attach_point = i ? BPF_TC_EGRESS : BPF_TC_INGRESS;
	LIBBPF_OPTS(bpf_tc_opts, q, .handle = TC_HANDLE, .priority = TC_PRIORITY);
	if (bpf_tc_query(&e->hook, &q) == 0) {
		LIBBPF_OPTS(bpf_tc_opts, d, .handle = TC_HANDLE, .priority = TC_PRIORITY);
		if (bpf_tc_detach(&e->hook, &d) == 0)
			*stale = true;
	}
	LIBBPF_OPTS(bpf_tc_opts, a, .handle = TC_HANDLE, .priority = TC_PRIORITY,
		    .prog_fd = prog_fd);
	int err = bpf_tc_attach(&e->hook, &a);
	if (!err)
		e->attached[i] = true;
	return err;
}

/* libbpf's last warning: the verifier's complaint when it rejects. */
static char libbpf_said[256];

static int libbpf_message(enum libbpf_print_level level, const char *fmt,
			  va_list ap)
{
	if (level == LIBBPF_WARN) {
		char line[256];
		vsnprintf(line, sizeof(line), fmt, ap);
		line[strcspn(line, "\n")] = '\0';
		if (line[0] && !strstr(line, "failed to load object"))
			snprintf(libbpf_said, sizeof(libbpf_said), "%s", line);
	}
	return 0;
}

static void privileges(char *msg, size_t n, const char *what, int err)
{
	bool perm = err == -EPERM || (err == -EACCES && !libbpf_said[0]);
	snprintf(msg, n, "%s: %s%s%s%s", what, strerror(-err),
		 perm ? " (loading the eBPF program needs CAP_BPF and CAP_PERFMON, "
			"attaching it CAP_NET_ADMIN; or run as root)" : "",
		 !perm && libbpf_said[0] ? "; libbpf: " : "",
		 !perm ? libbpf_said : "");
}

struct rr_ebpf *rr_ebpf_open(const char *ifname, const struct rr_ebpf_opts *o,
			     rr_ebpf_frame_fn fn, void *ctx, char *msg,
			     size_t msglen)
{
	msg[0] = '\0';
	unsigned ifindex = if_nametoindex(ifname);
	if (!ifindex) {
		snprintf(msg, msglen, "%s: no such interface", ifname);
		return NULL;
	}
	struct rr_ebpf *e = calloc(1, sizeof(*e));
	if (!e) {
		snprintf(msg, msglen, "out of memory");
		return NULL;
	}
	e->fn = fn;
	e->ctx = ctx;
	libbpf_said[0] = '\0';
	libbpf_set_print(libbpf_message); /* its messages are ours to word */
	e->skel = rpcrdma_capture__open();
	if (!e->skel) {
		privileges(msg, msglen, "opening the eBPF object", -errno);
		free(e);
		return NULL;
	}
	e->skel->rodata->roce_port = o->roce_port;
	for (int i = 0; i < RR_EBPF_IWARP_PORTS; i++)
		e->skel->rodata->iwarp_ports[i] = o->iwarp_ports[i];
	e->skel->rodata->snap_len = o->snap_len > RR_EBPF_SNAP_MAX ?
					    RR_EBPF_SNAP_MAX : o->snap_len;
	int err = rpcrdma_capture__load(e->skel);
	if (err) {
		privileges(msg, msglen, "loading the eBPF program", err);
		rr_ebpf_close(e);
		return NULL;
	}
	e->rb = ring_buffer__new(bpf_map__fd(e->skel->maps.records), on_record, e,
				 NULL);
	if (!e->rb) {
		privileges(msg, msglen, "opening the ring buffer", -errno);
		rr_ebpf_close(e);
		return NULL;
	}
	e->hook.sz = sizeof(e->hook);
	e->hook.ifindex = (int)ifindex;
	e->hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
	err = bpf_tc_hook_create(&e->hook);
	if (err && err != -EEXIST) {
		privileges(msg, msglen, "creating the clsact qdisc", err);
		rr_ebpf_close(e);
		return NULL;
	}
	e->destroy_hook = !err;
	enum rr_ebpf_direction dir = o->direction;
	bool lo = dir == RR_EBPF_BOTH && is_loopback(ifname);
	if (lo)
		dir = RR_EBPF_EGRESS;
	bool stale = false;
	int fds[2] = { bpf_program__fd(e->skel->progs.rpcrdma_ingress),
		       bpf_program__fd(e->skel->progs.rpcrdma_egress) };
	for (int i = 0; i < 2; i++) {
		if ((i == 0 && dir == RR_EBPF_EGRESS) || (i == 1 && dir == RR_EBPF_INGRESS))
			continue;
		err = attach(e, i, fds[i], &stale);
		if (err) {
			char what[64];
			snprintf(what, sizeof(what), "attaching to %s %s", ifname,
				 point_names[i]);
			privileges(msg, msglen, what, err);
			rr_ebpf_close(e);
			return NULL;
		}
	}
	/* a qdisc an earlier run of ours left is ours to remove too */
	e->destroy_hook |= stale;
	e->mono_to_real = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_MONOTONIC);
	snprintf(msg, msglen, "%s%s%s",
		 stale ? "removed the filters an earlier run left on the interface" : "",
		 stale && lo ? "; " : "",
		 lo ? "loopback: egress only, as it sees each frame twice" : "");
	return e;
}

int rr_ebpf_poll(struct rr_ebpf *e, int timeout_ms)
{
	/* woken when data piles up, else after the timeout: then read all */
	int n = ring_buffer__poll(e->rb, timeout_ms);
	if (n < 0 && n != -EINTR)
		return -1;
	int more = ring_buffer__consume(e->rb);
	return (n > 0 ? n : 0) + (more > 0 ? more : 0);
}

void rr_ebpf_counts(const struct rr_ebpf *e, uint64_t *seen, uint64_t *sent,
		    uint64_t *dropped)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t sums[RR_EBPF_STAT_COUNT] = { 0 };
	uint64_t *v = ncpu > 0 ? calloc((size_t)ncpu, sizeof(*v)) : NULL;
	for (uint32_t k = 0; v && k < RR_EBPF_STAT_COUNT; k++)
		if (bpf_map_lookup_elem(bpf_map__fd(e->skel->maps.stats), &k, v) == 0)
			for (int c = 0; c < ncpu; c++)
				sums[k] += v[c];
	free(v);
	/* the program counts what it sent and what found no room */
	*sent = sums[RR_EBPF_STAT_SENT];
	*dropped = sums[RR_EBPF_STAT_DROPPED];
	*seen = *sent + *dropped;
}

int rr_ebpf_flows(const struct rr_ebpf *e, rr_ebpf_flow_fn fn, void *ctx)
{
	int fd = bpf_map__fd(e->skel->maps.flows);
	int ncpu = libbpf_num_possible_cpus();
	struct rr_ebpf_counts *c = ncpu > 0 ? calloc((size_t)ncpu, sizeof(*c)) : NULL;
	struct rr_ebpf_flow key, next;
	int n = 0;
	void *prev = NULL;
	while (c && bpf_map_get_next_key(fd, prev, &next) == 0) {
		if (bpf_map_lookup_elem(fd, &next, c) == 0) {
			/* one value per CPU */
			uint64_t packets = 0, bytes = 0;
			for (int i = 0; i < ncpu; i++) {
				packets += c[i].packets;
				bytes += c[i].bytes;
			}
			fn(ctx, next.saddr, next.daddr, next.sport, next.dport,
			   next.proto, packets, bytes);
			n++;
		}
		key = next;
		prev = &key;
	}
	free(c);
	return n;
}

void rr_ebpf_close(struct rr_ebpf *e)
{
	if (!e)
		return;
	for (int i = 0; i < 2; i++) {
		if (!e->attached[i])
			continue;
		e->hook.attach_point = i ? BPF_TC_EGRESS : BPF_TC_INGRESS;
		LIBBPF_OPTS(bpf_tc_opts, d, .handle = TC_HANDLE, .priority = TC_PRIORITY);
		bpf_tc_detach(&e->hook, &d);
	}
	if (e->destroy_hook) {
		e->hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
		bpf_tc_hook_destroy(&e->hook);
	}
	ring_buffer__free(e->rb);
	rpcrdma_capture__destroy(e->skel);
	free(e);
}
