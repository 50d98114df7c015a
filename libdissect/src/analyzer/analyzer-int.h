/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The analyzer's internals, shared by its modules (as libpcap's pcap-int.h),
 * from the top layer down:
 *   analyzer.c        the analyzer's life, a frame's dispatch
 *   ib_flow.c         InfiniBand and RoCE: IB CM, PSNs, retransmissions
 *   iwarp_flow.c      iWARP: MPA, TCP streams, markers, DDP
 *   reassembly.c      SENDs reassembled from their pieces, every transport
 *   chunk_io.c        RDMA Writes and Reads of chunk data, every transport
 *   flow.c            RPC-over-RDMA messages: credits, matching, findings
 *   rebuild.c         RPC messages rebuilt from chunk data (RFC 8166 §3.5)
 *   rpc_stats.c       reply statuses, NFSv4 operations, Long Calls named
 *   calls.c           calls, their chunk segments, RDMA operations in progress
 *   conn.c            connections: endpoint hash, lists, setup, reconnects
 *   report.c          the report of a frame: its events and findings
 *   analyzer-names.c  names, and the statistics' procedure slots
 * Functions named rra_ are these modules' to each other, hidden outside
 * the library.
 */
#ifndef RR_ANALYZER_INT_H
#define RR_ANALYZER_INT_H

#include <rpcrdma/analyzer.h>
#include <rpcrdma/nfs4.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define NONE UINT32_MAX
#define POOL_PAGE 4096u       /* rebuilt messages take whole pages */
#define HDR_KEEP 4096u        /* bytes of a reassembled SEND kept: headers */
#define RECENT 256u           /* completed xids remembered for RDMA_DONE */
#define SENT_XIDS 1024  /* forward calls remembered for resends: 16 KiB */
#define SENT_HASH 2048  /* their index by (connection, xid): 4 KiB */
/* calls sent again after their send before went unanswered, followed at
 * once (resends.c): a reconnect resends what was in flight */
#define RESENT_CALLS 64
#define PSN_FRAMES_BITS 12 /* request packets remembered: 4096, 64 KiB */
#define PSN_FRAMES (1u << PSN_FRAMES_BITS)

/* One end of a connection: where its messages arrive.  Its address and
 * QPN (or TCP port) are the connection's public view's (side_addr,
 * side_id); the packets that name what a retransmission repeats are in
 * the analyzer's psn_frames.  The fields marked IB are ib_flow.c's alone,
 * those marked iWARP iwarp_flow.c's; conn.c only sets them up. */
struct side {
	/* reassembly of the SEND arriving at this side */
	uint32_t slot;        /* reassembly slot, NONE when idle */
	uint32_t next_psn;    /* IB: PSN of the next request packet */
	uint32_t msn;         /* iWARP: MSN of the message */
	uint32_t marker_seq0; /* iWARP: markers from this sequence number */
	uint32_t stream;      /* iWARP: TCP reassembly of what this side sends */
	bool known;
	bool psn_seen;        /* IB: next_psn follows the last request */
	bool psn_exact;       /* IB: and no Read Request made it a floor */
	bool marker_set;      /* iWARP: marker_seq0 is set */
	uint32_t write_key;   /* IB: STag of the RDMA Write arriving here */
	/* IB: the requests arriving here are being resent (behind next_psn),
	 * and whether a NAK (PSN sequence error, RNR) asked for that: a burst
	 * no NAK asked for is the sender's timeout */
	bool resending, nak_asked;
	/* IB: the PSN the receiver takes next, as it takes them: in order,
	 * a duplicate dropped, nothing past a gap until the gap's packet
	 * comes (IBA vol. 1 §9.7.5.1.2); deliver_exact as psn_exact */
	uint32_t deliver_psn;
	bool deliver_seen, deliver_exact;
	/* IB: the receiver NAKed deliver_psn (a PSN sequence error): it
	 * drops what comes past it until the resend */
	bool deliver_nak;
	/* IB: the receiver acknowledged past what the capture lost: the next
	 * packet taken follows a gap */
	bool deliver_gap;
};

/*
 * A connection's place in one of the lists that find it in constant time:
 * the use order (the least recently used is evicted), and three hash
 * chains: connections with one side's QPN still unknown (by the two
 * addresses), connections with calls (by requester and responder, to find
 * the one a reconnect replaced), and IB CM communication IDs.
 */
enum { LIST_LRU, LIST_HALF, LIST_PAIR, LIST_COMM, LISTS };
struct link {
	uint32_t prev, next;
};

