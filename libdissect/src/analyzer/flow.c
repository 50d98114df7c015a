/* SPDX-License-Identifier: BSD-2-Clause */
/* RPC-over-RDMA messages (RFC 8166 §4, RFC 8167): direction, credits,
 * call and reply matching, findings; the connections and calls they open
 * and end. */
#include "analyzer-int.h"
#include "cursor.h"

/* ---- connections and calls, opened and ended with what they hold ---- */

/* A connection; with the table full, the least recently used one is
 * evicted, its calls ended first (conn.c picks it, the calls' and
 * rebuilds' layers give back what they held). */
uint32_t rra_conn_open(struct rr_analyzer *a, uint8_t transport)
{
	uint32_t victim = rra_conn_victim(a);
	if (victim != NONE) {
		while (a->conns[victim].calls != NONE)
			rra_call_end(a, a->conns[victim].calls);
		rra_conn_evict(a, victim);
	}
	return rra_conn_new(a, victim, transport);
}

/* A connection of its own for a packet to (dst, dst_id) from src, whose
 * endpoints no connection has (rra_conn_for); *to: the receiver's side
 * (rra_conn_inferred). */
uint32_t rra_conn_open_for(struct rr_analyzer *a, uint8_t transport,
			   const uint8_t *src, uint32_t src_id,
			   const uint8_t *dst, uint32_t dst_id,
			   bool src_id_known, int *to)
{
	uint32_t cn = rra_conn_open(a, transport);
	if (cn == NONE)
		return NONE;
	*to = rra_conn_inferred(a, cn, src, src_id, dst, dst_id, src_id_known);
	return cn;
}

/* A call; with no room, the oldest call is ended for it and counted
 * (calls are made in time order: the oldest heads the age list). */
static uint32_t call_start(struct rr_analyzer *a, uint32_t cn, uint8_t dir,
			   uint32_t xid)
{
	uint32_t ci = rra_call_new(a, cn, dir, xid);
	if (ci != NONE || a->oldest_call == NONE)
		return ci;
	rra_call_end(a, a->oldest_call);
	a->st.calls_evicted++;
	return rra_call_new(a, cn, dir, xid);
}

/* Whether the calls in flight stand at the grant (RFC 8166 §3.3.1): the
 * requester may send no more.  Unknown until a reply said the grant. */
static bool grant_full(const struct conn *k)
{
	const struct rr_conn_stats *st = &k->info.st;
	return k->info.grant_seen && st->grant && st->in_flight >= st->grant;
}

/* The time at the grant, summed as the calls in flight or the grant
 * change. */
static void watch_grant(struct rr_analyzer *a, struct conn *k)
{
	if (k->full_since) {
		uint64_t d = a->now_ns > k->full_since ? a->now_ns - k->full_since : 0;
		k->info.st.at_grant_ns += d;
		a->st.total.at_grant_ns += d;
		k->full_since = 0;
	}
	if (grant_full(k))
		k->full_since = a->now_ns ? a->now_ns : 1;
}

/*
 * What the responder sent went missing from the capture: replies may be
 * lost.  Later ones still match, but none of the calls now out counts
 * against the credits any more.
 */
void rra_replies_lost(struct rr_analyzer *a, uint32_t cn)
{
	struct rr_conn_stats *cs = &a->conns[cn].info.st;
	for (uint32_t i = a->conns[cn].calls; i != NONE; i = a->calls[i].conn_link.next)
		a->calls[i].counted = false;
	if (a->st.total.in_flight >= cs->in_flight)
		a->st.total.in_flight -= cs->in_flight;
	cs->in_flight = 0;
	watch_grant(a, &a->conns[cn]);
}

/* ---- messages ----------------------------------------------------------- */

/* The connection setup, and with it the private data (R, the inline
 * thresholds), was not captured: a capture that started after it, or cut
 * it.  RFC 8166's 1,024-byte default applies to a setup seen without
 * private data, not to one never seen: no finding rests on those values. */
static bool setup_unseen(const struct conn *k)
{
	return k->setup_cut || k->info.inferred;
}

/* The thresholds and R each rest on both sides' private data (RFC 8797
 * §3.1, §4.1): known once both halves of the setup were captured whole,
 * not from one side's half (a capture of the requester's frames alone
 * holds its CM REQ, never the responder's REP). */
