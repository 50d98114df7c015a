/* SPDX-License-Identifier: BSD-2-Clause */
/* What RPC asked and answered, for the statistics: a reply's status (RFC
 * 5531 §9), an NFSv4 COMPOUND's operations (RFC 8881 §16.2), a Long
 * Call's procedure named from its first bytes (RFC 8166 §3.5.3). */
#include "analyzer-int.h"

enum rr_reply_status rra_reply_status(const struct call *c, const struct rr_rpc *rpc)
{
	return rpc && rpc->msg_type == RR_RPC_REPLY ? rr_reply_status_of(rpc) :
	       c->head_status ? (enum rr_reply_status)(c->head_status - 1) :
				RR_REPLY_UNSEEN;
}

/* The reply's status, once a call: from its RPC header, inline or
 * rebuilt, else unseen; a forward call's kept with its send, should its
 * xid come again on the next connection. */
void rra_record_status(struct rr_analyzer *a, struct call *c, const struct rr_rpc *rpc)
{
	if (c->status_counted)
		return;
	c->status_counted = true;
	enum rr_reply_status s = rra_reply_status(c, rpc);
	a->st.rpc_replies[c->slot][s]++;
	if (c->dir == RR_DIR_FWD_CALL)
		rra_sent_answered(a, c->conn, c->xid, s);
	if (c->dir == RR_DIR_FWD_CALL && s != RR_REPLY_ACCEPTED && s != RR_REPLY_UNSEEN)
		rra_client_of(a, c->conn)->errors++;
}

/* What an NFS call acts on, and which I/O its range is, kept with it for
 * its reply's report and the file table. */
static void keep_target(struct call *c, const struct rr_nfs_target *t, enum rra_io io)
{
	c->io = io;
	c->fh_known = t->fh_known;
	c->range_known = t->range_known;
	c->fh_hash = t->fh_hash;
	c->io_offset = t->offset;
	c->io_count = t->count;
}

void rra_call_target(const struct call *c, struct rr_nfs_target *out)
{
	*out = (struct rr_nfs_target){ .fh_known = c->fh_known,
				       .range_known = c->range_known,
				       .fh_hash = c->fh_hash,
				       .offset = c->io_offset,
				       .count = c->io_count };
}

/* The I/O of a COMPOUND's range: that of its first READ, WRITE or COMMIT
 * (RFC 8881 §18.22, §18.32, §18.3), the operation the range is read from,
 * among those kept. */
static enum rra_io nfs4_io(const struct rr_nfs4_compound *cp)
{
	for (uint32_t i = 0; i < cp->named && i < RR_NFS4_OPS_KEPT; i++) {
		if (cp->op[i] == RR_OP_READ)
			return RRA_IO_READ;
		if (cp->op[i] == RR_OP_WRITE)
			return RRA_IO_WRITE;
		if (cp->op[i] == RR_OP_COMMIT)
			return RRA_IO_NONE;
	}
	return RRA_IO_NONE;
}

/* Whether a COMPOUND's reply ends with the data a write chunk carries:
 * READ's (RFC 8881 §18.22.2) and READLINK's (§18.24.2) results do, when
 * it is the last operation and every one was named. */
static bool reply_data_last(const struct rr_nfs4_compound *cp)
{
	uint16_t last = cp->named ? cp->op[(cp->named - 1) % RR_NFS4_OPS_KEPT] : 0;
	return cp->named == cp->numops && cp->named <= RR_NFS4_OPS_KEPT &&
	       (last == RR_OP_READ || last == RR_OP_READLINK);
}

/* An NFSv4 COMPOUND call's operations, counted as nfsstat counts them;
 * those that cannot be named (past a cut or an operation the walker does
 * not know) count under the last slot, so the counts add up to numops. */