struct conn {
	struct rr_conn_info info;
	struct side side[2];  /* [0] requester, [1] responder */
	uint32_t hnext[2];    /* endpoint hash chains, per side */
	uint32_t comm_id;     /* IB CM: the REQ's communication ID */
	struct link link[LISTS];
	uint32_t calls;       /* its calls, linked by call.conn_link */
	uint8_t listed;       /* 1 << LIST_*: on that list */
	uint8_t half_side;    /* LIST_HALF: the side whose QPN is unknown */
	/* bits: a connection's size counts (bench/analyzer-memory) */
	bool used : 1;
	bool rpcrdma : 1;     /* known to carry RPC-over-RDMA */
	bool markers : 1;     /* iWARP negotiation */
	bool crc : 1;
	bool setup_cut : 1;   /* the capture cut its setup: R bits unknown */
	bool previous_known : 1; /* info.previous looked for */
	bool replaced : 1;    /* a later connection's previous */
	bool credit_freed : 1; /* a reply ended a full grant since its last call */
	/* 1 + the client table's row of its requester (RR_CLIENT_ROWS + 1:
	 * the rest's sum), 0 until looked for or once the requester changed */
	uint8_t client_row;
	uint64_t full_since;  /* when its calls in flight reached the grant, or 0 */
	/* until it shows RPC-over-RDMA: its share of other_upper_layer */
	uint64_t other_packets, other_bytes;
};

static inline const uint8_t *side_addr(const struct conn *k, int s)
{
	return s ? k->info.responder_addr : k->info.requester_addr;
}

static inline uint32_t side_id(const struct conn *k, int s)
{
	return s ? k->info.responder_qpn : k->info.requester_qpn;
}

struct seg {
	uint32_t handle, length;
	uint64_t offset;
	uint32_t call;        /* owner */
	uint32_t next;        /* next segment of the same call */
	uint32_t hnext;       /* handle hash chain */
	uint8_t list;         /* enum rr_chunk_list; RRC read segments too */
	bool position_zero;   /* a read segment of a Long Call's message */
	bool rrc;             /* advertised by the reply: responder's read chunk */
};

/*
 * An RDMA Read or a multi-packet RDMA Write whose data packets are still
 * to come.  How its next data packet names it is the transport's own, set
 * and compared only by its flow module: IB data packets carry no address
 * after the first, a Write's follow by PSN (IBA vol. 1 §9.7.5.1.1) and a
 * Read's responses take the request's PSNs (§9.7.5.1.3): match_id is the
 * next PSN; iWARP Read Responses are tagged with the request's sink STag
 * and TO (RFC 5040 §4.5): match_id and match_offset.  `pos` is where the
 * next byte lands in the owning call's chunk space.
 */
#define RDMA_OPS 32
struct rdma_op {
	bool used, read;
	uint8_t data_side;    /* the side that sends the data */
	uint32_t conn, call, xid, seg;
	uint32_t pos, left;
	uint32_t match_id;
	uint64_t match_offset;
};

/*
 * An RPC message being rebuilt (RFC 8166 §3.5).  Chunk data lands in the
 * call's "chunk space": its segments laid end to end in the order the
 * headers listed them (the call's, then a reply's responder-provided read
 * chunk).  A call with read chunks at positions past zero keeps its inline
 * payload after the chunk space, to splice them in.
 */
struct rebuild {
	uint32_t call;        /* NONE when free */
	uint32_t page, size;  /* its bytes in the pool */
	uint32_t read_have, write_have, rrc_have;
	uint32_t inline_at, inline_len;
	bool lost;            /* a piece cannot be had */
	bool call_done, rrc_done;
	uint32_t positions[RR_MAX_SEGMENTS]; /* of the call's segments */
};

/* The I/O an NFS call's range is: its READ's, its WRITE's, or neither (a
 * COMMIT's, or none). */
enum rra_io { RRA_IO_NONE, RRA_IO_READ, RRA_IO_WRITE };

#define REBUILD_SLOT_BITS 11
#define NO_REBUILD ((1u << REBUILD_SLOT_BITS) - 1)
/* A call outstanding, packed (bench/analyzer-memory): its small values
 * share one word. */