static bool setup_known(const struct conn *k)
{
	return k->info.negotiated;
}

static uint32_t threshold_for(const struct conn *k, uint8_t dir)
{
	/* RFC 8167 §4.2: backward calls go like forward replies */
	return dir == RR_DIR_FWD_CALL || dir == RR_DIR_BWD_REPLY ?
		       k->info.thresholds.call : k->info.thresholds.reply;
}

static enum rr_chunk_kind call_kind(const struct rr_rpcrdma *h)
{
	if (h->pzrc)
		return RR_KIND_PZRC;
	if (h->nread_chunks)
		return RR_KIND_READ;
	if (h->nwrite_chunks)
		return RR_KIND_WRITE;
	if (h->has_reply_chunk)
		return RR_KIND_REPLY;
	return RR_KIND_INLINE;
}

static void remember_done_xid(struct rr_analyzer *a, uint32_t xid)
{
	a->recent[a->recent_at++ % RECENT] = xid;
}

static bool recently_done(const struct rr_analyzer *a, uint32_t xid)
{
	for (unsigned i = 0; i < RECENT; i++)
		if (a->recent[i] == xid && xid)
			return true;
	return false;
}

static void chunk_stats(struct rr_analyzer *a, const struct rr_rpcrdma *h)
{
	for (unsigned i = 0; i < h->nsegs;) {
		unsigned j = i;
		while (j < h->nsegs && h->segs[j].list == h->segs[i].list &&
		       h->segs[j].chunk == h->segs[i].chunk)
			j++;
		a->st.segments_per_chunk[rra_log2_bucket(j - i, RR_SIZE_BUCKETS)]++;
		i = j;
	}
	for (unsigned i = 0; i < h->nsegs; i++) {
		a->st.segment_size[rra_log2_bucket(h->segs[i].length,
						   RR_SIZE_BUCKETS)]++;
		a->st.segment_bytes += h->segs[i].length;
	}
	a->st.segments += h->nsegs;
}

static void count_chunk(struct rr_analyzer *a, struct conn *k,
			enum rr_chunk_kind kind)
{
	k->info.st.chunks[kind]++;
	a->st.total.chunks[kind]++;
}

/* A Long Call (kind 0) or a reply through a reply chunk (1) of `bytes`:
 * counted when the negotiated threshold is known and it was past it. */
static void past_inline(struct rr_analyzer *a, struct conn *k, unsigned kind,
			uint32_t bytes)
{
	uint32_t threshold = kind ? k->info.thresholds.reply : k->info.thresholds.call;
	if (!setup_known(k) || bytes <= threshold)
		return;
	struct rr_conn_stats *st = &k->info.st;
	st->past_inline[kind]++;
	a->st.total.past_inline[kind]++;
	rra_span_add(&st->past_inline_at, a->frame_no);
	if (bytes > st->past_inline_max[kind])
		st->past_inline_max[kind] = bytes;
	if (bytes > a->st.total.past_inline_max[kind])
		a->st.total.past_inline_max[kind] = bytes;
}

/* Whether call c offered a write chunk: its RDMA Writes are then not
 * the reply's alone. */
static bool writes_data(const struct rr_analyzer *a, const struct call *c)
{
	for (uint32_t s = c->segs; s != NONE; s = a->segs[s].next)
		if (a->segs[s].list == RR_LIST_WRITE)
			return true;
	return false;
}

