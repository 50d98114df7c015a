/* SPDX-License-Identifier: BSD-2-Clause */
/* The kernel's view (trace.h): the events read record by record from the
 * perf rings, the rest from the BPF programs' maps (trace-bpf.c). */
#define _GNU_SOURCE
#include "trace.h"
#include "trace-bpf.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct {
	const char *system, *name;
	bool by_record;   /* read here, record by record, without BPF */
} events[RR_TP_EVENTS] = {
#define RR_TP_X_EVENT(sym, sys, name, by_record, key, f0, f1, f2, f3, f4, f5, f6, f7) \
	[sym] = { sys, name, by_record },
	RR_TP_EVENT_LIST(RR_TP_X_EVENT)
#undef RR_TP_X_EVENT
};

void rr_tp_account(struct rr_tp_stats *s, enum rr_tp_event e,
		   const struct rr_tp_layout *l, const uint8_t *rec, size_t len)
{
	uint64_t v;
	s->events[e]++;
	switch (e) {
	case RR_TP_MARSHAL:
		s->calls++;
		break;
	case RR_TP_REPLY:
		s->replies++;
		if (rr_tp_get(l, rec, len, "credits", &v))
			s->credits = (uint32_t)v;
		break;
	case RR_TP_CHUNK_READ:
	case RR_TP_CHUNK_WRITE:
	case RR_TP_CHUNK_REPLY:
		if (e == RR_TP_CHUNK_READ)
			s->read_segments++;
		else if (e == RR_TP_CHUNK_WRITE)
			s->write_segments++;
		else
			s->reply_segments++;
		if (rr_tp_get(l, rec, len, "length", &v))
			s->segment_bytes += v;
		break;
	case RR_TP_SVC_RQST:
		s->requests++;
		if (rr_tp_get(l, rec, len, "proc", &v) && v < RR_TPB_RDMA_PROCS)
			s->requests_by_proc[v]++;
		if (rr_tp_get(l, rec, len, "credits", &v))
			s->requested_credits = (uint32_t)v;
		break;
	case RR_TP_SVC_RSEG:
	case RR_TP_SVC_WSEG:
		if (e == RR_TP_SVC_RSEG)
			s->server_read_segments++;
		else
			s->server_write_segments++;
		if (rr_tp_get(l, rec, len, "length", &v))
			s->server_segment_bytes += v;
		break;
	default:
		break;
	}
}

/* ---- the live path: perf events on each tracepoint, each CPU ------------- */

#define MAX_CPUS 256
#define RING_PAGES 8

struct ring {
	int fd;
	enum rr_tp_event e;
	void *base;
	size_t size;
};

struct rr_trace {
	struct rr_tp_layout layout[RR_TP_EVENTS];
	struct ring *rings;
	unsigned nrings;
	struct rr_tp_stats st;
	struct rr_trace_bpf *bpf;  /* the in-kernel path, or NULL: the rings */
	struct rr_tp_detail detail;
};