struct call {
	uint32_t xid, conn;
	uint32_t prog, vers, proc;
	uint32_t frame;       /* low bits of the call's frame number */
	uint32_t segs;        /* first segment, chained by seg.next */
	uint32_t hnext;       /* (conn, dir, xid) hash chain */
	struct link conn_link; /* the connection's calls */
	struct link age;       /* all calls, oldest first */
	uint64_t ts_ns;
	/* what this RPC moved: its SENDs, and RDMA on its chunks (at most
	 * UINT32_MAX: a call's chunks are a few MiB) */
	uint32_t bytes_inline, bytes_read, bytes_write;
	unsigned slot : 7;    /* rr_analyzer_proc_slot */
	unsigned rebuild : REBUILD_SLOT_BITS; /* slot, NO_REBUILD when none */
	unsigned dir : 2;     /* RR_DIR_FWD_CALL or RR_DIR_BWD_CALL */
	/* the reply's status read from the head of its reply chunk when the
	 * message is not rebuilt, plus one (0: not seen); head_nfs: its NFS
	 * status too, below */
	unsigned head_status : 4;
	bool head_nfs : 1;
	bool used : 1;
	bool named : 1;       /* prog, vers, proc read from its RPC header */
	bool has_reply_chunk : 1, rrc_pending : 1, answered : 1;
	bool segs_cut : 1;    /* the capture cut its chunk lists: more follow */
	bool counted : 1;     /* in the connection's calls in flight */
	bool rebuild_lost : 1; /* needed a slot and found none */
	bool status_counted : 1; /* its reply's status is in the statistics */
	/* the result's data, which a write chunk carries, is the reply's last
	 * item: NFSv3 READ or READLINK, or an NFSv4 COMPOUND whose last
	 * operation is one of them (set with the call, data_last_of) */
	bool data_last : 1;
	bool nfs4 : 1;        /* an NFSv4 COMPOUND: its operations below */
	/* RPCSEC_GSS wraps its arguments and results (rr_rpc_body_wrapped):
	 * neither is read as the procedure's, unless the wrapping is
	 * integrity's (body_integ), read inside it (rpc_stats.c) */
	bool body_wrapped : 1, body_integ : 1;
	/* nfs4: its operations are a CB_COMPOUND's callback operations */
	bool nfs4_callback : 1;
	bool nfs_counted : 1; /* its reply's NFS status is in the statistics */
	/* sent before on the connection this one replaced, unanswered there
	 * (a->resent holds its first send); superseded: this send is that
	 * one, sent again on the next connection */
	bool resent : 1, superseded : 1;
	/* a COMPOUND's operations (rr_nfs4_compound, kept small: numbers
	 * past 254 as 255) for its reply's report */
	uint8_t nfs4_minor, nfs4_named;
	uint16_t nfs4_numops;
	uint8_t nfs4_op[RR_NFS4_OPS_KEPT];
	/* what an NFS call acts on (rr_nfs_target), for its reply's report,
	 * and whether its range is a READ's or a WRITE's (enum rra_io) */
	bool fh_known : 1, range_known : 1;
	unsigned io : 2;
	uint32_t fh_hash, io_count;
	uint64_t io_offset;
	/* head_nfs: the NFS status read with head_status */
	uint32_t head_nfs_status;
	uint16_t head_nfs_numres;
	uint32_t gss_seq;     /* body_integ: its credential's sequence number */
};
_Static_assert(RR_PROC_SLOTS <= 128 && RR_DIR_BWD_CALL < 4 &&
	       RR_REPLY_STATUS_COUNT < 16, "struct call's bit fields");

#define STREAM_BUF 65536u
/* Bytes held past a hole until it fills: what a sender sends on in the
 * round trip before its resend (a TCP window; four loopback GSO segments
 * of 64 KiB), by sequence number in a ring. */
/* IB: request packets held past a PSN gap, at most, and the bytes of each
 * (a 4096-byte MTU's payload and its headers) */
#define HELD_PACKETS 64u
#define HELD_PACKET_BYTES 4352u
#define HELD_BYTES (4u * 65536u)
#define HELD_RANGES 16u

/* One direction of an iWARP TCP connection, reassembled (RFC 9293 §3.10). */
struct stream {
	bool used, synced;
	uint32_t conn;        /* whose it is, while one of its sides names it */
	uint32_t next_seq;    /* sequence number of the next byte wanted */
	uint32_t top_seq;     /* past the highest byte seen */
	uint32_t len;         /* bytes held, markers removed */
	uint32_t discard;     /* bytes still to come of an FPDU decoded cut */
	uint32_t nheld;       /* ranges held past a hole, in order */
	struct { uint32_t start, end; } held[HELD_RANGES];
	uint8_t ring[HELD_BYTES];   /* byte q of a held range at q % HELD_BYTES */
	uint8_t buf[STREAM_BUF];
};
_Static_assert((HELD_BYTES & (HELD_BYTES - 1)) == 0,
	       "a ring indexed by sequence numbers modulo 2^32");

struct rsm {                /* a SEND being reassembled */
	uint32_t len, kept;
	bool used;
	uint8_t *bytes;       /* send_keep bytes of rsm_bytes */
};

