/* SPDX-License-Identifier: BSD-2-Clause */
/* libbpf's messages for the tools' users (bpf-messages.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpf-messages.h"

/* What libbpf said last, or the verifier's complaint when it rejected
 * the program: the line of its log before its closing count. */
static char libbpf_said[256];
static bool verifier_said;

/* Lines the verifier writes after its reason, before its closing count
 * (Linux 6.x: "verification time 111 usec", "stack depth 0"). */
static bool epilogue(const char *line, size_t len)
{
	static const char *const prefixes[] = { "verification time", "stack depth" };
	if (!len)
		return true;
	for (unsigned i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i]);
		if (len >= n && !strncmp(line, prefixes[i], n))
			return true;
	}
	return false;
}

static void verifier_reason(const char *log)
{
	const char *end = strstr(log, "\nprocessed ");
	if (!end)
		end = strstr(log, "-- END PROG LOAD LOG --");
	if (!end)
		return;
	/* the last line before the count that is not its epilogue */
	const char *line_end = end;
	while (line_end > log) {
		const char *start = line_end;
		while (start > log && start[-1] != '\n')
			start--;
		if (!epilogue(start, (size_t)(line_end - start))) {
			snprintf(libbpf_said, sizeof(libbpf_said), "verifier: %.*s",
				 (int)(line_end - start), start);
			verifier_said = true;
			return;
		}
		line_end = start > log ? start - 1 : log;
	}
}

static int libbpf_message(enum libbpf_print_level level, const char *fmt,
			  va_list ap)
{
	if (level != LIBBPF_WARN || verifier_said)
		return 0;
	va_list size_ap;
	va_copy(size_ap, ap);
	int len = vsnprintf(NULL, 0, fmt, size_ap);
	va_end(size_ap);
	char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
	if (!text)
		return 0;
	vsnprintf(text, (size_t)len + 1, fmt, ap);
	const char *log = strstr(text, "-- BEGIN PROG LOAD LOG --");
	if (log) {
		verifier_reason(log);
	} else {
		text[strcspn(text, "\n")] = '\0';
		if (text[0] && !strstr(text, "failed to load object"))
			snprintf(libbpf_said, sizeof(libbpf_said), "%s", text);
	}
	free(text);
	return 0;
}

void rr_bpf_failure(char *msg, size_t n, const char *what, int err)
{
	bool perm = err == -EPERM || (err == -EACCES && !libbpf_said[0]);
	snprintf(msg, n, "%s: %s%s%s%s", what, strerror(-err),
		 perm ? " (loading the eBPF program needs CAP_BPF and CAP_PERFMON, "
			"attaching it CAP_NET_ADMIN; or run as root)" : "",
		 !perm && libbpf_said[0] ? "; libbpf: " : "",
		 !perm ? libbpf_said : "");
}


void rr_bpf_messages_begin(void)
{
	libbpf_said[0] = '\0';
	verifier_said = false;
	libbpf_set_print(libbpf_message); /* its messages are ours to word */
}