struct rr_trace *rr_trace_open(char *msg, size_t msglen)
{
#ifndef RR_HAVE_TRACEEVENT
	snprintf(msg, msglen, "kernel tracepoints: this build has no libtraceevent "
		 "to read their formats (apt-get install libtraceevent-dev, then "
		 "build again)");
	return NULL;
#endif
	const char *fs = rr_tp_tracefs();
	if (!fs) {
		snprintf(msg, msglen, "kernel tracepoints are not available: tracefs "
			 "is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
		return NULL;
	}
	char path[256];
	snprintf(path, sizeof(path), "%s/events/rpcrdma", fs);
	if (access(path, R_OK) != 0) {
		snprintf(msg, msglen, "kernel tracepoints are not available: %s does "
			 "not exist, so this kernel has no rpcrdma tracepoints (the "
			 "rpcrdma module is not loaded: modprobe rpcrdma)", path);
		return NULL;
	}
	char why[384];
	struct rr_trace_bpf *bpf = rr_trace_bpf_open(NULL, true, why, sizeof(why));
	if (bpf) {
		struct rr_trace *t = calloc(1, sizeof(*t));
		if (!t) {
			rr_trace_bpf_close(bpf);
			snprintf(msg, msglen, "out of memory");
			return NULL;
		}
		t->bpf = bpf;
		/* an event missing (a module not loaded, another kernel) is
		 * named: what it counts stays zero */
		snprintf(msg, msglen, "following the rpcrdma, sunrpc and NFS tracepoints "
			 "through BPF programs that add them up in the kernel, per "
			 "connection%s%s", why[0] ? "; not on this kernel, not followed: " : "",
			 why);
		return t;
	}
	struct rr_trace *t = calloc(1, sizeof(*t));
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 1 || ncpu > MAX_CPUS)
		ncpu = ncpu < 1 ? 1 : MAX_CPUS;
	if (t)
		t->rings = calloc((size_t)RR_TP_EVENTS * (size_t)ncpu, sizeof(*t->rings));
	if (!t || !t->rings) {
		free(t);
		snprintf(msg, msglen, "out of memory");
		return NULL;
	}
	unsigned found = 0;
	for (int e = 0; e < RR_TP_EVENTS; e++) {
		if (!events[e].by_record)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s/%s/format", fs,
			 events[e].system, events[e].name);
		char *text = rr_tp_read_file(path);
		bool ok = text && rr_tp_parse_format(text, &t->layout[e]);
		free(text);
		if (!ok)
			continue; /* this kernel has it not, or under another name */
		found++;
		for (long cpu = 0; cpu < ncpu; cpu++) {
			struct perf_event_attr pa = {
				.type = PERF_TYPE_TRACEPOINT, .size = sizeof(pa),
				.config = t->layout[e].id, .sample_period = 1,
				.sample_type = PERF_SAMPLE_RAW, .wakeup_events = 1,
			};
			int fd = (int)syscall(SYS_perf_event_open, &pa, -1, (int)cpu,
					      -1, PERF_FLAG_FD_CLOEXEC);
			if (fd < 0) {
				snprintf(msg, msglen, "perf_event_open %s: %s%s",
					 events[e].name, strerror(errno),
					 errno == EACCES || errno == EPERM ?
						 " (needs CAP_PERFMON, or root)" : "");
				rr_trace_close(t);
				return NULL;
			}
			size_t size = (size_t)(RING_PAGES + 1) * (size_t)getpagesize();
			void *base = mmap(NULL, size, PROT_READ | PROT_WRITE,
					  MAP_SHARED, fd, 0);
			if (base == MAP_FAILED) {
				close(fd);
				snprintf(msg, msglen, "mmap %s: %s", events[e].name,
					 strerror(errno));
				rr_trace_close(t);
				return NULL;
			}
			t->rings[t->nrings++] = (struct ring){ fd, (enum rr_tp_event)e,
								base, size };
			ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		}
	}
	if (!found) {
		snprintf(msg, msglen, "kernel tracepoints are not available: none of "
			 "the rpcrdma events followed exists in this kernel");
		rr_trace_close(t);
		return NULL;
	}
	snprintf(msg, msglen, "following %u rpcrdma tracepoints record by record, "
		 "totals only (no BPF programs: %s)", found, why);
	return t;
}

/* Reads what a ring holds: PERF_RECORD_SAMPLE carries u32 size + raw;
 * PERF_RECORD_LOST, after its id, how many records a full ring lost. */
static int drain(struct rr_trace *t, struct ring *r)
{
	struct perf_event_mmap_page *meta = r->base;
	uint8_t *data = (uint8_t *)r->base + getpagesize();
	uint64_t size = (uint64_t)RING_PAGES * (uint64_t)getpagesize();
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;
	int n = 0;
	while (tail < head) {
		struct perf_event_header h;
		uint8_t rec[4096];
		for (size_t i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = data[(tail + i) % size];
		if (h.size < sizeof(h) || h.size > sizeof(rec))
			break;
		for (size_t i = 0; i < h.size; i++)
			rec[i] = data[(tail + i) % size];
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 4) {
			uint32_t raw;
			memcpy(&raw, rec + sizeof(h), 4);
			if (sizeof(h) + 4 + raw <= h.size) {
				rr_tp_account(&t->st, r->e, &t->layout[r->e],
					      rec + sizeof(h) + 4, raw);
				n++;
			}
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
			uint64_t lost;
			memcpy(&lost, rec + sizeof(h) + 8, 8);
			t->st.events_missed += lost;
		}
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}

int rr_trace_poll(struct rr_trace *t, int timeout_ms)
{
	if (t->bpf) {
		poll(NULL, 0, timeout_ms); /* the kernel adds up */
		return 0;
	}
	struct pollfd pfd[64];
	unsigned n = t->nrings < 64 ? t->nrings : 64;
	for (unsigned i = 0; i < n; i++)
		pfd[i] = (struct pollfd){ t->rings[i].fd, POLLIN, 0 };
	poll(pfd, n, timeout_ms);
	int got = 0;
	for (unsigned i = 0; i < t->nrings; i++)
		got += drain(t, &t->rings[i]);
	return got;
}

void rr_trace_refresh(struct rr_trace *t)
{
	if (t->bpf)
		rr_trace_bpf_read(t->bpf, &t->st, &t->detail);
}

const struct rr_tp_stats *rr_trace_stats(const struct rr_trace *t)
{
	return &t->st;
}

const struct rr_tp_detail *rr_trace_detail(const struct rr_trace *t)
{
	return t->bpf ? &t->detail : NULL;
}

void rr_trace_close(struct rr_trace *t)
{
	if (!t)
		return;
	for (unsigned i = 0; i < t->nrings; i++) {
		munmap(t->rings[i].base, t->rings[i].size);
		close(t->rings[i].fd);
	}
	for (int e = 0; e < RR_TP_EVENTS; e++)
		rr_tp_layout_free(&t->layout[e]);
	rr_trace_bpf_close(t->bpf);
	rr_tp_detail_free(&t->detail);
	free(t->rings);
	free(t);
}
