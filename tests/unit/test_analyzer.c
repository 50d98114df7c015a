/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The analyzer's modules driven directly through their internal header:
 * connections (conn.c: endpoints, the unknown-QPN lookup, LRU eviction,
 * reconnects, CM IDs), calls (calls.c: the age list, each connection's
 * list), the RPC-over-RDMA flow (flow.c: a call and its reply, a header
 * taken from its frame's decode, calls and connections evicted with what
 * they hold), SEND reassembly (reassembly.c), RDMA Writes and Reads of
 * chunks with a Long Call rebuilt and named (chunk_io.c, rebuild.c,
 * rpc_stats.c), reply statuses and NFSv4 operations (rpc_stats.c), IB
 * packets: retransmissions, PSN gaps, SENDs in pieces (ib_flow.c), the report of a frame (report.c: events joined to their
 * message, bytes kept, a full report), and the MPA marker rule (mpa.h).
 */
#include <stddef.h>
#include <string.h>

#include <rpcrdma/diagnosis.h>
#include <rpcrdma/encode.h>

#include "analyzer-int.h"
#include "transport.h"
#include "mpa.h"
#include "check.h"

static const uint8_t host_a[16] = { [10] = 0xff, [11] = 0xff, 192, 0, 2, 2 };
static const uint8_t host_b[16] = { [10] = 0xff, [11] = 0xff, 192, 0, 2, 1 };

static struct rr_analyzer *analyzer(uint32_t conns, uint32_t calls)
{
	struct rr_config cfg;
	struct rr_analyzer_limits lim;
	rr_config_init(&cfg);
	rr_analyzer_limits_init(&lim);
	lim.max_connections = conns;
	lim.max_calls = calls;
	lim.report_bytes = 256;
	return rr_analyzer_new(&cfg, &lim);
}

/* IB traffic from a to b's QP: only the destination QPN is in the packet */
static uint32_t ib_to(struct rr_analyzer *a, const uint8_t *from,
		      const uint8_t *to, uint32_t dqpn, int *side)
{
	return rra_conn_for(a, RR_TRANSPORT_ROCEV2, from, 0, to, dqpn, false, side);
}

static void connections(void)
{
	check_ctx = "connections";
	struct rr_analyzer *a = analyzer(2, 16);
	int to;
	/* a call to B's QP 0x22 makes a connection, A's QPN unknown */
	uint32_t c0 = ib_to(a, host_a, host_b, 0x22, &to);
	CHECK(c0 != NONE);
	CHECK_EQ(to, 1);
	CHECK(a->conns[c0].listed & (1u << LIST_HALF));
	CHECK(!a->conns[c0].side[0].known);
	/* the reply to A's QP 0x11 finds it by the two addresses */
	CHECK_EQ(ib_to(a, host_b, host_a, 0x11, &to), c0);
	CHECK_EQ(to, 0);
	CHECK(a->conns[c0].side[0].known);
	CHECK_EQ(side_id(&a->conns[c0], 0), 0x11);
	CHECK(!(a->conns[c0].listed & (1u << LIST_HALF)));
	/* and both directions by endpoint from then on */
	CHECK_EQ(ib_to(a, host_a, host_b, 0x22, &to), c0);
	CHECK_EQ(ib_to(a, host_b, host_a, 0x11, &to), c0);
	CHECK_EQ(a->st.connections, 1);

	/* a second connection; the first used since: the second is the
	 * least recently used and goes for a third, with its calls */
	uint32_t c1 = ib_to(a, host_a, host_b, 0x33, &to);
	CHECK(c1 != NONE && c1 != c0);
	uint32_t ci = rra_call_new(a, c1, RR_DIR_FWD_CALL, 7);
	CHECK(ci != NONE);
	a->now_ns += 1000;
	rra_conn_touch(a, c0);
	CHECK_EQ(a->lru_last, c1);
	uint32_t c2 = ib_to(a, host_a, host_b, 0x44, &to);
	CHECK_EQ(c2, c1); /* the slot reused */
	CHECK_EQ(a->st.connections_evicted, 1);
	CHECK_EQ(rra_call_find(a, c1, RR_DIR_FWD_CALL, 7), NONE);
	CHECK_EQ(a->conns[c2].calls, NONE);
	CHECK_EQ(a->oldest_call, NONE);
	/* the evicted connection's endpoint leads nowhere now: QP 0x33 gets
	 * a new connection, evicting the least recently used (c0 now) */
	CHECK_EQ(a->lru_last, c0);
	uint32_t c3 = ib_to(a, host_a, host_b, 0x33, &to);
	CHECK_EQ(c3, c0);
	CHECK_EQ(a->st.connections_evicted, 2);
	/* indexes are reused, ids never: 0 and 1, then 2 and 3 in their places */
	CHECK_EQ(a->conns[c2].info.id, 2);
	CHECK_EQ(a->conns[c3].info.id, 3);

	/* IB CM communication IDs, newest first */
	rra_list_del(a, LIST_COMM, c3);
	a->conns[c3].comm_id = 0xabcd;
	rra_list_add(a, LIST_COMM, c3);
	CHECK_EQ(rra_conn_by_comm(a, 0xabcd), c3);
	CHECK_EQ(rra_conn_by_comm(a, 0xabce), NONE);
	rr_analyzer_free(a);
}

/* An iWARP connection from host_a's port to host_b's NFS/RDMA port. */
static uint32_t iwarp_conn(struct rr_analyzer *a, uint32_t port)
{
	int to;
	return rra_conn_for(a, RR_TRANSPORT_IWARP, host_a, port, host_b,
			    RR_NFS_RDMA_PORT, true, &to);
}

/* An iWARP connection from port, opened a millisecond on, and its first
 * call, xid in frame (a NULL when is_null): the frame that first carried
 * that xid (0: this). */
static uint32_t conn_with(struct rr_analyzer *a, uint32_t port, uint64_t frame,
			  uint32_t xid, bool is_null, uint64_t *first)
{
	a->now_ns += 1000000;
	uint32_t cn = iwarp_conn(a, port);
	a->frame_no = frame;
	*first = rra_resent_of(a, cn, xid, is_null).frame;
	return cn;
}

static uint32_t conn_with_call(struct rr_analyzer *a, uint32_t port, uint64_t frame,
			       uint32_t xid, uint64_t *first)
{
	return conn_with(a, port, frame, xid, false, first);
}

static void reconnects(void)
{
	check_ctx = "reconnects";
	struct rr_analyzer *a = analyzer(8, 16);
	uint64_t first;
	uint32_t old = conn_with_call(a, 40000, 10, 0x1234, &first);
	CHECK_EQ(first, 0);
	/* a second transport while the first is open (nconnect, another
	 * mount): beside it, not a reconnect, whatever xids it reuses */
	uint32_t beside = conn_with_call(a, 39999, 15, 0x1234, &first);
	CHECK_EQ(first, 0);
	CHECK_EQ(a->conns[beside].info.previous, RR_CONN_NONE);
	CHECK_EQ(a->st.reconnects, 0);
	/* the first closed, then a new one: the one it replaced, and the
	 * same xid on it a resend of frame 10 */
	rra_conn_closed(a, old, false);
	uint32_t new = conn_with_call(a, 40001, 20, 0x1234, &first);
	CHECK(new != old);
	CHECK_EQ(first, 10);
	CHECK_EQ(a->conns[new].info.previous, a->conns[old].info.id);
	CHECK_EQ(a->st.reconnects, 1);
	CHECK_EQ(rra_resent_of(a, new, 0x9999, false).frame, 0);
	CHECK_EQ(a->st.calls_resent, 1);
	/* resent again after a second reconnect: still the first sending */
	rra_conn_closed(a, new, false);
	uint32_t third = conn_with_call(a, 40002, 30, 0x1234, &first);
	CHECK_EQ(first, 10);
	CHECK_EQ(rra_resent_of(a, third, 0x9999, false).frame, 20);
	CHECK_EQ(a->st.calls_resent, 3);
	/* each closed one replaced already, the rest open: another mount's
	 * first connection, no reconnect */
	uint32_t other = conn_with_call(a, 40003, 40, 0x5555, &first);
	CHECK_EQ(first, 0);
	CHECK_EQ(a->conns[other].info.previous, RR_CONN_NONE);
	CHECK_EQ(a->st.reconnects, 2);
	/* the third closed, then one whose first call is a NULL: a new
	 * client's ping (a new mount), no reconnect; and none of its later
	 * calls a resend, whatever xid they reuse */
	rra_conn_closed(a, third, false);
	uint32_t pinged = conn_with(a, 40004, 50, 0x7777, true, &first);
	CHECK_EQ(first, 0);
	CHECK_EQ(a->conns[pinged].info.previous, RR_CONN_NONE);
	CHECK_EQ(rra_resent_of(a, pinged, 0x1234, false).frame, 0);
	CHECK_EQ(a->st.reconnects, 2);
	CHECK_EQ(a->st.calls_resent, 3);
	/* the third still free to be replaced by a connection that resends */
	uint32_t resends = conn_with_call(a, 40005, 60, 0x1234, &first);
	CHECK_EQ(first, 10);
	CHECK_EQ(a->conns[resends].info.previous, a->conns[third].info.id);
	CHECK_EQ(a->st.reconnects, 3);
	rr_analyzer_free(a);
}

/* A forward call of xid on connection cn, sent at the analyzer's time in
 * frame, and whether its xid was carried by the connection cn replaced
 * (rra_resent_of, as flow.c's message does), followed on as on_call does. */
static uint32_t resend_call(struct rr_analyzer *a, uint32_t cn, uint64_t frame, uint32_t xid)
{
	a->frame_no = frame;
	struct sent_before before = rra_resent_of(a, cn, xid, false);
	uint32_t ci = rra_call_new(a, cn, RR_DIR_FWD_CALL, xid);
	if (ci != NONE && before.frame)
		rra_resend_carry(a, cn, ci, before);
	return ci;
}

