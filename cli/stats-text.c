/* SPDX-License-Identifier: BSD-2-Clause */
#include "stats-text.h"
#include <rpcrdma/diagnosis.h>

#include <arpa/inet.h>
#include <string.h>

/* A duration to three significant digits, as the histogram knows it
 * (within 1.6%): "9.86us", "98.6ms", "1.25s". */
static const char *duration(char *buf, size_t size, uint64_t ns)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	double v = (double)ns;
	unsigned u = 0;
	while (v >= 1000 && u < 3) {
		v /= 1000;
		u++;
	}
	snprintf(buf, size, "%.*f%s", v >= 100 || u == 0 ? 0 : v >= 10 ? 1 : 2, v,
		 units[u]);
	return buf;
}


/* NFS replies that failed of (slot, op), by status: "  NFS3ERR_NOENT 301". */
static void print_nfs_errors(FILE *out, const struct rr_stats *st, unsigned slot,
			     unsigned op)
{
	for (uint32_t i = 0; i < st->nfs_error_rows; i++) {
		const struct rr_nfs_error_row *r = &st->nfs_errors[i];
		if (r->slot != slot || r->op != op)
			continue;
		const char *name = rr_nfs_error_status_str(r);
		if (name)
			fprintf(out, "  %s %llu", name, (unsigned long long)r->count);
		else
			fprintf(out, "  status %u %llu", (unsigned)r->status,
				(unsigned long long)r->count);
	}
}

static uint64_t nfs_errors_of(const struct rr_stats *st, unsigned slot, unsigned op)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < st->nfs_error_rows; i++)
		if (st->nfs_errors[i].slot == slot && st->nfs_errors[i].op == op)
			n += st->nfs_errors[i].count;
	return n;
}

static void print_client(FILE *out, const char *name, const struct rr_client_stats *r)
{
	fprintf(out, "  %-24s calls %llu  answered %llu  errors %llu", name,
		(unsigned long long)r->calls, (unsigned long long)r->replies,
		(unsigned long long)r->errors);
	if (r->latency.count) {
		char p50[16], p99[16];
		fprintf(out, "  p50 %s  p99 %s",
			duration(p50, sizeof(p50), rr_latency_quantile_ns(&r->latency, 0.5)),
			duration(p99, sizeof(p99), rr_latency_quantile_ns(&r->latency, 0.99)));
	}
	fprintf(out, "\n    bytes: send %llu  RDMA read %llu  RDMA write %llu\n",
		(unsigned long long)r->bytes_send, (unsigned long long)r->bytes_read,
		(unsigned long long)r->bytes_write);
}

/* Who is calling: forward RPCs by requester address, as nfstrace breaks
 * a server's load down. */
static void print_clients(FILE *out, const struct rr_stats *st)
{
	if (!st->client_rows)
		return;
	fprintf(out, "\nClients (forward RPCs by requester; errors: replies other than "
		"SUCCESS or NFS OK; RDMA read: the data it wrote, RDMA write: read)\n");
	for (uint32_t i = 0; i < st->client_rows; i++) {
		char addr[64];
		print_client(out, rr_addr_str(st->clients[i].transport, st->clients[i].addr,
					      addr, sizeof(addr)), &st->clients[i]);
	}
	if (st->clients_other.calls)
		print_client(out, "other (past the table)", &st->clients_other);
}

static void print_file_list(FILE *out, const char *title, const struct rr_file_stats **f,
			    unsigned n)
{
	fprintf(out, "%s\n", title);
	for (unsigned i = 0; i < n; i++) {
		char mean[16], max[16];
		fprintf(out, "  fh 0x%08x  calls %llu", (unsigned)f[i]->fh_hash,
			(unsigned long long)f[i]->calls);
		if (f[i]->overcount)
			fprintf(out, " (at most %llu over)", (unsigned long long)f[i]->overcount);
		fprintf(out, "  mean %s  max %s  read %llu  written %llu\n",
			duration(mean, sizeof(mean), rr_file_latency_mean_ns(f[i])),
			duration(max, sizeof(max), f[i]->latency_max_ns),
			(unsigned long long)f[i]->read_bytes,
			(unsigned long long)f[i]->write_bytes);
	}
}

