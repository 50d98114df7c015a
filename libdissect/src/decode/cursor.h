/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Bounds-checked big-endian reader shared by the decoders.
 *
 * A cursor knows two ends: `cap`, where the captured bytes stop, and `lim`,
 * where the protocol says the message stops.  A read past `cap` but within
 * `lim` means the capture was cut (truncated); a read past `lim` means the
 * bytes contradict the protocol (malformed).  The first failure sticks, so a
 * decoder reads a run of fields and checks once.
 */
#ifndef RR_CURSOR_H
#define RR_CURSOR_H

#include <rpcrdma/dissect.h>
#include <string.h>

struct rr_cur {
	const uint8_t *p;    /* base of the buffer; offsets are from here */
	uint32_t pos;
	uint32_t cap;        /* readable bytes end */
	uint32_t lim;        /* message end by the protocol (>= cap or not) */
	/* note->status, kept here too: a check per field reads a local, not
	 * the frame (which every decoded field is stored into) */
	uint8_t status;
	struct rr_note *note;
};

static inline void cur_init(struct rr_cur *c, const uint8_t *p, uint32_t pos,
			    uint32_t cap, uint32_t lim, struct rr_note *note)
{
	c->p = p;
	c->pos = pos;
	c->cap = cap < lim ? cap : lim;
	c->lim = lim;
	c->note = note;
	c->status = RR_COMPLETE;
	note->status = RR_COMPLETE;
	note->problem = RR_PROBLEM_NONE;
	note->off = pos;
	note->field = NULL;
}

static inline bool cur_ok(const struct rr_cur *c)
{
	return c->status == RR_COMPLETE;
}

/* Record a failure unless one is already recorded. */
static inline bool cur_fail(struct rr_cur *c, enum rr_status st,
			    enum rr_problem pr, const char *field)
{
	if (c->status == RR_COMPLETE) {
		c->status = (uint8_t)st;
		c->note->status = (uint8_t)st;
		c->note->problem = (uint8_t)pr;
		c->note->off = c->pos;
		c->note->field = field;
	}
	return false;
}

/* Make sure n more bytes can be read; says why not otherwise. */
static inline bool cur_need(struct rr_cur *c, uint32_t n, const char *field)
{
	if (!cur_ok(c))
		return false;
	if ((uint64_t)c->pos + n <= c->cap) /* in 64 bits: no wrap */
		return true;
	if (c->pos > c->lim || n > c->lim - c->pos)
		return cur_fail(c, RR_MALFORMED, RR_PROBLEM_BAD_LENGTH, field);
	return cur_fail(c, RR_TRUNCATED, RR_PROBLEM_SHORT, field);
}

static inline uint32_t cur_left(const struct rr_cur *c)
{
	return c->pos < c->cap ? c->cap - c->pos : 0;
}

static inline uint32_t cur_left_wire(const struct rr_cur *c)
{
	return c->pos < c->lim ? c->lim - c->pos : 0;
}

static inline uint16_t rd_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t rd_be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t rd_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t rd_be64(const uint8_t *p)
{
	return (uint64_t)rd_be32(p) << 32 | rd_be32(p + 4);
}

static inline uint32_t rd_le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

static inline uint64_t rd_le64(const uint8_t *p)
{
	return (uint64_t)rd_le32(p + 4) << 32 | rd_le32(p);
}

/* Getters return 0 once the cursor has failed; callers check cur_ok(). */
static inline uint8_t cur_u8(struct rr_cur *c, const char *field)
{
	if (!cur_need(c, 1, field))
		return 0;
	return c->p[c->pos++];
}

static inline uint16_t cur_be16(struct rr_cur *c, const char *field)
{
	if (!cur_need(c, 2, field))
		return 0;
	uint16_t v = rd_be16(c->p + c->pos);
	c->pos += 2;
	return v;
}

static inline uint32_t cur_be32(struct rr_cur *c, const char *field)
{
	if (!cur_need(c, 4, field))
		return 0;
	uint32_t v = rd_be32(c->p + c->pos);
	c->pos += 4;
	return v;
}

static inline uint64_t cur_be64(struct rr_cur *c, const char *field)
{
	if (!cur_need(c, 8, field))
		return 0;
	uint64_t v = rd_be64(c->p + c->pos);
	c->pos += 8;
	return v;
}

/* An XDR item's length with its padding to a multiple of four (RFC 4506
 * §3), wide enough that no length read from the wire wraps. */
static inline uint64_t xdr_padded(uint64_t len)
{
	return (len + 3) & ~(uint64_t)3;
}

static inline bool cur_skip(struct rr_cur *c, uint32_t n, const char *field)
{
	if (!cur_need(c, n, field))
		return false;
	c->pos += n;
	return true;
}

/* An offset of a decode at base as a decode of the same bytes at 0 gives
 * it: every offset a decoder sets is at base or past it, one it leaves is
 * 0 (base is past 0: a packet's payload). */
static inline uint32_t rr_off_rebase(uint32_t off, uint32_t base)
{
	return off >= base ? off - base : off;
}

static inline void rr_note_rebase(struct rr_note *to, const struct rr_note *from,
				  uint32_t base)
{
	*to = *from;
	to->off = rr_off_rebase(from->off, base);
}

/* Mark a complete layer present in the frame and fold its status in. */
static inline void frame_mark(struct rr_frame *f, enum rr_layer l)
{
	f->present |= 1u << l;
	if (f->note[l].status > f->status) {
		f->status = f->note[l].status;
		f->bad_layer = (uint8_t)l;
	}
}

/* Record a layer's outcome found outside a cursor, and mark the layer. */
static inline void frame_note(struct rr_frame *f, enum rr_layer l,
			      enum rr_status st, enum rr_problem pr,
			      uint32_t off, const char *field)
{
	struct rr_note *n = &f->note[l];
	n->status = (uint8_t)st;
	n->problem = (uint8_t)pr;
	n->off = off;
	n->field = field;
	frame_mark(f, l);
}

/* CRC-32 (rr_crc32) of a then b; fastest when both are multiples of 16
 * bytes long. */
uint32_t rr_crc32_pair(uint32_t crc, const void *a, size_t alen,
		       const void *b, size_t blen);

/* Layer decoders shared between the translation units of libdissect. */
void rr_frame_cm_private(struct rr_frame *f, uint32_t off, uint32_t len);
struct rr_cur;
void rr_decode_ib_transport(const struct rr_config *cfg, struct rr_frame *f,
			    uint32_t bth_off, uint32_t pkt_off,
			    uint32_t end, bool end_known);
void rr_decode_tcp_payload(const struct rr_config *cfg, struct rr_frame *f);
bool rr_decode_iwarp_unit(const struct rr_config *cfg, struct rr_frame *f);
void rr_decode_send_payload(const struct rr_config *cfg, struct rr_frame *f,
			    bool first_of_many);
/* A header decoded at base in its buffer, as a decode of the same bytes
 * starting at 0 gives it (the analyzer's message from a frame's decode):
 * each beside its decoder, which knows its offsets. */
void rr_rpcrdma_rebase(struct rr_rpcrdma *to, const struct rr_rpcrdma *from,
		       uint32_t base);
void rr_rpc_rebase(struct rr_rpc *to, const struct rr_rpc *from, uint32_t base);

#endif /* RR_CURSOR_H */
