/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The peer's engine (engine-int.h): its configuration, faults and
 * scenarios, the state both roles share, and the transport's events handed
 * to the requester (requester.c), the responder (responder.c) or the
 * backchannel (backchannel.c).  What the roles share below them, the
 * messages they build and the faults they commit, is message.c's.
 */
#define _DEFAULT_SOURCE
#include "engine-int.h"

#define FAULT_X_NAME(sym, name, what) name,
#define FAULT_X_WHAT(sym, name, what) what,
static const char *const fault_names[] = { FAULT_LIST(FAULT_X_NAME) };
static const char *const fault_whats[] = { FAULT_LIST(FAULT_X_WHAT) };

const char *fault_name(unsigned f)
{
	return f < FAULT_COUNT ? fault_names[f] : NULL;
}

const char *fault_what(unsigned f)
{
	return f < FAULT_COUNT ? fault_whats[f] : NULL;
}

int fault_by_name(const char *name)
{
	for (unsigned i = 0; i < FAULT_COUNT; i++)
		if (!strcmp(fault_names[i], name))
			return (int)i;
	return -1;
}

const struct scenario scenarios[] = {
	{ "mixed", "every message type and chunk shape: inline NULL, GETATTR "
		   "and LOOKUP; READ by write chunk; WRITE by read chunk; a "
		   "Long Call; READDIRPLUS by reply chunk and (with reliable "
		   "reply) by a responder-provided read chunk" },
	{ "inline", "small inline calls only (NULL, GETATTR, LOOKUP)" },
	{ "null", "NFS NULL calls only" },
	{ "read", "READ calls, data by write chunk" },
	{ "write", "WRITE calls, data by read chunk" },
	{ "long-call", "SYMLINK calls too large to send inline" },
	{ "reply-chunk", "READDIRPLUS with a reply chunk" },
	{ "reliable-reply", "READDIRPLUS with no reply chunk, answered through "
			    "a responder-provided read chunk" },
	{ NULL, NULL },
};