/* A line per side whose stream the fabric troubled (RR_FABRIC_LIST):
 * its packets and what went wrong with them, none where nothing did;
 * its packets unknown where the capture holds nothing that side sent. */
static void print_fabric(FILE *out, const struct rr_conn_info *conn)
{
	const struct rr_conn_stats *cs = &conn->st;
	for (unsigned sd = 0; sd < 2; sd++) {
		const uint64_t *n = cs->fabric[sd];
		bool troubled = false;
		for (unsigned c = RR_FABRIC_PACKETS + 1; c < RR_FABRIC_COUNT; c++)
			troubled |= n[c] != 0;
		if (!troubled)
			continue;
		fprintf(out, "  fabric, the %s's stream: packets ", rr_side_str(sd));
		if (rr_conn_fabric_known(conn, sd, RR_FABRIC_PACKETS))
			fprintf(out, "%llu", (unsigned long long)n[RR_FABRIC_PACKETS]);
		else
			fputs("unknown", out);
		for (unsigned c = RR_FABRIC_PACKETS + 1; c < RR_FABRIC_COUNT; c++) {
			if (!n[c])
				continue;
			fprintf(out, ", %s %llu", rr_fabric_counter_info(c)->text,
				(unsigned long long)n[c]);
			if (c == RR_FABRIC_RETRANSMISSIONS && n[RR_FABRIC_PACKETS])
				fprintf(out, " (%.1f%%)", 100.0 * (double)n[c] /
					(double)n[RR_FABRIC_PACKETS]);
			if (c == RR_FABRIC_RNR_NAKS)
				fprintf(out, " (last wait %.2f ms)",
					cs->rnr_timer_us_last[sd] / 1000.0);
		}
		fputc('\n', out);
	}
}

/* The busiest and the slowest files, by the handle NFS calls name first
 * (its hash as Wireshark's nfs.fh.hash): the top 10 of each. */
static void print_files(FILE *out, const struct rr_stats *st)
{
	const struct rr_file_stats *f[10];
	unsigned n = rr_stats_busiest_files(st, f, 10);
	if (!n)
		return;
	print_file_list(out, "\nBusiest files (answered NFS calls by the file handle they name "
			"first, its CRC-32 as Wireshark's nfs.fh.hash; bytes asked by READ, "
			"written by WRITE)", f, n);
	n = rr_stats_slowest_files(st, f, 10);
	print_file_list(out, "\nSlowest files (by mean latency)", f, n);
}

/* The problems the counters show, worst first, each with its evidence,
 * reference and what to do; or a line saying there is none. */
static void print_diagnosis(FILE *out, const struct rr_analyzer *a)
{
	struct rr_diagnosis_item d[RR_DIAGNOSIS_COUNT];
	unsigned n = rr_diagnose(a, d, RR_DIAGNOSIS_COUNT);
	if (!n) {
		fputs("\nDiagnosis: no problem in what the capture shows\n", out);
		return;
	}
	fputs("\nDiagnosis (worst first)\n", out);
	for (unsigned i = 0; i < n && i < RR_DIAGNOSIS_COUNT; i++) {
		const struct rr_diagnosis_info *di = rr_diagnosis_info(d[i].id);
		fprintf(out, "  %-7s %s: %s [%s]\n          %s\n",
			rr_severity_str(d[i].severity), di->id, di->title, di->reference,
			d[i].evidence);
		if (d[i].frames.first)
			fprintf(out, "          frames %llu to %llu on conn %u\n",
				(unsigned long long)d[i].frames.first,
				(unsigned long long)d[i].frames.last, d[i].worst_conn);
		fprintf(out, "          what to do: %s.\n", di->advice);
	}
}

