/* SPDX-License-Identifier: BSD-2-Clause */
/* The TC capture program's loader (rpcrdma_capture.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <net/if.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "rpcrdma_capture.h"
#include "rpcrdma_capture.skel.h"
#include "bpf-messages.h"

/* How our filters are told from others' on the same hook: 'rp' 'rd', one
 * priority per tool watching the interface at once (a slot). */
#define TC_HANDLE 0x7270
#define TC_PRIORITY 0x7264
#define TC_SLOTS 8
#define TC_MARK_PRIORITY (TC_PRIORITY + TC_SLOTS)

/* One CPU's ring buffer, read in place (as libbpf's ring_buffer does) so
 * that the rings can be merged by time. */
struct cpu_ring {
	int fd;
	uint64_t *cons_pos;      /* the consumer page: ours to write */
	uint64_t *prod_pos;      /* the producer page, then the data twice */
	uint8_t *data;
};

struct rr_ebpf {
	struct rpcrdma_capture *skel;
	struct cpu_ring *rings;
	int nrings, epfd;
	struct bpf_tc_hook hook;
	bool attached[2];        /* [0] ingress [1] egress */
	bool destroy_hook;       /* the clsact qdisc is ours to remove */
	int slot, slot_fd;       /* our filters' priority; its lock */
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

/* The head record of a ring: NULL when the ring is empty or its head is
 * still being written (*busy). */
static const struct rr_ebpf_record *ring_head(const struct cpu_ring *r,
					      uint32_t *len, bool *busy)
{
	uint64_t cons = __atomic_load_n(r->cons_pos, __ATOMIC_ACQUIRE);
	uint64_t prod = __atomic_load_n(r->prod_pos, __ATOMIC_ACQUIRE);
	*busy = false;
	if (cons >= prod)
		return NULL;
	const uint32_t *hdr = (const uint32_t *)(r->data + (cons & (RR_EBPF_RING_BYTES - 1)));
	uint32_t word = __atomic_load_n(hdr, __ATOMIC_ACQUIRE);
	if (word & BPF_RINGBUF_BUSY_BIT) {
		*busy = true;
		return NULL;
	}
	*len = word;
	return (const struct rr_ebpf_record *)(hdr + 2);
}

static void ring_advance(struct cpu_ring *r, uint32_t word)
{
	uint32_t len = word & ~(uint32_t)(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
	uint64_t cons = *r->cons_pos + ((len + BPF_RINGBUF_HDR_SZ + 7) & ~7u);
	__atomic_store_n(r->cons_pos, cons, __ATOMIC_RELEASE);
}

/*
 * Hands over the waiting records in time order: each ring is in order, so
 * the oldest head of all goes first.  A ring found empty can only get
 * records stamped later than any head seen (the program stamps after it
 * reserves), so nothing older can follow.
 */
static int drain(struct rr_ebpf *e)
{
	int n = 0;
	while (n < 65536) {
		int best = -1;
		uint32_t best_len = 0;
		const struct rr_ebpf_record *best_rec = NULL;
		for (int i = 0; i < e->nrings; i++) {
			uint32_t len;
			bool busy;
			const struct rr_ebpf_record *h = ring_head(&e->rings[i], &len, &busy);
			for (int spin = 0; busy && spin < 4096; spin++)
				h = ring_head(&e->rings[i], &len, &busy);
			if (busy)
				return n; /* a record half written: the next call */
			if (!h)
				continue;
			if (len & BPF_RINGBUF_DISCARD_BIT) {
				ring_advance(&e->rings[i], len);
				i--;
				continue;
			}
			if (!best_rec || h->ts_ns < best_rec->ts_ns) {
				best = i;
				best_rec = h;
				best_len = len;
			}
		}
		if (best < 0)
			break;
		if (best_len >= sizeof(*best_rec) && best_rec->cap_len <= RR_EBPF_SNAP_MAX)
			e->fn(e->ctx, (uint64_t)((int64_t)best_rec->ts_ns + e->mono_to_real),
			      best_rec->data, best_rec->cap_len, best_rec->wire_len);
		ring_advance(&e->rings[best], best_len);
		n++;
	}
	return n;
}

/* A ring buffer for one CPU, put in the program's array and mapped here. */
static int ring_open(struct rr_ebpf *e, int cpu)
{
	struct cpu_ring *r = &e->rings[cpu];
	long page = sysconf(_SC_PAGESIZE);
	r->fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, NULL, 0, 0, RR_EBPF_RING_BYTES,
			       NULL);
	if (r->fd < 0)
		return r->fd;
	uint32_t key = (uint32_t)cpu;
	if (bpf_map_update_elem(bpf_map__fd(e->skel->maps.rings), &key, &r->fd, 0))
		return -errno;
	void *c = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	void *p = mmap(NULL, (size_t)page + 2 * (size_t)RR_EBPF_RING_BYTES, PROT_READ,
		       MAP_SHARED, r->fd, page);
	if (c == MAP_FAILED || p == MAP_FAILED)
		return -errno;
	r->cons_pos = c;
	r->prod_pos = p;
	r->data = (uint8_t *)p + page;
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)cpu };
	return epoll_ctl(e->epfd, EPOLL_CTL_ADD, r->fd, &ev) ? -errno : 0;
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

