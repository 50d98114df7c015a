/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Statistics > RPC-over-RDMA, and tshark -z rpcrdma,stat: the analyzer's
 * statistics (what rpcrdma-dump --stats prints) as tables of Item, Value,
 * Detail.  The analyzer holds the numbers; each tapped frame copies them in.
 */
#include <stdio.h>
#include <string.h>

#include <epan/packet.h>
#include <epan/stat_tap_ui.h>
#include <epan/tap.h>

#include "rpcrdma/diagnosis.h"
#include "rpcrdma/stat-families.h"
#include "analysis.h"

enum { TABLE_DIAGNOSIS, TABLE_CONNECTIONS, TABLE_MESSAGES, TABLE_PROCEDURES, TABLE_CLIENTS,
       TABLE_FILES, TABLE_FINDINGS, TABLE_CAPTURE, TABLE_COUNT };
static const char *const table_names[TABLE_COUNT] = {
	"Diagnosis (worst first)", "Connections", "Messages by direction and procedure",
	"RPC calls by procedure", "Clients (forward RPCs by requester)",
	"Busiest files (NFS calls by the file handle they name first)", "Findings",
	"Capture",
};

static stat_tap_table_item fields[] = {
	{ TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Item", "%-40s" },
	{ TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Value", "%12u" },
	{ TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Detail", "%s" },
};

static uint64_t last_frames = UINT64_MAX;

static void stat_init(stat_tap_table_ui *ui)
{
	last_frames = UINT64_MAX;
	for (unsigned i = 0; i < TABLE_COUNT; i++) {
		stat_tap_table *t = stat_tap_find_table(ui, table_names[i]);
		if (t) {
			if (ui->stat_tap_reset_table_cb)
				ui->stat_tap_reset_table_cb(t);
			continue;
		}
		t = stat_tap_init_table(table_names[i], (int)G_N_ELEMENTS(fields), 0, NULL);
		stat_tap_add_table(ui, t);
	}
}

static void set_string(stat_tap_table_item_type *f, const char *s)
{
	if (f->value.string_value && !strcmp(f->value.string_value, s))
		return;
	g_free((char *)f->value.string_value);
	f->value.string_value = g_strdup(s);
}

/* Row `row` of t says label, value, detail; values past 2^32 show as the
 * largest (Wireshark's table cells are 32-bit). */
static void set_row(stat_tap_table *t, guint row, const char *label, uint64_t value,
		    const char *detail)
{
	if (row >= t->num_elements) {
		stat_tap_table_item_type cells[3];
		memset(cells, 0, sizeof(cells));
		cells[0].type = TABLE_ITEM_STRING;
		cells[1].type = TABLE_ITEM_UINT;
		cells[2].type = TABLE_ITEM_STRING;
		stat_tap_init_table_row(t, row, 3, cells);
	}
	set_string(stat_tap_get_field_data(t, row, 0), label);
	stat_tap_get_field_data(t, row, 1)->value.uint_value =
		value > G_MAXUINT ? G_MAXUINT : (guint)value;
	set_string(stat_tap_get_field_data(t, row, 2), detail ? detail : "");
}

struct filler {
	stat_tap_table *t;
	guint row;
	char label[96];
};

static void row(struct filler *f, uint64_t value, const char *detail, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);
static void row(struct filler *f, uint64_t value, const char *detail, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->label, sizeof(f->label), fmt, ap);
	va_end(ap);
	set_row(f->t, f->row++, f->label, value, detail);
}

static void fill_connections(struct filler *f, const struct rr_analyzer *a)
{
	char s0[64], s1[64], detail[256];
	for (uint32_t i = 0; i < rr_analyzer_conn_count(a); i++) {
		const struct rr_conn_info *c = rr_analyzer_conn(a, i);
		if (!c)
			continue;
		const struct rr_conn_stats *cs = &c->st;
		bool tcp = c->transport == RR_TRANSPORT_IWARP;
		rr_conn_addr_str(c, false, s0, sizeof(s0));
		rr_conn_addr_str(c, true, s1, sizeof(s1));
		bool one_way = rr_conn_one_way(c);
		snprintf(detail, sizeof(detail), "%s requester %s %s 0x%x > responder %s %s 0x%x%s%s%s",
			 rr_transport_str(c->transport), s0, tcp ? "port" : "qp",
			 c->requester_qpn, s1, tcp ? "port" : "qp", c->responder_qpn,
			 c->inferred ? " (linked from traffic)" : " (from the connection setup)",
			 c->closed ? " closed" : "",
			 !one_way ? "" : c->heard == RR_HEARD_REQUESTER ?
				"; one direction: nothing the responder sent" :
				"; one direction: nothing the requester sent");
		row(f, c->id, detail, "conn %u", c->id);
		row(f, cs->calls, NULL, "conn %u calls", c->id);
		row(f, cs->replies, NULL, "conn %u replies", c->id);
		/* one direction: unanswered and in flight are unknown */
		if (!one_way)
			row(f, cs->unmatched, "no reply seen", "conn %u unanswered", c->id);
		if (rr_conn_grant_known(c)) {
			snprintf(detail, sizeof(detail), "min %u max %u",
				 cs->grant_min == UINT32_MAX ? 0 : cs->grant_min, cs->grant_max);
			row(f, cs->grant, detail, "conn %u credits granted", c->id);
		}
		if (!one_way) {
			row(f, cs->in_flight, NULL, "conn %u calls in flight", c->id);
			row(f, cs->in_flight_max, NULL, "conn %u calls in flight max", c->id);
		}
		if (rr_conn_has_backchannel(cs))
			row(f, cs->bc_grant, NULL, "conn %u backward credits granted", c->id);
		if (c->negotiated) {
			row(f, c->thresholds.call, NULL, "conn %u inline threshold call", c->id);
			row(f, c->thresholds.reply, c->thresholds.remote_invalidation ?
			    "remote invalidation" : "no remote invalidation",
			    "conn %u inline threshold reply", c->id);
		}
		for (unsigned k = 0; k < RR_KIND_COUNT; k++)
			row(f, cs->chunks[k], NULL, "conn %u chunks %s", c->id, rr_chunk_kind_str(k));
		row(f, cs->bytes_send, NULL, "conn %u bytes send", c->id);
		row(f, cs->bytes_read, NULL, "conn %u bytes RDMA read", c->id);
		row(f, cs->bytes_write, NULL, "conn %u bytes RDMA write", c->id);
		row(f, cs->findings, NULL, "conn %u findings", c->id);
	}
}

static void fill_messages(struct filler *f, const struct rr_stats *st)
{
	for (unsigned d = 0; d <= RR_DIR_UNKNOWN; d++)
		for (unsigned p = 0; p < RR_RDMA_PROCS; p++)
			if (st->total.messages[d][p])
				row(f, st->total.messages[d][p], NULL, "%s %s", rr_dir_str(d),
				    rr_rdma_proc_str(p));
}

static void fill_procedures(struct filler *f, const struct rr_stats *st)
{
	char detail[96];
	for (unsigned p = 0; p < RR_PROC_SLOTS; p++) {
		if (!st->rpc_calls[p])
			continue;
		struct rr_proc_slot_info si = rr_analyzer_proc_slot_info(p);
		const struct rr_latency *h = &st->latency[p];
		if (!h->count)
			snprintf(detail, sizeof(detail), "no reply seen");
		else
			snprintf(detail, sizeof(detail),
				 "latency p50 %.1f us, p99 %.1f us, mean %.1f us",
				 (double)rr_latency_quantile_ns(h, 0.5) / 1e3,
				 (double)rr_latency_quantile_ns(h, 0.99) / 1e3,
				 (double)rr_latency_mean_ns(h) / 1e3);
		row(f, st->rpc_calls[p], detail, "%s v%u %s", si.program,
		    (unsigned)si.version, si.procedure);
	}
	for (unsigned op = 0; op < RR_NFS4_OP_SLOTS; op++) {
		if (!st->nfs4_ops[op])
			continue;
		row(f, st->nfs4_ops[op], "operations of COMPOUND calls",
		    "NFS v4 COMPOUND %s", rr_nfs4_op_slot_str(op));
	}
	/* NFS replies that failed (an NFSv4 COMPOUND's by its failing
	 * operation), by status */
	for (uint32_t i = 0; i < st->nfs_error_rows; i++) {
		const struct rr_nfs_error_row *r = &st->nfs_errors[i];
		struct rr_proc_slot_info si = rr_analyzer_proc_slot_info(r->slot);
		char num[16];
		const char *status = rr_nfs_error_status_label(r, num, sizeof(num));
		const char *op = rr_nfs_error_op_str(r);
		row(f, r->count, "replies that failed", "NFS errors %s %s",
		    op ? op : si.procedure, status);
	}
	if (st->nfs_errors_other)
		row(f, st->nfs_errors_other, "past the table's rows", "NFS errors other");
	/* answered calls by the reply's status, as --stats names those other
	 * than SUCCESS */
	struct rr_stat_row r;
	for (uint32_t at = 0; rr_stat_family_next(st, RR_FAM_RPC_REPLIES_BY_STATUS, &at, &r);)
		if (strcmp(r.label[3], "SUCCESS") != 0)
			row(f, r.value, "answered calls by the reply's status", "%s v%s %s replies %s",
			    r.label[0], r.label[1], r.label[2], r.label[3]);
}

/* Who is calling: a client's calls, answered calls, errors and bytes,
 * its latency in the detail. */
static void fill_client(struct filler *f, const char *name, const struct rr_client_stats *r)
{
	char detail[96] = "no reply seen";
	const struct rr_latency *h = &r->latency;
	if (h->count)
		snprintf(detail, sizeof(detail), "latency p50 %.1f us, p99 %.1f us, mean %.1f us",
			 (double)rr_latency_quantile_ns(h, 0.5) / 1e3,
			 (double)rr_latency_quantile_ns(h, 0.99) / 1e3,
			 (double)rr_latency_mean_ns(h) / 1e3);
	row(f, r->calls, detail, "client %s calls", name);
	row(f, r->replies, NULL, "client %s answered", name);
	row(f, r->errors, "RPC status other than SUCCESS, or NFS status other than OK",
	    "client %s errors", name);
	row(f, r->bytes_send, NULL, "client %s bytes send", name);
	row(f, r->bytes_read, "the data it wrote", "client %s bytes RDMA read", name);
	row(f, r->bytes_write, "the data it read", "client %s bytes RDMA write", name);
}

static void fill_clients(struct filler *f, const struct rr_stats *st)
{
	char name[64];
	for (uint32_t i = 0; i < st->client_rows; i++)
		fill_client(f, rr_addr_str(st->clients[i].transport, st->clients[i].addr, name,
					   sizeof(name)), &st->clients[i]);
	if (st->clients_other.calls)
		fill_client(f, "other", &st->clients_other);
}

/* The ten files answered NFS calls named most, by their handle's CRC-32
 * (Wireshark's nfs.fh.hash), as rpcrdma-dump --stats lists them. */
static void fill_files(struct filler *f, const struct rr_stats *st)
{
	const struct rr_file_stats *files[10];
	unsigned n = rr_stats_busiest_files(st, files, 10);
	for (unsigned i = 0; i < n; i++) {
		const struct rr_file_stats *r = files[i];
		char detail[160], over[48] = "";
		if (r->overcount)
			snprintf(over, sizeof(over), " (at most %" PRIu64 " over)", r->overcount);
		snprintf(detail, sizeof(detail),
			 "mean %.1f us, max %.1f us, read %" PRIu64 ", written %" PRIu64 "%s",
			 (double)rr_file_latency_mean_ns(r) / 1e3,
			 (double)r->latency_max_ns / 1e3, r->read_bytes, r->write_bytes, over);
		row(f, r->calls, detail, "fh 0x%08x calls", (unsigned)r->fh_hash);
	}
}

/* The problems the counters show, worst first, as rpcrdma-dump --stats
 * opens with them: each one's events, its evidence and the frames of its
 * events (Go To Packet's numbers) as the detail. */
static void fill_diagnosis(struct filler *f, const struct rr_analyzer *a)
{
	struct rr_diagnosis_item d[RR_DIAGNOSIS_COUNT];
	unsigned n = rr_diagnose(a, d, RR_DIAGNOSIS_COUNT);
	for (unsigned i = 0; i < n && i < RR_DIAGNOSIS_COUNT; i++) {
		char detail[sizeof(d[i].evidence) + 64];
		if (d[i].frames.first)
			snprintf(detail, sizeof(detail), "%s; frames %" PRIu64 " to %" PRIu64
				 " on conn %u", d[i].evidence, d[i].frames.first,
				 d[i].frames.last, d[i].worst_conn);
		else
			snprintf(detail, sizeof(detail), "%s", d[i].evidence);
		row(f, d[i].events, detail, "diagnosis %s %s",
		    rr_diagnosis_info(d[i].id)->id, rr_severity_str(d[i].severity));
	}
}

static void fill_findings(struct filler *f, const struct rr_stats *st)
{
	for (unsigned i = 0; i < RR_FINDING_COUNT; i++)
		if (st->findings[i])
			row(f, st->findings[i], rr_severity_str(rr_finding_info(i)->severity),
			    "%s", rr_finding_info(i)->id);
}

static void fill_capture(struct filler *f, const struct rr_stats *st)
{
	for (unsigned i = 0; i < RR_STAT_COUNT; i++)
		row(f, rr_stat_value(st, i), NULL, "%s", rr_stat_info(i)->title);
	/* counted apart, in no row above: no RPC-over-RDMA seen on them */
	const struct rr_other_upper_layer *o = &st->other_upper_layer;
	char detail[64];
	snprintf(detail, sizeof(detail), "%" PRIu64 " packets, %" PRIu64 " bytes of payload",
		 o->packets, o->bytes);
	row(f, o->connections, detail, "RDMA connections of other upper layers");
	/* connections refused, by the REJ's reason (IBA table 112) */
	struct rr_stat_row r;
	for (uint32_t at = 0; rr_stat_family_next(st, RR_FAM_CM_REJECTS, &at, &r);) {
		snprintf(detail, sizeof(detail), "REJ reason code %s", r.label[0]);
		row(f, r.value, detail, "CM REJ %s", r.label[1]);
	}
}

static tap_packet_status stat_packet(void *tapdata, packet_info *pinfo, epan_dissect_t *edt,
				     const void *data, tap_flags_t flags)
{
	(void)pinfo;
	(void)edt;
	(void)data;
	(void)flags;
	stat_data_t *sd = tapdata;
	const struct rr_analyzer *a = rr_ws_analyzer();
	if (!a)
		return TAP_PACKET_DONT_REDRAW;
	const struct rr_stats *st = rr_analyzer_stats(a);
	/* on later passes the numbers are final: copied once */
	if (st->frames == last_frames)
		return TAP_PACKET_DONT_REDRAW;
	last_frames = st->frames;
	for (unsigned i = 0; i < TABLE_COUNT; i++) {
		struct filler f = { stat_tap_find_table(sd->stat_tap_data, table_names[i]), 0, "" };
		if (!f.t)
			continue;
		switch (i) {
		case TABLE_DIAGNOSIS: fill_diagnosis(&f, a); break;
		case TABLE_CONNECTIONS: fill_connections(&f, a); break;
		case TABLE_MESSAGES: fill_messages(&f, st); break;
		case TABLE_PROCEDURES: fill_procedures(&f, st); break;
		case TABLE_CLIENTS: fill_clients(&f, st); break;
		case TABLE_FILES: fill_files(&f, st); break;
		case TABLE_FINDINGS: fill_findings(&f, st); break;
		default: fill_capture(&f, st); break;
		}
	}
	return TAP_PACKET_REDRAW;
}

static void stat_reset(stat_tap_table *t)
{
	for (guint r = 0; r < t->num_elements; r++)
		stat_tap_get_field_data(t, r, 1)->value.uint_value = 0;
	last_frames = UINT64_MAX;
}

static void stat_free_item(stat_tap_table *t, guint row, guint column,
			   stat_tap_table_item_type *field)
{
	(void)t;
	(void)row;
	if (column != 1) {
		g_free((char *)field->value.string_value);
		field->value.string_value = NULL;
	}
}

void rr_ws_register_stat(void)
{
	static tap_param params[] = { { PARAM_FILTER, "filter", "Filter", NULL, TRUE } };
	static stat_tap_table_ui ui = {
		REGISTER_STAT_GROUP_GENERIC, "RPC-over-RDMA (rpcrdma-tools)", "rpcrdma",
		"rpcrdma,stat", stat_init, stat_packet, stat_reset, stat_free_item, NULL,
		G_N_ELEMENTS(fields), fields, G_N_ELEMENTS(params), params, NULL, 0,
	};
	register_stat_tap_table_ui(&ui);
}
