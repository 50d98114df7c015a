/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The reference peer: an RPC-over-RDMA v1 requester and responder over a
 * small verbs-like transport interface, with software RoCEv2 (pcap file or
 * UDP), software iWARP (TCP) and, where a device exists, rdma-core verbs.
 * Every byte it receives is decoded by libdissect.
 */
#ifndef RR_PEER_H
#define RR_PEER_H

#include <stdio.h>

#include <rpcrdma/dissect.h>
#include <rpcrdma/encode.h>
#include <rpcrdma/xdr.h>

/* ---- Registered memory -------------------------------------------------- */

struct mr {
	uint32_t key;        /* R_Key / STag */
	uint64_t va;
	uint8_t *buf;
	uint32_t len;        /* bytes the key reaches (page-rounded) */
	bool valid;
};

#define MR_MAX 1024

struct mr_table {
	struct mr mr[MR_MAX];
	uint8_t key_byte;    /* low byte of every key: tells the sides apart */
	uint32_t generation;
};

void mr_init(struct mr_table *t, uint8_t key_byte);
/* Registers buf; returns the key (0 when the table is full). */
uint32_t mr_reg(struct mr_table *t, void *buf, uint32_t len, uint64_t *va);
void mr_dereg(struct mr_table *t, uint32_t key);
/* Bytes [va, va + len) of a valid key, or NULL. */
uint8_t *mr_find(struct mr_table *t, uint32_t key, uint64_t va, uint32_t len);

/* ---- Transport events and interface ------------------------------------- */

enum xev_kind {
	XEV_RECV,            /* a SEND arrived: data, len (malloc'd), inv_key */
	XEV_READ_DONE,       /* an RDMA READ completed: cookie */
	XEV_DISCONNECTED,
	XEV_ERROR,           /* why */
};

struct xev {
	enum xev_kind kind;
	uint8_t *data;
	uint32_t len;
	uint32_t inv_key;
	uint64_t cookie;
	const char *why;
};

struct evq {
	struct xev *ev;
	size_t head, tail, cap;
};

void evq_push(struct evq *q, const struct xev *ev);
bool evq_pop(struct evq *q, struct xev *ev);
void evq_free(struct evq *q);

struct xport_stats {
	uint64_t sends, send_bytes, writes, write_bytes, reads, read_bytes;
	uint64_t packets, retransmits, dropped;
};

struct xport;

struct xport_ops {
	int (*send)(struct xport *x, const void *msg, uint32_t len,
		    uint32_t inv_key);
	int (*write)(struct xport *x, uint32_t key, uint64_t va,
		     const void *data, uint32_t len);
	int (*read)(struct xport *x, uint32_t key, uint64_t va, void *dst,
		    uint32_t len, uint64_t cookie);
	/* 1: *ev filled; 0: timed out; < 0: error */
	int (*poll)(struct xport *x, int timeout_ms, struct xev *ev);
	void (*disconnect)(struct xport *x);
	void (*destroy)(struct xport *x);
	/* memory registration; NULL: the software table in struct xport */
	uint32_t (*reg)(struct xport *x, void *buf, uint32_t len, uint64_t *va);
	void (*dereg)(struct xport *x, uint32_t key);
};

/* Private data each side sent and received while connecting. */
#define PD_MAX 256

struct xport {
	const struct xport_ops *ops;
	struct mr_table mrs;
	struct evq events;
	struct xport_stats st;
	uint8_t peer_pd[PD_MAX];
	uint32_t peer_pd_len;
	bool connected;
	/* software RC: receives posted for the SENDs to come, when counted
	 * (the rnr-storm fault: fewer than the credits granted); the engine
	 * posts one again as it takes each message */
	bool recvs_counted;
	uint32_t recvs;
};

static inline int xp_send(struct xport *x, const void *m, uint32_t len,
			  uint32_t inv)
{
	x->st.sends++;
	x->st.send_bytes += len;
	return x->ops->send(x, m, len, inv);
}