static void on_call(struct rr_analyzer *a, uint32_t cn, uint8_t dir,
		    const struct rr_rpcrdma *h, bool lists_cut,
		    const struct rr_rpc *rpc, const uint8_t *m, uint32_t kept,
		    uint32_t len, struct sent_before before)
{
	struct conn *k = &a->conns[cn];
	struct rr_conn_stats *st = &k->info.st;
	if (dir == RR_DIR_BWD_CALL) {
		if (h->nsegs)
			rra_finding(a, cn, RR_FIND_BC_CHUNKS, NULL);
		if (h->credits == 0)
			rra_finding(a, cn, RR_FIND_BC_ZERO_CREDIT, NULL);
		st->bc_in_flight++;
	}
	uint32_t dup = rra_call_find(a, cn, dir, h->xid);
	if (dup != NONE) {
		rra_finding(a, cn, RR_FIND_DUP_XID, NULL);
		rra_call_end(a, dup);
	}
	bool counted = dir == RR_DIR_FWD_CALL;
	if (counted) {
		st->in_flight++;
		a->st.total.in_flight++;
		if (st->in_flight > st->in_flight_max)
			st->in_flight_max = st->in_flight;
		/* before the first reply (grant_max 0) the grant is 1 (RFC
		 * 8166 §3.3.1) if the connection's start was seen and the
		 * responder heard, and unknown if not (a capture of one
		 * direction never hears it) */
		if ((st->grant_max || (!setup_unseen(k) && (k->info.heard & RR_HEARD_RESPONDER))) &&
		    st->in_flight > (st->grant ? st->grant : 1))
			rra_finding(a, cn, RR_FIND_OVER_CREDIT, NULL);
		st->requested = h->credits;
		watch_grant(a, k);
	}
	st->calls++;
	a->st.total.calls++;
	uint32_t ci = call_start(a, cn, dir, h->xid);
	if (ci == NONE)
		return;
	struct call *c = &a->calls[ci];
	c->counted = counted;
	c->bytes_inline = len;
	c->has_reply_chunk = h->has_reply_chunk;
	c->segs_cut = lists_cut;
	if (rpc && rpc->named) {
		rra_call_named(c, rpc);
	} else {
		c->slot = RR_PROC_SLOTS - 1;
	}
	if (before.frame)
		rra_resend_carry(a, cn, ci, before);
	/* backward calls (RFC 8167: NFSv4.1 callbacks) count by procedure as
	 * forward ones do, under their own program */
	a->st.rpc_calls[c->slot]++;
	if (dir == RR_DIR_FWD_CALL)
		rra_client_of(a, cn)->calls++;
	if (dir == RR_DIR_FWD_CALL && rpc) {
		c->data_last = rra_data_last_of(a, c, m, rpc, kept,
						h->payload.off + h->payload.len, h);
		struct rr_nfs4_compound ops;
		if (rra_reporting(a) && rra_call_ops(c, &ops))
			rra_report_message_ops(a, c->xid, &ops);
	}
	if (dir == RR_DIR_BWD_CALL && rpc && rpc->named) {
		rra_callback_ops(a, c, m, rpc, kept, h->payload.off + h->payload.len);
		struct rr_nfs4_compound ops;
		if (rra_reporting(a) && rra_call_ops(c, &ops))
			rra_report_message_ops(a, c->xid, &ops);
	}
	if (dir == RR_DIR_FWD_CALL && h->pzrc) {
		uint32_t bytes = 0;
		for (unsigned i = 0; i < h->nsegs; i++)
			if (h->segs[i].list == RR_LIST_READ && h->segs[i].position == 0)
				bytes += h->segs[i].length;
		past_inline(a, k, 0, bytes);
	}
	if (dir == RR_DIR_FWD_CALL) {
		count_chunk(a, k, call_kind(h));
		if (h->nread_chunks && h->nwrite_chunks)
			count_chunk(a, k, RR_KIND_WRITE);
		if (h->has_reply_chunk && call_kind(h) != RR_KIND_REPLY)
			count_chunk(a, k, RR_KIND_REPLY);
	}
	for (unsigned i = 0; i < h->nsegs; i++)
		rra_seg_add(a, ci, &h->segs[i], h->segs[i].list);
	chunk_stats(a, h);
	if (dir == RR_DIR_FWD_CALL && h->nread_chunks && a->lim.rebuild_slots)
		rra_call_rebuild_setup(a, ci, h, m, kept, len);
}

/* RFC 8797 §4.1 ("Using the R Field"): Send With Invalidate only when both
 * peers set R; a capture that cut the setup cannot tell.  Graded by harm
 * (RFC 8797 §3.2): the danger is a receiver that cannot recognise remote
 * invalidation, so one that set R and was sent it by a peer that cleared
 * its own (Linux's nfsd) is a deviation; one that did not set R, or said
 * nothing, is the harmful case.  receiver: 0 requester, 1 responder. */
