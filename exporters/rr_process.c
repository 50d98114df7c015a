/* SPDX-License-Identifier: BSD-2-Clause */
#define _DEFAULT_SOURCE /* DT_DIR */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "rr_process.h"

/* Fields 14 (utime), 15 (stime), 22 (starttime, clock ticks after boot),
 * 23 (vsize, bytes), 24 (rss, pages) of /proc/self/stat (proc(5)). */
struct proc_stat {
	unsigned long long utime, stime, starttime, vsize, rss;
};

static int read_stat(struct proc_stat *s)
{
	char buf[1024];
	FILE *f = fopen("/proc/self/stat", "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* the command name may hold spaces and parentheses: start after its
	 * last ')', at field 3 */
	const char *p = strrchr(buf, ')');
	if (!p)
		return -1;
	return sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu "
			     "%*d %*d %*d %*d %*d %*d %llu %llu %llu",
		      &s->utime, &s->stime, &s->starttime, &s->vsize, &s->rss) == 5 ? 0 : -1;
}

/* The boot time, seconds since the epoch (proc(5), /proc/stat btime). */
static long long boot_time(void)
{
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return -1;
	char line[256];
	long long t = -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "btime %lld", &t) == 1)
			break;
	fclose(f);
	return t;
}

static long open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -1;
	long n = 0;
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the folder read here */
}

static void metric(struct rr_prom *w, const char *name, const char *type,
		   const char *help, double v)
{
	rr_prom_family(w, name, type, help);
	rr_prom_sample(w, name, "", NULL, v);
}

static void metric_u64(struct rr_prom *w, const char *name, const char *help,
		       uint64_t v)
{
	rr_prom_family(w, name, "gauge", help);
	rr_prom_sample_u64(w, name, "", NULL, v);
}

void rr_prom_process(struct rr_prom *w)
{
	struct proc_stat s;
	if (read_stat(&s) < 0)
		return;
	unsigned long long tick = (unsigned long long)sysconf(_SC_CLK_TCK);
	unsigned long long page = (unsigned long long)sysconf(_SC_PAGESIZE);
	metric(w, "process_cpu_seconds_total", "counter",
	       "Total user and system CPU time spent in seconds.",
	       (double)(s.utime + s.stime) / (double)tick);
	metric_u64(w, "process_resident_memory_bytes",
		   "Resident memory size in bytes.", s.rss * page);
	metric_u64(w, "process_virtual_memory_bytes",
		   "Virtual memory size in bytes.", s.vsize);
	/* whole seconds: a double printed with %.9g would round the epoch
	 * to tens of seconds */
	long long boot = boot_time();
	if (boot >= 0)
		metric_u64(w, "process_start_time_seconds",
			   "Start time of the process since unix epoch in seconds.",
			   (uint64_t)boot + s.starttime / tick);
	long fds = open_fds();
	if (fds >= 0)
		metric_u64(w, "process_open_fds", "Number of open file descriptors.",
			   (uint64_t)fds);
	struct rlimit rl;
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY)
		metric_u64(w, "process_max_fds",
			   "Maximum number of open file descriptors.", rl.rlim_cur);
}