static inline int xp_write(struct xport *x, uint32_t key, uint64_t va,
			   const void *d, uint32_t len)
{
	x->st.writes++;
	x->st.write_bytes += len;
	return x->ops->write(x, key, va, d, len);
}

static inline uint32_t xp_reg(struct xport *x, void *buf, uint32_t len,
			      uint64_t *va)
{
	return x->ops->reg ? x->ops->reg(x, buf, len, va) :
			     mr_reg(&x->mrs, buf, len, va);
}

static inline void xp_dereg(struct xport *x, uint32_t key)
{
	if (x->ops->dereg)
		x->ops->dereg(x, key);
	else
		mr_dereg(&x->mrs, key);
}

static inline int xp_read(struct xport *x, uint32_t key, uint64_t va,
			  void *dst, uint32_t len, uint64_t cookie)
{
	x->st.reads++;
	x->st.read_bytes += len;
	return x->ops->read(x, key, va, dst, len, cookie);
}

/* ---- Software RC queue pair (IBA vol. 1 §9.7), shared by pcap and udp --- */

struct txq_entry;
struct pending_read;

struct soft_rc {
	struct xport *x;
	uint32_t qpn, peer_qpn, mtu;
	uint32_t sq_psn;     /* next request PSN */
	uint32_t epsn;       /* next expected incoming request PSN */
	uint32_t msn;
	bool nak_sent;
	/* the packet goes out: BTH .. pad (the framing adds the ICRC) */
	void (*tx)(void *ctx, const uint8_t *ib, uint32_t len);
	void *tx_ctx;
	struct txq_entry *txq_head, *txq_tail;
	struct pending_read *reads;
	/* incoming SEND being reassembled, incoming WRITE position */
	uint8_t *rx_msg;
	uint32_t rx_len, rx_cap;
	uint32_t wr_key, wr_off;
	uint64_t wr_va;
	/* a NAK of an error sent or taken (remote access, invalid request,
	 * remote operational): the QP is in the error state (IBA vol. 1
	 * §9.7.5.2), and takes and sends nothing more */
	bool in_error;
	/* an RNR NAK taken: the SENDs from rnr_psn go again after the wait
	 * its timer asked for (IBA vol. 1 §9.7.5.2) */
	bool rnr_wait;
	uint32_t rnr_psn, rnr_wait_us;
	uint64_t rnr_at_ms;
	/* retransmission */
	uint64_t last_progress_ms, rto_ms;
	struct rr_config cfg;
	struct rr_frame frame;
};

void soft_rc_init(struct soft_rc *rc, struct xport *x, uint32_t qpn,
		  uint32_t peer_qpn, uint32_t mtu, uint32_t psn,
		  uint32_t peer_psn);
void soft_rc_fini(struct soft_rc *rc);
/* The SENDs an RNR NAK held back go again now: the wait it asked for in
 * microseconds, 0 when none was held back. */
uint32_t soft_rc_rnr_retry(struct soft_rc *rc);
int soft_rc_send(struct soft_rc *rc, const void *m, uint32_t len, uint32_t inv);
int soft_rc_write(struct soft_rc *rc, uint32_t key, uint64_t va,
		  const void *d, uint32_t len);
int soft_rc_read(struct soft_rc *rc, uint32_t key, uint64_t va, void *dst,
		 uint32_t len, uint64_t cookie);
/* A packet from the wire (a RoCEv2 UDP payload, ICRC included). */
void soft_rc_input(struct soft_rc *rc, const uint8_t *pkt, uint32_t len);
/* Retransmits what is unacknowledged after the timeout. */
void soft_rc_tick(struct soft_rc *rc, uint64_t now_ms);
bool soft_rc_idle(const struct soft_rc *rc);

uint64_t now_ms(void);
uint64_t now_us(void);

#endif
