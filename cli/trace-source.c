/* SPDX-License-Identifier: BSD-2-Clause */
#define _GNU_SOURCE
#include "trace-source.h"

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

#define RR_TP_X_NAME(sym, name) [sym] = name,
static const char *const event_names[RR_TP_EVENTS] = { RR_TP_EVENT_LIST(RR_TP_X_NAME) };

bool rr_tp_parse_format(const char *text, struct rr_tp_layout *out)
{
	memset(out, 0, sizeof(*out));
	bool named = false;
	for (const char *line = text; line && *line;) {
		const char *next = strchr(line, '\n');
		while (*line == ' ' || *line == '\t')
			line++;
		if (!strncmp(line, "name: ", 6)) {
			sscanf(line + 6, "%47s", out->name);
			named = true;
		} else if (!strncmp(line, "ID: ", 4)) {
			out->id = (uint32_t)strtoul(line + 4, NULL, 10);
		} else if (!strncmp(line, "field:", 6) && out->nfields < RR_TP_FIELDS) {
			/* field:TYPE NAME[N];	offset:O;	size:S;	signed:G; */
			const char *semi = strchr(line, ';');
			if (!semi || (next && semi > next))
				goto skip;
			const char *name = semi;
			while (name > line + 6 && name[-1] != ' ' && name[-1] != '*')
				name--;
			struct rr_tp_field *f = &out->f[out->nfields];
			size_t n = (size_t)(semi - name);
			const char *bracket = memchr(name, '[', n);
			if (bracket)
				n = (size_t)(bracket - name);
			if (!n || n >= sizeof(f->name))
				goto skip;
			memcpy(f->name, name, n);
			f->name[n] = '\0';
			unsigned off, size, sgn;
			const char *o = strstr(semi, "offset:");
			if (!o || sscanf(o, "offset:%u;%*[ \t]size:%u;%*[ \t]signed:%u;",
					 &off, &size, &sgn) != 3 ||
			    off > 65535 || size > 65535)
				goto skip;
			f->offset = (uint16_t)off;
			f->size = (uint16_t)size;
			f->is_signed = sgn;
			out->nfields++;
		}
skip:
		line = next ? next + 1 : NULL;
	}
	return named && out->nfields;
}

bool rr_tp_get(const struct rr_tp_layout *l, const uint8_t *rec, size_t len,
	       const char *field, uint64_t *value)
{
	for (unsigned i = 0; i < l->nfields; i++) {
		const struct rr_tp_field *f = &l->f[i];
		if (strcmp(f->name, field))
			continue;
		if (f->size > 8 || (size_t)f->offset + f->size > len)
			return false;
		/* the host's byte order, as the kernel wrote the record */
		uint64_t v = 0;
		switch (f->size) {
		case 1: { uint8_t x; memcpy(&x, rec + f->offset, 1); v = x; break; }
		case 2: { uint16_t x; memcpy(&x, rec + f->offset, 2); v = x; break; }
		case 4: { uint32_t x; memcpy(&x, rec + f->offset, 4); v = x; break; }
		case 8: memcpy(&v, rec + f->offset, 8); break;
		default: return false;
		}
		*value = v;
		return true;
	}
	return false;
}

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
		if (rr_tp_get(l, rec, len, "proc", &v) && v < 5)
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
};

static const char *tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	for (unsigned i = 0; i < 2; i++) {
		char path[128];
		snprintf(path, sizeof(path), "%s/events", dirs[i]);
		if (access(path, R_OK) == 0)
			return dirs[i];
	}
	return NULL;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = malloc(65536);
	size_t n = buf ? fread(buf, 1, 65535, f) : 0;
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

struct rr_trace *rr_trace_open(char *msg, size_t msglen)
{
	const char *fs = tracefs();
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
		snprintf(path, sizeof(path), "%s/events/rpcrdma/%s/format", fs,
			 event_names[e]);
		char *text = slurp(path);
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
					 event_names[e], strerror(errno),
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
				snprintf(msg, msglen, "mmap %s: %s", event_names[e],
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
	snprintf(msg, msglen, "following %u rpcrdma tracepoints", found);
	return t;
}

/* Reads what a ring holds: PERF_RECORD_SAMPLE carries u32 size + raw. */
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
		}
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}

int rr_trace_poll(struct rr_trace *t, int timeout_ms)
{
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

const struct rr_tp_stats *rr_trace_stats(const struct rr_trace *t)
{
	return &t->st;
}

void rr_trace_close(struct rr_trace *t)
{
	if (!t)
		return;
	for (unsigned i = 0; i < t->nrings; i++) {
		munmap(t->rings[i].base, t->rings[i].size);
		close(t->rings[i].fd);
	}
	free(t->rings);
	free(t);
}
