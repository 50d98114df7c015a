/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * JSON Lines of RPC-over-RDMA messages (RFC 8166 §4) and rebuilt RPC
 * messages (RFC 8166 §3.5.3, §4.4), written as text straight into one
 * buffer: the lines docs/json-schema.md gives for "message" and
 * "rpc_message", byte for byte as json-c writes them with
 * JSON_C_TO_STRING_PLAIN.
 *
 * These two are most of `rpcrdma-dump -j`'s output.  Through json-c (a
 * tree refilled per message, then serialised through its printbuf) they
 * took 60 % of its time on the lab's Linux captures; written directly
 * they cost a tenth of that (docs/performance.md).  Every other line,
 * rarer, is built with json-c (rr_json.c).
 */
#include <stdlib.h>
#include <string.h>

#include "rr_json.h"

struct rr_json_writer {
	char *buf;
	size_t len, cap;
	bool failed;    /* out of memory for this line */
};

struct rr_json_writer *rr_json_writer_new(void)
{
	struct rr_json_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	/* a message with every segment the decoder allows fits in 16 KiB */
	w->cap = 16384;
	w->buf = malloc(w->cap);
	if (!w->buf) {
		free(w);
		return NULL;
	}
	return w;
}

void rr_json_writer_free(struct rr_json_writer *w)
{
	if (!w)
		return;
	free(w->buf);
	free(w);
}

size_t rr_json_writer_len(const struct rr_json_writer *w)
{
	return w->len;
}

static bool grow(struct rr_json_writer *w, size_t n)
{
	if (w->failed)
		return false;
	size_t cap = w->cap * 2 > w->len + n ? w->cap * 2 : w->len + n;
	char *b = realloc(w->buf, cap);
	if (!b) {
		w->failed = true;
		return false;
	}
	w->buf = b;
	w->cap = cap;
	return true;
}

static inline bool room(struct rr_json_writer *w, size_t n)
{
	return w->len + n <= w->cap || grow(w, n);
}

static inline void raw(struct rr_json_writer *w, const char *s, size_t n)
{
	if (!room(w, n))
		return;
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

#define LIT(w, s) raw(w, s, sizeof(s) - 1)

/* Unsigned decimal: every number of these lines is (docs/json-schema.md). */
static void num(struct rr_json_writer *w, uint64_t u)
{
	char digits[20], *p = digits + sizeof(digits);
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	raw(w, p, (size_t)(digits + sizeof(digits) - p));
}

/* A string in quotes, escaped as json-c escapes it (solidus included). */
static void str(struct rr_json_writer *w, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	if (!room(w, 2 + 6 * strlen(s)))
		return;
	char *o = w->buf + w->len;
	*o++ = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		const char *esc = NULL;
		switch (c) {
		case '\b': esc = "\\b"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		case '\f': esc = "\\f"; break;
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '/': esc = "\\/"; break;
		default: break;
		}
		if (esc) {
			*o++ = esc[0];
			*o++ = esc[1];
		} else if (c < ' ') {
			memcpy(o, "\\u00", 4);
			o[4] = hex[c >> 4];
			o[5] = hex[c & 0xf];
			o += 6;
		} else {
			*o++ = (char)c;
		}
	}
	*o++ = '"';
	w->len = (size_t)(o - w->buf);
}

/* A key (its text written out, as ",\"key\":") and its value. */
#define NUM(w, key, v) (LIT(w, key), num(w, v))
#define STR(w, key, v) (LIT(w, key), str(w, v))

/* A name the library may not have: the string, or else the number. */
static void name_or_num(struct rr_json_writer *w, const char *name, uint64_t v)
{
	if (name)
		str(w, name);
	else
		num(w, v);
}

static void name_or_null(struct rr_json_writer *w, const char *name)
{
	if (name)
		str(w, name);
	else
		LIT(w, "null");
}

/* "seconds.microseconds": a capture's timestamp as it reads. */
static void ts(struct rr_json_writer *w, uint64_t ts_ns)
{
	char digits[28], *p = digits + sizeof(digits);
	uint64_t us = ts_ns / 1000u;
	for (int i = 0; i < 6; i++, us /= 10)
		*--p = (char)('0' + us % 10);
	*--p = '.';
	do
		*--p = (char)('0' + us % 10);
	while (us /= 10);
	raw(w, p, (size_t)(digits + sizeof(digits) - p));
}

/* The keys every event line starts with: its kind, frame, time and
 * connection. */