static bool count_nfs4_ops(struct rr_analyzer *a, struct call *c, const uint8_t *m,
			   uint32_t stream_base, uint32_t body, uint32_t kept, uint32_t end,
			   const struct rr_rpcrdma *h)
{
	struct rr_nfs4_moved moved[RR_MAX_CHUNKS];
	unsigned nmoved = 0;
	for (unsigned i = 0; h && i < h->nsegs; i++) {
		const struct rr_rdma_seg *g = &h->segs[i];
		if (g->list != RR_LIST_READ)
			continue;
		if (nmoved && moved[nmoved - 1].position == g->position)
			moved[nmoved - 1].length += g->length;
		else if (nmoved < RR_MAX_CHUNKS)
			moved[nmoved++] = (struct rr_nfs4_moved){ g->position,
								  g->length };
	}
	struct rr_nfs4_compound cp;
	struct rr_note note;
	rr_nfs4_compound_decode(m, stream_base, body, kept, end, moved, nmoved, &cp, &note);
	for (uint32_t i = 0; i < cp.named && i < RR_NFS4_OPS_KEPT; i++)
		a->st.nfs4_ops[rr_nfs4_op_slot(cp.op[i])]++;
	/* past the kept ones, named or not, the slot is unknown */
	uint32_t kept_ops = cp.named < RR_NFS4_OPS_KEPT ? cp.named : RR_NFS4_OPS_KEPT;
	a->st.nfs4_ops[RR_NFS4_OP_OTHER] += cp.numops - kept_ops;
	/* kept with the call, for its line and its reply's */
	c->nfs4 = true;
	c->nfs4_minor = (uint8_t)(cp.minorversion < 255 ? cp.minorversion : 255);
	c->nfs4_numops = (uint16_t)(cp.numops < UINT16_MAX ? cp.numops : UINT16_MAX);
	c->nfs4_named = (uint8_t)kept_ops;
	/* bounded by the array too: gcc -O3 cannot follow kept_ops's bound */
	for (uint32_t i = 0; i < kept_ops && i < RR_NFS4_OPS_KEPT; i++)
		c->nfs4_op[i] = (uint8_t)(cp.op[i] < 255 ? cp.op[i] : 255);
	keep_target(c, &cp.target, cp.target.range_known ? nfs4_io(&cp) : RRA_IO_NONE);
	return reply_data_last(&cp);
}

static bool is_nfs4_compound(const struct rr_rpc *rpc)
{
	return rpc->prog == RR_PROG_NFS && rpc->vers == 4 &&
	       rpc->proc == 1; /* COMPOUND (RFC 8881 §16.2) */
}

/* What a forward call's arguments at m[body] ask and act on (kept with
 * it), m's first `kept` bytes readable of `end`; whether its reply ends
 * with the data a write chunk carries: the last item of an NFSv3 READ or
 * READLINK result (RFC 1813 §3.3.6, §3.3.5), or of a COMPOUND's last
 * operation's. */
static bool read_args(struct rr_analyzer *a, struct call *c, const uint8_t *m,
		      const struct rr_rpc *rpc, uint32_t body, uint32_t kept, uint32_t end,
		      const struct rr_rpcrdma *h)
{
	if (is_nfs4_compound(rpc))
		return count_nfs4_ops(a, c, m, rpc->off, body, kept, end, h);
	if (rpc->prog != RR_PROG_NFS)
		return false;
	struct rr_nfs_target t;
	rr_nfs_call_target_decode(m, body, kept, rpc->vers, rpc->proc, &t);
	/* READ is procedure 6 in both; WRITE 7 in NFSv3, 8 in NFSv2 (RFC
	 * 1813 §3.3.6-7, RFC 1094 §2.2.7-9) */
	enum rra_io io = rpc->proc == 6 ? RRA_IO_READ :
			 (rpc->vers == 3 && rpc->proc == 7) || (rpc->vers == 2 && rpc->proc == 8) ?
			 RRA_IO_WRITE : RRA_IO_NONE;
	keep_target(c, &t, io);
	return rpc->vers == 3 && (rpc->proc == 6 || rpc->proc == 5);
}

/* A forward call's statistics of what it asks, what it acts on, and
 * whether its reply's data comes by write chunk (read_args).  Under
 * RPCSEC_GSS integrity the arguments are read inside the wrapping; no
 * chunk reduces a wrapped body (RFC 8166 §8.2.2.3), so none moved an item
 * out of it and no write chunk carries its reply's data.  Nothing where
 * the arguments cannot be read. */
bool rra_data_last_of(struct rr_analyzer *a, struct call *c, const uint8_t *m,
		      const struct rr_rpc *rpc, uint32_t kept, uint32_t end,
		      const struct rr_rpcrdma *h)
{
	if (!c->body_wrapped)
		return read_args(a, c, m, rpc, rpc->body.off, kept, end, h);
	uint32_t body, stop;
	if (rra_integ_body_at(c, m, rpc->body.off, kept, &body, &stop))
		read_args(a, c, m, rpc, body, kept < stop ? kept : stop, end < stop ? end : stop,
			  NULL);
	return false;
}

