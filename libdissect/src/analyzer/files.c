/* SPDX-License-Identifier: BSD-2-Clause */
/* Answered NFS calls by the file handle they name first: the busiest and
 * the slowest files, as a user of nfsslower and Wireshark's nfs.fh.hash
 * asks.  A bounded table of heavy hitters (Space-Saving: Metwally,
 * Agrawal, El Abbadi, 2005): a handle new to a full table takes the
 * least called one's row and count, so that a handle called more often
 * than that is never lost, and each count is over by at most what it
 * inherited.  The rows are kept grouped by their count of calls (struct
 * file_counts), so that a full table finds the least called row, of
 * those the first to reach that count, and a call moves its row up, in a
 * few steps each instead of a scan of every row. */
#include "analyzer-int.h"

#define INDEX_SLOTS (RR_FILE_INDEX_SLOTS)
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

static uint16_t group_new(struct file_counts *g)
{
	uint16_t n = g->spare;
	if (n)
		g->spare = g->more[n - 1];
	else
		n = ++g->groups_made; /* never more groups than rows */
	g->first[n - 1] = g->last[n - 1] = g->more[n - 1] = g->fewer[n - 1] = 0;
	return n;
}

/* Group n goes into the list above group below (0: at the bottom). */
static void group_link(struct file_counts *g, uint16_t n, uint16_t below)
{
	uint16_t above = below ? g->more[below - 1] : g->fewest;
	g->fewer[n - 1] = below;
	g->more[n - 1] = above;
	if (above)
		g->fewer[above - 1] = n;
	if (below)
		g->more[below - 1] = n;
	else
		g->fewest = n;
}

static void group_drop(struct file_counts *g, uint16_t n)
{
	uint16_t below = g->fewer[n - 1], above = g->more[n - 1];
	if (above)
		g->fewer[above - 1] = below;
	if (below)
		g->more[below - 1] = above;
	else
		g->fewest = above;
	g->more[n - 1] = g->spare;
	g->spare = n;
}

static void row_append(struct file_counts *g, uint32_t r, uint16_t n)
{
	uint16_t tail = g->last[n - 1];
	g->row_prev[r] = tail;
	g->row_next[r] = 0;
	if (tail)
		g->row_next[tail - 1] = (uint16_t)(r + 1);
	else
		g->first[n - 1] = (uint16_t)(r + 1);
	g->last[n - 1] = (uint16_t)(r + 1);
	g->group_of[r] = n;
}

static void row_unlink(struct file_counts *g, uint32_t r)
{
	uint16_t n = g->group_of[r], prev = g->row_prev[r], next = g->row_next[r];
	if (prev)
		g->row_next[prev - 1] = next;
	else
		g->first[n - 1] = next;
	if (next)
		g->row_prev[next - 1] = prev;
	else
		g->last[n - 1] = prev;
}

/* Row r is called once more: it joins the group of its new count, at
 * its end (Metwally et al.'s Stream-Summary), in a few steps whatever
 * the table holds. */
static void count_call(struct rr_analyzer *a, uint32_t r)
{
	struct file_counts *g = &a->file_counts;
	struct rr_file_stats *f = a->st.files;
	uint16_t n = g->group_of[r], above = g->more[n - 1];
	bool alone = g->first[n - 1] == g->last[n - 1];
	uint64_t calls = ++f[r].calls;
	if (above && f[g->first[above - 1] - 1].calls == calls) {
		row_unlink(g, r);
		if (alone)
			group_drop(g, n);
		row_append(g, r, above);
	} else if (!alone) {
		uint16_t m = group_new(g);
		group_link(g, m, n);
		row_unlink(g, r);
		row_append(g, r, m);
	} /* else it is alone in its group, whose count rises with it */
}

static struct rr_file_stats *row_of(struct rr_analyzer *a, uint32_t hash)
{
	struct rr_stats *st = &a->st;
	uint32_t i = slot_of(a, hash);
	if (a->file_index[i])
		return &st->files[a->file_index[i] - 1];
	uint32_t r;
	uint64_t inherited = 0;
	struct file_counts *g = &a->file_counts;
	if (st->file_rows < RR_FILE_ROWS) {
		/* a new row, no calls yet: in a group of its own below all */
		r = st->file_rows++;
		uint16_t n = group_new(g);
		group_link(g, n, 0);
		row_append(g, r, n);
	} else {
		/* the least called row, the first to reach that count, keeps
		 * its calls, so its place */
		r = g->first[g->fewest - 1] - 1u;
		inherited = st->files[r].calls;
		unindex(a, slot_of(a, st->files[r].fh_hash));
		i = slot_of(a, hash);
	}
	st->files[r] = (struct rr_file_stats){ .fh_hash = hash, .calls = inherited,
					       .overcount = inherited };
	a->file_index[i] = (uint16_t)(r + 1);
	return &st->files[r];
}

void rra_file_answered(struct rr_analyzer *a, const struct call *c, uint64_t latency_ns)
{
	if (!c->fh_known)
		return;
	struct rr_file_stats *f = row_of(a, c->fh_hash);
	count_call(a, (uint32_t)(f - a->st.files));
	f->latency_sum_ns += latency_ns;
	if (latency_ns > f->latency_max_ns)
		f->latency_max_ns = latency_ns;
	if (c->range_known && c->io == RRA_IO_READ)
		f->read_bytes += c->io_count;
	else if (c->range_known && c->io == RRA_IO_WRITE)
		f->write_bytes += c->io_count;
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
