/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The peer's engine, shared by its parts (as xprtrdma splits rpc_rdma.c,
 * frwr_ops.c and backchannel.c), each calling only those below it:
 *   engine.c     configuration, state, the transport's events to a role
 *   requester.c  calls: credits, chunks offered, replies checked (RFC 8166)
 *   responder.c  the NFSv3-shaped server: chunks pulled and pushed,
 *                replies, RDMA_DONE, the backward direction (RFC 8167)
 *   backchannel.c, nfs3.c  the backward direction's calls; NFSv3's
 *                procedures as the responder serves them
 *   message.c    below the roles: faults committed, messages built and
 *                sent, the one file's bytes
 * Functions named pe_ are these parts' to each other.
 */
#ifndef RR_PEER_ENGINE_INT_H
#define RR_PEER_ENGINE_INT_H

#include <stdlib.h>
#include <string.h>

#include "engine.h"

#define NFS_VERS 3

#define NFS3_NULL 0
#define NFS3_GETATTR 1
#define NFS3_LOOKUP 3
#define NFS3_READ 6
#define NFS3_WRITE 7
#define NFS3_SYMLINK 10
#define NFS3_READDIRPLUS 17
#define NFS3ERR_IO 5
#define MAX_CALLS 512
#define MAX_SRV 512
#define MAX_RRC 64
#define SEG_MAX 4096u       /* bytes per chunk segment the requester offers */
#define FILE_SIZE (1u << 20)
/* RFC 1813 §2.6: a fattr3, and the wcc_attr of a pre_op_attr */
#define FATTR3_LEN 84u
#define WCC_ATTR_LEN 24u
/* a symlink target a real server takes: Linux's nfsd decodes at most one
 * page of it (4096 bytes; its PATH_MAX) */
#define SYMLINK_TARGET_MAX 4000u

/* ---- engine state -------------------------------------------------------- */

struct call {
	bool used, rrc_pull, expect_error, reply_seen;
	uint32_t xid, proc;
	uint64_t start_us;
	uint64_t offset;
	uint32_t count;
	uint8_t *msg, *data, *reply_buf;
	uint32_t reply_buf_len;
	uint32_t keys[RR_MAX_SEGMENTS];
	unsigned nkeys;
	uint32_t pulls;          /* RDMA READs of the reply still running */
	uint32_t rrc_key;        /* responder's key to name in RDMA_DONE */
	struct rr_rpcrdma hdr;   /* the reply header, while pulling */
};

struct srv_call {
	bool used;
	uint8_t *msg;
	uint32_t len;
	struct rr_rpcrdma hdr;
	uint8_t *pulled;
	uint32_t pulled_len, pending;
	uint32_t seg_at[RR_MAX_SEGMENTS];
};

/* a call a slow server (--reply-delay) holds until due_ms */
struct held_call {
	uint64_t due_ms;
	struct rr_rpcrdma hdr;
	uint8_t *rpc;
	uint32_t len;
};

struct rrc {
	bool used;
	uint32_t xid, key;
	uint8_t *buf;
	uint64_t deadline;
};

struct engine {
	struct peer_config cfg;
	struct xport *x;
	struct rr_inline_thresholds th;
	uint32_t peer_credits_raw;
	/* requester */
	uint32_t granted, in_flight, issued, completed, next_xid;
	uint64_t next_issue_ms;
	struct call calls[MAX_CALLS];
	/* responder */
	struct srv_call srv[MAX_SRV];
	struct rrc rrc[MAX_RRC];
	struct held_call held[MAX_SRV];  /* a ring, in arrival order */
	uint32_t held_first, held_count;
	uint32_t replies_sent;
	/* backward direction */
	uint32_t bc_next_xid, bc_in_flight, bc_granted;
	uint64_t bc_sent;
	bool disconnected;
	uint32_t faults_done;     /* faults of the plan committed (1u << f) */
	char failure[256];
	struct peer_stats st;
	struct rr_note note;
};

extern const uint8_t pe_file_fh[32];  /* the one file's handle */

/* message.c */
const uint8_t *pe_file_image(void);
/*
 * The faults asked for are the plan (cfg.faults); the roles consult it
 * where each violation can happen.  pe_fault: in the plan (a fault that
 * acts every time); pe_fault_due: in the plan and not committed yet;
 * pe_fault_once: due, and now committed (call it last in a condition).
 */
bool pe_fault(const struct engine *e, enum fault f);
bool pe_fault_due(const struct engine *e, enum fault f);
void pe_fault_committed(struct engine *e, enum fault f);
bool pe_fault_once(struct engine *e, enum fault f);
void pe_fail(struct engine *e, const char *why, uint32_t xid);
void pe_hdr_init(struct rr_rpcrdma *h, uint32_t xid, uint32_t credits,
		     uint32_t proc);
void pe_rpc_call(struct rr_buf *b, uint32_t xid, uint32_t prog,
		     uint32_t vers, uint32_t proc);
void pe_rpc_reply(struct rr_buf *b, uint32_t xid);
void pe_put_fattr3(struct rr_buf *b, uint32_t type, uint64_t size);
/* the directory's fattr3 (RFC 1813 §2.6) */
void pe_put_dir_fattr3(struct rr_buf *b);
void pe_send_msg(struct engine *e, const struct rr_rpcrdma *h,
		     const uint8_t *body, uint32_t body_len, uint32_t inv);

/* requester.c */
void pe_call_finish(struct engine *e, struct call *c);
void pe_check_reply(struct engine *e, struct call *c, const uint8_t *rpc,
			uint32_t len, const struct rr_rpcrdma *h);
void pe_send_done(struct engine *e, struct call *c);
void pe_requester_reply(struct engine *e, const uint8_t *m,
			    const struct rr_rpcrdma *h);

/* nfs3.c: the reply body to NFSv3 procedure proc with arguments x,
 * appended to b after the RPC reply header */
struct pe_nfs3_result {
	bool unavailable;        /* PROC_UNAVAIL */
	bool bad_args;           /* answered with ERR_CHUNK, as before */
	/* READ: data the responder places (write chunk or inline) */
	const uint8_t *data;
	uint32_t data_len;
};
void pe_nfs3_execute(uint32_t proc, struct rr_xdr *x, struct rr_buf *b,
		     struct pe_nfs3_result *res);

/* backchannel.c: RFC 8167's backward direction */
void pe_bc_call(struct engine *e);
bool pe_bc_is_backward(const struct engine *e, const uint8_t *m,
		       const struct rr_rpcrdma *h);
void pe_bc_receive(struct engine *e, const uint8_t *m, const struct rr_rpcrdma *h);

/* responder.c */
uint32_t pe_grant(struct engine *e);
void pe_reply_error(struct engine *e, uint32_t xid, uint32_t vers,
			uint32_t err);
void pe_rrc_release(struct engine *e, struct rrc *r);
void pe_srv_complete(struct engine *e, struct srv_call *s);
void pe_run_held(struct engine *e, uint64_t now_ms);
void pe_responder_call(struct engine *e, uint8_t *m, uint32_t len,
			   const struct rr_rpcrdma *h);

#endif