/* A Long Call's message rebuilt whole (RFC 8166 §3.5.3): what its first
 * packet could not read (rra_name_long_call) read now, as an inline
 * call's is: the operations past a WRITE's data, at the chunk's end, move
 * from the unknown slot to their own, and the range and whether the
 * reply's data comes by write chunk follow them.  Under RPCSEC_GSS
 * integrity inside the wrapping, as read_args reads it. */
void rra_long_call_whole(struct rr_analyzer *a, struct call *c, const uint8_t *m, uint32_t len)
{
	struct rr_rpc rpc;
	if (!c->nfs4 || c->dir != RR_DIR_FWD_CALL ||
	    rr_rpc_decode(m, 0, len, len, &rpc, &a->note) == RR_MALFORMED ||
	    rpc.msg_type != RR_RPC_CALL || !is_nfs4_compound(&rpc) || rpc.body.off > len)
		return;
	uint32_t body = rpc.body.off, stop = len;
	if (c->body_wrapped && !rra_integ_body_at(c, m, body, len, &body, &stop))
		return;
	stop = stop < len ? stop : len;
	struct rr_nfs4_compound cp;
	struct rr_note note;
	rr_nfs4_compound_decode(m, 0, body, stop, stop, NULL, 0, &cp, &note);
	/* the message its first packet began */
	if ((cp.numops < UINT16_MAX ? cp.numops : UINT16_MAX) != c->nfs4_numops)
		return;
	uint32_t now = cp.named < RR_NFS4_OPS_KEPT ? cp.named : RR_NFS4_OPS_KEPT;
	for (uint32_t i = c->nfs4_named; i < now && i < RR_NFS4_OPS_KEPT; i++) {
		a->st.nfs4_ops[RR_NFS4_OP_OTHER]--;
		a->st.nfs4_ops[rr_nfs4_op_slot(cp.op[i])]++;
		c->nfs4_op[i] = (uint8_t)(cp.op[i] < 255 ? cp.op[i] : 255);
	}
	if (now > c->nfs4_named)
		c->nfs4_named = (uint8_t)now;
	if (!c->range_known && cp.target.range_known) {
		c->io = nfs4_io(&cp);
		c->range_known = true;
		c->io_offset = cp.target.offset;
		c->io_count = cp.target.count;
	}
	if (!c->fh_known && cp.target.fh_known) {
		c->fh_known = true;
		c->fh_hash = cp.target.fh_hash;
	}
	/* no chunk reduces a wrapped body (RFC 8166 §8.2.2.3) */
	if (!c->body_wrapped)
		c->data_last = reply_data_last(&cp);
}

/* One more NFS error of (slot, op, status): its row, a new one while
 * there is room, else the count of those past the table. */
static void count_nfs_error(struct rr_stats *st, unsigned slot, uint16_t op,
			    uint32_t status)
{
	for (uint32_t i = 0; i < st->nfs_error_rows; i++) {
		struct rr_nfs_error_row *r = &st->nfs_errors[i];
		if (r->slot == slot && r->op == op && r->status == status) {
			r->count++;
			return;
		}
	}
	if (st->nfs_error_rows == RR_NFS_ERROR_ROWS) {
		st->nfs_errors_other++;
		return;
	}
	st->nfs_errors[st->nfs_error_rows++] = (struct rr_nfs_error_row){
		.slot = (uint16_t)slot, .op = op, .status = status, .count = 1 };
}

/* The status of call c's reply rpc, whose results lie at m[rpc->body.off]
 * with m's first `have` bytes readable: an accepted, successful reply to
 * NFS or a companion program (rra_reply_results), a callback's too; or,
 * when the message does not hold it, the one read from the head of its
 * reply chunk; none where RPCSEC_GSS encrypts the results.  A failed one
 * counts once in the statistics. */
bool rra_nfs_reply(struct rr_analyzer *a, struct call *c, const struct rr_rpc *rpc,
		   const uint8_t *m, uint32_t have, struct rr_nfs_reply *out)
{
	if (!rpc || rpc->msg_type != RR_RPC_REPLY || !rra_reply_results(c, rpc, m, have, out)) {
		if (!c->head_nfs)
			return false;
		*out = (struct rr_nfs_reply){ .status = c->head_nfs_status,
					      .numres = c->head_nfs_numres };
	}
	if (!c->nfs_counted && out->status) {
		/* an NFSv4 COMPOUND's by the operation it stopped at, if any */
		uint16_t op = 0;
		if (c->prog == RR_PROG_NFS && c->vers == 4) {
			uint32_t i = out->numres;
			op = (uint16_t)(!i ? RR_NFS_ERROR_NO_OP :
					c->nfs4 && i <= c->nfs4_named ?
					rr_nfs4_op_slot(c->nfs4_op[i - 1]) : RR_NFS4_OP_OTHER);
		}
		count_nfs_error(&a->st, c->slot, op, out->status);
		/* a callback's error is the client's own answer */
		if (c->dir == RR_DIR_FWD_CALL)
			rra_client_of(a, c->conn)->errors++;
	}
	c->nfs_counted = true;
	return true;
}

