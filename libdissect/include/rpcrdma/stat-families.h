/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The statistics' labelled families, one list: each family's metric name,
 * type, HELP, labels, where its rows come from in struct rr_stats, and the
 * renderers that show it.  A renderer walks the list and each family's
 * rows (rr_stat_family_next) instead of naming them itself, so that a
 * family is added here once.  The unlabelled counters and those that
 * share a name by "kind" are RR_STAT_LIST's rows (rpcrdma/analyzer.h):
 * two entries here say where they go among the families.
 */
#ifndef RPCRDMA_STAT_FAMILIES_H
#define RPCRDMA_STAT_FAMILIES_H

#include <stdbool.h>
#include <stdint.h>

#include "rpcrdma/analyzer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The renderers: which show a family.  Prometheus and OpenMetrics are
 * one (exporters/rr_prom.c), as are -j and --stats=json. */
#define RR_SHOWN_TEXT   0x01u /* rpcrdma-dump --stats (cli/stats-text.c) */
#define RR_SHOWN_JSON   0x02u /* --stats=json, -j (exporters/rr_json.c) */
#define RR_SHOWN_PROM   0x04u /* /metrics, OTLP (exporters/rr_prom.c) */
#define RR_SHOWN_TOP    0x08u /* rpcrdma-top (cli/top-render.c) */
#define RR_SHOWN_PLUGIN 0x10u /* tshark -z rpcrdma,stat (wireshark-plugin/stat.c) */
#define RR_SHOWN_ALL    0x1fu

/* Where a family's rows come from. */
#define RR_STAT_ROWS_LIST(X) \
	X(RR_ROWS_ONE, "one series: a counter of struct rr_stats") \
	X(RR_ROWS_DIR_PROC, "each direction and RPC-over-RDMA procedure") \
	X(RR_ROWS_PROC_SLOT, "each procedure slot called (NFSv3's always)") \
	X(RR_ROWS_PROC_REPLY, "each procedure slot and reply status seen") \
	X(RR_ROWS_PROC_LATENCY, "each procedure slot answered: a latency histogram") \
	X(RR_ROWS_NFS4_OP, "each NFSv4 operation seen") \
	X(RR_ROWS_NFS_ERROR, "the NFS error table's rows, then its other row") \
	X(RR_ROWS_CHUNK_KIND, "each way an RPC's data travels") \
	X(RR_ROWS_BYTE_KIND, "SEND, RDMA Read, RDMA Write") \
	X(RR_ROWS_FINDING, "each finding of docs/findings.md") \
	X(RR_ROWS_CM_REJECT, "each CM REJ reason seen") \
	X(RR_ROWS_FABRIC, "each side's stream and fabric counter (RR_FABRIC_LIST)") \
	X(RR_ROWS_LOG2, "one log2 histogram of struct rr_stats") \
	X(RR_ROWS_STAT_SCALARS, "RR_STAT_LIST's unlabelled rows, each a family") \
	X(RR_ROWS_STAT_KINDS, "RR_STAT_LIST's rows that share a name, by kind") \
	X(RR_ROWS_CLIENT, "each client kept, then other: a counter of its row") \
	X(RR_ROWS_CLIENT_BYTES, "each client kept, then other, by byte kind") \
	X(RR_ROWS_CLIENT_LATENCY, "each client kept, then other: its latency") \
	X(RR_ROWS_FILE, "the busiest and the slowest files") \
	X(RR_ROWS_DIAGNOSIS, "each problem of the diagnosis (rpcrdma/diagnosis.h), " \
	  "drawn from the analyzer")

#define RR_X_ROWS_ENUM(sym, doc) sym,
enum rr_stat_rows { RR_STAT_ROWS_LIST(RR_X_ROWS_ENUM) RR_STAT_ROWS_COUNT };

/* How a family's samples read: a counter or gauge has a value a row, a
 * latency histogram an rr_latency, a log2 histogram buckets; with the
 * type Prometheus's TYPE line gives each. */
#define RR_STAT_TYPE_LIST(X) \
	X(RR_STAT_COUNTER, "counter") \
	X(RR_STAT_GAUGE, "gauge") \
	X(RR_STAT_LATENCY, "histogram") \
	X(RR_STAT_LOG2, "histogram")