const struct scenario *scenario_find(const char *name)
{
	for (const struct scenario *s = scenarios; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

void peer_config_defaults(struct peer_config *c, bool requester)
{
	memset(c, 0, sizeof(*c));
	c->requester = requester;
	c->credits = requester ? 128 : 64;
	c->bc_credits = 8;
	c->inline_send = c->inline_recv = 4096;
	c->rinval = true;
	c->send_private = true;
	c->backchannel = true;
	c->mtu = 1024;
	c->calls = 64;
	c->scenario = "mixed";
	c->rrc_timeout_ms = 500;
	c->io_size = 8192;
}

uint32_t peer_private_data(const struct peer_config *c, uint8_t out[8])
{
	if (!c->send_private)
		return 0;
	/* the Send With Invalidate fault comes from a side that clears R */
	bool r = c->rinval && !(c->faults & (1u << FAULT_SWI_WITHOUT_R));
	rr_cm_private_encode(out, 1, r, c->inline_send, c->inline_recv);
	return c->faults & (1u << FAULT_TRUNCATED_PD) ? 6 : 8;
}

const uint8_t *peer_file_image(uint32_t *size)
{
	*size = FILE_SIZE;
	return pe_file_image();
}

struct engine *engine_new(const struct peer_config *cfg, struct xport *x,
			  const uint8_t *peer_pd, uint32_t peer_pd_len)
{
	struct engine *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->cfg = *cfg;
	e->x = x;
	e->st.lat_us = calloc(LAT_MAX, sizeof(uint32_t));
	if (!e->st.lat_us) {
		free(e);
		return NULL;
	}
	/* RFC 8797 §3.1: thresholds from both blocks, defaults when absent */
	struct rr_cm_private mine, theirs;
	uint8_t pd[8];
	uint32_t n = peer_private_data(cfg, pd);
	bool have_mine = rr_cm_private_find(pd, 0, n, n, &mine);
	bool have_theirs = peer_pd_len &&
			   rr_cm_private_find(peer_pd, 0, peer_pd_len,
					      peer_pd_len, &theirs);
	const struct rr_cm_private *req = cfg->requester ?
		(have_mine ? &mine : NULL) : (have_theirs ? &theirs : NULL);
	const struct rr_cm_private *rsp = cfg->requester ?
		(have_theirs ? &theirs : NULL) : (have_mine ? &mine : NULL);
	rr_inline_thresholds(req, rsp, &e->th);
	/* the rnr-storm fault: receives for two SENDs whatever the grant
	 * says (RFC 8166 §3.3.1 asks for one per credit) */
	if (!cfg->requester && pe_fault(e, FAULT_RNR_STORM)) {
		x->recvs_counted = true;
		x->recvs = 2;
	}
	e->granted = 1;      /* §3.3.3: one credit until the first reply */
	e->bc_granted = 1;
	e->next_xid = cfg->xid_seed ? cfg->xid_seed :
				      0x5a000001u ^ (uint32_t)now_ms();
	e->bc_next_xid = 0xb0000001u;
	return e;
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	for (unsigned i = 0; i < MAX_CALLS; i++) {
		free(e->calls[i].msg);
		free(e->calls[i].data);
		free(e->calls[i].reply_buf);
	}
	for (unsigned i = 0; i < MAX_SRV; i++) {
		free(e->srv[i].msg);
		free(e->srv[i].pulled);
		free(e->held[i].rpc);
	}
	for (unsigned i = 0; i < MAX_RRC; i++)
		free(e->rrc[i].buf);
	free(e->st.lat_us);
	free(e);
}

const struct peer_stats *engine_stats(const struct engine *e)
{
	return &e->st;
}

/* ---- events ----------------------------------------------------------- */

static void on_read_done(struct engine *e, uint64_t cookie)
{
	uint32_t slot = (uint32_t)(cookie >> 8);
	if ((cookie & 0xFF) == 1 && slot < MAX_CALLS) {
		struct call *c = &e->calls[slot];
		if (!c->used || !c->rrc_pull || --c->pulls)
			return;
		e->st.read_bytes += c->reply_buf_len;
		pe_check_reply(e, c, c->reply_buf, c->reply_buf_len, &c->hdr);
		pe_send_done(e, c);
		pe_call_finish(e, c);
	} else if ((cookie & 0xFF) == 2 && slot < MAX_SRV) {
		struct srv_call *s = &e->srv[slot];
		if (s->used && --s->pending == 0)
			pe_srv_complete(e, s);
	}
}

static void on_recv(struct engine *e, uint8_t *m, uint32_t len)
{
	struct rr_rpcrdma h;
	enum rr_status st = rr_rpcrdma_decode(m, 0, len, len, &h, &e->note);
	if (st == RR_TRUNCATED || st == RR_MALFORMED) {
		if (!e->cfg.requester && len >= 16)
			pe_reply_error(e, h.xid, 1, RR_ERR_CHUNK);
		else
			pe_fail(e, "malformed RPC-over-RDMA header", h.xid);
		free(m);
		return;
	}
	if (!e->cfg.requester && h.vers != 1) {
		pe_reply_error(e, h.xid, h.vers, RR_ERR_VERS);
		e->st.errors_vers++;
		free(m);
		return;
	}
	if (pe_bc_is_backward(e, m, &h)) {
		pe_bc_receive(e, m, &h);
		free(m);
		return;
	}
	if (e->cfg.requester) {
		pe_requester_reply(e, m, &h);
		free(m);
		return;
	}
	switch (h.proc) {
	case RR_RDMA_MSG:
	case RR_RDMA_NOMSG:
		pe_responder_call(e, m, len, &h);
		return;
	case RR_RDMA_MSGP:
		pe_reply_error(e, h.xid, 1, RR_ERR_CHUNK);
		break;
	case RR_RDMA_DONE:
		/* release the read chunk; unknown xids are dropped silently */
		for (unsigned i = 0; i < MAX_RRC; i++)
			if (e->rrc[i].used && e->rrc[i].xid == h.xid)
				pe_rrc_release(e, &e->rrc[i]);
		e->st.dones++;
		break;
	default:
		break;
	}
	free(m);
}

void engine_event(struct engine *e, struct xev *ev)
{
	switch (ev->kind) {
	case XEV_RECV:
		/* the message is taken: its receive is posted again */
		if (e->x->recvs_counted)
			e->x->recvs++;
		on_recv(e, ev->data, ev->len);
		ev->data = NULL;
		break;
	case XEV_READ_DONE:
		on_read_done(e, ev->cookie);
		break;
	case XEV_DISCONNECTED:
		e->disconnected = true;
		break;
	case XEV_ERROR:
		pe_fail(e, ev->why ? ev->why : "transport error", 0);
		break;
	}
}

void engine_tick(struct engine *e, uint64_t now)
{
	for (unsigned i = 0; i < MAX_RRC; i++)
		if (e->rrc[i].used && now >= e->rrc[i].deadline)
			pe_rrc_release(e, &e->rrc[i]);
	pe_run_held(e, now);
}

bool engine_done(const struct engine *e)
{
	if (e->cfg.requester)
		return e->issued >= e->cfg.calls && e->in_flight == 0;
	return e->disconnected;
}

bool engine_quiet(const struct engine *e)
{
	if (e->in_flight || e->bc_in_flight || e->held_count)
		return false;
	for (unsigned i = 0; i < MAX_SRV; i++)
		if (e->srv[i].used)
			return false;
	return true;
}

const char *engine_failure(const struct engine *e)
{
	if (e->failure[0])
		return e->failure;
	if (e->cfg.requester && e->completed < e->cfg.calls)
		return "not every call was answered";
	/* the peer's own server calls back in the mixed scenario; a real
	 * NFSv3 server (--mount) has no backward direction */
	if (e->cfg.requester && e->cfg.backchannel && !e->cfg.handles &&
	    e->cfg.calls >= 8 && !strcmp(e->cfg.scenario, "mixed") &&
	    e->st.bc_replies == 0)
		return "no backward-direction call arrived";
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

void engine_print_summary(const struct engine *e, FILE *out, double secs)
{
	const struct peer_stats *s = &e->st;
	const struct xport_stats *x = &e->x->st;
	/* a requester counts the replies it received, a responder those it sent */
	uint64_t replies = e->cfg.requester ? s->replies : e->replies_sent;
	uint32_t *lat = malloc((s->nlat ? s->nlat : 1) * sizeof(*lat));
	if (!lat)
		return;
	memcpy(lat, s->lat_us, s->nlat * sizeof(*lat));
	qsort(lat, s->nlat, sizeof(*lat), cmp_u32);
#define PCT(p) (s->nlat ? lat[(uint32_t)((s->nlat - 1) * (p))] : 0)
	fprintf(out,
		"calls %llu  replies %llu  in %.3f s (%.0f calls/s)\n"
		"bytes: inline %llu  RDMA Read %llu  RDMA Write %llu\n"
		"chunks: write %llu  read %llu  long calls %llu  reply %llu  "
		"responder-provided %llu  RDMA_DONE %llu\n"
		"backward: calls %llu  replies %llu   errors: ERR_VERS %llu  "
		"ERR_CHUNK %llu\n"
		"latency us: p50 %u  p90 %u  p99 %u  max %u\n"
		"transport: packets %llu  retransmitted %llu  dropped %llu\n",
		(unsigned long long)s->calls, (unsigned long long)replies,
		secs, secs > 0 ? (double)replies / secs : 0.0,
		(unsigned long long)x->send_bytes,
		(unsigned long long)s->read_bytes,
		(unsigned long long)s->write_bytes,
		(unsigned long long)s->write_chunks,
		(unsigned long long)s->read_chunks,
		(unsigned long long)s->long_calls,
		(unsigned long long)s->reply_chunks,
		(unsigned long long)s->rrc, (unsigned long long)s->dones,
		(unsigned long long)s->bc_calls,
		(unsigned long long)s->bc_replies,
		(unsigned long long)s->errors_vers,
		(unsigned long long)s->errors_chunk, PCT(0.5), PCT(0.9),
		PCT(0.99), PCT(1.0), (unsigned long long)x->packets,
		(unsigned long long)x->retransmits,
		(unsigned long long)x->dropped);
#undef PCT
	free(lat);
	fprintf(out, "procedures:");
	for (unsigned p = 0; p < 32; p++)
		if (s->by_proc[p])
			fprintf(out, " %s %llu", rr_rpc_proc_str(RR_PROG_NFS, 3, p) ?
					       rr_rpc_proc_str(RR_PROG_NFS, 3, p) : "?",
				(unsigned long long)s->by_proc[p]);
	fprintf(out, "\n");
}
