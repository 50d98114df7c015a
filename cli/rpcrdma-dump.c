/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-dump: print the RPC-over-RDMA traffic in a capture, one line per
 * message, the way tcpdump prints packets.  All decoding is libdissect's:
 * this file reads the frames from any source in one loop, hands each to
 * the analyzer and its report to dump-print.c.
 */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#include <pcap/pcap.h>
#include <signal.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <rpcrdma/analyzer.h>
#include <rpcrdma/dissect.h>

#include "capture-source.h"
#include "capture-writer.h"
#include "dump.h"
#include "output-check.h"
#include "stats-text.h"
#include "hexdump.h"
#include "timestamp.h"
#include "live-source.h"
#include "stop-signals.h"
#ifdef RR_HAVE_JSONC
#include "rr_json.h"
#endif

struct totals {
	unsigned long frames, cm, mpa, icrc_good, icrc_bad;
};

static struct rr_live *live;

/* Any of the sources: a file, an interface, the eBPF program, an RDMA
 * device; its note or why it failed said on stderr. */
static struct rr_live *open_source(const struct dump *d, rr_live_fn fn, void *ctx)
{
	const struct opts *o = &d->o;
	struct rr_live_opts lo = o->src;
	/* a terminal or -l wants each frame at once */
	lo.immediate = isatty(1) || o->line_buffered;
	lo.nano = d->lines.ts.nano;
	char msg[640];
	struct rr_live *l = rr_live_open(&lo, fn, ctx, msg, sizeof(msg));
	if (msg[0])
		fprintf(stderr, "rpcrdma-dump: %s\n", msg);
	return l;
}

/* What the reading loop carries from frame to frame. */
struct run {
	struct rr_config cfg;
	int link;
	struct totals t;
	struct rr_capture_writer *writer;
	/* a write failed (-w, or the standard output): the loop ends */
	bool write_failed, output_failed;
	bool files_done;        /* -G with -W: its files written */
	time_t started, shown;
	bool tty;
};

/* -x, -X, -A from the network header (IP, or an IB packet's first
 * header); -xx, -XX, -AA from the link-level one */
static void print_hex(const struct rr_frame *decoded, const uint8_t *data,
		      uint32_t caplen, const struct opts *o)
{
	uint32_t from = 0;
	if ((o->hex == 1 || o->ascii == 1) && decoded &&
	    (rr_has(decoded, RR_LAYER_IPV4) || rr_has(decoded, RR_LAYER_IPV6)))
		from = decoded->ip.off;
	if (o->hex)
		rr_hexdump(stdout, data + from, caplen - from, o->hex_ascii);
	else
		rr_asciidump(stdout, data + from, caplen - from);
}

/* One frame taken at ts_ns. */
static void process(struct dump *d, struct run *r, const u_char *data,
		    uint32_t caplen, uint32_t wirelen, uint64_t ts_ns)
{
	const struct opts *o = &d->o;
	r->t.frames++;
	if (r->writer) {
		enum rr_capture_put put = rr_capture_writer_put(r->writer, r->t.frames,
								ts_ns, data, caplen, wirelen);
		if (put != RR_CAPTURE_WRITTEN) {
			/* a failure is said at the close; -G -W's files all
			 * written end the capture as tcpdump ends it */
			r->write_failed = put == RR_CAPTURE_FAILED;
			r->files_done = put == RR_CAPTURE_ALL_FILES;
			rr_live_break(live);
			return;
		}
	}
	unsigned long lines_before = d->lines.printed;
	d->lines.frame_ts_ns = ts_ns;
	d->lines.frame_no = r->t.frames;
	const struct rr_frame_report *rep =
		rr_analyzer_frame(d->a, (uint32_t)r->link, ts_ns, data, caplen, wirelen);
	const struct rr_frame_summary *sum = &rep->units;
	r->t.cm += sum->cm;
	r->t.mpa += sum->mpa;
	r->t.icrc_good += sum->icrc_good;
	r->t.icrc_bad += sum->icrc_bad;
	if (!o->quiet && !o->findings_only && o->all_frames) {
			/* -a: a line for each unit as the frame alone holds it
			 * (an iWARP segment's FPDUs, which the analysis takes
			 * from the reassembled stream) */
			for (uint32_t i = 0; i < rep->nunit_list; i++)
				dump_print_unit(d, &rep->unit_list[i], r->t.frames, sum->conn_id);
			if (rep->units_unlisted && !o->json)
				printf("\t%" PRIu32 " more units of this frame not listed\n",
				       rep->units_unlisted);
	}
	dump_print_report(d, rep);
	if (o->verbose > 1 && !o->json && d->lines.printed != lines_before)
		dump_print_headers(rep->decoded);
	if ((o->hex || o->ascii) && d->lines.printed != lines_before)
		print_hex(rep->decoded, data, caplen, o);
	/* checked where frames print (ferror takes stdio's lock) */
	if (!o->quiet &&
	    !rr_output_ok(stdout, "rpcrdma-dump", "standard output", "frame",
			  r->t.frames)) {
		r->output_failed = true;
		rr_live_break(live);
	}
	if (r->tty && time(NULL) - r->started >= 2 && time(NULL) != r->shown) {
		r->shown = time(NULL);
		fprintf(stderr, "\r%lu frames...", r->t.frames);
	}
}