/* The report being made of the frame being taken (report.c). */
struct report {
	struct rr_frame_report pub;
	struct rr_event *events;    /* RR_REPORT_EVENTS */
	struct rr_rpc *rpcs;        /* an event's RPC header, by its index */
	struct rr_rpcrdma *hdrs;    /* RR_REPORT_MESSAGES */
	uint32_t nhdrs;
	/* the connection of each event, as it stood then (RR_REPORT_EVENTS);
	 * consecutive events on one unchanged connection share one */
	struct rr_conn_info *conns;
	uint32_t nconns;
	struct rr_frame *units;     /* RR_EV_SETUP's, RR_REPORT_SETUPS */
	/* RR_CFG_LIST_UNITS: the frame's units, RR_REPORT_UNITS, and one to
	 * decode an iWARP segment's own FPDUs in */
	struct rr_frame *listed;
	/* an event's NFSv4 COMPOUND operations, by its index */
	struct rr_nfs4_compound *nfs4;
	uint32_t nunits;
	struct rr_event *message;   /* the message being taken, if listed */
	/* the caller's frame, where messages whole in it lie */
	const uint8_t *frame;
	uint32_t frame_len;
	uint8_t *bytes;             /* lim.report_bytes */
	uint32_t bytes_used;
	uint32_t finish_at;         /* rr_analyzer_finish: the next call */
};

/* The file table's index: four slots a row, so that a handle not in the
 * table is told so after one or two probes (linear probing at a load of
 * 1/4). */
#define RR_FILE_INDEX_SLOTS (4 * RR_FILE_ROWS)

/* The file table's rows grouped by their count of calls (files.c): a
 * group for each count some row has, in a list from the fewest calls up;
 * in a group, its rows in the order they reached that count.  Links are
 * a row or a group + 1, 0 for none, so a zeroed analyzer starts empty. */
struct file_counts {
	uint16_t row_prev[RR_FILE_ROWS], row_next[RR_FILE_ROWS];
	uint16_t group_of[RR_FILE_ROWS];
	uint16_t first[RR_FILE_ROWS], last[RR_FILE_ROWS]; /* a group's rows */
	uint16_t more[RR_FILE_ROWS], fewer[RR_FILE_ROWS]; /* its neighbours */
	uint16_t fewest;          /* the group with the fewest calls */
	uint16_t spare;           /* groups free for use, linked by more */
	uint16_t groups_made;
};

struct rr_analyzer {
	struct rr_config cfg;
	struct rr_analyzer_limits lim;
	struct report rep;
	struct rr_stats st;
	/* st.files by fh_hash: open addressing, row + 1 (0: empty); and
	 * their rows grouped by calls (files.c) */
	uint16_t file_index[RR_FILE_INDEX_SLOTS];
	struct file_counts file_counts;
	uint64_t frame_no, now_ns;
	/* connections and their endpoint hash */
	struct conn *conns;
	uint32_t nconns, conn_hash_size;
	uint32_t *conn_hash;
	/* heads of the connections' lists: LIST_LRU's first is the most
	 * recently used, lru_last the least; the chains' by hash */
	uint32_t lru_first, lru_last;
	uint32_t list_hash_size;
	uint32_t *list_heads[LISTS];
	/* the two endpoints last found: a connection's two directions */
	struct { uint8_t addr[16]; uint32_t id, conn; int side; } ep_seen[2];
	unsigned ep_seen_next;
	/* calls */
	struct call *calls;
	uint32_t call_hash_size, *call_hash, free_call;
	uint32_t calls_taken;   /* slots ever used: [0, calls_taken) */
	uint32_t oldest_call, newest_call;
	/* segments and their handle hash */
	struct seg *segs;
	uint32_t seg_hash_size, *seg_hash, free_seg;
	uint32_t segs_taken;    /* slots ever used: [0, segs_taken) */
	/* reassembly */
	struct rsm *rsm;
	uint8_t *rsm_bytes;
	uint32_t free_rsm_hint;
	struct stream *streams;
	struct rr_frame fpdu;   /* a unit decoded from a reassembled stream */
	struct rdma_op ops[RDMA_OPS];
	unsigned ops_next, ops_live;
	struct rebuild *rebuilds;
	uint8_t *pool;          /* rebuild_bytes, in pages */
	uint64_t *pool_used;    /* a bit per page */
	uint32_t pool_pages, pool_hint;
	uint8_t *rebuilt;       /* the message handed out, max_rebuild */
	/* the last forward calls' xids, to know one resent after a reconnect;
	 * answered: its reply's status plus one (0: none seen) */
	struct { uint32_t xid, conn, frame, answered; } sent[SENT_XIDS];
	unsigned sent_next;
	uint16_t sent_index[SENT_HASH]; /* slot in sent plus one, 0: none */
	/* the calls with c->resent: their first send and how many there were */
	struct resent {
		uint32_t call, xid, conn, sends;
		uint64_t first_ns, first_frame;
	} resent[RESENT_CALLS];
	unsigned resent_next;
	/* the live front ends' clock (rr_analyzer_clock), past the last
	 * frame's time while no frame comes */
	uint64_t clock_ns;
	/* IB: the frames of recent request packets by (connection id, side
	 * they were sent to, PSN), to name what a retransmission repeats and
	 * what a NAK refused (with the STag of an RDMA Write or Read, 0 for a
	 * SEND); a newer packet takes an older one's place */
	struct { uint32_t conn_id, side_psn, frame, key; } psn_frames[PSN_FRAMES];
	/* the detail of a NAK's finding: valid until the next frame */
	char nak_detail[160];
	/* RDMA_DONE: xids of recently completed calls */
	uint32_t recent[RECENT];
	uint32_t recent_at;
	struct rr_frame f;
	/* IB: request packets past a PSN gap of one stream, held until the
	 * gap is known: the resend of its packet (a loss on the wire: the
	 * receiver dropped them, and they come again) or the receiver
	 * acknowledging past it (the capture's loss: taken as they came) */
	struct psn_hold {
		bool active;
		uint8_t to;           /* the side they were sent to */
		uint8_t n;            /* packets held */
		uint32_t conn, conn_id;
		uint64_t released_in; /* frame that last released a hold */
		struct held_packet {
			uint64_t frame_no, ts_ns;
			uint32_t link, caplen, wirelen, psn;
		} packet[HELD_PACKETS];
		uint8_t *bytes;       /* HELD_PACKETS x HELD_PACKET_BYTES */
		struct rr_frame f;    /* a held packet decoded again */
	} hold;
	struct rr_rpcrdma hdr;
	struct rr_rpc rpc;
	struct rr_note note;
	uint8_t scratch[65536]; /* iWARP marker removal */
	size_t memory;
};