#define RR_X_STAT_TYPE_ENUM(sym, prom) sym,
enum rr_stat_type { RR_STAT_TYPE_LIST(RR_X_STAT_TYPE_ENUM) RR_STAT_TYPES };
static inline const char *rr_stat_type_str(unsigned type)
{
#define RR_X_STAT_TYPE_CASE(sym, prom) case sym: return prom;
	switch (type) { RR_STAT_TYPE_LIST(RR_X_STAT_TYPE_CASE) default: return NULL; }
#undef RR_X_STAT_TYPE_CASE
}

#define RR_STAT_LABELS_MAX 5
#define RR_LABELS(...) { __VA_ARGS__ }

/*
 * id, metric name, type, labels, rows, the member of struct rr_stats the
 * rows read (for RR_ROWS_ONE, RR_ROWS_LOG2 and RR_ROWS_CLIENT; else
 * total), the renderers that show it, HELP.  In the order Prometheus
 * prints them.  RR_STAT_LIST's rows show in text where their text says,
 * in JSON where their json does, besides the renderers said here.  The files table has no metric: a label per file handle
 * is the unbounded kind Prometheus's naming rules forbid.
 */
#define RR_STAT_FAMILY_LIST(X) \
	X(RR_FAM_MESSAGES, "rpcrdma_messages_total", RR_STAT_COUNTER, \
	  RR_LABELS("direction", "proc"), RR_ROWS_DIR_PROC, total, \
	  RR_SHOWN_JSON | RR_SHOWN_PROM | RR_SHOWN_PLUGIN, \
	  "RPC-over-RDMA messages by direction and procedure") \
	X(RR_FAM_RPC_CALLS, "rpcrdma_rpc_calls_total", RR_STAT_COUNTER, \
	  RR_LABELS("program", "version", "procedure"), RR_ROWS_PROC_SLOT, rpc_calls, \
	  RR_SHOWN_ALL, \
	  "RPC calls by program, version and procedure, both directions " \
	  "(NFS4_CB: the backward calls of NFSv4.1)") \
	X(RR_FAM_NFS4_OPERATIONS, "rpcrdma_nfs4_operations_total", RR_STAT_COUNTER, \
	  RR_LABELS("operation"), RR_ROWS_NFS4_OP, nfs4_ops, RR_SHOWN_ALL, \
	  "operations of NFSv4 COMPOUND calls (other: not named)") \
	X(RR_FAM_NFS_ERRORS, "rpcrdma_nfs_errors_total", RR_STAT_COUNTER, \
	  RR_LABELS("program", "version", "procedure", "operation", "status"), \
	  RR_ROWS_NFS_ERROR, nfs_errors, RR_SHOWN_ALL, \
	  "NFS replies that failed, by procedure (an NFSv4 COMPOUND's by the " \
	  "operation that failed) and status; other: past the table's rows") \
	X(RR_FAM_RPC_REPLIES_BY_STATUS, "rpcrdma_rpc_replies_by_status_total", \
	  RR_STAT_COUNTER, RR_LABELS("program", "version", "procedure", "status"), \
	  RR_ROWS_PROC_REPLY, rpc_replies, RR_SHOWN_ALL, \
	  "answered RPC calls by procedure and the reply's status " \
	  "(accept_stat or reject_stat, RFC 5531; unseen: the header " \
	  "was in no bytes captured)") \
	X(RR_FAM_RPC_LATENCY, "rpcrdma_rpc_latency_seconds", RR_STAT_LATENCY, \
	  RR_LABELS("program", "version", "procedure"), RR_ROWS_PROC_LATENCY, latency, \
	  RR_SHOWN_ALL, "time from an RPC call to its reply, by procedure") \
	X(RR_FAM_RPC_REPLIES, "rpcrdma_rpc_replies_total", RR_STAT_COUNTER, \
	  RR_LABELS(NULL), RR_ROWS_ONE, total.replies, RR_SHOWN_PROM | RR_SHOWN_TOP, \
	  "RPC replies matched or not") \
	X(RR_FAM_RPC_UNANSWERED, "rpcrdma_rpc_unanswered_total", RR_STAT_COUNTER, \
	  RR_LABELS(NULL), RR_ROWS_ONE, total.unmatched, \
	  RR_SHOWN_TEXT | RR_SHOWN_JSON | RR_SHOWN_PROM | RR_SHOWN_PLUGIN, \
	  "calls that aged out or ended the capture unanswered") \
	X(RR_FAM_CHUNKS, "rpcrdma_chunks_total", RR_STAT_COUNTER, RR_LABELS("kind"), \
	  RR_ROWS_CHUNK_KIND, total.chunks, \
	  RR_SHOWN_TEXT | RR_SHOWN_JSON | RR_SHOWN_PROM | RR_SHOWN_PLUGIN, \
	  "RPCs by how their data travelled (RFC 8166 section 3.5)") \
	X(RR_FAM_CHUNK_SEGMENTS, "rpcrdma_chunk_segments", RR_STAT_LOG2, \
	  RR_LABELS(NULL), RR_ROWS_LOG2, segments_per_chunk, RR_SHOWN_PROM, \
	  "segments per chunk") \
	X(RR_FAM_SEGMENT_SIZE, "rpcrdma_segment_size_bytes", RR_STAT_LOG2, \
	  RR_LABELS(NULL), RR_ROWS_LOG2, segment_size, RR_SHOWN_PROM, \
	  "length of each chunk segment") \
	X(RR_FAM_BYTES, "rpcrdma_bytes_total", RR_STAT_COUNTER, RR_LABELS("kind"), \
	  RR_ROWS_BYTE_KIND, total, RR_SHOWN_ALL, \
	  "bytes moved by SEND, RDMA Read and RDMA Write") \
	X(RR_FAM_FINDINGS, "rpcrdma_findings_total", RR_STAT_COUNTER, \
	  RR_LABELS("id", "severity"), RR_ROWS_FINDING, findings, RR_SHOWN_ALL, \
	  "conformance findings by id (docs/findings.md)") \
	X(RR_FAM_STAT_SCALARS, NULL, RR_STAT_COUNTER, RR_LABELS(NULL), \
	  RR_ROWS_STAT_SCALARS, total, RR_SHOWN_PROM | RR_SHOWN_PLUGIN, NULL) \
	X(RR_FAM_CM_REJECTS, "rpcrdma_cm_rejects_total", RR_STAT_COUNTER, \
	  RR_LABELS("code", "reason"), RR_ROWS_CM_REJECT, cm_rejects, \
	  RR_SHOWN_TEXT | RR_SHOWN_JSON | RR_SHOWN_PROM | RR_SHOWN_PLUGIN, \
	  "IB CM REJ messages (connections refused) by reason, IBA table 112") \
	X(RR_FAM_FABRIC, "rpcrdma_fabric_events_total", RR_STAT_COUNTER, \
	  RR_LABELS("stream", "event"), RR_ROWS_FABRIC, total.fabric, \
	  RR_SHOWN_TEXT | RR_SHOWN_JSON | RR_SHOWN_PROM, \
	  "what RC packets (on iWARP, TCP segments) show of the fabric, by the " \
	  "side whose stream they concern: packets, resends, PSN (sequence) gaps, " \
	  "NAKs by code, RNR NAKs, ECN CE, FECN, BECN, CNPs (--stats: per " \
	  "connection, where one went wrong)") \
	X(RR_FAM_STAT_KINDS, NULL, RR_STAT_COUNTER, RR_LABELS("kind"), \
	  RR_ROWS_STAT_KINDS, total, RR_SHOWN_PROM | RR_SHOWN_PLUGIN, NULL) \
	X(RR_FAM_CLIENT_CALLS, "rpcrdma_client_calls_total", RR_STAT_COUNTER, \
	  RR_LABELS("client"), RR_ROWS_CLIENT, clients[0].calls, RR_SHOWN_ALL, \
	  "forward RPC calls by requester address " \
	  "(an NFS client); other: those past the 64 clients kept") \
	X(RR_FAM_CLIENT_ERRORS, "rpcrdma_client_errors_total", RR_STAT_COUNTER, \
	  RR_LABELS("client"), RR_ROWS_CLIENT, clients[0].errors, RR_SHOWN_ALL, \
	  "a client's answered calls whose reply " \
	  "failed: an RPC status other than SUCCESS or an NFS status other than OK") \
	X(RR_FAM_CLIENT_BYTES, "rpcrdma_client_bytes_total", RR_STAT_COUNTER, \
	  RR_LABELS("client", "kind"), RR_ROWS_CLIENT_BYTES, clients, RR_SHOWN_ALL, \
	  "bytes a client's answered RPCs moved by SEND, RDMA Read (the data " \
	  "it wrote) and RDMA Write (the data it read)") \
	X(RR_FAM_CLIENT_LATENCY, "rpcrdma_client_latency_seconds", RR_STAT_LATENCY, \
	  RR_LABELS("client"), RR_ROWS_CLIENT_LATENCY, clients, RR_SHOWN_ALL, \
	  "time from a client's forward call to its reply") \
	X(RR_FAM_DIAGNOSIS, "rpcrdma_diagnosis_problem_events", RR_STAT_GAUGE, \
	  RR_LABELS("problem", "severity"), RR_ROWS_DIAGNOSIS, total, RR_SHOWN_PROM, \
	  "each problem of the diagnosis (docs/diagnosis.md) by its severity now: " \
	  "the events that show it, 0 while the counters show none") \
	X(RR_FAM_FILES, NULL, RR_STAT_COUNTER, RR_LABELS(NULL), RR_ROWS_FILE, files, \
	  RR_SHOWN_TEXT | RR_SHOWN_JSON | RR_SHOWN_PLUGIN, \
	  "the busiest and the slowest files by the handle NFS calls name first")

