/* SPDX-License-Identifier: BSD-2-Clause */
/* The statistics' labelled families (rpcrdma/stat-families.h) and the
 * rows each reads from struct rr_stats. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rpcrdma/dissect.h"
#include "rpcrdma/nfs4.h"
#include "rpcrdma/stat-families.h"

#define RR_X_FAMILY_INFO(sym, metric, typ, lbls, src, mem, shw, hlp) \
	[sym] = { .name = metric, .type = typ, .rows = src, .shown = shw, \
		  .labels = lbls, .member = offsetof(struct rr_stats, mem), .help = hlp },
static const struct rr_stat_family_info family_infos[RR_STAT_FAMILY_COUNT] = {
	RR_STAT_FAMILY_LIST(RR_X_FAMILY_INFO)
};

const struct rr_stat_family_info *rr_stat_family_info(unsigned id)
{
	return id < RR_STAT_FAMILY_COUNT ? &family_infos[id] : NULL;
}

#define RR_X_CASE(sym, val, str) case (val): return (str);
const char *rr_byte_kind_str(unsigned v)
{
	switch (v) { RR_BYTE_KIND_LIST(RR_X_CASE) default: return NULL; }
}

const char *rr_nfs_error_status_label(const struct rr_nfs_error_row *r, char *buf,
				      size_t size)
{
	const char *name = rr_nfs_error_status_str(r);
	if (name)
		return name;
	snprintf(buf, size, "%u", (unsigned)r->status);
	return buf;
}

bool rr_stat_kind_first(unsigned id)
{
	if (id >= RR_STAT_COUNT || !rr_stat_info(id)->prom_label[0])
		return false;
	for (unsigned j = 0; j < id; j++)
		if (!strcmp(rr_stat_info(j)->prom_name, rr_stat_info(id)->prom_name))
			return false;
	return true;
}

static uint64_t u64_at(const void *base, size_t offset)
{
	uint64_t v;
	memcpy(&v, (const char *)base + offset, sizeof(v));
	return v;
}

/* program, version, procedure: the first three labels of a slot's row */
static void slot_labels(struct rr_stat_row *row, unsigned slot)
{
	struct rr_proc_slot_info si = rr_analyzer_proc_slot_info(slot);
	snprintf(row->number[0], sizeof(row->number[0]), "%u", (unsigned)si.version);
	row->label[0] = si.program;
	row->label[1] = row->number[0];
	row->label[2] = si.procedure;
}

static uint64_t byte_kind(const struct rr_conn_stats *t, unsigned k)
{
	return k == RR_BYTES_SEND ? t->bytes_send :
	       k == RR_BYTES_RDMA_READ ? t->bytes_read : t->bytes_write;
}

static uint64_t client_byte_kind(const struct rr_client_stats *c, unsigned k)
{
	return k == RR_BYTES_SEND ? c->bytes_send :
	       k == RR_BYTES_RDMA_READ ? c->bytes_read : c->bytes_write;
}

/* The client rows: those kept, then "other" when it counted a call. */
static uint32_t client_rows(const struct rr_stats *st)
{
	return st->client_rows + (st->clients_other.calls ? 1 : 0);
}

static const struct rr_client_stats *client_row(const struct rr_stats *st, uint32_t i,
						struct rr_stat_row *row)
{
	if (i < st->client_rows) {
		const struct rr_client_stats *c = &st->clients[i];
		rr_addr_str(c->transport, c->addr, row->address, sizeof(row->address));
		row->label[0] = row->address;
		return c;
	}
	row->label[0] = "other";
	return &st->clients_other;
}