static void head_event(struct rr_json_writer *w, const char *type,
		       const struct rr_event *ev)
{
	w->len = 0;
	w->failed = false;
	STR(w, "{\"type\":", type);
	NUM(w, ",\"schema\":", RR_JSON_SCHEMA);
	NUM(w, ",\"frame\":", ev->frame);
	LIT(w, ",\"ts\":");
	ts(w, ev->ts_ns);
	NUM(w, ",\"conn\":", ev->conn_id);
}

/* And those of a message's line: its direction and xid. */
static void head(struct rr_json_writer *w, const char *type,
		 const struct rr_event *ev, uint32_t xid)
{
	head_event(w, type, ev);
	STR(w, ",\"dir\":", rr_dir_id(ev->dir));
	NUM(w, ",\"xid\":", xid);
}

/* RFC 5531 §9: the call's program and procedure, or the reply's status. */
/* An NFSv4 COMPOUND's operations: "ops", the names of those its decode
 * followed (a number where none is known), and "numops", all of them. */
static void nfs4_ops(struct rr_json_writer *w, const struct rr_nfs4_compound *ops)
{
	LIT(w, ",\"ops\":[");
	for (uint32_t i = 0; i < ops->named; i++) {
		if (i)
			LIT(w, ",");
		name_or_num(w, rr_nfs4_compound_op_str(ops, i), ops->op[i]);
	}
	LIT(w, "]");
	NUM(w, ",\"numops\":", ops->numops);
}

/* An NFS reply's status (nfs_status: its name, or its number where none is
 * known); for a COMPOUND, the result it stopped at (nfs_op_index,
 * 1-based, and nfs_op, the call's operation there, when known). */
static void nfs_status(struct rr_json_writer *w, const struct rr_ev_rpc_done *c)
{
	LIT(w, ",\"nfs_status\":");
	name_or_num(w, rr_nfs_status_str(c->prog, c->vers, c->nfs.status), c->nfs.status);
	/* a COMPOUND's or a callback's CB_COMPOUND's */
	if (!c->nfs.numres)
		return;
	NUM(w, ",\"nfs_op_index\":", c->nfs.numres);
	uint32_t i = c->nfs.numres;
	if (c->nfs4 && i <= c->nfs4->named) {
		LIT(w, ",\"nfs_op\":");
		name_or_num(w, rr_nfs4_compound_op_str(c->nfs4, i - 1), c->nfs4->op[i - 1]);
	}
}

/* What a call asks: its program, version and procedure, named where
 * known. */
static void procedure(struct rr_json_writer *w, uint32_t prog, uint32_t vers, uint32_t proc)
{
	NUM(w, ",\"prog\":", prog);
	LIT(w, ",\"prog_name\":");
	name_or_null(w, rr_rpc_program_str(prog));
	NUM(w, ",\"vers\":", vers);
	NUM(w, ",\"proc\":", proc);
	LIT(w, ",\"proc_name\":");
	name_or_null(w, rr_rpc_proc_str(prog, vers, proc));
}

/* A call's procedure, all null where its header was cut before it. */
static void procedure_if(struct rr_json_writer *w, bool known, uint32_t prog,
			 uint32_t vers, uint32_t proc)
{
	if (known)
		procedure(w, prog, vers, proc);
	else
		LIT(w, ",\"prog\":null,\"prog_name\":null,\"vers\":null,\"proc\":null,\"proc_name\":null");
}

/* An RPCSEC_GSS credential (RFC 2203 §5): its control procedure,
 * sequence number and service. */
static void gss_credential(struct rr_json_writer *w, const struct rr_rpc *r)
{
	LIT(w, ",\"gss\":{\"proc\":");
	name_or_num(w, rr_gss_proc_str(r->gss_proc), r->gss_proc);
	NUM(w, ",\"seq\":", r->gss_seq);
	LIT(w, ",\"service\":");
	name_or_num(w, rr_gss_service_str(r->gss_service), r->gss_service);
	LIT(w, "}");
}

static void rpc(struct rr_json_writer *w, const struct rr_rpc *r,
		const struct rr_nfs4_compound *ops)
{
	if (!r) {
		LIT(w, ",\"rpc\":null");
		return;
	}
	NUM(w, ",\"rpc\":{\"xid\":", r->xid);
	LIT(w, ",\"msg_type\":");
	name_or_num(w, rr_rpc_msg_type_str(r->msg_type), r->msg_type);
	if (r->msg_type == RR_RPC_CALL) {
		procedure_if(w, r->named, r->prog, r->vers, r->proc);
		if (r->named)
			NUM(w, ",\"cred_flavor\":", r->cred_flavor);
		else
			LIT(w, ",\"cred_flavor\":null");
		if (r->gss)
			gss_credential(w, r);
		if (ops)
			nfs4_ops(w, ops);
	} else {
		const char *rs = rr_rpc_reply_stat_str(r->reply_stat);
		STR(w, ",\"reply_stat\":", rs ? rs : "?");
		if (r->reply_stat == RR_RPC_MSG_ACCEPTED) {
			LIT(w, ",\"accept_stat\":");
			name_or_num(w, rr_rpc_accept_stat_str(r->accept_stat),
				    r->accept_stat);
		}
	}
	LIT(w, "}");
}

