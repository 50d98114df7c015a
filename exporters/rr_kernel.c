/* SPDX-License-Identifier: BSD-2-Clause */
#define _DEFAULT_SOURCE /* DT_REG */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rr_kernel.h"

/*
 * The numbers of an "xprt: rdma" line, in the order xprt_rdma_print_stats
 * prints them: the generic transport counters, then the RPC-over-RDMA
 * ones, then (newer kernels) the memory-registration ones.  Whether each
 * only grows decides counter or gauge.
 */
static const struct {
	const char *name, *help;
	bool counter;
} xprt_fields[RR_XPRT_RDMA_FIELDS] = {
	{ "local_port", NULL, false }, /* always 0 for rdma: not exported */
	{ "bind_count", "rpcbind queries", true },
	{ "connect_count", "connections made", true },
	{ "connect_time", "time spent connecting, as the kernel prints it "
			  "(seconds, or jiffies on kernels that print it raw)", true },
	{ "idle_time", "seconds since the transport was last used", false },
	{ "sends", "RPC requests sent", true },
	{ "recvs", "RPC replies received", true },
	{ "bad_xids", "replies whose xid matched no request", true },
	{ "req_u", "sum of the request queue's length at each send", true },
	{ "bklog_u", "sum of the backlog queue's length at each send", true },
	{ "read_chunk_count", "read chunk segments marshalled (resends too)", true },
	{ "write_chunk_count", "write chunk segments marshalled (resends too)", true },
	{ "reply_chunk_count", "reply chunk segments marshalled (resends too)", true },
	{ "total_rdma_request", "bytes of RPC requests sent", true },
	{ "total_rdma_reply", "bytes of RPC replies received", true },
	{ "pullup_copy_count", "bytes copied to pull a message together", true },
	{ "fixup_copy_count", "bytes copied to fix up a reply", true },
	{ "hardway_register_count", "memory registrations done the hard way", true },
	{ "failed_marshal_count", "requests that could not be marshalled", true },
	{ "bad_reply_count", "replies that could not be parsed", true },
	{ "nomsg_call_count", "calls sent as RDMA_NOMSG (Long Calls)", true },
	{ "mrs_recycled", "memory regions recycled (mrs_recovered before)", true },
	{ "mrs_orphaned", "memory regions orphaned", true },
	{ "mrs_allocated", "memory regions allocated", true },
	{ "local_inv_needed", "replies that needed a local invalidation", true },
	{ "empty_sendctx_q", "sends that found no send context free", true },
	{ "reply_waits_for_send", "replies that waited for their send to finish",
	  true },
};

const char *rr_xprt_rdma_field(unsigned i)
{
	return i < RR_XPRT_RDMA_FIELDS ? xprt_fields[i].name : NULL;
}

/* Copies the text between p and the first of `stops` (or the line end). */
static const char *copy_until(const char *p, const char *stop, char *out,
			      size_t size)
{
	const char *end = stop ? strstr(p, stop) : NULL;
	const char *nl = strchr(p, '\n');
	if (!end || (nl && nl < end))
		end = nl ? nl : p + strlen(p);
	size_t n = (size_t)(end - p);
	if (n >= size)
		n = size - 1;
	memcpy(out, p, n);
	out[n] = '\0';
	return end;
}