static void check_swi_allowed(struct rr_analyzer *a, uint32_t cn, int receiver)
{
	const struct conn *k = &a->conns[cn];
	if (k->info.thresholds.remote_invalidation || !setup_known(k))
		return;
	/* [receiver]: what it said of R; then what its peer said */
	static const char *const receiver_cleared[2] = {
		"the requester's private data cleared R",
		"the responder's private data cleared R" };
	static const char *const receiver_silent[2] = {
		"the requester sent no private data",
		"the responder sent no private data" };
	static const char *const sender_cleared[2] = {
		"the responder's private data cleared R, the requester's set it",
		"the requester's private data cleared R, the responder's set it" };
	static const char *const sender_silent[2] = {
		"the responder sent no private data, the requester's set R",
		"the requester sent no private data, the responder's set R" };
	const struct rr_conn_info *ci = &k->info;
	if (!ci->have_private[0] && !ci->have_private[1]) {
		rra_finding(a, cn, RR_FIND_SWI_WITHOUT_R, "no private data from either side");
		return;
	}
	if (!ci->have_private[receiver] || !ci->priv[receiver].rinval) {
		rra_finding(a, cn, RR_FIND_SWI_WITHOUT_R, ci->have_private[receiver] ?
			    receiver_cleared[receiver] : receiver_silent[receiver]);
		return;
	}
	rra_finding(a, cn, RR_FIND_SWI_OWN_R_CLEARED, ci->have_private[!receiver] ?
		    sender_cleared[receiver] : sender_silent[receiver]);
}

/* A call's round trip into its procedure's histogram, and a forward
 * call's into its client's too (where it falls found once); returns it in
 * ns. */
static uint64_t record_latency(struct rr_analyzer *a, uint32_t cn, const struct call *c,
			       bool forward)
{
	uint64_t lat = a->now_ns - c->ts_ns;
	if (forward)
		rr_latency_record2(&a->st.latency[c->slot], &rra_client_of(a, cn)->latency, lat);
	else
		rr_latency_record(&a->st.latency[c->slot], lat);
	return lat;
}

/* A call's completion event: what it asked, what it moved (its reply's
 * SEND counted), how long it took, its NFS status when its reply's results
 * were seen. */
static void report_done(struct rr_analyzer *a, uint32_t cn, uint8_t dir, const struct call *c,
			const struct rr_rpc *rpc, uint64_t lat, const struct rr_nfs_reply *nfs)
{
	struct rr_nfs4_compound ops;
	bool compound = rra_call_ops(c, &ops);
	struct rr_event ev = {
		.kind = RR_EV_RPC_DONE, .conn = cn, .dir = dir,
		.done = { .xid = c->xid, .rpc_known = c->named,
			  .prog = c->prog, .vers = c->vers,
			  .proc = c->proc, .latency_ns = lat,
			  .reply_status = (uint8_t)rra_reply_status(c, rpc),
			  .bytes_inline = c->bytes_inline,
			  .bytes_read = c->bytes_read,
			  .bytes_write = c->bytes_write,
			  /* calls age out long before 2^32 frames */
			  .call_frame = a->frame_no -
				(uint32_t)((uint32_t)a->frame_no - c->frame),
			  .nfs4 = compound ? &ops : NULL,
			  .nfs_known = nfs != NULL } };
	if (nfs)
		ev.done.nfs = *nfs;
	rra_call_target(c, &ev.done.target);
	rra_emit(a, &ev);
}