bool rr_stat_family_next(const struct rr_stats *st, unsigned id, uint32_t *at,
			 struct rr_stat_row *row)
{
	const struct rr_stat_family_info *fi = rr_stat_family_info(id);
	if (!fi)
		return false;
	memset(row->label, 0, sizeof(row->label));
	row->value = 0;
	row->latency = NULL;
	row->buckets = NULL;
	row->bounds = 0;
	for (uint32_t i = *at;; i++) {
		*at = i + 1;
		switch ((enum rr_stat_rows)fi->rows) {
		case RR_ROWS_ONE:
			if (i > 0)
				return false;
			row->value = u64_at(st, fi->member);
			return true;
		case RR_ROWS_LOG2:
			if (i > 0)
				return false;
			row->buckets = (const uint64_t *)(const void *)((const char *)st + fi->member);
			/* segments per chunk: 1 to 127 shown, more in +Inf */
			row->value = id == RR_FAM_CHUNK_SEGMENTS ? st->segments : st->segment_bytes;
			row->bounds = id == RR_FAM_CHUNK_SEGMENTS ? 7 : RR_SIZE_BUCKETS;
			return true;
		case RR_ROWS_DIR_PROC: {
			if (i >= (RR_DIR_UNKNOWN + 1u) * RR_RDMA_PROCS)
				return false;
			unsigned d = i / RR_RDMA_PROCS, p = i % RR_RDMA_PROCS;
			row->label[0] = rr_dir_id(d);
			row->label[1] = rr_rdma_proc_str(p);
			row->value = st->total.messages[d][p];
			return true;
		}
		case RR_ROWS_PROC_SLOT: {
			if (i >= RR_PROC_SLOTS)
				return false;
			struct rr_proc_slot_info si = rr_analyzer_proc_slot_info(i);
			if (!st->rpc_calls[i] && (si.version != 3 || !si.procedure))
				continue; /* NFSv3 always; others once seen */
			slot_labels(row, i);
			row->value = st->rpc_calls[i];
			return true;
		}
		case RR_ROWS_PROC_REPLY: {
			if (i >= RR_PROC_SLOTS * RR_REPLY_STATUS_COUNT)
				return false;
			unsigned p = i / RR_REPLY_STATUS_COUNT, r = i % RR_REPLY_STATUS_COUNT;
			if (!st->rpc_replies[p][r])
				continue;
			slot_labels(row, p);
			row->label[3] = rr_reply_status_str(r);
			row->value = st->rpc_replies[p][r];
			return true;
		}
		case RR_ROWS_PROC_LATENCY:
			if (i >= RR_PROC_SLOTS)
				return false;
			if (!st->latency[i].count)
				continue;
			slot_labels(row, i);
			row->latency = &st->latency[i];
			return true;
		case RR_ROWS_NFS4_OP:
			if (i >= RR_NFS4_OP_SLOTS)
				return false;
			if (!st->nfs4_ops[i])
				continue;
			row->label[0] = rr_nfs4_op_slot_str(i);
			row->value = st->nfs4_ops[i];
			return true;
		case RR_ROWS_NFS_ERROR: {
			if (i < st->nfs_error_rows) {
				const struct rr_nfs_error_row *r = &st->nfs_errors[i];
				const char *op = rr_nfs_error_op_str(r);
				slot_labels(row, r->slot);
				row->label[3] = op ? op : "";
				row->label[4] = rr_nfs_error_status_label(r, row->number[1],
									  sizeof(row->number[1]));
				row->value = r->count;
				return true;
			}
			if (i > st->nfs_error_rows || !st->nfs_errors_other)
				return false;
			for (unsigned l = 0; l < 5; l++)
				row->label[l] = "other";
			row->value = st->nfs_errors_other;
			return true;
		}
		case RR_ROWS_CHUNK_KIND:
			if (i >= RR_KIND_COUNT)
				return false;
			row->label[0] = rr_chunk_kind_str(i);
			row->value = st->total.chunks[i];
			return true;
		case RR_ROWS_BYTE_KIND:
			if (i >= RR_BYTE_KINDS)
				return false;
			row->label[0] = rr_byte_kind_str(i);
			row->value = byte_kind(&st->total, i);
			return true;
		case RR_ROWS_FINDING:
			if (i >= RR_FINDING_COUNT)
				return false;
			row->label[0] = rr_finding_info(i)->id;
			row->label[1] = rr_severity_str(rr_finding_info(i)->severity);
			row->value = st->findings[i];
			return true;
		case RR_ROWS_CM_REJECT: {
			if (i >= RR_CM_REJ_REASONS)
				return false;
			if (!st->cm_rejects[i])
				continue;
			const char *why = rr_cm_rej_reason_str(i);
			snprintf(row->number[0], sizeof(row->number[0]), "%u", (unsigned)i);
			row->label[0] = row->number[0];
			/* code 0: a reason the table does not name, or a REJ the
			 * capture cut before its reason */
			row->label[1] = why ? why : "unknown";
			row->value = st->cm_rejects[i];
			return true;
		}
		case RR_ROWS_FABRIC:
			if (i >= 2 * RR_FABRIC_COUNT)
				return false;
			row->label[0] = rr_side_str(i / RR_FABRIC_COUNT);
			row->label[1] = rr_fabric_counter_info(i % RR_FABRIC_COUNT)->json_key;
			row->value = st->total.fabric[i / RR_FABRIC_COUNT][i % RR_FABRIC_COUNT];
			return true;
		case RR_ROWS_CLIENT: {
			if (i >= client_rows(st))
				return false;
			const struct rr_client_stats *c = client_row(st, i, row);
			row->value = u64_at(c, fi->member - offsetof(struct rr_stats, clients));
			return true;
		}
		case RR_ROWS_CLIENT_BYTES: {
			if (i >= client_rows(st) * RR_BYTE_KINDS)
				return false;
			const struct rr_client_stats *c = client_row(st, i / RR_BYTE_KINDS, row);
			row->label[1] = rr_byte_kind_str(i % RR_BYTE_KINDS);
			row->value = client_byte_kind(c, i % RR_BYTE_KINDS);
			return true;
		}
		case RR_ROWS_CLIENT_LATENCY:
			if (i >= client_rows(st))
				return false;
			row->latency = &client_row(st, i, row)->latency;
			return true;
		case RR_ROWS_STAT_SCALARS:
		case RR_ROWS_STAT_KINDS:
		case RR_ROWS_FILE:
		case RR_ROWS_DIAGNOSIS:  /* the analyzer's: rr_diagnose */
		case RR_STAT_ROWS_COUNT:
			return false;
		}
		return false;
	}
}
