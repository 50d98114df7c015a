/* SPDX-License-Identifier: BSD-2-Clause */
/* Names of the analyzer's values, and the procedure slots of its
 * statistics. */
#include "analyzer-int.h"

#define RR_X_FINDING_INFO(sym, id, sev, kind, ref, msg, advice) \
	[sym] = { id, sev, kind, ref, msg, advice },
static const struct rr_finding_info finding_infos[RR_FINDING_COUNT] = {
	RR_FINDING_LIST(RR_X_FINDING_INFO)
};

#define RR_X_CASE(sym, val, str) case (val): return (str);
const char *rr_severity_str(unsigned v)
{
	switch (v) { RR_SEVERITY_LIST(RR_X_CASE) default: return NULL; }
}

const char *rr_reply_status_str(unsigned v)
{
	if (v < RR_REPLY_DENIED)
		return rr_rpc_accept_stat_str(v);
	if (v < RR_REPLY_UNSEEN)
		return rr_rpc_reject_stat_str(v - RR_REPLY_DENIED);
	return v == RR_REPLY_UNSEEN ? "unseen" : NULL;
}

enum rr_reply_status rr_reply_status_of(const struct rr_rpc *reply)
{
	if (reply->reply_stat == RR_RPC_MSG_ACCEPTED &&
	    reply->accept_stat < RR_REPLY_DENIED)
		return (enum rr_reply_status)(RR_REPLY_ACCEPTED + reply->accept_stat);
	if (reply->reply_stat == RR_RPC_MSG_DENIED &&
	    reply->reject_stat < RR_REPLY_UNSEEN - RR_REPLY_DENIED)
		return (enum rr_reply_status)(RR_REPLY_DENIED + reply->reject_stat);
	return RR_REPLY_UNSEEN;
}

const char *rr_chunk_kind_str(unsigned v)
{
	switch (v) { RR_CHUNK_KIND_LIST(RR_X_CASE) default: return NULL; }
}

const char *rr_access_str(unsigned v)
{
	switch (v) { RR_ACCESS_LIST(RR_X_CASE) default: return NULL; }
}

const struct rr_finding_info *rr_finding_info(unsigned id)
{
	return id < RR_FINDING_COUNT ? &finding_infos[id] : NULL;
}

#define RR_X_STAT_INFO(sym, member, json, key, prom, label, title, text, help) \
	[sym] = { offsetof(struct rr_stats, member), json, key, prom, label, title, \
		  text, help },
static const struct rr_stat_info stat_infos[RR_STAT_COUNT] = {
	RR_STAT_LIST(RR_X_STAT_INFO)
};
#define RR_X_STAT_IS_U64(sym, member, ...) \
	_Static_assert(sizeof(((struct rr_stats *)0)->member) == sizeof(uint64_t), \
		       #member " is a 64-bit counter");
RR_STAT_LIST(RR_X_STAT_IS_U64)

const struct rr_stat_info *rr_stat_info(unsigned id)
{
	return id < RR_STAT_COUNT ? &stat_infos[id] : NULL;
}

#define RR_X_FABRIC_INFO(sym, key, text, mine) [sym] = { key, text },
static const struct rr_fabric_counter_info fabric_infos[RR_FABRIC_COUNT] = {
	RR_FABRIC_LIST(RR_X_FABRIC_INFO)
};

const struct rr_fabric_counter_info *rr_fabric_counter_info(unsigned id)
{
	return id < RR_FABRIC_COUNT ? &fabric_infos[id] : NULL;
}

const char *rr_side_str(unsigned side)
{
	return side == 0 ? "requester" : side == 1 ? "responder" : NULL;
}

const char *rr_dir_str(unsigned v)
{
	static const char *const names[] = { "call", "reply", "backward call",
					     "backward reply", "unknown" };
	return v <= RR_DIR_UNKNOWN ? names[v] : NULL;
}

const char *rr_dir_id(unsigned v)
{
	static const char *const ids[] = { "call", "reply", "backward_call",
					   "backward_reply", "unknown" };
	return v <= RR_DIR_UNKNOWN ? ids[v] : NULL;
}

/* The programs whose procedures have a slot of their own in rr_stats, in
 * slot order (NFSv4: NULL and COMPOUND; its operations are counted apart).
 * What none takes counts under the last slot. */
static const struct proc_range {
	uint32_t prog, vers, procs;
} proc_ranges[] = {
	{ RR_PROG_NFS, 3, 22 },
	{ RR_PROG_NFS, 4, 2 },
	{ RR_PROG_NFS4_CB, 1, 2 },
	{ RR_PROG_NFS_ACL, 3, 3 },
	{ RR_PROG_MOUNT, 3, 6 },
	{ RR_PROG_PORTMAP, 2, 6 },
	{ RR_PROG_NLM, 4, 24 },
	{ RR_PROG_NFS, 2, 18 },
};
_Static_assert(22 + 2 + 2 + 3 + 6 + 6 + 24 + 18 + 1 == RR_PROC_SLOTS,
	       "one slot per procedure of proc_ranges, and other");

unsigned rr_analyzer_proc_slot(uint32_t prog, uint32_t vers, uint32_t proc)
{
	unsigned base = 0;
	for (size_t i = 0; i < sizeof(proc_ranges) / sizeof(proc_ranges[0]); i++) {
		const struct proc_range *r = &proc_ranges[i];
		/* callbacks are matched by program alone: its version varies */
		if (r->prog == prog && (r->vers == vers || prog == RR_PROG_NFS4_CB))
			return proc < r->procs ? base + proc : RR_PROC_SLOTS - 1;
		base += r->procs;
	}
	return RR_PROC_SLOTS - 1;
}

struct rr_proc_slot_info rr_analyzer_proc_slot_info(unsigned slot)
{
	unsigned base = 0;
	for (size_t i = 0; i < sizeof(proc_ranges) / sizeof(proc_ranges[0]); i++) {
		const struct proc_range *r = &proc_ranges[i];
		if (slot < base + r->procs) {
			const char *name = rr_rpc_proc_str(r->prog, r->vers,
							   slot - base);
			return (struct rr_proc_slot_info){
				rr_rpc_program_str(r->prog), r->vers,
				name ? name : "unknown", r->prog };
		}
		base += r->procs;
	}
	return (struct rr_proc_slot_info){ "other", 0, "other", 0 };
}

const char *rr_nfs_error_status_str(const struct rr_nfs_error_row *r)
{
	struct rr_proc_slot_info si = rr_analyzer_proc_slot_info(r->slot);
	return rr_nfs_status_str(si.prog, si.version, r->status);
}

const char *rr_nfs_error_op_str(const struct rr_nfs_error_row *r)
{
	return r->slot == rr_analyzer_proc_slot(RR_PROG_NFS, 4, 1) &&
	       r->op != RR_NFS_ERROR_NO_OP ? rr_nfs4_op_slot_str(r->op) : NULL;
}