static void heard_both(struct rr_analyzer *a, uint32_t cn)
{
	a->conns[cn].info.heard = RR_HEARD_REQUESTER | RR_HEARD_RESPONDER;
}

/* Connection old closed, and after_ns later the one from port that
 * replaces it, both sides heard. */
static uint32_t reconnect(struct rr_analyzer *a, uint32_t old, uint32_t port,
			  uint64_t after_ns)
{
	rra_conn_closed(a, old, false);
	a->now_ns += after_ns;
	uint32_t cn = iwarp_conn(a, port);
	heard_both(a, cn);
	return cn;
}

#define SECOND 1000000000ull

static void resends(void)
{
	check_ctx = "resends";
	struct rr_analyzer *a = analyzer(8, 16);
	struct rr_call_sends worst;
	uint64_t first;
	a->now_ns = 100 * SECOND;
	/* xid 0x1234 sent on three connections in turn, each closed with it
	 * unanswered: one call, three sends, from its first */
	uint32_t c0 = conn_with_call(a, 40000, 1, 0x1000, &first);
	heard_both(a, c0);
	uint32_t x0 = resend_call(a, c0, 10, 0x1234);
	uint64_t sent_ns = a->now_ns;
	uint32_t c1 = reconnect(a, c0, 40001, 5 * SECOND);
	uint32_t x1 = resend_call(a, c1, 20, 0x1234);
	CHECK(a->calls[x1].resent);
	CHECK(a->calls[x0].superseded);
	uint32_t c2 = reconnect(a, c1, 40002, 5 * SECOND);
	uint32_t x2 = resend_call(a, c2, 30, 0x1234);
	CHECK(a->calls[x1].superseded && !a->calls[x1].resent);
	/* stuck a second after its last send, not before; the sends before
	 * it, superseded, are not */
	a->now_ns += SECOND / 2;
	CHECK_EQ(rr_analyzer_stuck_calls(a, &worst), 0);
	rr_analyzer_clock(a, a->now_ns + SECOND);
	CHECK_EQ(rr_analyzer_stuck_calls(a, &worst), 1);
	CHECK_EQ(worst.xid, 0x1234);
	CHECK_EQ(worst.sends, 3);
	CHECK_EQ(worst.first_ns, sent_ns);
	CHECK_EQ(worst.frames.first, 10);
	CHECK_EQ(worst.frames.last, 30);
	CHECK_EQ(worst.conn, a->conns[c2].info.id);
	/* the diagnosis names it, an error */
	struct rr_diagnosis_item d[RR_DIAGNOSIS_COUNT];
	unsigned n = rr_diagnose(a, d, RR_DIAGNOSIS_COUNT);
	CHECK(n >= 1 && d[0].id == RR_DIAG_CALLS_STUCK && d[0].severity == RR_SEV_ERROR);
	CHECK(n >= 1 && strstr(d[0].evidence, "xid 0x00001234") &&
	      strstr(d[0].evidence, "sent on 3 connections"));
	/* answered at last: late, not stuck; the reconnects a warning */
	a->frame_no = 40;
	rra_resend_answered(a, x2);
	a->calls[x2].answered = true;
	CHECK_EQ(a->st.calls_late, 1);
	CHECK_EQ(a->st.late_call.sends, 3);
	CHECK_EQ(a->st.late_call.frames.last, 40);
	CHECK_EQ(rr_analyzer_stuck_calls(a, &worst), 0);
	n = rr_diagnose(a, d, RR_DIAGNOSIS_COUNT);
	CHECK(n == 1 && d[0].id == RR_DIAG_RECONNECTS && d[0].severity == RR_SEV_WARN);
	CHECK_EQ(d[0].events, 2);

	/* sent once: stuck only 10 s on and ten times its procedure's 99th
	 * percentile (of 20 calls or more) past, on an open connection */
	uint32_t y = resend_call(a, c2, 50, 0x5678);
	uint64_t y_sent = a->now_ns;
	rr_analyzer_clock(a, y_sent + 9 * SECOND);
	CHECK_EQ(rr_analyzer_stuck_calls(a, &worst), 0);
	rr_analyzer_clock(a, y_sent + 11 * SECOND);
	CHECK_EQ(rr_analyzer_stuck_calls(a, &worst), 1);
	CHECK_EQ(worst.sends, 1);
	for (int i = 0; i < 20; i++)
		rr_latency_record(&a->st.latency[a->calls[y].slot], 2 * SECOND);
	CHECK_EQ(rr_analyzer_stuck_calls(a, &worst), 0);
	rr_analyzer_clock(a, y_sent + 21 * SECOND);
	CHECK_EQ(rr_analyzer_stuck_calls(a, &worst), 1);
	/* as the capture ends: counted where stuck */
	a->now_ns = y_sent + 21 * SECOND;
	rra_resend_unanswered(a, y);
	CHECK_EQ(a->st.calls_stuck, 1);
	CHECK_EQ(a->st.stuck_call.xid, 0x5678);
	/* a closed connection's call sent once is not stuck there */
	rra_conn_closed(a, c2, false);
	CHECK_EQ(rr_analyzer_stuck_calls(a, &worst), 0);

	/* a capture of the calls alone: no call of it is stuck */
	uint32_t c3 = iwarp_conn(a, 40003);
	a->conns[c3].info.heard = RR_HEARD_REQUESTER;
	resend_call(a, c3, 60, 0x5678);
	rr_analyzer_clock(a, a->now_ns + 100 * SECOND);
	CHECK_EQ(rr_analyzer_stuck_calls(a, &worst), 0);
	rr_analyzer_free(a);

	/* a capture of the client's frames alone: a call sent again after a
	 * reconnect, and nothing said of answers it holds none of */
	a = analyzer(8, 16);
	a->now_ns = 100 * SECOND;
	uint32_t r0 = conn_with_call(a, 40000, 1, 0x1000, &first);
	a->conns[r0].info.heard = RR_HEARD_REQUESTER;
	resend_call(a, r0, 10, 0x2468);
	rra_conn_closed(a, r0, false);
	a->now_ns += SECOND;
	uint32_t r1 = iwarp_conn(a, 40001);
	a->conns[r1].info.heard = RR_HEARD_REQUESTER;
	resend_call(a, r1, 20, 0x2468);
	n = rr_diagnose(a, d, RR_DIAGNOSIS_COUNT);
	CHECK(n == 1 && d[0].id == RR_DIAG_RECONNECTS && d[0].severity == RR_SEV_NOTE);
	CHECK(n == 1 && strstr(d[0].evidence, "1 call sent again") &&
	      !strstr(d[0].evidence, "answered"));
	rr_analyzer_free(a);
}

/* A call answered, then sent again on the next connection all the same
 * (an RPC client's retry of a call answered GARBAGE_ARGS): a retry, not
 * a call stuck or late, and the reconnects' evidence names it. */
static void retries(void)
{
	check_ctx = "retries";
	const enum rr_reply_status garbage_args = RR_REPLY_ACCEPTED + RR_RPC_GARBAGE_ARGS,
				   system_err = RR_REPLY_ACCEPTED + RR_RPC_SYSTEM_ERR;
	struct rr_analyzer *a = analyzer(8, 16);
	struct rr_call_sends worst;
	uint64_t first;
	a->now_ns = 100 * SECOND;
	uint32_t c0 = conn_with_call(a, 40000, 1, 0x1000, &first);
	heard_both(a, c0);
	uint32_t x0 = resend_call(a, c0, 10, 0x4321);
	rra_sent_answered(a, c0, 0x4321, garbage_args);
	rra_call_end(a, x0);
	/* answered on the connection before: its entry says so */
	uint32_t c1 = reconnect(a, c0, 40001, SECOND);
	uint32_t x1 = resend_call(a, c1, 20, 0x4321);
	CHECK(!a->calls[x1].resent);
	CHECK_EQ(a->st.calls_retried, 1);
	CHECK_EQ(a->st.calls_resent, 1);
	CHECK_EQ(a->st.retried_call.xid, 0x4321);
	CHECK_EQ(a->st.retried_call.sends, 2);
	CHECK_EQ(a->st.retried_call.status, garbage_args);
	CHECK_EQ(a->st.retried_call.frames.first, 10);
	CHECK_EQ(a->st.retried_call.frames.last, 20);
	/* answered again, sent a third time: one call, three sends */
	rra_sent_answered(a, c1, 0x4321, system_err);
	rra_call_end(a, x1);
	uint32_t c2 = reconnect(a, c1, 40002, SECOND);
	resend_call(a, c2, 30, 0x4321);
	CHECK_EQ(a->st.calls_retried, 2);
	CHECK_EQ(a->st.retried_call.sends, 3);
	CHECK_EQ(a->st.retried_call.status, system_err);
	CHECK_EQ(a->st.retried_call.frames.last, 30);
	CHECK_EQ(a->st.retried_call.conn, a->conns[c2].info.id);
	/* a retry is neither late nor, answered at once, stuck */
	CHECK_EQ(a->st.calls_late, 0);
	rr_analyzer_clock(a, a->now_ns + 30 * SECOND);
	/* (the third send is unanswered 30 s on: stuck as a call sent once) */
	CHECK_EQ(rr_analyzer_stuck_calls(a, &worst), 1);
	CHECK_EQ(worst.sends, 1);
	rr_analyzer_clock(a, 0);
	struct rr_diagnosis_item d[RR_DIAGNOSIS_COUNT];
	unsigned n = rr_diagnose(a, d, RR_DIAGNOSIS_COUNT);
	CHECK(n == 1 && d[0].id == RR_DIAG_RECONNECTS && d[0].severity == RR_SEV_NOTE);
	CHECK(n == 1 && strstr(d[0].evidence, "2 calls sent again, 2 though answered: "
			       "xid 0x00004321 an unnamed call, SYSTEM_ERR, on 3 connections"));
	CHECK(n == 1 && d[0].frames.first == 10 && d[0].frames.last == 30);
	rr_analyzer_free(a);
}