unsigned rr_mountstats_parse(const char *text, struct rr_xprt_rdma *out,
			     unsigned max)
{
	char device[256] = "", mountpoint[256] = "";
	unsigned n = 0, index = 0;
	for (const char *line = text; line && *line && n < max;) {
		const char *next = strchr(line, '\n');
		if (!strncmp(line, "device ", 7)) {
			/* device D mounted on M with fstype T ... */
			const char *p = copy_until(line + 7, " mounted on ", device,
						   sizeof(device));
			mountpoint[0] = '\0';
			if (!strncmp(p, " mounted on ", 12))
				copy_until(p + 12, " with fstype ", mountpoint,
					   sizeof(mountpoint));
			index = 0;
		} else {
			const char *p = line;
			while (*p == ' ' || *p == '\t')
				p++;
			if (!strncmp(p, "xprt:", 5)) {
				p += 5;
				while (*p == ' ' || *p == '\t')
					p++;
				if (!strncmp(p, "rdma", 4) &&
				    (p[4] == ' ' || p[4] == '\t' || p[4] == '\n' ||
				     p[4] == '\0')) {
					struct rr_xprt_rdma *x = &out[n++];
					memset(x, 0, sizeof(*x));
					snprintf(x->device, sizeof(x->device), "%s", device);
					snprintf(x->mountpoint, sizeof(x->mountpoint), "%s",
						 mountpoint);
					x->index = index++;
					p += 4;
					while (x->n < RR_XPRT_RDMA_FIELDS) {
						char *end;
						unsigned long long v = strtoull(p, &end, 10);
						if (end == p || (next && end > next))
							break;
						x->v[x->n++] = v;
						p = end;
					}
				} else {
					index++; /* another transport of the mount */
				}
			}
		}
		line = next ? next + 1 : NULL;
	}
	return n;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (len + 1 < cap)
			break;
		char *more = realloc(buf, cap * 2);
		if (!more) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = more;
		cap *= 2;
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

static void mountstats(struct rr_prom *w, const char *path)
{
	char *text = read_file(path);
	if (!text)
		return;
	/* At most one transport per "xprt:" line: the array is sized to the
	 * file, not 1,024 transports (780 KB) allocated and cleared on every
	 * scrape. */
	enum { MAX_XPRTS = 1024 };
	unsigned lines = 0;
	for (const char *p = text; lines < MAX_XPRTS && (p = strstr(p, "xprt:")); p += 5)
		lines++;
	struct rr_xprt_rdma *x = lines ? calloc(lines, sizeof(*x)) : NULL;
	unsigned n = x ? rr_mountstats_parse(text, x, lines) : 0;
	free(text);
	for (unsigned f = 1; f < RR_XPRT_RDMA_FIELDS; f++) {
		bool any = false;
		for (unsigned i = 0; i < n && !any; i++)
			any = x[i].n > f;
		if (!any)
			continue; /* an older kernel: not printed */
		char name[96];
		snprintf(name, sizeof(name), "rpcrdma_kernel_xprt_%s%s",
			 xprt_fields[f].name, xprt_fields[f].counter ? "_total" : "");
		rr_prom_family(w, name, xprt_fields[f].counter ? "counter" : "gauge",
			       xprt_fields[f].help);
		for (unsigned i = 0; i < n; i++) {
			if (x[i].n <= f)
				continue;
			char lb[700] = "", idx[16];
			snprintf(idx, sizeof(idx), "%u", x[i].index);
			rr_prom_label(lb, sizeof(lb), "device", x[i].device);
			rr_prom_label(lb, sizeof(lb), "mountpoint", x[i].mountpoint);
			rr_prom_label(lb, sizeof(lb), "xprt", idx);
			rr_prom_sample_u64(w, name, "", lb, x[i].v[f]);
		}
	}
	free(x);
}

/* Each file of svc_rdma holds one number: its rdma_stat_* files count,
 * the others are settings. */
static void svc_rdma(struct rr_prom *w, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strlen(e->d_name) > 64)
			continue;
		char path[4200];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		char *text = read_file(path);
		if (!text)
			continue;
		char *end;
		unsigned long long v = strtoull(text, &end, 10);
		bool number = end != text;
		free(text);
		if (!number)
			continue;
		bool stat = !strncmp(e->d_name, "rdma_stat_", 10);
		char name[128];
		snprintf(name, sizeof(name), "rpcrdma_kernel_svc_%s%s",
			 stat ? e->d_name + 10 : e->d_name, stat ? "_total" : "");
		for (char *c = name; *c; c++)
			if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
			      *c == '_'))
				*c = '_';
		char help[160];
		snprintf(help, sizeof(help), "/proc/sys/sunrpc/svc_rdma/%s",
			 e->d_name);
		rr_prom_family(w, name, stat ? "counter" : "gauge", help);
		rr_prom_sample_u64(w, name, "", NULL, v);
	}
	closedir(d);
}

void rr_prom_kernel(struct rr_prom *w, const char *mountstats_path,
		    const char *svc_rdma_dir)
{
	if (mountstats_path)
		mountstats(w, mountstats_path);
	if (svc_rdma_dir)
		svc_rdma(w, svc_rdma_dir);
}