static inline uint32_t add_saturated(uint32_t x, uint64_t y)
{
	return y >= UINT32_MAX - x ? UINT32_MAX : x + (uint32_t)y;
}

/*
 * The modules' functions, by layer from the bottom: each module calls
 * only those of the layers below its own (tests/layers-test.sh checks it
 * on the built objects; docs/design.md draws it).
 */

/* report.c: the frame's report, its events and findings */
bool rra_report_alloc(struct rr_analyzer *a, void *(*alloc)(struct rr_analyzer *,
							  size_t, size_t));
void rra_report_free(struct rr_analyzer *a);
/* The report of frame frame_no taken at ts_ns (the analyzer's frame_no
 * and now_ns, given as values: a load of the two just stored apart would
 * wait for both stores) */
void rra_report_begin(struct rr_analyzer *a, uint64_t frame_no, uint64_t ts_ns,
		      const uint8_t *frame, uint32_t len);
void rra_emit(struct rr_analyzer *a, struct rr_event *ev);
uint32_t rra_report_setup(struct rr_analyzer *a, const struct rr_frame *f);
/* With RR_CFG_LIST_UNITS only: the unit just decoded into the report's list;
 * the units a streamed iWARP segment holds after it, decoded from the
 * segment alone (the analysis takes them from the stream). */
void rra_report_unit(struct rr_analyzer *a, const struct rr_frame *f);
void rra_report_segment_units(struct rr_analyzer *a, const struct rr_frame *segment);
void rra_report_conn(struct rr_analyzer *a, uint32_t i, uint32_t conn);
/* Whether reports list events (RR_CFG_NO_EVENTS unset): an event that
 * only a report would show need not be made otherwise. */
/* Frame frame_no, the frame being taken, into span s. */
static inline void rra_span_add(struct rr_frame_span *s, uint64_t frame_no)
{
	if (!s->first)
		s->first = frame_no;
	s->last = frame_no;
}

static inline bool rra_reporting(const struct rr_analyzer *a)
{
	return !(a->cfg.flags & RR_CFG_NO_EVENTS);
}
void rra_finding(struct rr_analyzer *a, uint32_t conn, enum rr_finding_id id,
		 const char *detail);
void rra_message_taken(struct rr_analyzer *a);

/* conn.c: the connection table, its lookups and lists */
uint32_t rra_conn_by_comm(struct rr_analyzer *a, uint32_t comm);
uint32_t rra_conn_find(struct rr_analyzer *a, uint8_t transport,
		       const uint8_t *src, uint32_t src_id,
		       const uint8_t *dst, uint32_t dst_id, bool src_id_known,
		       int *to);
