/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A tracepoint's record layout, read at run time from its tracefs format
 * file (libtraceevent parses it): fields are found by name, never by a
 * fixed offset, as their layouts change between kernel versions.  Below
 * both readers of the kernel's view: the records read one by one
 * (trace.c) and the BPF programs configured (trace-bpf.c).
 */
#ifndef RR_TRACE_FORMAT_H
#define RR_TRACE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tep_handle;
struct tep_event;

/* One event's record layout, parsed by libtraceevent. */
struct rr_tp_layout {
	char name[48];
	uint32_t id;
	unsigned nfields;          /* common fields included */
	struct tep_handle *tep;    /* owns event */
	struct tep_event *event;
};

/* A tracefs format file ("name:", "ID:", "format:" and its "field:"
 * lines); false when it is not one.  rr_tp_layout_free releases it. */
bool rr_tp_parse_format(const char *text, struct rr_tp_layout *out);
void rr_tp_layout_free(struct rr_tp_layout *l);
/* A field's value in a record of that layout, in the host's byte order as
 * the kernel wrote it; false when the layout has no such field or the
 * record is too short. */
bool rr_tp_get(const struct rr_tp_layout *l, const uint8_t *rec, size_t len,
	       const char *field, uint64_t *value);
/* Where a field lies in a record of that layout (a string's __data_loc
 * word, for a string); false when the layout has no such field. */
bool rr_tp_place(const struct rr_tp_layout *l, const char *field,
		 unsigned *offset, unsigned *size);
/* The format file ROOT/SYSTEM/NAME/format parsed (ROOT NULL: tracefs's
 * events folder); false when there is no such event. */
bool rr_tp_load(const char *root, const char *system, const char *name,
		struct rr_tp_layout *out);
/* tracefs's folder ("/sys/kernel/tracing", or under debugfs), NULL when
 * it is not mounted. */
const char *rr_tp_tracefs(void);
/* A format file's text (up to 64 KiB), NUL-terminated; free it. NULL
 * when it cannot be read. */
char *rr_tp_read_file(const char *path);

#endif