static void segment(struct rr_json_writer *w, const struct rr_rdma_seg *s,
		    bool first)
{
	if (!first)
		LIT(w, ",");
	if (s->list == RR_LIST_READ) {
		NUM(w, "{\"position\":", s->position);
		LIT(w, ",\"handle\":");
	} else {
		LIT(w, "{\"handle\":");
	}
	num(w, s->handle);
	NUM(w, ",\"length\":", s->length);
	NUM(w, ",\"offset\":", s->offset);
	LIT(w, "}");
}

/* RFC 8166 §4.3: the read list flat, each write chunk an array of its
 * segments, the reply chunk's segments or null. */
static void chunk_lists(struct rr_json_writer *w, const struct rr_rpcrdma *h)
{
	unsigned n = h->body_decoded && h->proc <= RR_RDMA_MSGP ? h->nsegs : 0;
	bool first = true, reply = false;
	LIT(w, ",\"reads\":[");
	for (unsigned i = 0; i < n; i++) {
		if (h->segs[i].list == RR_LIST_READ) {
			segment(w, &h->segs[i], first);
			first = false;
		}
	}
	LIT(w, "],\"writes\":[");
	int chunk = -1;
	for (unsigned i = 0; i < n; i++) {
		const struct rr_rdma_seg *s = &h->segs[i];
		if (s->list != RR_LIST_WRITE) {
			reply |= s->list != RR_LIST_READ;
			continue;
		}
		first = s->chunk != chunk;
		if (first)
			raw(w, chunk < 0 ? "[" : "],[", chunk < 0 ? 1 : 3);
		chunk = s->chunk;
		segment(w, s, first);
	}
	if (chunk >= 0)
		LIT(w, "]");
	LIT(w, "],\"reply\":");
	if (!reply) {
		LIT(w, "null");
		return;
	}
	first = true;
	LIT(w, "[");
	for (unsigned i = 0; i < n; i++) {
		if (h->segs[i].list != RR_LIST_READ && h->segs[i].list != RR_LIST_WRITE) {
			segment(w, &h->segs[i], first);
			first = false;
		}
	}
	LIT(w, "]");
}

/* The line closed and ended by a NUL, which its length leaves out. */
static const char *done(struct rr_json_writer *w)
{
	LIT(w, "}");
	if (w->failed || !room(w, 1))
		return NULL;
	w->buf[w->len] = '\0';
	return w->buf;
}

const char *rr_json_writer_message(struct rr_json_writer *w,
				   const struct rr_frame_report *r,
				   const struct rr_event *ev)
{
	const struct rr_ev_message *m = &ev->msg;
	const struct rr_rpcrdma *h = m->hdr;
	head(w, "message", ev, h->xid);
	NUM(w, ",\"vers\":", h->vers);
	NUM(w, ",\"credits\":", h->credits);
	LIT(w, ",\"proc\":");
	name_or_num(w, rr_rdma_proc_str(h->proc), h->proc);
	NUM(w, ",\"len\":", m->msg_len);
	/* Send With Invalidate: the STag it invalidated */
	if (m->inv_stag) {
		NUM(w, ",\"invalidated_stag\":", m->inv_stag);
	}
	if (m->resent_of) {
		NUM(w, ",\"resent_of\":", m->resent_of);
	}
	chunk_lists(w, h);
	if (h->proc == RR_RDMA_MSGP) {
		NUM(w, ",\"align\":", h->align);
		NUM(w, ",\"thresh\":", h->thresh);
	}
	if (h->proc == RR_RDMA_ERROR && h->body_decoded) {
		const char *err = rr_rdma_err_str(h->err);
		STR(w, ",\"err\":", err ? err : "?");
		if (h->err == RR_ERR_VERS) {
			NUM(w, ",\"vers_low\":", h->vers_low);
			NUM(w, ",\"vers_high\":", h->vers_high);
		}
	}
	rpc(w, m->rpc, m->nfs4);
	const struct rr_ev_rpc_done *c = m->done ? &m->done->done : NULL;
	if (c) {
		NUM(w, ",\"completed\":{\"latency_ns\":", c->latency_ns);
		NUM(w, ",\"bytes_inline\":", c->bytes_inline);
		NUM(w, ",\"bytes_read\":", c->bytes_read);
		NUM(w, ",\"bytes_write\":", c->bytes_write);
		/* what the call asked: a reply's own header names none */
		procedure_if(w, c->rpc_known, c->prog, c->vers, c->proc);
		if (c->nfs4)
			nfs4_ops(w, c->nfs4);
		if (c->nfs_known)
			nfs_status(w, c);
		LIT(w, "}");
	} else {
		LIT(w, ",\"completed\":null");
	}
	/* the findings it raised: those of its report that name it */
	LIT(w, ",\"findings\":[");
	bool first = true;
	for (uint32_t i = (uint32_t)(ev - r->events) + 1; i < r->nevents; i++) {
		if (r->events[i].message != ev || r->events[i].kind != RR_EV_FINDING)
			continue;
		if (!first)
			LIT(w, ",");
		str(w, rr_finding_info(r->events[i].finding.id)->id);
		first = false;
	}
	LIT(w, "]");
	return done(w);
}