void rr_print_stats_text(const struct rr_analyzer *a, FILE *out)
{
	const struct rr_stats *st = rr_analyzer_stats(a);
	char s0[INET6_ADDRSTRLEN], s1[INET6_ADDRSTRLEN];
	print_diagnosis(out, a);
	unsigned conns = 0;
	for (uint32_t i = 0; i < rr_analyzer_conn_count(a); i++)
		conns += rr_analyzer_conn(a, i) != NULL;
	fprintf(out, "\n%u connection%s\n", conns, conns == 1 ? "" : "s");
	const struct rr_other_upper_layer *other = &st->other_upper_layer;
	if (other->connections)
		fprintf(out, "%llu RDMA connection%s of another upper layer, or "
			     "cut by the capture (no RPC-over-RDMA message, RFC 8797 "
			     "private data or NFS/RDMA port seen): %llu packets, "
			     "%llu bytes of payload\n",
			(unsigned long long)other->connections,
			other->connections == 1 ? "" : "s",
			(unsigned long long)other->packets,
			(unsigned long long)other->bytes);
	for (uint32_t i = 0; i < rr_analyzer_conn_count(a); i++) {
		const struct rr_conn_info *c = rr_analyzer_conn(a, i);
		if (!c)
			continue;
		rr_conn_addr_str(c, false, s0, sizeof(s0));
		rr_conn_addr_str(c, true, s1, sizeof(s1));
		const struct rr_conn_stats *cs = &c->st;
		bool tcp = c->transport == RR_TRANSPORT_IWARP;
		fprintf(out, tcp ? "conn %u %s requester %s port %u > responder %s port %u %s%s" :
			     "conn %u %s requester %s qp 0x%06x > responder %s qp 0x%06x %s%s",
		       c->id, rr_transport_str(c->transport), s0,
		       c->requester_qpn, s1, c->responder_qpn,
		       c->inferred ? "(linked from traffic)" : "(from the connection setup)",
		       c->closed ? " closed" : "");
		if (c->previous != RR_CONN_NONE)
			fprintf(out, "; reconnect after conn %u", c->previous);
		fputc('\n', out);
		for (int s = 0; s < 2; s++)
			if (c->have_private[s])
				fprintf(out, "  %s private data: v%u R=%u send %u recv %u\n",
				       rr_side_str(s),
				       c->priv[s].version, c->priv[s].rinval,
				       c->priv[s].send_size, c->priv[s].recv_size);
		if (c->negotiated)
			fprintf(out, "  inline thresholds: call %u reply %u; remote invalidation %s\n",
				c->thresholds.call, c->thresholds.reply,
				c->thresholds.remote_invalidation ? "yes" : "no");
		else
			fputs("  inline thresholds and remote invalidation: unknown (the capture "
			      "holds no whole connection setup)\n", out);
		bool one_way = rr_conn_one_way(c);
		if (one_way)
			fprintf(out, "  one direction: the capture holds nothing the %s sent\n",
				c->heard == RR_HEARD_REQUESTER ? "responder" : "requester");
		fprintf(out, "  calls %llu replies %llu ", (unsigned long long)cs->calls,
			(unsigned long long)cs->replies);
		if (one_way)
			fputs("unanswered unknown; ", out);
		else
			fprintf(out, "unanswered %llu; ", (unsigned long long)cs->unmatched);
		if (rr_conn_grant_known(c))
			fprintf(out, "credits granted %u (min %u max %u)", cs->grant,
				cs->grant_min == UINT32_MAX ? 0 : cs->grant_min, cs->grant_max);
		else
			fputs("credits granted unknown (no reply, no whole setup)", out);
		if (one_way)
			fputs(", in flight unknown", out);
		else
			fprintf(out, ", in flight max %u", cs->in_flight_max);
		/* only where the grant held the calls back */
		if (!one_way && rr_conn_grant_known(c) && (cs->at_grant_ns || cs->credit_waits)) {
			uint64_t life = rr_conn_seen_ns(c);
			fprintf(out, ", at the grant %.1f%% of the time, %llu calls waited for a credit",
				life ? 100.0 * (double)cs->at_grant_ns / (double)life : 0.0,
				(unsigned long long)cs->credit_waits);
		}
		/* no backchannel (NFSv3): no backward grant to show */
		if (rr_conn_has_backchannel(cs))
			fprintf(out, "; backward grant %u", cs->bc_grant);
		fprintf(out, "\n");
		if (cs->past_inline[0] || cs->past_inline[1]) {
			fputs("  past the inline thresholds:", out);
			if (cs->past_inline[0])
				fprintf(out, " %llu Long Call%s (largest %u bytes)%s",
					(unsigned long long)cs->past_inline[0],
					cs->past_inline[0] == 1 ? "" : "s",
					cs->past_inline_max[0], cs->past_inline[1] ? "," : "");
			if (cs->past_inline[1])
				fprintf(out, " %llu repl%s through a reply chunk (largest %u bytes)",
					(unsigned long long)cs->past_inline[1],
					cs->past_inline[1] == 1 ? "y" : "ies",
					cs->past_inline_max[1]);
			fputc('\n', out);
		}
		fprintf(out, "  chunks: inline %llu read %llu long-call %llu write %llu "
		       "reply %llu responder-read %llu\n",
		       (unsigned long long)cs->chunks[RR_KIND_INLINE],
		       (unsigned long long)cs->chunks[RR_KIND_READ],
		       (unsigned long long)cs->chunks[RR_KIND_PZRC],
		       (unsigned long long)cs->chunks[RR_KIND_WRITE],
		       (unsigned long long)cs->chunks[RR_KIND_REPLY],
		       (unsigned long long)cs->chunks[RR_KIND_RRC]);
		fprintf(out, "  bytes: send %llu  RDMA read %llu  RDMA write %llu;"
		       " findings %llu",
		       (unsigned long long)cs->bytes_send,
		       (unsigned long long)cs->bytes_read,
		       (unsigned long long)cs->bytes_write,
		       (unsigned long long)cs->findings);
		if (cs->retransmissions)
			fprintf(out, "; retransmitted packets %llu",
				(unsigned long long)cs->retransmissions);
		fputc('\n', out);
		print_fabric(out, c);
	}
	fprintf(out, "\nRPC calls by procedure (latency of answered calls: median,"
	       " 99th percentile)\n");
	unsigned compound = rr_analyzer_proc_slot(RR_PROG_NFS, 4, 1);
	for (unsigned p = 0; p < RR_PROC_SLOTS; p++) {
		if (!st->rpc_calls[p])
			continue;
		const struct rr_latency *lat = &st->latency[p];
		struct rr_proc_slot_info si = rr_analyzer_proc_slot_info(p);
		char name[48];
		if (si.version == 3 && !strcmp(si.program, "NFS"))
			snprintf(name, sizeof(name), "%s", si.procedure);
		else
			snprintf(name, sizeof(name), "%s v%u %s", si.program,
				 (unsigned)si.version, si.procedure);
		fprintf(out, "  %-24s %8llu", name, (unsigned long long)st->rpc_calls[p]);
		if (lat->count) {
			char p50[16], p99[16];
			fprintf(out, "  p50 %7s  p99 %7s",
				duration(p50, sizeof(p50), rr_latency_quantile_ns(lat, 0.5)),
				duration(p99, sizeof(p99), rr_latency_quantile_ns(lat, 0.99)));
		} else
			fprintf(out, "  no reply");
		/* answers other than SUCCESS, by status (RFC 5531 §9) */
		for (unsigned r = RR_REPLY_ACCEPTED + 1; r < RR_REPLY_STATUS_COUNT; r++)
			if (st->rpc_replies[p][r])
				fprintf(out, "  %s %llu", rr_reply_status_str(r),
				       (unsigned long long)st->rpc_replies[p][r]);
		/* NFS replies that failed, by status (NFSv4's by operation,
		 * below, but those refused before any) */
		print_nfs_errors(out, st, p, p == compound ? RR_NFS_ERROR_NO_OP : 0);
		fputc('\n', out);
	}
	/* as nfsstat lists them: every operation seen, in number order, with
	 * the COMPOUNDs that failed at it */
	bool ops = false;
	for (unsigned op = 0; op < RR_NFS4_OP_SLOTS; op++) {
		if (!st->nfs4_ops[op] && !nfs_errors_of(st, compound, op))
			continue;
		fprintf(out, "%s  %-24s %8llu", ops ? "" :
			"\nNFSv4 operations in COMPOUND calls\n", rr_nfs4_op_slot_str(op),
			(unsigned long long)st->nfs4_ops[op]);
		print_nfs_errors(out, st, compound, op);
		fputc('\n', out);
		ops = true;
	}
	if (st->nfs_errors_other)
		fprintf(out, "\nNFS errors past the table: %llu\n",
			(unsigned long long)st->nfs_errors_other);
	print_clients(out, st);
	print_files(out, st);
	if (st->reconnects)
		fprintf(out, "\nreconnects %llu; calls resent after a reconnect %llu\n",
			(unsigned long long)st->reconnects,
			(unsigned long long)st->calls_resent);
	bool rejected = false;
	if (st->tcp_resets) {
		fprintf(out, "\nConnections refused or reset\n  TCP RST (iWARP) %llu\n",
			(unsigned long long)st->tcp_resets);
		rejected = true;
	}
	if (st->tcp_refused_other) {
		/* the capture cannot tell them from any refused TCP connection */
		char host[INET6_ADDRSTRLEN];
		rr_addr_str(RR_TRANSPORT_IWARP, st->tcp_refused_addr, host, sizeof(host));
		fprintf(out, "%s  TCP connections refused on other ports %llu (the last by %s "
			     "port %u, from port %u): nothing listens there; an iWARP mount "
			     "to that port? --iwarp-port %u reads it as iWARP\n",
			rejected ? "" : "\nConnections refused or reset\n",
			(unsigned long long)st->tcp_refused_other, host,
			st->tcp_refused_port, st->tcp_refused_from_port,
			st->tcp_refused_port);
		rejected = true;
	}
	for (unsigned r = 0; r < RR_CM_REJ_REASONS; r++) {
		if (!st->cm_rejects[r])
			continue;
		const char *why = rr_cm_rej_reason_str(r);
		fprintf(out, "%s  IB CM REJ reason %u (%s) %llu", rejected ? "" :
			"\nConnections refused or reset\n", r,
			why ? why : "other", (unsigned long long)st->cm_rejects[r]);
		fputc('\n', out);
		rejected = true;
	}
	fprintf(out, "\nFindings\n");
	for (unsigned i = 0; i < RR_FINDING_COUNT; i++)
		if (st->findings[i])
			fprintf(out, "  %-36s %8llu\n", rr_finding_info(i)->id,
			       (unsigned long long)st->findings[i]);
	/* the closing lines: the counters of the list that have words there */
	bool rebuilding = rr_analyzer_limits(a)->rebuild_slots;
	fputc('\n', out);
	for (unsigned i = 0; i < RR_STAT_COUNT; i++) {
		const struct rr_stat_info *si = rr_stat_info(i);
		if (si->text[0] && (rebuilding || si->json != RR_STAT_JSON_REBUILT))
			fprintf(out, "%s %llu", si->text,
				(unsigned long long)rr_stat_value(st, i));
	}
	if (!rebuilding)
		fprintf(out, "\nRPC messages not rebuilt from chunks (-q)");
	fputc('\n', out);
}