/* Every source hands its frames over here. */
struct source_ctx {
	struct dump *d;
	struct run *r;
};

static void on_frame(void *ctx, uint64_t ts_ns, const uint8_t *data,
		     uint32_t caplen, uint32_t wirelen)
{
	struct source_ctx *sc = ctx;
	long count = sc->d->o.count;
	if (count >= 0 && (long)sc->r->t.frames >= count)
		return;
	process(sc->d, sc->r, data, caplen, wirelen, ts_ns);
	if (count >= 0 && (long)sc->r->t.frames >= count)
		rr_live_break(live); /* -c: done */
}

int main(int argc, char **argv)
{
	static struct dump d;
	static struct run r;
	if (dump_parse_args(argc, argv, &d.o) < 0) {
		dump_usage(stderr);
		return DUMP_EXIT_USAGE;
	}
	const struct opts *o = &d.o;
	/* a reader at the end of a pipe sees each line as it comes, as
	 * tcpdump -l gives it */
	const bool file = o->src.kind == RR_LIVE_FILE;
	if (o->line_buffered || (!file && !isatty(1)))
		setvbuf(stdout, NULL, _IOLBF, 0);
	d.lines.ts.t_count = o->t_count;
	d.lines.ts.utc = o->utc;
	d.lines.numbered = o->numbered;
	/* nanoseconds when asked, or when the file has them */
	d.lines.ts.nano = o->precision == 9 ||
			 (o->precision == 0 && file && rr_source_file_nano(o->src.name));
	struct source_ctx sc = { &d, &r };
	const char *name = o->src.name;
	live = open_source(&d, on_frame, &sc);
	if (!live)
		return DUMP_EXIT_INPUT;
	/* a file's or an interface's own handle: -w and the greeting */
	pcap_t *p = rr_live_pcap(live);
	int link = r.link = rr_live_link(live);
	if (!rr_link_str((unsigned)link)) {
		fprintf(stderr, "rpcrdma-dump: %s: link-layer type %d (%s) "
				"carries no RDMA traffic this tool decodes\n",
			name, link, pcap_datalink_val_to_name(link) ?
					    pcap_datalink_val_to_name(link) : "?");
		rr_live_close(live);
		return DUMP_EXIT_INPUT;
	}
	pcap_t *dead = NULL;
	char werr[PCAP_ERRBUF_SIZE + 256];
	if (o->write) {
		/* libpcap writes the file, from whichever source */
		dead = p ? NULL : pcap_open_dead(link, 65535);
		r.writer = rr_capture_writer_open(p ? p : dead, o->write, &o->rotation,
						  o->packet_buffered, werr, sizeof(werr));
		if (!r.writer) {
			fprintf(stderr, "rpcrdma-dump: -w %s\n", werr);
			if (dead)
				pcap_close(dead);
			rr_live_close(live);
			return DUMP_EXIT_OUTPUT;
		}
	}
	struct rr_config *cfg = &r.cfg;
	rr_live_decoder_config(&o->src, cfg);
	if (o->no_crc)
		cfg->flags &= ~(uint32_t)(RR_CFG_VERIFY_ICRC | RR_CFG_VERIFY_CRC32C);
	if (o->all_frames)
		cfg->flags |= RR_CFG_CHUNK_EVENTS;
	if (o->all_frames && !o->quiet && !o->findings_only)
		cfg->flags |= RR_CFG_LIST_UNITS; /* -a's line per unit */
	if (o->quiet)
		cfg->flags |= RR_CFG_NO_EVENTS; /* nothing per frame is printed */
	struct rr_analyzer_limits lim;
	rr_analyzer_limits_init(&lim);
	/* -q prints no message: rebuilding one would serve nobody */
	if (o->statistics_only || o->write)
		lim.rebuild_slots = 0;
	struct rr_analyzer *a = rr_analyzer_new(cfg, &lim);
	d.a = a;
#ifdef RR_HAVE_JSONC
	if (o->json && a)
		d.jw = rr_json_writer_new();
	if (o->json && !d.jw) {
		rr_analyzer_free(a);
		a = NULL;
	}
#endif
	if (!a) {
		fprintf(stderr, "rpcrdma-dump: not enough memory for the analyzer\n");
		if (r.writer)
			rr_capture_writer_close(r.writer, werr, sizeof(werr));
		if (dead)
			pcap_close(dead);
		rr_live_close(live);
		return DUMP_EXIT_INPUT;
	}
	rr_stop_on_signals(&live);
	if (!file) {
		/* as tcpdump does: tells a script the capture has started */
		fprintf(stderr, "listening on %s, link-type %s, snapshot length %d bytes\n",
			name, pcap_datalink_val_to_name(link) ?
				    pcap_datalink_val_to_name(link) : "?",
			p ? pcap_snapshot(p) : 65535);
		fflush(stderr);
	}

	int status = 0;
	r.started = time(NULL);
	r.tty = isatty(2) && file;
	/* the one reading loop: the end of a file, a signal, -c or an error
	 * ends it */
	while (!rr_stopping && !r.write_failed && !r.output_failed && !r.files_done &&
	       (o->count < 0 || (long)r.t.frames < o->count))
		if (rr_live_poll(live, 100) < 0)
			break;
	if (r.tty && r.shown)
		fputc('\n', stderr);
	if (rr_live_say_error(live, &o->src, r.t.frames))
		status = DUMP_EXIT_INPUT;
	rr_analyzer_dropped(a, rr_live_dropped(live));
	/* tcpdump's word for a file it could not write: the frame and why */
	if (r.writer && !rr_capture_writer_close(r.writer, werr, sizeof(werr))) {
		fprintf(stderr, "rpcrdma-dump: -w %s\n", werr);
		status = DUMP_EXIT_OUTPUT;
	}
	if (r.output_failed)
		status = DUMP_EXIT_OUTPUT;
	for (const struct rr_frame_report *rep; (rep = rr_analyzer_finish(a));)
		dump_print_report(&d, rep);
	if (o->stats && !o->stats_json)
		rr_print_stats_text(a, stdout);
#ifdef RR_HAVE_JSONC
	if (o->stats_json) {
		json_object *j = rr_json_stats(a);
		puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_SPACED));
		json_object_put(j);
	}