const char *rr_json_writer_retransmission(struct rr_json_writer *w,
					  const struct rr_event *ev)
{
	const struct rr_ev_retransmission *rt = &ev->retransmission;
	head_event(w, "retransmission", ev);
	LIT(w, ",\"opcode\":");
	name_or_num(w, rr_bth_opcode_str(rt->opcode), rt->opcode);
	NUM(w, ",\"psn\":", rt->psn);
	if (rt->original_frame) {
		NUM(w, ",\"original_frame\":", rt->original_frame);
	} else {
		LIT(w, ",\"original_frame\":null");
	}
	/* a SEND's first packet: the header it carries again */
	if (rt->hdr) {
		const struct rr_rpcrdma *h = rt->hdr;
		STR(w, ",\"dir\":", rr_dir_id(ev->dir));
		NUM(w, ",\"xid\":", h->xid);
		NUM(w, ",\"vers\":", h->vers);
		NUM(w, ",\"credits\":", h->credits);
		LIT(w, ",\"proc\":");
		name_or_num(w, rr_rdma_proc_str(h->proc), h->proc);
		chunk_lists(w, h);
		rpc(w, rt->rpc, NULL);
	}
	return done(w);
}

const char *rr_json_writer_rpc_message(struct rr_json_writer *w,
				       const struct rr_event *ev)
{
	const struct rr_ev_rpc_message *m = &ev->rebuilt;
	head(w, "rpc_message", ev, m->xid);
	STR(w, ",\"source\":", rr_chunk_kind_str(m->source));
	NUM(w, ",\"len\":", m->data_len);
	rpc(w, m->rpc, m->nfs4);
	return done(w);
}

const char *rr_json_writer_slow_call(struct rr_json_writer *w,
				     const struct rr_event *ev)
{
	const struct rr_ev_rpc_done *c = &ev->done;
	head(w, "slow_call", ev, c->xid);
	NUM(w, ",\"call_frame\":", c->call_frame);
	/* the RPC's caller and callee: a backward call's caller is the
	 * connection's responder (RFC 8167) */
	bool backward = ev->dir == RR_DIR_BWD_REPLY;
	char addr[64];
	LIT(w, ",\"client\":");
	if (ev->connection)
		str(w, rr_conn_addr_str(ev->connection, backward, addr, sizeof(addr)));
	else
		LIT(w, "null");
	LIT(w, ",\"server\":");
	if (ev->connection)
		str(w, rr_conn_addr_str(ev->connection, !backward, addr, sizeof(addr)));
	else
		LIT(w, "null");
	procedure_if(w, c->rpc_known, c->prog, c->vers, c->proc);
	if (c->nfs4)
		nfs4_ops(w, c->nfs4);
	NUM(w, ",\"latency_ns\":", c->latency_ns);
	const struct rr_nfs_target *t = &c->target;
	LIT(w, ",\"fh_hash\":");
	if (t->fh_known)
		num(w, t->fh_hash);
	else
		LIT(w, "null");
	if (t->range_known) {
		NUM(w, ",\"offset\":", t->offset);
		NUM(w, ",\"count\":", t->count);
	}
	/* the RPC's own answer: GARBAGE_ARGS, PROG_MISMATCH ... (null: its
	 * header unseen) */
	LIT(w, ",\"rpc_status\":");
	name_or_null(w, c->reply_status == RR_REPLY_UNSEEN ? NULL :
				rr_reply_status_str(c->reply_status));
	if (c->nfs_known)
		nfs_status(w, c);
	return done(w);
}