int rra_conn_inferred(struct rr_analyzer *a, uint32_t cn,
		       const uint8_t *src, uint32_t src_id,
		       const uint8_t *dst, uint32_t dst_id, bool src_id_known);
uint32_t rra_conn_victim(const struct rr_analyzer *a);
void rra_conn_evict(struct rr_analyzer *a, uint32_t c);
uint32_t rra_conn_new(struct rr_analyzer *a, uint32_t c, uint8_t transport);
/* Connection cn shown to carry RPC-over-RDMA (a message, RFC 8797 private
 * data, the NFS/RDMA port): its counts move from other_upper_layer to the
 * totals. */
void rra_conn_rpcrdma(struct rr_analyzer *a, uint32_t cn);
/* A packet (IB) or DDP segment (iWARP) of plen payload bytes on cn: one
 * of an RPC-over-RDMA connection is counted by what it carries, one of
 * another upper layer's here.  Every packet: inline. */
static inline void rra_conn_packet(struct rr_analyzer *a, uint32_t cn, uint32_t plen)
{
	struct conn *k = &a->conns[cn];
	if (k->rpcrdma) {
		a->rep.pub.units.rpcrdma++;
		return;
	}
	k->other_packets++;
	k->other_bytes += plen;
	a->st.other_upper_layer.packets++;
	a->st.other_upper_layer.bytes += plen;
}
uint32_t rra_tcp_conn_find(struct rr_analyzer *a, const uint8_t *src,
			   uint32_t sport, const uint8_t *dst,
			   uint32_t dport, int *to);
/* A forward call's send before, on the connection this one replaced:
 * the frame that first carried it (0: none), and its reply's status plus
 * one where it was answered there (0: it was not). */
struct sent_before {
	uint64_t frame;
	uint32_t answered;
};
struct sent_before rra_resent_of(struct rr_analyzer *a, uint32_t cn, uint32_t xid,
				 bool is_null);
void rra_sent_answered(struct rr_analyzer *a, uint32_t cn, uint32_t xid,
		       enum rr_reply_status status);
uint32_t rra_previous_index(struct rr_analyzer *a, uint32_t cn);
void rra_conn_closed(struct rr_analyzer *a, uint32_t cn, bool reset);
void rra_conn_touch(struct rr_analyzer *a, uint32_t c);
void rra_frame_addrs(const struct rr_frame *f, uint8_t src[16],
		     uint8_t dst[16]);
void rra_half_add(struct rr_analyzer *a, uint32_t c, int s);
void rra_side_addr_put(struct rr_analyzer *a, uint32_t c, int s,
		       const uint8_t *addr);
void rra_sides_swap(struct rr_analyzer *a, uint32_t c);
void rra_list_add(struct rr_analyzer *a, unsigned l, uint32_t c);
void rra_list_del(struct rr_analyzer *a, unsigned l, uint32_t c);
void rra_negotiated(struct rr_analyzer *a, uint32_t cn);
void rra_set_private(struct rr_analyzer *a, uint32_t cn, int side,
		     const struct rr_frame *f);
void rra_side_set(struct rr_analyzer *a, uint32_t c, int s,
		  const uint8_t *addr, uint32_t id);

/* calls.c: calls, their segments, RDMA operations in progress */
bool rra_op_live(const struct rr_analyzer *a, const struct rdma_op *o);
bool rra_read_wanted(const struct rr_analyzer *a, uint32_t si, uint64_t va);
struct rdma_op *rra_op_new(struct rr_analyzer *a, uint32_t cn, uint32_t si,
			   bool read, int data_side, uint64_t pos,
			   uint32_t left);
uint32_t rra_call_find(const struct rr_analyzer *a, uint32_t conn,
		       uint8_t dir, uint32_t xid);
uint32_t rra_call_new(struct rr_analyzer *a, uint32_t conn, uint8_t dir,
		      uint32_t xid);
uint32_t rra_seg_find(const struct rr_analyzer *a, uint32_t conn,
		      uint32_t handle, uint64_t va);
bool rra_seg_room(const struct rr_analyzer *a);
unsigned rra_log2_bucket(uint64_t v, unsigned n);
void rra_call_free(struct rr_analyzer *a, uint32_t ci);
void rra_op_end(struct rr_analyzer *a, struct rdma_op *o);
void rra_seg_add(struct rr_analyzer *a, uint32_t ci,
		 const struct rr_rdma_seg *s, uint8_t list);

/* files.c: answered NFS calls by file handle */
void rra_file_answered(struct rr_analyzer *a, const struct call *c, uint64_t latency_ns);

/* resends.c: calls sent again on a new connection, stuck or late */
void rra_resend_carry(struct rr_analyzer *a, uint32_t cn, uint32_t ci,
		      struct sent_before before);