#define RR_X_FAMILY_ENUM(sym, ...) sym,
enum rr_stat_family_id { RR_STAT_FAMILY_LIST(RR_X_FAMILY_ENUM) RR_STAT_FAMILY_COUNT };

struct rr_stat_family_info {
	const char *name;        /* the metric's, NULL where RR_STAT_LIST names it */
	uint8_t type;            /* enum rr_stat_type */
	uint8_t rows;            /* enum rr_stat_rows */
	uint8_t shown;           /* RR_SHOWN_* */
	const char *labels[RR_STAT_LABELS_MAX + 1];  /* ends with NULL */
	size_t member;           /* offset in struct rr_stats of what the rows read */
	const char *help;
};
RR_API const struct rr_stat_family_info *rr_stat_family_info(unsigned id);

/* One row of a family: its label values in the family's label order, and
 * its value, latency histogram or log2 buckets as the family's type says. */
struct rr_stat_row {
	const char *label[RR_STAT_LABELS_MAX];
	uint64_t value;
	const struct rr_latency *latency;   /* RR_STAT_LATENCY */
	/* RR_STAT_LOG2: RR_SIZE_BUCKETS buckets (value: their sum), the
	 * first bounds of which a histogram shows, the rest in +Inf */
	const uint64_t *buckets;
	unsigned bounds;
	char number[3][16];                 /* label values that are numbers */
	char address[64];                   /* a client's */
};