/*
 * Who holds a slot: a run binds an abstract Unix socket named by the
 * interface and the slot, which the kernel frees however the run ends, so
 * that a filter at a slot nobody holds is one a killed run left, and one at
 * a held slot is another tool's, still watching.  The abstract namespace is
 * the network namespace's, the same for every user, mount namespace and
 * private /tmp: a service with capabilities only sees root's runs.
 * Returns the socket, or -1 when a live run holds the slot.
 */
static int slot_take(const struct rr_ebpf *e, int slot)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)   /* no Unix sockets: slot 0, as if alone */
		return slot == 0 ? open("/dev/null", O_RDONLY | O_CLOEXEC) : -1;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int n = snprintf(addr.sun_path + 1, sizeof(addr.sun_path) - 1,
			 "rpcrdma-tools/ebpf/%d/%d", e->hook.ifindex, slot);
	socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
	if (bind(fd, (struct sockaddr *)&addr, len)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Filters at a slot nobody holds, both attach points: a killed run's. */
static bool remove_left(struct rr_ebpf *e, int slot)
{
	bool removed = false;
	for (int i = 0; i < 2; i++) {
		e->hook.attach_point = i ? BPF_TC_EGRESS : BPF_TC_INGRESS;
		LIBBPF_OPTS(bpf_tc_opts, q, .handle = TC_HANDLE,
			    .priority = (uint32_t)(TC_PRIORITY + slot));
		if (bpf_tc_query(&e->hook, &q) == 0) {
			LIBBPF_OPTS(bpf_tc_opts, d, .handle = TC_HANDLE,
				    .priority = (uint32_t)(TC_PRIORITY + slot));
			removed |= bpf_tc_detach(&e->hook, &d) == 0;
		}
	}
	return removed;
}

/* Our filter at one attach point, at our slot's priority. */
static int attach(struct rr_ebpf *e, int i, int prog_fd)
{
	e->hook.attach_point = i ? BPF_TC_EGRESS : BPF_TC_INGRESS;
	LIBBPF_OPTS(bpf_tc_opts, a, .handle = TC_HANDLE,
		    .priority = (uint32_t)(TC_PRIORITY + e->slot), .prog_fd = prog_fd);
	int err = bpf_tc_attach(&e->hook, &a);
	if (!err)
		e->attached[i] = true;
	return err;
}

/* Whether another run still watches the interface (holds a slot); slots
 * nobody holds lose what killed runs left there. */
static bool others_watch(struct rr_ebpf *e)
{
	bool others = false;
	for (int s = 0; s < TC_SLOTS; s++) {
		if (s == e->slot)
			continue;
		int fd = slot_take(e, s);
		if (fd < 0) {
			others = true;
			continue;
		}
		remove_left(e, s);
		close(fd);
	}
	return others;
}

/*
 * Who made the clsact qdisc that the runs share: the run that makes it
 * attaches a filter that does nothing at a priority past the slots', which
 * stays in the kernel as long as the qdisc does, however the runs end and
 * whoever they run as; the last run to leave removes a qdisc so marked.
 */
static void qdisc_mark(struct rr_ebpf *e)
{
	e->hook.attach_point = BPF_TC_EGRESS;
	LIBBPF_OPTS(bpf_tc_opts, a, .handle = TC_HANDLE, .priority = TC_MARK_PRIORITY,
		    .prog_fd = bpf_program__fd(e->skel->progs.rpcrdma_qdisc_mark));
	bpf_tc_attach(&e->hook, &a);
}

static bool qdisc_ours(struct rr_ebpf *e)
{
	e->hook.attach_point = BPF_TC_EGRESS;
	LIBBPF_OPTS(bpf_tc_opts, q, .handle = TC_HANDLE, .priority = TC_MARK_PRIORITY);
	return bpf_tc_query(&e->hook, &q) == 0;
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
	e->slot_fd = -1;
	rr_bpf_messages_begin();
	e->skel = rpcrdma_capture__open();
	if (!e->skel) {
		rr_bpf_failure(msg, msglen, "opening the eBPF object", -errno);
		free(e);
		return NULL;
	}
	e->skel->rodata->roce_port = o->roce_port;
	for (int i = 0; i < RR_EBPF_IWARP_PORTS; i++)
		e->skel->rodata->iwarp_ports[i] = o->iwarp_ports[i];
	e->skel->rodata->snap_len = o->snap_len > RR_EBPF_SNAP_MAX ?
					    RR_EBPF_SNAP_MAX : o->snap_len;
	e->nrings = libbpf_num_possible_cpus();
	if (e->nrings < 1)
		e->nrings = 1;
	bpf_map__set_max_entries(e->skel->maps.rings, (uint32_t)e->nrings);
	int err = rpcrdma_capture__load(e->skel);
	if (err) {
		rr_bpf_failure(msg, msglen, "loading the eBPF program", err);
		rr_ebpf_close(e);
		return NULL;
	}
	e->rings = calloc((size_t)e->nrings, sizeof(*e->rings));
	e->epfd = epoll_create1(EPOLL_CLOEXEC);
	for (int cpu = 0; e->rings && cpu < e->nrings; cpu++)
		e->rings[cpu].fd = -1;
	for (int cpu = 0; e->rings && e->epfd >= 0 && cpu < e->nrings; cpu++) {
		err = ring_open(e, cpu);
		if (err) {
			rr_bpf_failure(msg, msglen, "making the ring buffers", err);
			rr_ebpf_close(e);
			return NULL;
		}
	}
	if (!e->rings || e->epfd < 0) {
		snprintf(msg, msglen, "out of memory or descriptors");
		rr_ebpf_close(e);
		return NULL;
	}
	e->hook.sz = sizeof(e->hook);
	e->hook.ifindex = (int)ifindex;
	/* a slot of our own: another tool may watch the same interface */
	for (e->slot = 0; e->slot < TC_SLOTS; e->slot++)
		if ((e->slot_fd = slot_take(e, e->slot)) >= 0)
			break;
	if (e->slot == TC_SLOTS) {
		snprintf(msg, msglen, "%s: %d tools watch it already", ifname, TC_SLOTS);
		rr_ebpf_close(e);
		return NULL;
	}
	e->hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
	err = bpf_tc_hook_create(&e->hook);
	if (err && err != -EEXIST) {
		rr_bpf_failure(msg, msglen, "creating the clsact qdisc", err);
		rr_ebpf_close(e);
		return NULL;
	}
	if (!err)
		qdisc_mark(e);
	e->destroy_hook = !err;
	enum rr_ebpf_direction dir = o->direction;
	bool lo = dir == RR_EBPF_BOTH && is_loopback(ifname);
	if (lo)
		dir = RR_EBPF_EGRESS;
	/* filters at our slot are a killed run's */
	bool stale = remove_left(e, e->slot);
	int fds[2] = { bpf_program__fd(e->skel->progs.rpcrdma_ingress),
		       bpf_program__fd(e->skel->progs.rpcrdma_egress) };
	for (int i = 0; i < 2; i++) {
		if ((i == 0 && dir == RR_EBPF_EGRESS) || (i == 1 && dir == RR_EBPF_INGRESS))
			continue;
		err = attach(e, i, fds[i]);
		if (err) {
			char what[64];
			snprintf(what, sizeof(what), "attaching to %s %s", ifname,
				 point_names[i]);
			rr_bpf_failure(msg, msglen, what, err);
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
	int n = drain(e);
	if (n)
		return n;
	/* woken when a ring fills up, else after the timeout: then read all */
	struct epoll_event ev[64];
	if (epoll_wait(e->epfd, ev, 64, timeout_ms) < 0 && errno != EINTR)
		return -1;
	return drain(e);
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
		LIBBPF_OPTS(bpf_tc_opts, d, .handle = TC_HANDLE,
			    .priority = (uint32_t)(TC_PRIORITY + e->slot));
		bpf_tc_detach(&e->hook, &d);
	}
	/* the qdisc goes with the last of our runs, if one of them made it */
	if (e->slot_fd >= 0 && e->hook.ifindex && (e->destroy_hook || qdisc_ours(e)) &&
	    !others_watch(e)) {
		e->hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
		bpf_tc_hook_destroy(&e->hook);
	}
	if (e->slot_fd >= 0)
		close(e->slot_fd);
	long page = sysconf(_SC_PAGESIZE);
	for (int i = 0; e->rings && i < e->nrings; i++) {
		struct cpu_ring *r = &e->rings[i];
		if (r->cons_pos)
			munmap(r->cons_pos, (size_t)page);
		if (r->prod_pos)
			munmap(r->prod_pos, (size_t)page + 2 * (size_t)RR_EBPF_RING_BYTES);
		if (r->fd >= 0)
			close(r->fd);
	}
	free(e->rings);
	if (e->epfd > 0)
		close(e->epfd);
	rpcrdma_capture__destroy(e->skel);
	free(e);
}

const char *rr_ebpf_library_version(void)
{
	static char v[32];
	const char *s = libbpf_version_string();
	snprintf(v, sizeof(v), "libbpf %s", s[0] == 'v' ? s + 1 : s);
	return v;
}