static void on_reply(struct rr_analyzer *a, uint32_t cn, uint8_t dir,
		     const struct rr_rpcrdma *h, const struct rr_rpc *rpc,
		     uint32_t inv_key, const uint8_t *m, uint32_t kept, uint32_t len)
{
	struct conn *k = &a->conns[cn];
	struct rr_conn_stats *st = &k->info.st;
	uint8_t call_dir = dir == RR_DIR_FWD_REPLY ? RR_DIR_FWD_CALL :
						     RR_DIR_BWD_CALL;
	bool was_full = dir == RR_DIR_FWD_REPLY && grant_full(k);
	if (dir == RR_DIR_FWD_REPLY) {
		if (h->credits == 0)
			rra_finding(a, cn, RR_FIND_ZERO_CREDIT, NULL);
		st->grant = h->credits;
		k->info.grant_seen = true;
		if (h->credits < st->grant_min)
			st->grant_min = h->credits;
		if (h->credits > st->grant_max)
			st->grant_max = h->credits;
		watch_grant(a, k);
	} else {
		if (h->nsegs)
			rra_finding(a, cn, RR_FIND_BC_CHUNKS, NULL);
		if (h->credits == 0)
			rra_finding(a, cn, RR_FIND_BC_ZERO_CREDIT, NULL);
		st->bc_grant = h->credits;
		if (st->bc_in_flight)
			st->bc_in_flight--;
	}
	st->replies++;
	a->st.total.replies++;
	uint32_t ci = rra_call_find(a, cn, call_dir, h->xid);
	if (ci == NONE) {
		/* a capture of the replies' direction alone holds no call */
		int caller = dir == RR_DIR_FWD_REPLY ? 0 : 1;
		if (k->info.heard & (1u << caller))
			rra_finding(a, cn, RR_FIND_REPLY_NO_CALL, NULL);
		return;
	}
	struct call *c = &a->calls[ci];
	if (inv_key) {
		/* RFC 8797 §4.1: both R, and a key of this xid's chunks */
		if (!k->info.thresholds.remote_invalidation) {
			/* a forward reply goes to the requester, a backward
			 * one to the responder */
			check_swi_allowed(a, cn, dir == RR_DIR_FWD_REPLY ? 0 : 1);
		} else {
			bool mine = false;
			for (uint32_t s = c->segs; s != NONE; s = a->segs[s].next)
				mine |= a->segs[s].handle == inv_key;
			if (!mine)
				rra_finding(a, cn, RR_FIND_INV_OTHER_XID, NULL);
		}
	}
	if (h->proc == RR_RDMA_ERROR) {
		rra_finding(a, cn, h->err == RR_ERR_VERS ? RR_FIND_ERR_VERS :
			    RR_FIND_ERR_CHUNK, NULL);
		if (h->err == RR_ERR_CHUNK && c->has_reply_chunk)
			rra_finding(a, cn, RR_FIND_REPLY_CHUNK_UNUSABLE, NULL);
	}
	if (!c->answered) {
		if (dir == RR_DIR_FWD_REPLY) {
			if (c->counted && st->in_flight)
				st->in_flight--;
			if (c->counted && a->st.total.in_flight)
				a->st.total.in_flight--;
			c->counted = false;
			watch_grant(a, k);
			if (was_full && !grant_full(k))
				k->credit_freed = true;
		}
		/* forward and backward (RFC 8167) calls alike */
		uint64_t lat = record_latency(a, cn, c, dir == RR_DIR_FWD_REPLY);
		c->bytes_inline += len;
		struct rr_nfs_reply nfs;
		bool nfs_known = rra_nfs_reply(a, c, rpc, m, kept, &nfs);
		if (dir == RR_DIR_FWD_REPLY && h->proc == RR_RDMA_NOMSG &&
		    c->has_reply_chunk && !writes_data(a, c))
			past_inline(a, k, 1, c->bytes_write);
		if (dir == RR_DIR_FWD_REPLY) {
			rra_client_answered(a, cn, c);
			rra_file_answered(a, c, lat);
			if (c->resent)
				rra_resend_answered(a, ci);
		}
		if (rra_reporting(a))
			report_done(a, cn, dir, c, rpc, lat, nfs_known ? &nfs : NULL);
		/* a reply chunk rebuilt names the status first */
		if (dir == RR_DIR_FWD_REPLY)
			rra_reply_rebuild(a, ci, h, m, kept, len);
		rra_record_status(a, c, rpc);
	}
	c->answered = true;
	for (unsigned i = 0; i < h->nsegs; i++)
		if (h->segs[i].list == RR_LIST_READ && rra_seg_room(a)) {
			/* a responder-provided read chunk: keep until DONE */
			rra_seg_add(a, ci, &h->segs[i], RR_LIST_READ);
			a->segs[c->segs].rrc = true;
			c->rrc_pending = true;
		}
	if (c->rrc_pending) {
		if (a->lim.rebuild_slots) {
			/* the call's own rebuilding is over: a fresh slot */
			if (c->rebuild != NO_REBUILD)
				rra_rebuild_put(a, c);
			c->rebuild_lost = false;
			rra_rebuild_get(a, ci, rra_chunk_space(a, c, true));
		}
		count_chunk(a, k, RR_KIND_RRC);
		chunk_stats(a, h);
		return;
	}
	remember_done_xid(a, c->xid);
	rra_call_end(a, ci);
}

