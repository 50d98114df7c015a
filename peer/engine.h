/* SPDX-License-Identifier: BSD-2-Clause */
/* The RPC-over-RDMA v1 requester and responder, over any transport. */
#ifndef RR_ENGINE_H
#define RR_ENGINE_H

#include "peer.h"

/* Faults on request: each produces the one violation it names. */
#define FAULT_LIST(X) \
	X(FAULT_WRONG_VERS, "wrong-version", "a call with rdma_vers 2") \
	X(FAULT_OVER_CREDIT, "over-credit", "one call beyond the credit grant") \
	X(FAULT_ZERO_CREDIT, "zero-credit", "a reply granting zero credits") \
	X(FAULT_INLINE_TOO_BIG, "inline-too-big", \
	  "an inline call larger than the responder's receive size") \
	X(FAULT_WRITE_BEYOND, "write-beyond-segment", \
	  "an RDMA Write past the end of its write-chunk segment") \
	X(FAULT_WRITE_WRONG_STAG, "write-wrong-stag", \
	  "an RDMA Write to an STag no chunk offered (NAK remote access error)") \
	X(FAULT_RNR_STORM, "rnr-storm", \
	  "two receives posted for a grant of many: calls within it draw RNR " \
	  "NAKs (software RC)") \
	X(FAULT_REPLY_CHUNK_SMALL, "reply-chunk-small", \
	  "a reply chunk too small for the reply") \
	X(FAULT_MISSING_DONE, "missing-done", \
	  "no RDMA_DONE after pulling a responder-provided read chunk") \
	X(FAULT_DONE_UNKNOWN, "done-unknown-xid", "RDMA_DONE for an unknown xid") \
	X(FAULT_SWI_WITHOUT_R, "invalidate-without-r", \
	  "Send With Invalidate when a peer did not set R") \
	X(FAULT_BC_CHUNKS, "backward-chunks", "a backward call carrying chunks") \
	X(FAULT_XID_MISMATCH, "xid-mismatch", \
	  "a transport xid different from the RPC xid") \
	X(FAULT_MSGP, "msgp", \
	  "a call sent as RDMA_MSGP, which RFC 8166 retired") \
	X(FAULT_TRUNCATED_PD, "truncated-private-data", \
	  "RFC 8797 private data cut short")

#define FAULT_X_ENUM(sym, name, what) sym,
enum fault { FAULT_LIST(FAULT_X_ENUM) FAULT_COUNT };

const char *fault_name(unsigned f);
const char *fault_what(unsigned f);
int fault_by_name(const char *name);

/* The one file of the peer's server, and the one a client with a real
 * server's handles (pe_mount) reads and writes. */
#define PE_FILE_NAME "data.bin"

/* NFSv3 file handles (RFC 1813 §2.3.3: at most 64 bytes): a directory's
 * and a file's in it, which the requester's calls name. */
#define PE_FH_MAX 64
struct pe_handles {
	uint8_t dir[PE_FH_MAX], file[PE_FH_MAX];
	uint32_t dir_len, file_len;
};

struct peer_config {
	bool requester;
	uint32_t credits;        /* requested (client) or granted (server) */
	bool vary_credits;       /* server: change the grant during the run */
	uint32_t reply_delay_ms; /* server: hold each call this long (slow) */
	uint32_t bc_credits;     /* backward-direction credits */
	uint32_t inline_send, inline_recv;
	bool rinval;             /* advertise R */
	bool send_private;       /* send RFC 8797 data at all */
	bool reliable_reply;
	bool backchannel;
	uint32_t mtu;
	uint32_t calls;          /* client: how many forward calls */
	uint32_t rate;           /* client: calls per second, 0 = no limit */
	const char *scenario;
	uint32_t faults;         /* 1u << enum fault */
	uint32_t rrc_timeout_ms;
	uint32_t io_size;        /* bytes per READ/WRITE */
	uint32_t xid_seed;       /* first xid; 0 picks one from the clock */
	/* client: a real server's handles (pe_mount), NULL for the peer's
	 * own responder's one file */
	const struct pe_handles *handles;
	int verbose;
};

void peer_config_defaults(struct peer_config *c, bool requester);

/* The 8 RFC 8797 bytes this side sends (fewer with the truncation fault). */
uint32_t peer_private_data(const struct peer_config *c, uint8_t out[8]);

/* The contents of the one file, which READ replies are checked against:
 * FILE_SIZE bytes. */
const uint8_t *peer_file_image(uint32_t *size);

/* Scenarios the client can run; each names what it exercises. */
struct scenario {
	const char *name;
	const char *what;
};
extern const struct scenario scenarios[];
const struct scenario *scenario_find(const char *name);

#define LAT_MAX 1000000

struct peer_stats {
	uint64_t calls, replies, errors_vers, errors_chunk, failures;
	uint64_t inline_bytes, read_bytes, write_bytes;
	uint64_t long_calls, reply_chunks, write_chunks, read_chunks, rrc, dones;
	uint64_t bc_calls, bc_replies, invalidations;
	uint64_t by_proc[32];
	uint32_t *lat_us;        /* one per completed call */
	uint32_t nlat;
};

struct engine;

struct engine *engine_new(const struct peer_config *cfg, struct xport *x,
			  const uint8_t *peer_pd, uint32_t peer_pd_len);
/* Feed one transport event. */
void engine_event(struct engine *e, struct xev *ev);
/* Requester: start calls that credits and the rate allow. */
void engine_kick(struct engine *e, uint64_t now);
/* Requester: every call answered; responder: peer said goodbye. */
bool engine_done(const struct engine *e);
/* Nothing left in flight (calls, pulls, backward calls). */
bool engine_quiet(const struct engine *e);
const struct peer_stats *engine_stats(const struct engine *e);
/* Requester: why the run failed, or NULL when all the protocol required happened. */
const char *engine_failure(const struct engine *e);
void engine_tick(struct engine *e, uint64_t now);
void engine_free(struct engine *e);
void engine_print_summary(const struct engine *e, FILE *out, double secs);

#endif
