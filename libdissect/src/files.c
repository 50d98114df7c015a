/* SPDX-License-Identifier: BSD-2-Clause */
/* Answered NFS calls by the file handle they name first: the busiest and
 * the slowest files, as a user of nfsslower and Wireshark's nfs.fh.hash
 * asks.  A bounded table of heavy hitters (Space-Saving: Metwally,
 * Agrawal, El Abbadi, 2005): a handle new to a full table takes the
 * least called one's row and count, so that a handle called more often
 * than that is never lost, and each count is over by at most what it
 * inherited.  The least called row is the root of a min-heap of the rows
 * by (calls, row): a full table finds it, the first of them as a scan
 * would, in log2(RR_FILE_ROWS) steps instead of a scan of every row. */
#include "analyzer-int.h"

#define INDEX_SLOTS (2 * RR_FILE_ROWS)
_Static_assert((INDEX_SLOTS & (INDEX_SLOTS - 1)) == 0 && RR_FILE_ROWS < UINT16_MAX,
	       "files.c's index");

/* The index slot holding hash, or the empty one where it would go. */
static uint32_t slot_of(const struct rr_analyzer *a, uint32_t hash)
{
	uint32_t i = hash & (INDEX_SLOTS - 1);
	while (a->file_index[i] && a->st.files[a->file_index[i] - 1].fh_hash != hash)
		i = (i + 1) & (INDEX_SLOTS - 1);
	return i;
}

/* Takes slot i's entry out, moving back those its probe passed over
 * (linear probing's deletion without tombstones). */
static void unindex(struct rr_analyzer *a, uint32_t i)
{
	a->file_index[i] = 0;
	for (uint32_t j = (i + 1) & (INDEX_SLOTS - 1); a->file_index[j];
	     j = (j + 1) & (INDEX_SLOTS - 1)) {
		uint32_t home = a->st.files[a->file_index[j] - 1].fh_hash & (INDEX_SLOTS - 1);
		/* j's entry may fill the hole when its home is not in (i, j] */
		if (((j - home) & (INDEX_SLOTS - 1)) >= ((j - i) & (INDEX_SLOTS - 1))) {
			a->file_index[i] = a->file_index[j];
			a->file_index[j] = 0;
			i = j;
		}
	}
}

static bool lighter(const struct rr_analyzer *a, uint16_t r, uint16_t s)
{
	const struct rr_file_stats *f = a->st.files;
	return f[r].calls < f[s].calls || (f[r].calls == f[s].calls && r < s);
}

static void heap_put(struct rr_analyzer *a, uint32_t at, uint16_t r)
{
	a->file_heap[at] = r;
	a->file_heap_at[r] = (uint16_t)at;
}

static void sift_up(struct rr_analyzer *a, uint32_t at)
{
	uint16_t r = a->file_heap[at];
	while (at > 0 && lighter(a, r, a->file_heap[(at - 1) / 2])) {
		heap_put(a, at, a->file_heap[(at - 1) / 2]);
		at = (at - 1) / 2;
	}
	heap_put(a, at, r);
}

/* Row r's calls grew: it moves down past lighter rows. */
static void sift_down(struct rr_analyzer *a, uint16_t r)
{
	uint32_t at = a->file_heap_at[r], n = a->st.file_rows;
	for (uint32_t c; (c = 2 * at + 1) < n; at = c) {
		if (c + 1 < n && lighter(a, a->file_heap[c + 1], a->file_heap[c]))
			c++;
		if (!lighter(a, a->file_heap[c], r))
			break;
		heap_put(a, at, a->file_heap[c]);
	}
	heap_put(a, at, r);
}

static struct rr_file_stats *row_of(struct rr_analyzer *a, uint32_t hash)
{
	struct rr_stats *st = &a->st;
	uint32_t i = slot_of(a, hash);
	if (a->file_index[i])
		return &st->files[a->file_index[i] - 1];
	uint32_t r;
	uint64_t inherited = 0;
	bool added = st->file_rows < RR_FILE_ROWS;
	if (added) {
		r = st->file_rows++;
	} else {
		/* the least called row keeps its calls, so its place */
		r = a->file_heap[0];
		inherited = st->files[r].calls;
		unindex(a, slot_of(a, st->files[r].fh_hash));
		i = slot_of(a, hash);
	}
	st->files[r] = (struct rr_file_stats){ .fh_hash = hash, .calls = inherited,
					       .overcount = inherited };
	a->file_index[i] = (uint16_t)(r + 1);
	if (added) {
		heap_put(a, r, (uint16_t)r);
		sift_up(a, r);
	}
	return &st->files[r];
}

