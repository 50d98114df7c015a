/* SPDX-License-Identifier: BSD-2-Clause */
/* Tracefs format files (their "name:", "ID:" and "field:" lines), parsed
 * by libtraceevent: where each field of a tracepoint's record lies on the
 * running kernel. */
#include "trace-format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef RR_HAVE_TRACEEVENT
#include <traceevent/event-parse.h>

bool rr_tp_parse_format(const char *text, struct rr_tp_layout *out)
{
	memset(out, 0, sizeof(*out));
	struct tep_handle *tep = tep_alloc();
	if (!tep)
		return false;
	/* records are read on the machine that wrote them */
	tep_set_file_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN :
							TEP_LITTLE_ENDIAN);
	/* the print format is not used here: one this version of the library
	 * cannot parse still leaves the fields, and is not worth a warning */
	tep_set_loglevel(TEP_LOG_CRITICAL);
	struct tep_event *ev = NULL;
	enum tep_errno err = tep_parse_format(tep, &ev, text, strlen(text),
					      "rpcrdma");
	if ((err != 0 && err != TEP_ERRNO__READ_PRINT_FAILED) || !ev ||
	    !ev->name) {
		tep_free(tep);
		return false;
	}
	out->tep = tep;
	out->event = ev;
	snprintf(out->name, sizeof(out->name), "%s", ev->name);
	out->id = (uint32_t)ev->id;
	out->nfields = (unsigned)(ev->format.nr_common + ev->format.nr_fields);
	return out->nfields > 0;
}

void rr_tp_layout_free(struct rr_tp_layout *l)
{
	if (l->tep)
		tep_free(l->tep);
	memset(l, 0, sizeof(*l));
}

bool rr_tp_get(const struct rr_tp_layout *l, const uint8_t *rec, size_t len,
	       const char *field, uint64_t *value)
{
	if (!l->event)
		return false;
	struct tep_format_field *f = tep_find_any_field(l->event, field);
	unsigned long long v;
	if (!f || f->offset < 0 || f->size <= 0 ||
	    (size_t)f->offset + (size_t)f->size > len ||
	    tep_read_number_field(f, rec, &v) != 0)
		return false;
	*value = v;
	return true;
}

bool rr_tp_place(const struct rr_tp_layout *l, const char *field,
		 unsigned *offset, unsigned *size)
{
	struct tep_format_field *f = l->event ? tep_find_any_field(l->event, field) : NULL;
	if (!f || f->offset < 0 || f->size <= 0)
		return false;
	*offset = (unsigned)f->offset;
	/* a string's place is its __data_loc word (offset and length) */
	*size = (f->flags & TEP_FIELD_IS_DYNAMIC) ? 4u : (unsigned)f->size;
	return true;
}
#else
bool rr_tp_parse_format(const char *text, struct rr_tp_layout *out)
{
	(void)text;
	memset(out, 0, sizeof(*out));
	return false;
}

void rr_tp_layout_free(struct rr_tp_layout *l)
{
	memset(l, 0, sizeof(*l));
}

bool rr_tp_get(const struct rr_tp_layout *l, const uint8_t *rec, size_t len,
	       const char *field, uint64_t *value)
{
	(void)l, (void)rec, (void)len, (void)field, (void)value;
	return false;
}

bool rr_tp_place(const struct rr_tp_layout *l, const char *field,
		 unsigned *offset, unsigned *size)
{
	(void)l, (void)field, (void)offset, (void)size;
	return false;
}
#endif

const char *rr_tp_tracefs(void)
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

char *rr_tp_read_file(const char *path)
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

bool rr_tp_load(const char *root, const char *system, const char *name,
		struct rr_tp_layout *out)
{
	const char *fs = root ? NULL : rr_tp_tracefs();
	char path[1024];
	memset(out, 0, sizeof(*out));
	if (!root && !fs)
		return false;
	if (root)
		snprintf(path, sizeof(path), "%s/%s/%s/format", root, system, name);
	else
		snprintf(path, sizeof(path), "%s/events/%s/%s/format", fs, system, name);
	char *text = rr_tp_read_file(path);
	bool ok = text && rr_tp_parse_format(text, out);
	free(text);
	return ok;
}