void rra_resend_answered(struct rr_analyzer *a, uint32_t ci);
void rra_resend_unanswered(struct rr_analyzer *a, uint32_t ci);

/* clients.c: forward RPCs by requester */
/* The row of connection cn's requester: the one it keeps, else found. */
struct rr_client_stats *rra_client_of(struct rr_analyzer *a, uint32_t cn);
/* A forward call answered, its reply's SEND counted in bytes_inline: the
 * bytes its RPC moved (its latency went in with its procedure's,
 * record_latency). */
void rra_client_answered(struct rr_analyzer *a, uint32_t cn, const struct call *c);

/* Of a call and its message's bytes alone, through the decoders: no
 * module's function is called from this header. */

/* Where an RPCSEC_GSS integrity body at m[off] holds call c's procedure
 * XDR, `have` bytes of m readable: inside databody_integ past its sequence
 * number, which must repeat the call's credential's (RFC 2203 §5.3.2.2),
 * to *stop.  False where the body is not the procedure's XDR to read:
 * encrypted, a context's token, or an integrity body that does not fit.
 * Of the call and its bytes alone (the decoder's rr_rpc_gss_integ_body):
 * inline, as every wrapped reply asks. */
static inline bool rra_integ_body_at(const struct call *c, const uint8_t *m, uint32_t off,
				     uint32_t have, uint32_t *at, uint32_t *stop)
{
	uint32_t seq;
	return c->body_integ && off <= have &&
	       rr_rpc_gss_integ_body(m, off, have - off, at, stop, &seq) && seq == c->gss_seq;
}

/* The procedure's results in call c's reply rpc, m's first `have` bytes
 * readable: an accepted, successful reply's status (rr_nfs_reply_decode),
 * read inside an RPCSEC_GSS integrity wrapping too (rra_integ_body_at).
 * Inline: asked of every reply. */
static inline bool rra_reply_results(const struct call *c, const struct rr_rpc *rpc,
				     const uint8_t *m, uint32_t have, struct rr_nfs_reply *out)
{
	if (rpc->reply_stat != RR_RPC_MSG_ACCEPTED || rpc->accept_stat != RR_RPC_SUCCESS ||
	    rpc->body.off > have)
		return false;
	uint32_t body = rpc->body.off, stop;
	if (c->body_wrapped) {
		if (!rra_integ_body_at(c, m, body, have, &body, &stop))
			return false;
		have = have < stop ? have : stop;
	}
	return rr_nfs_reply_decode(m, body, have - body, c->prog, c->vers, c->proc, out);
}

/* rpc_stats.c: reply statuses, NFSv4 operations, Long Calls named */
bool rra_call_ops(const struct call *c, struct rr_nfs4_compound *out);
void rra_call_target(const struct call *c, struct rr_nfs_target *out);
bool rra_nfs_reply(struct rr_analyzer *a, struct call *c, const struct rr_rpc *rpc,
		   const uint8_t *m, uint32_t have, struct rr_nfs_reply *out);
void rra_report_reply_nfs(struct rr_analyzer *a, uint32_t xid,
			  const struct rr_nfs_reply *nfs);
/* The reply's RPC status, read from the reply rebuilt from its chunk, into
 * the completion this frame reported. */
void rra_report_reply_status(struct rr_analyzer *a, uint32_t xid,
			     enum rr_reply_status status);
void rra_report_message_ops(struct rr_analyzer *a, uint32_t xid,
			    const struct rr_nfs4_compound *ops);
bool rra_data_last_of(struct rr_analyzer *a, struct call *c, const uint8_t *m,
		      const struct rr_rpc *rpc, uint32_t kept, uint32_t end,
		      const struct rr_rpcrdma *h);
void rra_call_named(struct call *c, const struct rr_rpc *rpc);
void rra_name_long_call(struct rr_analyzer *a, uint32_t ci,
			const uint8_t *p, uint32_t have);
void rra_callback_ops(struct rr_analyzer *a, struct call *c, const uint8_t *m,
		      const struct rr_rpc *rpc, uint32_t kept, uint32_t end);
void rra_long_call_whole(struct rr_analyzer *a, struct call *c, const uint8_t *m, uint32_t len);
/* How call c was answered: its reply's RPC header rpc (NULL when not in
 * the frame), else what the head of its reply chunk said, else unseen. */
enum rr_reply_status rra_reply_status(const struct call *c, const struct rr_rpc *rpc);
void rra_record_status(struct rr_analyzer *a, struct call *c, const struct rr_rpc *rpc);