enum io { IO_NONE, IO_READ, IO_WRITE };

/* Which I/O the range of an NFS call's target is: READ's or WRITE's (a
 * COMMIT's is neither); an NFSv4 COMPOUND's first of them. */
static enum io io_of(const struct rr_ev_rpc_done *d)
{
	if (d->nfs4) {
		for (uint32_t i = 0; i < d->nfs4->named && i < RR_NFS4_OPS_KEPT; i++) {
			uint16_t op = d->nfs4->op[i];
			if (op == RR_OP_READ || op == RR_OP_WRITE || op == RR_OP_COMMIT)
				return op == RR_OP_READ ? IO_READ : op == RR_OP_WRITE ? IO_WRITE :
									   IO_NONE;
		}
		return IO_NONE;
	}
	if (d->proc == 6) /* READ in both (RFC 1094 §2.2.7, RFC 1813 §3.3.6) */
		return IO_READ;
	return (d->vers == 3 && d->proc == 7) || (d->vers == 2 && d->proc == 8) ? IO_WRITE :
										    IO_NONE;
}

void rra_file_answered(struct rr_analyzer *a, const struct rr_ev_rpc_done *d)
{
	if (!d->target.fh_known)
		return;
	struct rr_file_stats *f = row_of(a, d->target.fh_hash);
	f->calls++;
	sift_down(a, (uint16_t)(f - a->st.files));
	f->latency_sum_ns += d->latency_ns;
	if (d->latency_ns > f->latency_max_ns)
		f->latency_max_ns = d->latency_ns;
	enum io io = d->target.range_known ? io_of(d) : IO_NONE;
	if (io == IO_READ)
		f->read_bytes += d->target.count;
	else if (io == IO_WRITE)
		f->write_bytes += d->target.count;
}

uint64_t rr_file_latency_mean_ns(const struct rr_file_stats *f)
{
	uint64_t own = f->calls - f->overcount;
	return own ? f->latency_sum_ns / own : 0;
}

/* The n first rows of files by `before`, into out (insertion into a short
 * list: n is a screen's or a report's few). */
static unsigned top(const struct rr_stats *st, const struct rr_file_stats **out, unsigned n,
		    bool (*before)(const struct rr_file_stats *, const struct rr_file_stats *))
{
	unsigned got = 0;
	for (uint32_t i = 0; i < st->file_rows; i++) {
		const struct rr_file_stats *f = &st->files[i];
		if (f->calls == f->overcount) /* none of its own */
			continue;
		unsigned at = got < n ? got : n;
		while (at > 0 && before(f, out[at - 1]))
			at--;
		if (at >= n)
			continue;
		unsigned last = got < n ? got : n - 1;
		for (unsigned k = last; k > at; k--)
			out[k] = out[k - 1];
		out[at] = f;
		if (got < n)
			got++;
	}
	return got;
}

static bool busier(const struct rr_file_stats *x, const struct rr_file_stats *y)
{
	return x->calls > y->calls || (x->calls == y->calls && x->fh_hash < y->fh_hash);
}

static bool slower(const struct rr_file_stats *x, const struct rr_file_stats *y)
{
	uint64_t mx = rr_file_latency_mean_ns(x), my = rr_file_latency_mean_ns(y);
	return mx > my || (mx == my && x->fh_hash < y->fh_hash);
}

unsigned rr_stats_busiest_files(const struct rr_stats *st, const struct rr_file_stats **out,
				unsigned n)
{
	return top(st, out, n, busier);
}

unsigned rr_stats_slowest_files(const struct rr_stats *st, const struct rr_file_stats **out,
				unsigned n)
{
	return top(st, out, n, slower);
}