static void calls(void)
{
	check_ctx = "calls";
	struct rr_analyzer *a = analyzer(4, 3);
	int to;
	uint32_t c = ib_to(a, host_a, host_b, 0x22, &to);
	uint32_t x1 = rra_call_new(a, c, RR_DIR_FWD_CALL, 1);
	uint32_t x2 = rra_call_new(a, c, RR_DIR_FWD_CALL, 2);
	uint32_t x3 = rra_call_new(a, c, RR_DIR_FWD_CALL, 3);
	CHECK(x1 != NONE && x2 != NONE && x3 != NONE);
	CHECK_EQ(rra_call_find(a, c, RR_DIR_FWD_CALL, 2), x2);
	/* the middle one answered and freed: the lists close over it */
	rra_call_free(a, x2);
	CHECK_EQ(rra_call_find(a, c, RR_DIR_FWD_CALL, 2), NONE);
	CHECK_EQ(a->calls[x1].age.next, x3);
	CHECK_EQ(a->calls[x3].age.prev, x1);
	/* full: no slot; the layer that knows what a call holds makes room
	 * (flow.c ends the oldest, call_eviction below) */
	uint32_t x4 = rra_call_new(a, c, RR_DIR_FWD_CALL, 4);
	CHECK(x4 != NONE);
	CHECK_EQ(rra_call_new(a, c, RR_DIR_FWD_CALL, 5), NONE);
	CHECK_EQ(a->st.calls_evicted, 0);
	CHECK_EQ(a->oldest_call, x1);
	CHECK_EQ(a->newest_call, x4);
	unsigned n = 0;
	for (uint32_t i = a->conns[c].calls; i != NONE; i = a->calls[i].conn_link.next)
		n++;
	CHECK_EQ(n, 3);
	rr_analyzer_free(a);
}

/* An RDMA_MSG carrying an NFSv3 NULL call or its reply. */
static uint32_t null_rpc(uint8_t *out, size_t cap, uint32_t xid, bool call)
{
	struct rr_buf b;
	rr_buf_init(&b, out, cap);
	struct rr_rpcrdma h = { .xid = xid, .vers = 1, .credits = 32,
				.proc = RR_RDMA_MSG };
	rr_rpcrdma_encode(&b, &h);
	struct rr_rpc r = { .xid = xid, .msg_type = call ? RR_RPC_CALL : RR_RPC_REPLY,
			    .rpcvers = 2, .prog = RR_PROG_NFS, .vers = 3 };
	rr_rpc_encode(&b, &r, NULL, NULL);
	return (uint32_t)b.len;
}

static void flow(void)
{
	check_ctx = "flow";
	struct rr_analyzer *a = analyzer(4, 16);
	int to;
	uint8_t m[128];
	uint32_t c = ib_to(a, host_a, host_b, 0x22, &to);
	uint32_t n = null_rpc(m, sizeof(m), 0x77, true);
	rra_message(a, c, 1, m, n, n, 0, NULL);
	CHECK_EQ(a->st.total.calls, 1);
	CHECK_EQ(a->conns[c].info.st.in_flight, 1);
	CHECK(rra_call_find(a, c, RR_DIR_FWD_CALL, 0x77) != NONE);
	a->now_ns += 50000;
	n = null_rpc(m, sizeof(m), 0x77, false);
	rra_message(a, c, 0, m, n, n, 0, NULL);
	CHECK_EQ(a->st.total.replies, 1);
	CHECK_EQ(a->conns[c].info.st.in_flight, 0);
	CHECK_EQ(a->conns[c].info.st.grant, 32);
	unsigned slot = rr_analyzer_proc_slot(RR_PROG_NFS, 3, 0);
	CHECK_EQ(a->st.rpc_calls[slot], 1);
	CHECK_EQ(a->st.latency[slot].count, 1);
	CHECK_EQ(a->st.latency[slot].sum_ns, 50000);
	/* RDMA_DONE for a reply that used no read chunk of the responder's
	 * (RFC 8166 §4.6.2) */
	struct rr_buf b;
	rr_buf_init(&b, m, sizeof(m));
	struct rr_rpcrdma done = { .xid = 0x77, .vers = 1, .credits = 32,
				   .proc = RR_RDMA_DONE };
	rr_rpcrdma_encode(&b, &done);
	rra_message(a, c, 1, m, (uint32_t)b.len, (uint32_t)b.len, 0, NULL);
	CHECK_EQ(a->st.findings[RR_FIND_DONE_NO_RRC], 1);
	CHECK_EQ(a->st.total.findings, 1);
	rr_analyzer_free(a);
}

/* A RoCEv2 frame of bth, ext (NULL: none) and m, from 192.0.2.2 to
 * 192.0.2.1 (the requester's), or back (back: the responder's). */
static uint32_t roce_packet(uint8_t *frame, size_t cap, const struct rr_bth *bth,
			    const struct rr_ext *ext, const uint8_t *m, uint32_t n, bool back)
{
	uint8_t ib[512];
	struct rr_buf ibb, fb;
	rr_buf_init(&ibb, ib, sizeof(ib));
	rr_ib_encode(&ibb, bth, ext, m, n);
	struct rr_endpoints ep = { .ip_version = 4, .src_ip = { 192, 0, 2, back ? 1 : 2 },
				   .dst_ip = { 192, 0, 2, back ? 2 : 1 }, .src_port = 49152,
				   .dst_port = RR_ROCEV2_UDP_PORT, .ttl = 64 };
	rr_buf_init(&fb, frame, cap);
	rr_frame_rocev2(&fb, &ep, ib, ibb.len);
	return (uint32_t)fb.len;
}

/* A RoCEv2 frame from host A to B's QP 0x22 carrying payload m. */
static uint32_t roce_frame(uint8_t *frame, size_t cap, uint8_t opcode,
			   uint32_t psn, const uint8_t *m, uint32_t n)
{
	struct rr_bth bth = { .opcode = opcode, .dqpn = 0x22, .psn = psn };
	return roce_packet(frame, cap, &bth, NULL, m, n, false);
}

/* A message whole in its packet takes its header from the frame's decode
 * (flow.c, ib_flow.c): the same header, RPC header and note as its own
 * decode, offsets from the message's start.  A call with a write chunk of
 * two segments and a credential, and a message whose RPC is cut short. */