/* rebuild.c: RPC messages rebuilt from chunk data; a call's end */
struct rebuild *rra_rebuild_get(struct rr_analyzer *a, uint32_t ci,
				uint64_t size);
uint64_t rra_chunk_space(const struct rr_analyzer *a, const struct call *c,
			 bool rrc);
uint64_t rra_seg_base(const struct rr_analyzer *a, uint32_t si);
void rra_call_end(struct rr_analyzer *a, uint32_t ci);
void rra_call_rebuild_setup(struct rr_analyzer *a, uint32_t ci,
			    const struct rr_rpcrdma *h, const uint8_t *m,
			    uint32_t kept, uint32_t len);
void rra_op_data(struct rr_analyzer *a, struct rdma_op *o, uint32_t at,
		 const uint8_t *p, uint32_t have, uint32_t n);
void rra_place(struct rr_analyzer *a, uint32_t si, uint64_t pos,
	       const uint8_t *p, uint32_t have, uint32_t len);
void rra_rebuild_put(struct rr_analyzer *a, struct call *c);
void rra_reply_rebuild(struct rr_analyzer *a, uint32_t ci,
		       const struct rr_rpcrdma *h, const uint8_t *m,
		       uint32_t kept, uint32_t len);

/* flow.c: RPC-over-RDMA messages (credits, matching, findings), the
 * connections and calls they open and end */
uint32_t rra_conn_open(struct rr_analyzer *a, uint8_t transport);
uint32_t rra_conn_open_for(struct rr_analyzer *a, uint8_t transport,
			   const uint8_t *src, uint32_t src_id,
			   const uint8_t *dst, uint32_t dst_id,
			   bool src_id_known, int *to);
void rra_message(struct rr_analyzer *a, uint32_t cn, int to,
		 const uint8_t *m, uint32_t kept, uint32_t len,
		 uint32_t inv_key, const struct rr_frame *pre);
void rra_replies_lost(struct rr_analyzer *a, uint32_t cn);
/* Which way a message goes (enum rr_dir) from its sender's side (0 the
 * requester) and its header and RPC header (rpc NULL when none). */
uint8_t rra_message_dir(int sender, const struct rr_rpcrdma *h,
			const struct rr_rpc *rpc);

/*
 * The four calls by which a transport's flow hands over what its packets
 * carried: a message arrived (reassembly.c: whole, or a piece of it), a
 * Write landed, a Read was
 * requested, an operation's later data arrived (chunk_io.c).  The two
 * files do not call each other.
 */
void rra_send_whole(struct rr_analyzer *a, uint32_t cn, int to,
		    const uint8_t *p, uint32_t have, uint32_t plen,
		    uint32_t inv_key, const struct rr_frame *pre);
void rra_send_piece(struct rr_analyzer *a, uint32_t cn, int to, bool first,
		    bool last, bool in_order, const uint8_t *p, uint32_t have,
		    uint32_t plen, uint32_t inv_key);
uint32_t rra_send_have(const struct rr_analyzer *a, const struct side *sd);
struct rdma_op *rra_write_landed(struct rr_analyzer *a, uint32_t cn, int to,
				 uint32_t key, uint64_t va, uint32_t len,
				 const uint8_t *p, uint32_t have, uint32_t plen,
				 bool follow);
struct rdma_op *rra_read_requested(struct rr_analyzer *a, uint32_t cn, int to,
				   uint32_t key, uint64_t va, uint32_t len);
void rra_op_landed(struct rr_analyzer *a, uint32_t cn, struct rdma_op *o,
		   enum rr_access access, uint32_t at, const uint8_t *p,
		   uint32_t have, uint32_t plen);
/* The chunk of a call in flight on cn that STag key belongs to: its
 * call's xid and its kind; false when none does (any more). */
bool rra_chunk_of_key(const struct rr_analyzer *a, uint32_t cn, uint32_t key,
		      uint32_t *xid, enum rr_chunk_kind *kind);

/* ib_flow.c: InfiniBand and RoCE: IB CM, PSNs */
void rra_cm(struct rr_analyzer *a, const struct rr_frame *f);
void rra_ib_packet(struct rr_analyzer *a, const struct rr_frame *f);
/* The request packets held past a PSN gap, if any: taken in order as the
 * receiver took them (deliver), or dropped as it dropped them. */
void rra_ib_hold_release(struct rr_analyzer *a, bool deliver);

/* iwarp_flow.c: iWARP: MPA, TCP streams, markers, DDP */
bool rra_iwarp_segment(struct rr_analyzer *a, const struct rr_frame *f);
void rra_iwarp_mpa(struct rr_analyzer *a, const struct rr_frame *f);
void rra_tcp_end(struct rr_analyzer *a, const struct rr_frame *f);

#endif