static void on_done(struct rr_analyzer *a, uint32_t cn,
		    const struct rr_rpcrdma *h, uint32_t inv_key)
{
	uint32_t ci = rra_call_find(a, cn, RR_DIR_FWD_CALL, h->xid);
	if (ci != NONE && a->calls[ci].rrc_pending) {
		if (inv_key) /* RDMA_DONE goes to the responder */
			check_swi_allowed(a, cn, 1);
		remember_done_xid(a, h->xid);
		rra_call_end(a, ci);
		return;
	}
	/* the reply that offered the chunk comes from the responder: where
	 * the capture holds nothing it sent, nothing is known of its chunks */
	if (!(a->conns[cn].info.heard & RR_HEARD_RESPONDER))
		return;
	rra_finding(a, cn, recently_done(a, h->xid) || ci != NONE ?
		    RR_FIND_DONE_NO_RRC : RR_FIND_DONE_UNKNOWN, NULL);
}

/* Which way a whole message goes, from its sender's role and RPC type. */
/* For a connection whose setup was not seen, and while it has shown no
 * forward call, the side a message shows to be the forward requester (0)
 * or responder (1), or -1 when it does not say.  A call of a program that
 * only clients call (NFS, MOUNT, NLM, NFS_ACL, portmap) comes from the
 * requester; a backward call (RFC 8167 §4: an NFSv4.1 callback, of the
 * program Linux's client chooses) from the responder.  A reply, or
 * RDMA_ERROR, comes from the responder: a backward reply answers a backward
 * call, which would have named the sides first, so a reply seen before any
 * call is taken as forward (a capture of the server's direction alone
 * holds only replies and backward calls), and the connection's first
 * forward call corrects it.  RDMA_NOMSG with a reply chunk and no read
 * chunk is a reply: a call sent by RDMA_NOMSG carries its RPC message in a
 * position-zero read chunk (RFC 8166 §3.5.3). */
static int role_shown(const struct rr_rpcrdma *h, const struct rr_rpc *rpc)
{
	if (rpc && rpc->msg_type == RR_RPC_CALL)
		switch (rpc->prog) {
		case RR_PROG_PORTMAP:
		case RR_PROG_NFS:
		case RR_PROG_MOUNT:
		case RR_PROG_NLM:
		case RR_PROG_NFS_ACL:
			return 0;
		case RR_PROG_NFS4_CB:
			return 1;
		default:
			return -1;
		}
	if (rpc && rpc->msg_type == RR_RPC_REPLY)
		return 1;
	if (h->proc == RR_RDMA_ERROR)
		return 1;
	if (!rpc && h->proc == RR_RDMA_NOMSG && h->has_reply_chunk &&
	    !h->nread_chunks)
		return 1;
	return -1;
}

static uint8_t direction(struct rr_analyzer *a, uint32_t cn, int sender,
			 const struct rr_rpcrdma *h, const struct rr_rpc *rpc)
{
	struct conn *k = &a->conns[cn];
	if (k->info.roles_inferred && k->info.st.calls == 0) {
		/* the first message that shows a role names the sides */
		int role = role_shown(h, rpc);
		if (role >= 0 && role != sender) {
			rra_sides_swap(a, cn);
			sender = role;
		}
	}
	uint8_t dir = rra_message_dir(sender, h, rpc);
	if (dir == RR_DIR_UNKNOWN && !rpc &&
	    (h->proc == RR_RDMA_MSG || h->proc == RR_RDMA_MSGP)) {
		/* its RPC header cut: a message answering a call of its xid
		 * in flight from the other side is that call's reply */
		uint8_t call = sender == 1 ? RR_DIR_FWD_CALL : RR_DIR_BWD_CALL;
		if (rra_call_find(a, cn, call, h->xid) != NONE)
			return sender == 1 ? RR_DIR_FWD_REPLY : RR_DIR_BWD_REPLY;
	}
	return dir;
}