#endif
	fflush(stdout);
	const struct rr_stats *st = rr_analyzer_stats(a);
	uint64_t msgs = 0;
	for (unsigned dir = 0; dir <= RR_DIR_UNKNOWN; dir++)
		for (unsigned pr = 0; pr < RR_RDMA_PROCS; pr++)
			msgs += st->total.messages[dir][pr];
	/* -c counts frames, as tcpdump's: a word where they printed no line */
	if (o->count >= 0 && !msgs && !d.lines.printed && !o->quiet)
		fprintf(stderr, "rpcrdma-dump: -c %ld: no RPC-over-RDMA message in the "
				"%lu frames read (-c counts frames, as tcpdump's; -a "
				"prints a line for each)\n", o->count, r.t.frames);
	/* tcpdump --count: "N packets"; here the messages too */
	if (o->count_only)
		printf("%lu frames, %llu RPC-over-RDMA messages\n", r.t.frames,
		       (unsigned long long)msgs);
	/* frame problems as the analyzer judged them: an FPDU split across
	 * segments is not malformed once the stream is reassembled; the
	 * report first, so that the two streams keep their order in one file */
	if (!r.output_failed &&
	    !rr_output_flushed(stdout, "rpcrdma-dump", "standard output", "frame",
			       r.t.frames))
		status = DUMP_EXIT_OUTPUT;
	fprintf(stderr,
		"%lu frames, %llu RPC-over-RDMA messages, %lu CM, %lu MPA; "
		"%llu truncated, %llu malformed, %llu dropped; ICRC %lu good %lu bad; "
		"%lu findings\n",
		r.t.frames, (unsigned long long)msgs, r.t.cm, r.t.mpa,
		(unsigned long long)st->frames_truncated,
		(unsigned long long)st->frames_malformed,
		(unsigned long long)st->frames_dropped, r.t.icrc_good, r.t.icrc_bad,
		(unsigned long)st->total.findings);
	rr_analyzer_free(a);
#ifdef RR_HAVE_JSONC
	rr_json_writer_free(d.jw);
#endif
	if (dead)
		pcap_close(dead);
	rr_live_close(live);
	free((char *)d.o.src.filter);
	return status;
}