/* The rows of family id, the first with *at set to 0: fills row and
 * returns true while there is one, and moves *at past it.  A family's
 * rows are those its series show: a table's rows, the slots seen (and
 * NFSv3's procedures always), every finding and chunk kind.  False at
 * once for the families RR_STAT_LIST lists and for the files table. */
RR_API bool rr_stat_family_next(const struct rr_stats *st, unsigned id, uint32_t *at,
				struct rr_stat_row *row);

/* Whether RR_STAT_LIST's row id is the first of the rows that share its
 * metric name, labelled by kind (RR_ROWS_STAT_KINDS): where that family
 * is printed. */
RR_API bool rr_stat_kind_first(unsigned id);

/* "send", "rdma_read", "rdma_write": the kinds of bytes RPC-over-RDMA moves. */
#define RR_BYTE_KIND_LIST(X) \
	X(RR_BYTES_SEND, 0, "send") \
	X(RR_BYTES_RDMA_READ, 1, "rdma_read") \
	X(RR_BYTES_RDMA_WRITE, 2, "rdma_write")
#define RR_X_BYTE_KIND_ENUM(sym, val, str) sym = (val),
enum rr_byte_kind { RR_BYTE_KIND_LIST(RR_X_BYTE_KIND_ENUM) RR_BYTE_KINDS };
RR_API const char *rr_byte_kind_str(unsigned v);

/* An NFS status as its program's list names it, else its number in buf. */
RR_API const char *rr_nfs_error_status_label(const struct rr_nfs_error_row *r, char *buf,
					     size_t size);

#ifdef __cplusplus
}
#endif
#endif /* RPCRDMA_STAT_FAMILIES_H */