static void message_from_frame(void)
{
	check_ctx = "message from frame";
	for (int cut = 0; cut < 2; cut++) {
		uint8_t m[256], frame[400];
		struct rr_buf b;
		rr_buf_init(&b, m, sizeof(m));
		struct rr_rpcrdma h = { .xid = 0x99, .vers = 1, .credits = 16,
					.proc = RR_RDMA_MSG };
		rr_rpcrdma_add_segment(&h, RR_LIST_WRITE, 0, 0, 0x1111, 4096, 0x10000);
		rr_rpcrdma_add_segment(&h, RR_LIST_WRITE, 0, 0, 0x2222, 4096, 0x20000);
		rr_rpcrdma_encode(&b, &h);
		static const uint8_t cred[12] = { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
		struct rr_rpc r = { .xid = 0x99, .msg_type = RR_RPC_CALL,
				    .rpcvers = 2, .prog = RR_PROG_NFS, .vers = 3,
				    .proc = 6, .cred_flavor = 1,
				    .cred_len = sizeof(cred) };
		rr_rpc_encode(&b, &r, cred, NULL);
		/* cut: the RPC header's verifier runs past the message */
		uint32_t n = (uint32_t)b.len - (cut ? 6 : 0);
		uint32_t len = roce_frame(frame, sizeof(frame), RR_OP_RC_SEND_ONLY,
					  5, m, n);
		struct rr_config cfg;
		rr_config_init(&cfg);
		static struct rr_frame f;
		rr_decode_frame(&cfg, RR_LINK_ETHERNET, frame, len, len, NULL, &f);
		CHECK(rr_has(&f, RR_LAYER_RPCRDMA) && rr_has(&f, RR_LAYER_RPC));
		CHECK_EQ(f.payload.len, n);
		const uint8_t *pl = frame + f.payload.off;
		struct rr_analyzer *own = analyzer(4, 16), *taken = analyzer(4, 16);
		int to;
		uint32_t c1 = ib_to(own, host_a, host_b, 0x22, &to);
		uint32_t c2 = ib_to(taken, host_a, host_b, 0x22, &to);
		rra_message(own, c1, 1, pl, n, n, 0, NULL);
		rra_message(taken, c2, 1, pl, n, n, 0, &f);
		const struct rr_rpcrdma *x = &own->hdr, *y = &taken->hdr;
		CHECK_EQ(x->nsegs, 2);
		CHECK(!memcmp(x, y, offsetof(struct rr_rpcrdma, segs)));
		CHECK(!memcmp(x->segs, y->segs, x->nsegs * sizeof(x->segs[0])));
		CHECK(x->payload.off == y->payload.off && x->payload.len == y->payload.len);
		CHECK_EQ(x->write_list_off, 20); /* after four words and the read list's 0 */
		CHECK(!memcmp(&own->rpc, &taken->rpc, sizeof(own->rpc)));
		CHECK_EQ(own->rpc.cred_off, x->payload.off + 24);
		CHECK(!memcmp(&own->note, &taken->note, sizeof(own->note)));
		CHECK_EQ(own->note.status, cut ? RR_MALFORMED : RR_COMPLETE);
		CHECK_EQ(own->st.total.calls, taken->st.total.calls);
		CHECK_EQ(own->st.total.calls, cut ? 0 : 1);
		rr_analyzer_free(own);
		rr_analyzer_free(taken);
	}
}

static void report(void)
{
	check_ctx = "report";
	struct rr_analyzer *a = analyzer(4, 16);
	const struct rr_frame_report *r = &a->rep.pub;
	int to;
	uint8_t frame[256], m[128];
	uint32_t c = ib_to(a, host_a, host_b, 0x22, &to);
	uint32_t n = null_rpc(frame + 40, sizeof(frame) - 40, 0x77, true);
	a->frame_no = 1;
	rra_report_begin(a, a->frame_no, a->now_ns, frame, sizeof(frame));
	rra_message(a, c, 1, frame + 40, n, n, 0, NULL);
	/* the call, whole in the frame: its place there, its header kept */
	CHECK_EQ(r->nevents, 1);
	const struct rr_event *call = &r->events[0];
	CHECK_EQ(call->kind, RR_EV_MESSAGE);
	CHECK_EQ(call->msg.frame_at, 41);
	CHECK(call->msg.data == frame + 40);
	CHECK_EQ(call->msg.hdr->xid, 0x77);
	CHECK(call->msg.rpc && call->msg.rpc->msg_type == RR_RPC_CALL);
	CHECK_EQ(call->msg.calls_in_flight, 0);
	CHECK(!call->msg.done && !call->message);

	/* a reply reassembled elsewhere (copied), with a finding raised while
	 * it was taken (its xid differs from the RPC's) and its completion */
	a->frame_no = 2;
	rra_report_begin(a, a->frame_no, a->now_ns, frame, sizeof(frame));
	n = null_rpc(m, sizeof(m), 0x77, false);
	uint32_t rpc_xid_at = 28; /* RPC header after a 28-byte MSG header */
	m[rpc_xid_at + 3] ^= 1;
	rra_message(a, c, 0, m, n, n, 0, NULL);
	rra_finding(a, NONE, RR_FIND_TRUNCATED, "after"); /* the frame's own */
	CHECK_EQ(r->frame, 2);
	CHECK_EQ(r->nevents, 4);
	const struct rr_event *reply = &r->events[0];
	CHECK_EQ(reply->kind, RR_EV_MESSAGE);
	CHECK_EQ(reply->msg.frame_at, 0);
	CHECK(reply->msg.data && reply->msg.data != m && reply->msg.data_len == n &&
	      !memcmp(reply->msg.data, m, n));
	CHECK_EQ(reply->msg.calls_in_flight, 1);
	CHECK_EQ(r->events[1].kind, RR_EV_FINDING);
	CHECK_EQ(r->events[1].finding.id, RR_FIND_XID_MISMATCH);
	CHECK(r->events[1].message == reply);
	CHECK_EQ(r->events[2].kind, RR_EV_RPC_DONE);
	CHECK(reply->msg.done == &r->events[2] && r->events[2].message == reply);
	CHECK(!r->events[3].message);
	CHECK_EQ(r->bytes_unkept, 0);

	/* more than a report holds: counted, not listed; bytes past
	 * report_bytes: data NULL and counted */
	rra_report_begin(a, a->frame_no, a->now_ns, NULL, 0);
	for (unsigned i = 0; i < RR_REPORT_EVENTS + 3; i++)
		rra_finding(a, NONE, RR_FIND_ICRC, NULL);
	CHECK_EQ(r->nevents, RR_REPORT_EVENTS);
	CHECK_EQ(r->unreported, 3);
	rra_report_begin(a, a->frame_no, a->now_ns, NULL, 0);
	uint8_t big[300] = { 0 };
	struct rr_event ev = { .kind = RR_EV_RPC_MESSAGE, .conn = NONE,
			       .rebuilt = { .data = big, .data_len = sizeof(big) } };
	rra_emit(a, &ev);
	CHECK(!r->events[0].rebuilt.data);
	CHECK_EQ(r->bytes_unkept, 1);
	rr_analyzer_free(a);
}

/* With the call table full, a new call ends the oldest (flow.c), which
 * leaves the credits it held. */
static void call_eviction(void)
{
	check_ctx = "call eviction";
	struct rr_analyzer *a = analyzer(4, 2);
	int to;
	uint8_t m[128];
	uint32_t c = ib_to(a, host_a, host_b, 0x22, &to);
	for (uint32_t xid = 1; xid <= 3; xid++) {
		uint32_t n = null_rpc(m, sizeof(m), xid, true);
		rra_message(a, c, 1, m, n, n, 0, NULL);
	}
	CHECK_EQ(a->st.calls_evicted, 1);
	CHECK_EQ(rra_call_find(a, c, RR_DIR_FWD_CALL, 1), NONE);
	CHECK(rra_call_find(a, c, RR_DIR_FWD_CALL, 2) != NONE);
	CHECK(rra_call_find(a, c, RR_DIR_FWD_CALL, 3) != NONE);
	CHECK_EQ(a->conns[c].info.st.in_flight, 2);
	CHECK_EQ(a->st.total.in_flight, 2);
	rr_analyzer_free(a);
}

/* A SEND in pieces (reassembly.c): whole when its last piece comes; a
 * piece after a loss drops it; a piece whose first was not captured is
 * not a message; a SEND whole in one packet is one at once. */
static void send_pieces(void)
{
	check_ctx = "send pieces";
	struct rr_analyzer *a = analyzer(4, 16);
	int to;
	uint8_t m[128];
	uint32_t c = ib_to(a, host_a, host_b, 0x22, &to);
	const struct side *sd = &a->conns[c].side[1];
	uint32_t n = null_rpc(m, sizeof(m), 0x51, true);
	rra_send_piece(a, c, 1, true, false, true, m, 20, 20, 0);
	CHECK(sd->slot != NONE);
	CHECK_EQ(rra_send_have(a, sd), 20);
	rra_send_piece(a, c, 1, false, false, true, m + 20, 20, 20, 0);
	CHECK_EQ(rra_send_have(a, sd), 40);
	CHECK_EQ(a->st.total.calls, 0);
	rra_send_piece(a, c, 1, false, true, true, m + 40, n - 40, n - 40, 0);
	CHECK_EQ(a->st.total.calls, 1);
	CHECK(rra_call_find(a, c, RR_DIR_FWD_CALL, 0x51) != NONE);
	CHECK_EQ(sd->slot, NONE);
	/* a piece lost between the first and the last */
	n = null_rpc(m, sizeof(m), 0x52, true);
	rra_send_piece(a, c, 1, true, false, true, m, 20, 20, 0);
	rra_send_piece(a, c, 1, false, true, false, m + 40, n - 40, n - 40, 0);
	CHECK_EQ(sd->slot, NONE);
	CHECK_EQ(a->st.total.calls, 1);
	/* a last piece alone */
	rra_send_piece(a, c, 1, false, true, true, m + 40, n - 40, n - 40, 0);
	CHECK_EQ(a->st.total.calls, 1);
	CHECK_EQ(a->st.total.findings, 0);
	/* whole in one packet: the message, no slot taken */
	rra_send_whole(a, c, 1, m, n, n, 0, NULL);
	CHECK_EQ(a->st.total.calls, 2);
	CHECK_EQ(sd->slot, NONE);
	/* cut by the capture: 10 of 20 bytes captured, the length still
	 * counts the whole */
	rra_send_piece(a, c, 1, true, false, true, m, 10, 20, 0);
	CHECK_EQ(rra_send_have(a, sd), 20);
	rr_analyzer_free(a);
}

/* A call on connection c with one chunk segment of `list` (a read
 * segment at position 0: a Long Call, its message all in the chunk). */
static void call_with_chunk(struct rr_analyzer *a, uint32_t c, uint32_t xid,
			    uint8_t list, uint32_t handle, uint32_t length,
			    uint64_t offset)
{
	uint8_t m[256];
	struct rr_buf b;
	rr_buf_init(&b, m, sizeof(m));
	struct rr_rpcrdma h = { .xid = xid, .vers = 1, .credits = 16,
				.proc = list == RR_LIST_READ ? RR_RDMA_NOMSG :
							       RR_RDMA_MSG };
	rr_rpcrdma_add_segment(&h, list, 0, 0, handle, length, offset);
	rr_rpcrdma_encode(&b, &h);
	if (list != RR_LIST_READ) {
		struct rr_rpc r = { .xid = xid, .msg_type = RR_RPC_CALL,
				    .rpcvers = 2, .prog = RR_PROG_NFS,
				    .vers = 3, .proc = 6 };
		rr_rpc_encode(&b, &r, NULL, NULL);
	}
	rra_message(a, c, 1, m, (uint32_t)b.len, (uint32_t)b.len, 0, NULL);
}

/* RDMA traffic of chunks (chunk_io.c), as a transport hands it over. */
static void chunk_transfers(void)
{
	check_ctx = "chunk transfers";
	struct rr_analyzer *a = analyzer(4, 16);
	int to;
	uint8_t data[200] = { 0 };
	uint32_t c = ib_to(a, host_a, host_b, 0x22, &to);
	call_with_chunk(a, c, 0x61, RR_LIST_WRITE, 0x1111, 4096, 0x10000);
	uint32_t ci = rra_call_find(a, c, RR_DIR_FWD_CALL, 0x61);
	CHECK(ci != NONE);
	/* a Write whose later packets follow it (IB): an operation, its
	 * data placed, its position past the first packet */
	struct rdma_op *o = rra_write_landed(a, c, 0, 0x1111, 0x10000, 300,
					     data, 100, 100, true);
	CHECK(o != NULL);
	if (o) {
		CHECK_EQ(o->pos, 100);
		CHECK_EQ(o->left, 300);
		CHECK(!o->read);
		CHECK_EQ(o->data_side, 1);
		rra_op_landed(a, c, o, RR_ACCESS_WRITE, 0, data, 100, 100);
		rra_op_end(a, o);
	}
	CHECK_EQ(a->conns[c].info.st.bytes_write, 300);
	CHECK_EQ(a->calls[ci].bytes_write, 300);
	CHECK(a->calls[ci].rebuild != NO_REBUILD);
	CHECK_EQ(a->rebuilds[a->calls[ci].rebuild].write_have, 200);
	/* each segment with its own address (iWARP): no operation */
	CHECK(!rra_write_landed(a, c, 0, 0x1111, 0x10000 + 200, 100, data, 100,
				100, false));
	CHECK_EQ(a->rebuilds[a->calls[ci].rebuild].write_have, 300);
	/* past the segment's end: a finding; on no segment: nothing */
	rra_write_landed(a, c, 0, 0x1111, 0x10000 + 4000, 200, data, 100, 100,
			 false);
	CHECK_EQ(a->st.findings[RR_FIND_WRITE_BEYOND], 1);
	CHECK(!rra_write_landed(a, c, 0, 0x9999, 0, 100, data, 100, 100, true));
	CHECK_EQ(a->st.total.findings, 1);

	/* a Long Call: the Read Request names its chunk, the data read
	 * back is the call, which then names its procedure */
	uint8_t m[128];
	uint32_t n = null_rpc(m, sizeof(m), 0x62, true);
	uint32_t rpc_at = 28; /* past the RDMA_MSG header null_rpc made */
	call_with_chunk(a, c, 0x62, RR_LIST_READ, 0x3333, n - rpc_at, 0x5000);
	unsigned unknown = RR_PROC_SLOTS - 1;
	CHECK_EQ(a->st.rpc_calls[unknown], 1);
	o = rra_read_requested(a, c, 0, 0x3333, 0x5000, n - rpc_at);
	CHECK(o != NULL);
	if (o) {
		CHECK(o->read);
		CHECK_EQ(o->data_side, 0);
		rra_op_landed(a, c, o, RR_ACCESS_READ_RESPONSE, 0, m + rpc_at,
			      n - rpc_at, n - rpc_at);
		rra_op_end(a, o);
	}
	CHECK_EQ(a->st.messages_rebuilt, 1);
	CHECK_EQ(a->st.rpc_calls[unknown], 0);
	CHECK_EQ(a->st.rpc_calls[rr_analyzer_proc_slot(RR_PROG_NFS, 3, 0)], 1);
	CHECK_EQ(a->conns[c].info.st.bytes_read, n - rpc_at);
	/* a Read of no chunk: nothing to follow */
	CHECK(!rra_read_requested(a, c, 0, 0x4444, 0, 10));
	rr_analyzer_free(a);
}

/* A Long Call under RPCSEC_GSS integrity (sec=krb5i: no chunk reduces
 * its body, RFC 8166 §8.2.2.3): SEQUENCE, PUTFH, WRITE of 4000 bytes,
 * GETATTR, all in a position-zero read chunk read back in two packets.
 * The first names the call, its first three operations and WRITE's
 * range; GETATTR, past the data, is named once the message is whole. */
static void long_call_integrity(void)
{
	check_ctx = "long call under krb5i";
	struct rr_analyzer *a = analyzer(4, 16);
	int to;
	uint32_t c = ib_to(a, host_a, host_b, 0x22, &to);
	static uint8_t m[8192];
	struct rr_buf b;
	rr_buf_init(&b, m, sizeof(m));
	/* rpc_gss_cred_vers_1_t: version, RPCSEC_GSS_DATA, seq 7, integrity,
	 * a handle of 4 bytes (RFC 2203 §5) */
	uint8_t cred[24] = { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 2,
			     0, 0, 0, 4, 1, 2, 3, 4 };
	struct rr_rpc r = { .xid = 0x81, .msg_type = RR_RPC_CALL, .rpcvers = 2,
			    .prog = RR_PROG_NFS, .vers = 4, .proc = 1,
			    .cred_flavor = RR_AUTH_RPCSEC_GSS, .cred_len = sizeof(cred) };
	rr_rpc_encode(&b, &r, cred, NULL);
	size_t integ_len_at = b.len;
	rr_put_be32(&b, 0);		/* databody_integ<>: set below */
	rr_put_be32(&b, 7);		/* its seq_num, the credential's */
	rr_put_be32(&b, 0);		/* COMPOUND4args: tag "" */
	rr_put_be32(&b, 1);		/* minorversion */
	rr_put_be32(&b, 4);		/* numops */
	rr_put_be32(&b, RR_OP_SEQUENCE);
	rr_put_zeros(&b, 16 + 4 * 4);
	rr_put_be32(&b, RR_OP_PUTFH);
	rr_put_xdr_opaque(&b, cred, 8);
	rr_put_be32(&b, RR_OP_WRITE);
	rr_put_zeros(&b, 16);
	rr_put_be64(&b, 65536);		/* offset */
	rr_put_be32(&b, 2);		/* FILE_SYNC4 */
	static const uint8_t data[4000];
	rr_put_xdr_opaque(&b, data, sizeof(data));
	rr_put_be32(&b, RR_OP_GETATTR);
	rr_put_be32(&b, 1);
	rr_put_be32(&b, 0x10);
	size_t integ_end = b.len;
	rr_put_xdr_opaque(&b, cred, 16); /* checksum */
	uint32_t integ_len = (uint32_t)(integ_end - integ_len_at - 4);
	m[integ_len_at] = (uint8_t)(integ_len >> 24);
	m[integ_len_at + 1] = (uint8_t)(integ_len >> 16);
	m[integ_len_at + 2] = (uint8_t)(integ_len >> 8);
	m[integ_len_at + 3] = (uint8_t)integ_len;
	uint32_t n = (uint32_t)b.len;
	CHECK(!b.overflow);

	call_with_chunk(a, c, 0x81, RR_LIST_READ, 0x5555, n, 0x9000);
	uint32_t ci = rra_call_find(a, c, RR_DIR_FWD_CALL, 0x81);
	CHECK(ci != NONE);
	struct rdma_op *o = rra_read_requested(a, c, 0, 0x5555, 0x9000, n);
	CHECK(o != NULL);
	if (!o || ci == NONE) {
		rr_analyzer_free(a);
		return;
	}
	/* the first packet: up to the WRITE's data */
	uint32_t first = 256;
	rra_op_landed(a, c, o, RR_ACCESS_READ_RESPONSE, 0, m, first, first);
	struct call *call = &a->calls[ci];
	CHECK(call->nfs4 && call->nfs4_numops == 4 && call->nfs4_named == 3);
	CHECK(call->range_known && call->io_offset == 65536 && call->io_count == 4000);
	CHECK_EQ(a->st.nfs4_ops[rr_nfs4_op_slot(RR_OP_WRITE)], 1);
	CHECK_EQ(a->st.nfs4_ops[RR_NFS4_OP_OTHER], 1);
	CHECK_EQ(a->st.messages_rebuilt, 0);
	/* the rest: the message whole, GETATTR named */
	rra_op_landed(a, c, o, RR_ACCESS_READ_RESPONSE, first, m + first, n - first,
		      n - first);
	rra_op_end(a, o);
	CHECK_EQ(a->st.messages_rebuilt, 1);
	CHECK_EQ(call->nfs4_named, 4);
	CHECK_EQ(call->nfs4_op[3], RR_OP_GETATTR);
	CHECK_EQ(a->st.nfs4_ops[rr_nfs4_op_slot(RR_OP_GETATTR)], 1);
	CHECK_EQ(a->st.nfs4_ops[RR_NFS4_OP_OTHER], 0);
	CHECK_EQ(a->st.nfs4_ops[rr_nfs4_op_slot(RR_OP_WRITE)], 1);
	CHECK(call->io == RRA_IO_WRITE);
	rr_analyzer_free(a);
}

/* A connection evicted (flow.c's rra_conn_open): its calls ended with
 * their rebuild slots, and an iWARP connection's TCP streams free again
 * for the next one (iwarp_flow.c). */
static void conn_eviction(void)
{
	check_ctx = "connection eviction";
	struct rr_analyzer *a = analyzer(1, 16);
	int to;
	uint32_t c = ib_to(a, host_a, host_b, 0x22, &to);
	call_with_chunk(a, c, 0x71, RR_LIST_WRITE, 0x1111, 4096, 0x10000);
	uint8_t data[64] = { 0 };
	rra_write_landed(a, c, 0, 0x1111, 0x10000, 64, data, 64, 64, false);
	uint32_t ci = rra_call_find(a, c, RR_DIR_FWD_CALL, 0x71);
	CHECK(ci != NONE && a->calls[ci].rebuild != NO_REBUILD);
	uint32_t slot = ci != NONE ? a->calls[ci].rebuild : 0;
	uint32_t c2 = rra_conn_open(a, RR_TRANSPORT_ROCEV2);
	CHECK_EQ(c2, c);
	CHECK_EQ(a->st.connections_evicted, 1);
	CHECK_EQ(a->oldest_call, NONE);
	CHECK_EQ(a->rebuilds[slot].call, NONE);
	CHECK_EQ(a->st.total.in_flight, 0);
	CHECK_EQ(a->st.rebuild_incomplete, 0); /* a write chunk awaits no read */
	rr_analyzer_free(a);

	/* iWARP: a connection opened by MPA takes a stream per side */
	struct rr_config cfg;
	struct rr_analyzer_limits lim;
	rr_config_init(&cfg);
	rr_analyzer_limits_init(&lim);
	lim.max_connections = 1;
	lim.tcp_streams = 2;
	for (int round = 0; round < 3; round++) {
		if (round == 0)
			a = rr_analyzer_new(&cfg, &lim);
		uint8_t frame[256], mpa[64];
		struct rr_buf b, fb;
		rr_buf_init(&b, mpa, sizeof(mpa));
		struct rr_mpa req = { .revision = 1, .crc = true };
		rr_mpa_encode(&b, &req, NULL, 0);
		struct rr_endpoints ep = { .ip_version = 4,
					   .src_ip = { 192, 0, 2, 2 },
					   .dst_ip = { 192, 0, 2, 1 },
					   .src_port = (uint16_t)(40000 + round),
					   .dst_port = RR_NFS_RDMA_PORT,
					   .ttl = 64 };
		rr_buf_init(&fb, frame, sizeof(frame));
		rr_frame_tcp(&fb, &ep, 1000, 0, RR_TCP_ACK | RR_TCP_PSH, 65535,
			     mpa, b.len);
		const struct rr_frame_report *r = rr_analyzer_frame(
			a, RR_LINK_ETHERNET, 0, frame, (uint32_t)fb.len, (uint32_t)fb.len);
		CHECK_EQ(a->st.reassembly_dropped, 0);
		CHECK_EQ(a->st.connections, (uint64_t)round + 1);
		/* the MPA Request is listed first, with the connection it
		 * opened, in the slot of the one evicted for it */
		CHECK(r->nevents >= 1 && r->events[0].kind == RR_EV_SETUP);
		const struct rr_event *setup = &r->events[0];
		CHECK(setup->setup.unit && rr_has(setup->setup.unit, RR_LAYER_MPA));
		CHECK(setup->connection && setup->connection->id == (uint32_t)round);
		CHECK_EQ(setup->conn_id, (uint32_t)round);
		bool opened = false;
		for (uint32_t e = 1; e < r->nevents; e++)
			opened |= r->events[e].kind == RR_EV_CONN_OPEN &&
				  r->events[e].conn_id == setup->conn_id;
		CHECK(opened);
	}
	CHECK_EQ(a->st.connections_evicted, 2);
	rr_analyzer_free(a);
}

/* IB and RoCE packets (ib_flow.c): a SEND ONLY is a message; the same
 * PSN again a retransmission naming the frame that carried it first;
 * PSNs skipped a gap; a SEND in three packets a message at its last. */
static void ib_packets(void)
{
	check_ctx = "ib packets";
	struct rr_analyzer *a = analyzer(4, 16);
	const struct rr_frame_report *r = &a->rep.pub;
	static struct rr_frame f;
	uint8_t m[128], frame[600];
	uint32_t n = null_rpc(m, sizeof(m), 0x81, true);
	const struct { uint8_t op; uint32_t psn, from, len; } pkts[] = {
		{ RR_OP_RC_SEND_ONLY, 5, 0, n },     /* a call */
		{ RR_OP_RC_SEND_ONLY, 5, 0, n },     /* again: a retransmission */
		{ RR_OP_RC_SEND_ONLY, 9, 0, n },     /* 6 to 8 lost */
		{ RR_OP_RC_SEND_FIRST, 10, 0, 16 },
		{ RR_OP_RC_SEND_MIDDLE, 11, 16, 16 },
		{ RR_OP_RC_SEND_LAST, 12, 32, n - 32 },
	};
	for (unsigned i = 0; i < sizeof(pkts) / sizeof(pkts[0]); i++) {
		/* the later calls carry other xids */
		if (i == 2)
			n = null_rpc(m, sizeof(m), 0x82, true);
		if (i == 3)
			n = null_rpc(m, sizeof(m), 0x83, true);
		uint32_t len = roce_frame(frame, sizeof(frame), pkts[i].op,
					  pkts[i].psn, m + pkts[i].from,
					  i == 5 ? n - 32 : pkts[i].len);
		a->frame_no = i + 1;
		rra_report_begin(a, a->frame_no, a->now_ns, frame, len);
		rr_decode_frame(&a->cfg, RR_LINK_ETHERNET, frame, len, len, NULL, &f);
		CHECK(rr_has(&f, RR_LAYER_BTH));
		rra_ib_packet(a, &f);
		if (i == 1) {
			CHECK_EQ(r->nevents, 1);
			CHECK_EQ(r->events[0].kind, RR_EV_RETRANSMISSION);
			CHECK_EQ(r->events[0].retransmission.original_frame, 1);
			CHECK_EQ(r->events[0].retransmission.psn, 5);
			/* its headers as a message event has them: offsets
			 * from the message's start, not the frame's */
			const struct rr_rpcrdma *h = r->events[0].retransmission.hdr;
			const struct rr_rpc *rpc = r->events[0].retransmission.rpc;
			CHECK(h && rpc);
			CHECK_EQ(h->xid, 0x81);
			CHECK_EQ(h->off, 0);
			CHECK_EQ(h->payload.off, 28); /* four words, three empty lists */
			CHECK_EQ(rpc->off, h->payload.off);
		}
	}
	CHECK_EQ(a->st.total.retransmissions, 1);
	CHECK_EQ(a->st.psn_gaps, 1);
	/* past the gap, held: nothing yet says whether the wire or the
	 * capture lost 6 to 8; the capture's end takes them */
	CHECK_EQ(a->st.total.calls, 1);
	rra_ib_hold_release(a, true);
	CHECK_EQ(a->st.total.calls, 3);
	CHECK_EQ(a->st.connections, 1);
	for (uint32_t xid = 0x81; xid <= 0x83; xid++)
		CHECK(rra_call_find(a, 0, RR_DIR_FWD_CALL, xid) != NONE);
	/* no finding: three calls before any reply would break the one
	 * credit a connection starts with (RFC 8166 §3.3.3), but its start
	 * was not captured, so the grant is unknown until a reply says it */
	CHECK_EQ(a->st.findings[RR_FIND_OVER_CREDIT], 0);
	CHECK_EQ(a->st.total.findings, 0);
	rr_analyzer_free(a);
}

/* A packet the responder sends back to the requester (host 192.0.2.1 to
 * 192.0.2.2, QP 0x33): an ACK or NAK, its AETH's syndrome. */
static uint32_t roce_answer(uint8_t *frame, size_t cap, uint32_t psn, uint8_t syndrome)
{
	struct rr_bth bth = { .opcode = RR_OP_RC_ACK, .dqpn = 0x33, .psn = psn };
	struct rr_ext ext = { .present = RR_EXT_AETH, .aeth = { .syndrome = syndrome } };
	return roce_packet(frame, cap, &bth, &ext, NULL, 0, true);
}

/* A PSN gap (ib_flow.c), followed as the receiver takes packets: the call
 * past it held; where the receiver NAKs the gap's PSN (the wire lost it),
 * dropped as the receiver drops it, and the resends taken once, in PSN
 * order; where it acknowledges past the gap (the capture lost it), taken
 * as first sent, at its own frame. */
static void ib_gap(void)
{
	for (int wire = 0; wire < 3; wire++) {
		check_ctx = wire == 2 ? "ib gap: the wire's, its resend the capture's" :
			    wire ? "ib gap: the wire's" : "ib gap: the capture's";
		struct rr_analyzer *a = analyzer(4, 16);
		static struct rr_frame f;
		uint8_t m[128], frame[600];
		const struct { uint32_t psn, xid; } wire_order[] = {
			{ 5, 0x81 }, { 7, 0x83 }, { 0, 0 } /* NAK of 6 */,
			{ 6, 0x82 }, { 7, 0x83 } /* resent */,
		}, capture_order[] = {
			{ 5, 0x81 }, { 7, 0x83 }, { 0, 7 } /* ACK of 7 */,
		};
		unsigned n = wire ? 5 : 3;
		/* the wire's, and the capture lost the resend of 6 too: the
		 * ACK of 7 says the receiver has it all, and 8 is taken */
		bool resend_lost = wire == 2;
		const struct { uint32_t psn, xid; } resend_lost_order[] = {
			{ 5, 0x81 }, { 7, 0x83 }, { 0, 0 } /* NAK of 6 */,
			{ 7, 0x83 } /* resent */, { 0, 7 } /* ACK of 7 */, { 8, 0x84 },
		};
		if (resend_lost)
			n = 6;
		for (unsigned i = 0; i < n; i++) {
			uint32_t psn = resend_lost ? resend_lost_order[i].psn :
				       wire ? wire_order[i].psn : capture_order[i].psn;
			uint32_t xid = resend_lost ? resend_lost_order[i].xid :
				       wire ? wire_order[i].xid : capture_order[i].xid;
			bool nak = !psn && !xid;
			uint32_t len = psn ?
				roce_frame(frame, sizeof(frame), RR_OP_RC_SEND_ONLY, psn, m,
					   null_rpc(m, sizeof(m), xid, true)) :
				roce_answer(frame, sizeof(frame), nak ? 6 : xid,
					    nak ? 0x60 : 0x1F);
			a->frame_no = i + 1;
			a->now_ns = (i + 1) * 1000000u;
			rra_report_begin(a, a->frame_no, a->now_ns, frame, len);
			rr_decode_frame(&a->cfg, RR_LINK_ETHERNET, frame, len, len, NULL, &f);
			CHECK(rr_has(&f, RR_LAYER_BTH));
			if (i == 0) { /* the requester's QP, as its CM REQ would name it */
				uint8_t src[16], dst[16];
				rra_frame_addrs(&f, src, dst);
				rra_ib_packet(a, &f);
				rra_side_set(a, 0, 0, src, 0x33);
				continue;
			}
			rra_ib_packet(a, &f);
			if (i == 1)
				CHECK_EQ(a->st.total.calls, 1); /* 0x83 held */
		}
		CHECK_EQ(a->st.psn_gaps, 1);
		if (resend_lost) {
			/* 0x81 and 0x84: 0x82 and 0x83 the capture did not
			 * give as the receiver took them */
			CHECK_EQ(a->st.total.calls, 2);
			CHECK(rra_call_find(a, 0, RR_DIR_FWD_CALL, 0x84) != NONE);
			CHECK(rra_call_find(a, 0, RR_DIR_FWD_CALL, 0x83) == NONE);
			rr_analyzer_free(a);
			continue;
		}
		/* resent: 6 and 7, behind the highest PSN seen */
		CHECK_EQ(a->st.total.retransmissions, wire ? 2 : 0);
		CHECK_EQ(a->st.total.calls, wire ? 3 : 2);
		uint32_t c83 = rra_call_find(a, 0, RR_DIR_FWD_CALL, 0x83);
		CHECK(c83 != NONE);
		/* the wire's: taken at its resend (frame 5), after 0x82;
		 * the capture's: at its own frame (2), when the ACK came */
		if (c83 != NONE)
			CHECK_EQ(a->calls[c83].frame, wire ? 5 : 2);
		if (wire) {
			uint32_t c82 = rra_call_find(a, 0, RR_DIR_FWD_CALL, 0x82);
			CHECK(c82 != NONE);
			if (c82 != NONE)
				CHECK_EQ(a->calls[c82].frame, 4);
		}
		CHECK(!a->hold.active);
		rr_analyzer_free(a);
	}
}

/* What RPC asked and answered (rpc_stats.c): a reply's status counted
 * once a call; an NFSv4 COMPOUND's operations counted, and its reply
 * found to end with a READ's data. */
static void rpc_statistics(void)
{
	check_ctx = "rpc statistics";
	struct rr_analyzer *a = analyzer(4, 16);
	int to;
	uint8_t m[256];
	uint32_t c = ib_to(a, host_a, host_b, 0x22, &to);
	uint32_t ci = rra_call_new(a, c, RR_DIR_FWD_CALL, 0x91);
	struct call *call = &a->calls[ci];
	call->slot = (uint16_t)rr_analyzer_proc_slot(RR_PROG_NFS, 3, 0);
	struct rr_rpc reply = { .xid = 0x91, .msg_type = RR_RPC_REPLY };
	rra_record_status(a, call, &reply);
	rra_record_status(a, call, &reply);
	CHECK_EQ(a->st.rpc_replies[call->slot][RR_REPLY_ACCEPTED], 1);

	struct rr_buf b;
	rr_buf_init(&b, m, sizeof(m));
	struct rr_rpc r = { .xid = 0x92, .msg_type = RR_RPC_CALL, .rpcvers = 2,
			    .prog = RR_PROG_NFS, .vers = 4, .proc = 1 };
	rr_rpc_encode(&b, &r, NULL, NULL);
	rr_put_xdr_opaque(&b, NULL, 0);   /* tag */
	rr_put_be32(&b, 1);               /* minorversion */
	rr_put_be32(&b, 2);               /* numops */
	rr_put_be32(&b, RR_OP_PUTROOTFH);
	rr_put_be32(&b, RR_OP_READ);
	rr_put_zeros(&b, 16 + 8);         /* stateid, offset */
	rr_put_be32(&b, 4096);            /* count */
	uint32_t n = (uint32_t)b.len;
	struct rr_rpc rpc;
	struct rr_note note;
	CHECK_EQ(rr_rpc_decode(m, 0, n, n, &rpc, &note), RR_COMPLETE);
	struct call c4 = { .xid = 0x92 };
	struct rr_nfs4_compound ops;
	CHECK(!rra_call_ops(&c4, &ops));
	CHECK(rra_data_last_of(a, &c4, m, &rpc, n, n, NULL));
	CHECK_EQ(a->st.nfs4_ops[rr_nfs4_op_slot(RR_OP_PUTROOTFH)], 1);
	CHECK_EQ(a->st.nfs4_ops[rr_nfs4_op_slot(RR_OP_READ)], 1);
	/* the call keeps them for its line and its reply's */
	CHECK(rra_call_ops(&c4, &ops));
	CHECK(ops.minorversion == 1 && ops.numops == 2 && ops.named == 2 &&
	      ops.op[0] == RR_OP_PUTROOTFH && ops.op[1] == RR_OP_READ);
	/* the capture cut after the first operation: the second, unnamed,
	 * counts as other */
	struct call cut = { .xid = 0x92 };
	CHECK(!rra_data_last_of(a, &cut, m, &rpc, n - 32, n, NULL));
	CHECK_EQ(a->st.nfs4_ops[rr_nfs4_op_slot(RR_OP_PUTROOTFH)], 2);
	CHECK_EQ(a->st.nfs4_ops[RR_NFS4_OP_OTHER], 1);
	CHECK(rra_call_ops(&cut, &ops) && ops.numops == 2 && ops.named == 1);
	/* NFSv3 READ's reply ends with its data; GETATTR's does not */
	r.vers = 3;
	r.proc = 6;
	struct call c3 = { .xid = 0x93 };
	CHECK(rra_data_last_of(a, &c3, m, &r, 0, 0, NULL));
	r.proc = 1;
	CHECK(!rra_data_last_of(a, &c3, m, &r, 0, 0, NULL));
	CHECK(!rra_call_ops(&c3, &ops));

	/* NFS replies that failed count once a call, by procedure and status;
	 * past the table's rows, as other */
	struct rr_rpc ok = { .msg_type = RR_RPC_REPLY, .reply_stat = RR_RPC_MSG_ACCEPTED,
			     .accept_stat = RR_RPC_SUCCESS };
	uint8_t st_be[4] = { 0, 0, 0, RR_NFS3ERR_NOENT };
	const struct call unanswered = { .prog = RR_PROG_NFS, .vers = 3, .proc = 3,
					 .slot = (uint16_t)rr_analyzer_proc_slot(RR_PROG_NFS, 3, 3) };
	struct call lookup = unanswered;
	struct rr_nfs_reply nr;
	CHECK(rra_nfs_reply(a, &lookup, &ok, st_be, 4, &nr) && nr.status == RR_NFS3ERR_NOENT);
	CHECK(rra_nfs_reply(a, &lookup, &ok, st_be, 4, &nr)); /* the same reply again */
	CHECK(a->st.nfs_error_rows == 1 && a->st.nfs_errors[0].count == 1);
	/* a COMPOUND refused before its first operation (status, empty tag,
	 * no results: RFC 8881 §16.2.3) names none; its procedure does */
	uint8_t refused[12] = { 0, 0, 0x27, 0x25 };   /* 10021 */
	struct call compound = { .prog = RR_PROG_NFS, .vers = 4, .proc = 1,
				 .slot = (uint16_t)rr_analyzer_proc_slot(RR_PROG_NFS, 4, 1) };
	CHECK(rra_nfs_reply(a, &compound, &ok, refused, sizeof(refused), &nr) &&
	      nr.status == RR_NFS4ERR_MINOR_VERS_MISMATCH && nr.numres == 0);
	CHECK(a->st.nfs_error_rows == 2 && a->st.nfs_errors[1].op == RR_NFS_ERROR_NO_OP);
	CHECK(rr_nfs_error_op_str(&a->st.nfs_errors[1]) == NULL);
	CHECK(!strcmp(rr_nfs_error_status_str(&a->st.nfs_errors[1]), "NFS4ERR_MINOR_VERS_MISMATCH"));
	for (unsigned i = 0; i < RR_NFS_ERROR_ROWS; i++) {
		struct call other = unanswered;
		uint8_t be[4] = { 0, 0, (uint8_t)((1000 + i) >> 8), (uint8_t)(1000 + i) };
		CHECK(rra_nfs_reply(a, &other, &ok, be, 4, &nr));
	}
	CHECK_EQ(a->st.nfs_error_rows, RR_NFS_ERROR_ROWS);
	CHECK_EQ(a->st.nfs_errors_other, 2);   /* the two rows before them */
	struct rr_rpc denied = ok;
	denied.accept_stat = RR_RPC_PROC_UNAVAIL;
	struct call fresh = unanswered;
	CHECK(!rra_nfs_reply(a, &fresh, &denied, st_be, 4, &nr));
	rr_analyzer_free(a);
}

static void markers(void)
{
	check_ctx = "mpa markers";
	uint32_t seq0 = 0xfffffff0u; /* across the sequence space's wrap */
	CHECK_EQ(mpa_to_marker(seq0, seq0), 0);
	CHECK(mpa_in_marker(seq0 + 3, seq0));
	CHECK(!mpa_in_marker(seq0 + 4, seq0));
	CHECK_EQ(mpa_to_marker(seq0 + 4, seq0), 508);
	CHECK(mpa_in_marker(seq0 + 512, seq0));
	CHECK_EQ(mpa_to_marker(seq0 + 511, seq0), 1);
}

/* A connection keeps its requester's client row until the requester
 * changes: once its sides swap, calls count for the other host. */
static void clients(void)
{
	check_ctx = "clients";
	struct rr_analyzer *a = analyzer(8, 16);
	uint32_t c = iwarp_conn(a, 40000);
	struct rr_client_stats *r = rra_client_of(a, c);
	CHECK(!memcmp(r->addr, a->conns[c].info.requester_addr, 16));
	CHECK(rra_client_of(a, c) == r);
	CHECK_EQ(a->st.client_rows, 1);
	rra_sides_swap(a, c);
	struct rr_client_stats *s = rra_client_of(a, c);
	CHECK(s != r);
	CHECK(!memcmp(s->addr, a->conns[c].info.requester_addr, 16));
	CHECK_EQ(a->st.client_rows, 2);
	rr_analyzer_free(a);
}

/* The busiest and the slowest files (files.c): a handle called more often
 * than the table's least is never lost however many pass through it, each
 * count is over by at most its overcount, and the index finds every row
 * after evictions moved entries in it. */
static void files(void)
{
	check_ctx = "files";
	struct rr_config cfg;
	rr_config_init(&cfg);
	struct rr_analyzer *a = rr_analyzer_new(&cfg, NULL);
	CHECK(a != NULL);
	if (!a)
		return;
	/* an NFSv3 READ's call, as rra_data_last_of keeps it */
	struct call d = { .vers = 3, .proc = 6, .fh_known = true, .range_known = true,
			  .io = RRA_IO_READ, .io_count = 4096 };
	/* a busy file, then three tables' worth of handles called once */
	d.fh_hash = 0xb0b0;
	for (int i = 0; i < 50; i++)
		rra_file_answered(a, &d, 5000);
	for (uint32_t h = 1; h <= 3 * RR_FILE_ROWS; h++) {
		d.fh_hash = h * 0x9e3779b1u; /* spread over the index */
		rra_file_answered(a, &d, 1000);
	}
	const struct rr_stats *st = rr_analyzer_stats(a);
	CHECK_EQ(st->file_rows, RR_FILE_ROWS);
	const struct rr_file_stats *top[10];
	CHECK_EQ(rr_stats_busiest_files(st, top, 10), 10);
	CHECK(top[0]->fh_hash == 0xb0b0 && top[0]->calls == 50 && top[0]->overcount == 0);
	CHECK(top[0]->read_bytes == 50 * 4096 && rr_file_latency_mean_ns(top[0]) == 5000);
	CHECK(top[1]->calls >= top[9]->calls);
	unsigned over = 0;
	for (uint32_t i = 0; i < st->file_rows; i++)
		over += st->files[i].overcount > 0 && st->files[i].calls - st->files[i].overcount == 1;
	CHECK(over > 0); /* the later handles took rows, with a count */
	/* every row's handle is found again, not given a new row */
	uint64_t before = 0;
	for (uint32_t i = 0; i < st->file_rows; i++)
		before += st->files[i].calls;
	for (uint32_t i = 0; i < RR_FILE_ROWS; i++) {
		d.fh_hash = st->files[i].fh_hash;
		rra_file_answered(a, &d, 1000);
	}
	uint64_t after = 0;
	for (uint32_t i = 0; i < st->file_rows; i++)
		after += st->files[i].calls;
	CHECK_EQ(after, before + RR_FILE_ROWS);
	/* the slowest: the busy file's 5 us mean before the 1 us ones */
	CHECK_EQ(rr_stats_slowest_files(st, top, 3), 3);
	CHECK(top[0]->fh_hash == 0xb0b0);
	/* no handle, nothing counted; a WRITE's bytes are written */
	d.fh_known = false;
	rra_file_answered(a, &d, 1000);
	CHECK_EQ(st->file_rows, RR_FILE_ROWS);
	rr_analyzer_free(a);
	a = rr_analyzer_new(&cfg, NULL);
	CHECK(a != NULL);
	if (!a)
		return;
	st = rr_analyzer_stats(a);
	d = (struct call){ .vers = 3, .proc = 7, .fh_known = true, .range_known = true,
			   .io = RRA_IO_WRITE, .fh_hash = 7, .io_count = 100 };
	rra_file_answered(a, &d, 1000);
	CHECK(st->files[0].write_bytes == 100 && st->files[0].read_bytes == 0);
	/* a full table gives a new handle the least called row, the first
	 * of them as a scan would: rows 5 and 9 called once, the rest twice */
	for (uint32_t pass = 0; pass < 2; pass++)
		for (uint32_t r = pass; r < RR_FILE_ROWS; r++) {
			if (pass && (r == 5 || r == 9))
				continue;
			d.fh_hash = 7 + r;
			rra_file_answered(a, &d, 1000);
		}
	CHECK_EQ(st->file_rows, RR_FILE_ROWS);
	const uint32_t taken[] = { 5, 9, 0 };
	for (uint32_t i = 0; i < 3; i++) {
		d.fh_hash = 0x5000 + i;
		rra_file_answered(a, &d, 1000);
		CHECK_EQ(st->files[taken[i]].fh_hash, 0x5000 + i);
	}
	CHECK(st->files[5].calls == 2 && st->files[5].overcount == 1);
	CHECK(st->files[0].calls == 3 && st->files[0].overcount == 2);
	rr_analyzer_free(a);
}

/* The file table against a plain model of Space-Saving: a handle new to
 * a full table takes the row with the fewest calls, of those the one that
 * reached its count first; every count and overcount agrees, call after
 * call, on handles drawn so that the table keeps turning over. */
static void files_model(void)
{
	check_ctx = "files_model";
	struct rr_config cfg;
	rr_config_init(&cfg);
	struct rr_analyzer *a = rr_analyzer_new(&cfg, NULL);
	CHECK(a != NULL);
	if (!a)
		return;
	static uint32_t hash[RR_FILE_ROWS];
	static uint64_t calls[RR_FILE_ROWS], over[RR_FILE_ROWS], reached[RR_FILE_ROWS];
	uint32_t rows = 0, x = 12345, bad = 0;
	struct call c = { .vers = 3, .proc = 1, .fh_known = true };
	for (uint64_t t = 1; t <= 200000; t++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		/* a few hot handles, many lukewarm ones, more than the rows */
		c.fh_hash = x % 4 == 0 ? 1 + x % 8 : 100 + x % (3 * RR_FILE_ROWS);
		uint32_t r = 0;
		while (r < rows && hash[r] != c.fh_hash)
			r++;
		if (r == rows && rows < RR_FILE_ROWS) {
			rows++;
			hash[r] = c.fh_hash;
			calls[r] = over[r] = 0;
		} else if (r == rows) {
			r = 0;
			for (uint32_t i = 1; i < rows; i++)
				if (calls[i] < calls[r] ||
				    (calls[i] == calls[r] && reached[i] < reached[r]))
					r = i;
			hash[r] = c.fh_hash;
			over[r] = calls[r];
		}
		calls[r]++;
		reached[r] = t;
		rra_file_answered(a, &c, 1);
		const struct rr_file_stats *f = &rr_analyzer_stats(a)->files[r];
		bad += f->fh_hash != hash[r] || f->calls != calls[r] || f->overcount != over[r];
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(rr_analyzer_stats(a)->file_rows, RR_FILE_ROWS);
	rr_analyzer_free(a);
}

/* With RR_CFG_LIST_UNITS the report lists the frame's units (-a), else
 * none. */
static void unit_list(void)
{
	check_ctx = "unit list";
	uint8_t m[128], frame[400];
	uint32_t n = null_rpc(m, sizeof(m), 0x55, true);
	uint32_t len = roce_frame(frame, sizeof(frame), RR_OP_RC_SEND_ONLY, 9, m, n);
	for (int listing = 0; listing < 2; listing++) {
		struct rr_config cfg;
		struct rr_analyzer_limits lim;
		rr_config_init(&cfg);
		rr_analyzer_limits_init(&lim);
		if (listing)
			cfg.flags |= RR_CFG_LIST_UNITS;
		struct rr_analyzer *a = rr_analyzer_new(&cfg, &lim);
		const struct rr_frame_report *r =
			rr_analyzer_frame(a, RR_LINK_ETHERNET, 1, frame, len, len);
		CHECK_EQ(r->nunit_list, listing ? 1 : 0);
		CHECK_EQ(r->units_unlisted, 0);
		if (listing) {
			const struct rr_frame *u = &r->unit_list[0];
			CHECK(rr_has(u, RR_LAYER_BTH) && u->bth.psn == 9 && u->data == frame);
			CHECK(!memcmp(u, r->decoded, sizeof(*u)));
		}
		rr_analyzer_free(a);
	}
}

/* The statistics list: each row reads its own counter, and what the
 * renderers make of it names every counter once. */
static void statistics_list(void)
{
	static struct rr_stats st;
	memset(&st, 0, sizeof(st));
#define RR_X_STAT_SET(sym, member, ...) st.member = 1000 + (sym);
	RR_STAT_LIST(RR_X_STAT_SET)
	for (unsigned i = 0; i < RR_STAT_COUNT; i++) {
		const struct rr_stat_info *a = rr_stat_info(i);
		check_ctx = a->title;
		CHECK(rr_stat_value(&st, i) == 1000 + i);
		size_t n = strlen(a->prom_name);
		CHECK(n > 6 && !strcmp(a->prom_name + n - 6, "_total"));
		CHECK(a->help[0] && a->title[0] && a->json_key[0]);
		for (unsigned j = 0; j < i; j++) {
			const struct rr_stat_info *b = rr_stat_info(j);
			CHECK(strcmp(a->title, b->title) != 0);
			CHECK(a->json == RR_STAT_JSON_NONE || a->json != b->json ||
			      strcmp(a->json_key, b->json_key) != 0);
			if (!strcmp(a->prom_name, b->prom_name))
				/* one family: labelled, apart, one help */
				CHECK(a->prom_label[0] && b->prom_label[0] &&
				      strcmp(a->prom_label, b->prom_label) != 0 &&
				      !strcmp(a->help, b->help));
		}
	}
	check_ctx = NULL;
	/* the closing line starts with the first counter's words */
	CHECK(!strcmp(rr_stat_info(0)->text, "frames"));
	CHECK(rr_stat_info(RR_STAT_COUNT) == NULL);
}

int main(void)
{
	connections();
	reconnects();
	resends();
	retries();
	calls();
	call_eviction();
	flow();
	send_pieces();
	chunk_transfers();
	long_call_integrity();
	conn_eviction();
	ib_packets();
	ib_gap();
	rpc_statistics();
	message_from_frame();
	report();
	markers();
	clients();
	files();
	files_model();
	statistics_list();
	unit_list();
	return check_done();
}