uint8_t rra_message_dir(int sender, const struct rr_rpcrdma *h,
			const struct rr_rpc *rpc)
{
	if (rpc && rpc->msg_type <= RR_RPC_REPLY) {
		bool call = rpc->msg_type == RR_RPC_CALL;
		if (sender == 0)
			return call ? RR_DIR_FWD_CALL : RR_DIR_BWD_REPLY;
		return call ? RR_DIR_BWD_CALL : RR_DIR_FWD_REPLY;
	}
	switch (h->proc) {
	case RR_RDMA_NOMSG:
		return sender == 0 ? RR_DIR_FWD_CALL : RR_DIR_FWD_REPLY;
	case RR_RDMA_ERROR:
		return RR_DIR_FWD_REPLY;
	default:
		return RR_DIR_UNKNOWN;
	}
}

/* RFC 8166 §4.2: xid, vers, credit and proc, the words every version has */
#define RPCRDMA_FIXED_LEN 16

/* Whether the bytes before end were captured: a decode the capture cut
 * stops at the field it could not read (the note's offset). */
static bool captured_to(const struct rr_note *n, uint32_t end)
{
	return n->status != RR_TRUNCATED || n->off >= end;
}

/* Whether pre, the frame message m lies whole in, decoded m's header as
 * message() would: from the same bytes with the same bounds. */
static bool decoded_in_frame(const struct rr_frame *pre, const uint8_t *m,
			     uint32_t kept, uint32_t len)
{
	return pre && kept == len && rr_has(pre, RR_LAYER_RPCRDMA) &&
	       m == pre->unit_data + pre->payload.off && len == pre->payload.len;
}