/* A backward call's CB_COMPOUND operations (RFC 8881 §19.2), kept with
 * it for its line and its reply's, read inside an integrity wrapping as
 * a forward call's are; not counted with the forward operations, which
 * are the server's as nfsstat counts them. */
void rra_callback_ops(struct rr_analyzer *a, struct call *c, const uint8_t *m,
		      const struct rr_rpc *rpc, uint32_t kept, uint32_t end)
{
	(void)a;
	if (rpc->prog != RR_PROG_NFS4_CB || rpc->proc != 1) /* CB_COMPOUND */
		return;
	uint32_t body = rpc->body.off, stop = end;
	if (c->body_wrapped && !rra_integ_body_at(c, m, body, kept, &body, &stop))
		return;
	struct rr_nfs4_compound cp;
	struct rr_note note;
	rr_nfs4_cb_compound_decode(m, body, kept < stop ? kept : stop, end < stop ? end : stop,
				   &cp, &note);
	uint32_t kept_ops = cp.named < RR_NFS4_OPS_KEPT ? cp.named : RR_NFS4_OPS_KEPT;
	c->nfs4 = true;
	c->nfs4_callback = true;
	c->nfs4_minor = (uint8_t)(cp.minorversion < 255 ? cp.minorversion : 255);
	c->nfs4_numops = (uint16_t)(cp.numops < UINT16_MAX ? cp.numops : UINT16_MAX);
	c->nfs4_named = (uint8_t)kept_ops;
	for (uint32_t i = 0; i < kept_ops && i < RR_NFS4_OPS_KEPT; i++)
		c->nfs4_op[i] = (uint8_t)(cp.op[i] < 255 ? cp.op[i] : 255);
}

/* A COMPOUND call's operations as its decode gave them (numbers past 254
 * read as 255, which names none); false for any other call. */
bool rra_call_ops(const struct call *c, struct rr_nfs4_compound *out)
{
	if (!c->nfs4)
		return false;
	memset(out, 0, sizeof(*out));
	out->callback = c->nfs4_callback;
	out->minorversion = c->nfs4_minor;
	out->numops = c->nfs4_numops;
	out->named = c->nfs4_named;
	for (unsigned i = 0; i < c->nfs4_named; i++)
		out->op[i] = c->nfs4_op[i];
	return true;
}

/* A call named by its RPC header: program, version, procedure, its
 * statistics slot, and whether RPCSEC_GSS wraps its body. */
void rra_call_named(struct call *c, const struct rr_rpc *rpc)
{
	c->named = true;
	c->prog = rpc->prog;
	c->vers = rpc->vers;
	c->proc = rpc->proc;
	c->body_wrapped = rr_rpc_body_wrapped(rpc);
	/* integrity is one of the wrappings (RFC 2203 §5.3.2) */
	c->body_integ = c->body_wrapped && rr_rpc_body_integrity(rpc);
	c->gss_seq = rpc->gss_seq;
	c->slot = (uint16_t)rr_analyzer_proc_slot(rpc->prog, rpc->vers, rpc->proc);
}

/* The start of a Long Call's message names the call's procedure, slot or
 * not, so statistics count it under its name. */
void rra_name_long_call(struct rr_analyzer *a, uint32_t ci,
			const uint8_t *p, uint32_t have)
{
	struct call *c = &a->calls[ci];
	struct rr_rpc rpc;
	if (c->slot != RR_PROC_SLOTS - 1 ||
	    rr_rpc_decode(p, 0, have, UINT32_MAX, &rpc, &a->note) == RR_MALFORMED ||
	    rpc.msg_type != RR_RPC_CALL || !rpc.named || rpc.xid != c->xid)
		return;
	rra_call_named(c, &rpc);
	/* on_call counted it as unknown */
	a->st.rpc_calls[RR_PROC_SLOTS - 1]--;
	a->st.rpc_calls[c->slot]++;
	if (c->dir == RR_DIR_FWD_CALL)
		c->data_last = rra_data_last_of(a, c, p, &rpc, have, UINT32_MAX, NULL);
}