static void message(struct rr_analyzer *a, uint32_t cn, int to,
		    const uint8_t *m, uint32_t kept, uint32_t len,
		    uint32_t inv_key, const struct rr_frame *pre)
{
	struct conn *k = &a->conns[cn];
	struct rr_rpcrdma *h = &a->hdr;
	/* a message whole in its packet was decoded with the frame: taken
	 * from there (its offsets from the message's start), not again */
	bool taken = decoded_in_frame(pre, m, kept, len);
	if (taken) {
		rr_rpcrdma_rebase(h, &pre->rdma, pre->payload.off);
		rr_note_rebase(&a->note, &pre->note[RR_LAYER_RPCRDMA],
			       pre->payload.off);
	} else {
		/* a multi-packet message: the header lies within what was kept */
		rr_rpcrdma_decode(m, 0, kept, kept < len ? UINT32_MAX : len, h,
				  &a->note);
	}
	if (!k->rpcrdma) {
		/* traffic alone must show it is RPC-over-RDMA */
		if (!rr_rpcrdma_recognised(h, a->note.status))
			return;
		rra_conn_rpcrdma(a, cn);
	}
	k->info.heard |= (uint8_t)(1u << (1 - to));
	if (!captured_to(&a->note, h->off + RPCRDMA_FIXED_LEN)) {
		/* cut before its procedure: the frame's truncation is said,
		 * and nothing the capture did not hold is judged */
		return;
	}
	if (a->note.status == RR_MALFORMED || !h->body_decoded) {
		if (h->vers == 1) {
			rra_finding(a, cn, RR_FIND_MALFORMED,
				    rr_problem_str(a->note.problem));
			return;
		}
		/* only the first words decode; a call still awaits its reply
		 * (an ERR_VERS echoing this version) */
		struct rr_event ev = { .kind = RR_EV_MESSAGE, .conn = cn,
				       .dir = to == 1 ? RR_DIR_FWD_CALL :
							RR_DIR_UNKNOWN,
				       .msg = { .hdr = h, .msg_len = len, .data = m,
						.data_len = kept,
						.credits_granted = k->info.st.grant,
						.calls_in_flight = k->info.st.in_flight } };
		rra_emit(a, &ev);
		rra_finding(a, cn, RR_FIND_VERS, NULL);
		if (to == 1)
			on_call(a, cn, RR_DIR_FWD_CALL, h, false, NULL, m, kept, len,
				(struct sent_before){ 0, 0 });
		return;
	}
	/* the capture ended inside the chunk lists (RFC 8166 §4.3): the
	 * segments after those held are unknown, not absent */
	bool lists_cut = a->note.status == RR_TRUNCATED && !h->payload.off &&
			 h->proc <= RR_RDMA_MSGP;
	const struct rr_rpc *rpc = NULL;
	if (h->payload.len && (h->proc == RR_RDMA_MSG || h->proc == RR_RDMA_MSGP)) {
		enum rr_status st;
		if (taken && rr_has(pre, RR_LAYER_RPC)) {
			rr_rpc_rebase(&a->rpc, &pre->rpc, pre->payload.off);
			rr_note_rebase(&a->note, &pre->note[RR_LAYER_RPC],
				       pre->payload.off);
			st = (enum rr_status)a->note.status;
		} else {
			uint32_t cap = kept > h->payload.off ? kept - h->payload.off : 0;
			/* still arriving: the end is unknown, so bound it safely */
			st = rr_rpc_decode(m, h->payload.off, cap,
					   kept < len ? UINT32_MAX - h->payload.off :
							h->payload.len,
					   &a->rpc, &a->note);
		}
		/* a cut message's RPC counts once its xid and type are held */
		if (st != RR_MALFORMED && a->rpc.msg_type <= RR_RPC_REPLY &&
		    captured_to(&a->note, h->payload.off + 8))
			rpc = &a->rpc;
	}
	int sender = 1 - to;
	uint8_t dir = direction(a, cn, sender, h, rpc);
	struct rr_conn_stats *st = &k->info.st;
	st->messages[dir][h->proc < RR_RDMA_PROCS ? h->proc : 0]++;
	a->st.total.messages[dir][h->proc < RR_RDMA_PROCS ? h->proc : 0]++;
	st->bytes_send += len;
	a->st.total.bytes_send += len;

	/* the message first, then what is wrong with it */
	struct sent_before before = { 0, 0 };
	if (dir == RR_DIR_FWD_CALL)
		before = rra_resent_of(a, cn, h->xid, rpc && rpc->named && rpc->proc == 0);
	if (rra_reporting(a)) {
		struct rr_event ev = { .kind = RR_EV_MESSAGE, .conn = cn, .dir = dir,
				       .msg = { .hdr = h, .rpc = rpc, .msg_len = len,
						.data = m, .data_len = kept,
						.inv_stag = inv_key,
						.credits_granted = st->grant,
						.calls_in_flight = st->in_flight,
						.resent_of = before.frame } };
		rra_emit(a, &ev);
	}

	if (h->vers != 1 && !(h->proc == RR_RDMA_ERROR && h->err == RR_ERR_VERS))
		rra_finding(a, cn, RR_FIND_VERS, NULL);
	if (rpc && rpc->xid != h->xid)
		rra_finding(a, cn, RR_FIND_XID_MISMATCH, NULL);
	if (h->proc == RR_RDMA_MSGP)
		rra_finding(a, cn, RR_FIND_MSGP, NULL);
	if (dir != RR_DIR_UNKNOWN && setup_known(k) && len > threshold_for(k, dir))
		rra_finding(a, cn, RR_FIND_INLINE_TOO_BIG, NULL);

	/* the first call after a reply freed a credit of a full grant
	 * waited for that credit: the grant held the requester back */
	if (k->credit_freed && dir == RR_DIR_FWD_CALL) {
		st->credit_waits++;
		a->st.total.credit_waits++;
		rra_span_add(&st->waited_at, a->frame_no);
		k->credit_freed = false;
	}
	switch (dir) {
	case RR_DIR_FWD_CALL:
	case RR_DIR_BWD_CALL:
		on_call(a, cn, dir, h, lists_cut, rpc, m, kept, len, before);
		break;
	case RR_DIR_FWD_REPLY:
	case RR_DIR_BWD_REPLY:
		on_reply(a, cn, dir, h, rpc, inv_key, m, kept, len);
		break;
	default:
		if (h->proc == RR_RDMA_DONE)
			on_done(a, cn, h, inv_key);
		break;
	}
}

/*
 * A whole SEND (its first `kept` bytes, `len` in all) arrived at side
 * `to` of connection cn: the report joins what it raises to it.  pre: the
 * frame it came in whole, whose decode serves (NULL: decoded here).
 */
void rra_message(struct rr_analyzer *a, uint32_t cn, int to,
		 const uint8_t *m, uint32_t kept, uint32_t len,
		 uint32_t inv_key, const struct rr_frame *pre)
{
	message(a, cn, to, m, kept, len, inv_key, pre);
	rra_message_taken(a);
}
