/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-dump: print the RPC-over-RDMA traffic in a capture, one line per
 * message, the way tcpdump prints packets.  All decoding is libdissect's;
 * this file reads the frames and hands them over; dump-print.c prints.
 */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <limits.h>
#include <signal.h>
#include <unistd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rpcrdma/analyzer.h>
#include <rpcrdma/dissect.h>

#include "capture-source.h"
#include "dump.h"
#include "stats-text.h"
#include "hexdump.h"
#include "timestamp.h"
#include "version.h"
#include "live-source.h"
#include "verbs-source.h"
#ifdef RR_HAVE_JSONC
#include "../exporters/rr_json.h"
#endif

enum { EXIT_USAGE = 1, EXIT_INPUT = 2 };

struct totals {
	unsigned long frames, cm, mpa, icrc_good, icrc_bad;
};

static void usage(FILE *to)
{
	fprintf(to,
		"usage: rpcrdma-dump [-r FILE | -i IFACE [-B KIB] [-s SNAPLEN] | -e IFACE |\n"
		"                    --rdma DEV[:PORT]] [-D] [-w FILE [-U]] [-c COUNT] [--count]\n"
		"                    [-l] [-n] [-v[v]] [-a] [-K] [-x[x] | -X[X]]\n"
		"                    [-j] [-q] [-t...] [--utc] [--time-stamp-precision=P]\n"
		"                    [--roce-port PORT] [--iwarp-port PORT]\n"
		"                    [--findings] [--stats[=json]] [expression]\n"
		"  -r FILE     read packets from FILE (pcap or pcapng; - for stdin)\n"
		"  -i IFACE    capture live on IFACE (libpcap)\n"
		"  -e IFACE    capture on IFACE through eBPF (RoCEv2 and iWARP headers);\n"
		"              not tcpdump's -e (link-level headers): -vv prints those\n"
		"  --rdma DEV[:PORT]  sniff an RDMA device's port (rdma-core)\n"
		"  -D, --list-interfaces  list the interfaces (-i) and RDMA devices (--rdma)\n"
		"  --list-devices     list the RDMA devices and their ports\n"
		"  -w FILE     write the frames read to FILE (pcap), as tcpdump -w\n"
		"  -U          with -w: write each frame at once, not a buffer at a time\n"
		"  -B KIB      live capture buffer in KiB (default 32768; drops are counted)\n"
		"  -s SNAPLEN  live: bytes kept of each frame (default 262144)\n"
		"  -c COUNT    stop after COUNT frames\n"
		"  --count     print only how many frames and messages were read\n"
		"  -l          line-buffered output (always when capturing live into a pipe)\n"
		"  -x, -X      each printed frame's bytes in hex (-X: and ASCII) from its\n"
		"              network header; -xx, -XX from its link-level header\n"
		"  -n          print addresses as numbers (always the case)\n"
		"  -v          also print chunk segments; -vv every header\n"
		"  -a          print a line for every frame, not only RPC-over-RDMA\n"
		"  -K          do not verify the ICRC and MPA CRC32c\n"
		"  --findings  print the findings only\n"
		"  -j          JSON Lines, one object per event (docs/json-schema.md)\n"
		"  -q          quiet: no per-message output (with --stats)\n"
		"  -t          no time stamp; -tt seconds since 1970; -ttt since the\n"
		"              previous frame; -tttt date and time; -ttttt since the first\n"
		"              (default: local time of day, as tcpdump)\n"
		"  --utc       time of day in UTC, not local time\n"
		"  --time-stamp-precision=micro|nano  (default: the file's own)\n"
		"  --roce-port PORT   UDP port of RoCEv2 (default 4791)\n"
		"  --iwarp-port PORT  TCP port of RPC-over-RDMA on iWARP (default 20049)\n"
		"  --stats     print per-connection statistics at the end\n"
		"  --stats=json  the same as one JSON document\n"
		"  expression  a libpcap filter, as in tcpdump\n"
		"  -h          show this help; -V, --version the versions\n"
		"exit status: 0 done, 1 usage error, 2 input error\n");
}

/* -V: this program's version and those of the libraries it runs with */
static void print_versions(void)
{
	const char *extra[3] = { NULL, NULL, NULL };
	unsigned n = 0;
#ifdef RR_HAVE_JSONC
	extra[n++] = rr_json_library_version();
#endif
#ifdef RR_HAVE_EBPF
	extra[n++] = rr_ebpf_library_version();
#endif
	(void)n;
	rr_print_version("rpcrdma-dump", extra);
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	enum { O_FINDINGS = 256, O_STATS, O_RDMA, O_LIST, O_UTC, O_PRECISION,
	       O_ROCE, O_IWARP, O_COUNT };
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "ebpf", required_argument, NULL, 'e' },
		{ "rdma", required_argument, NULL, O_RDMA },
		{ "list-devices", no_argument, NULL, O_LIST },
		{ "list-interfaces", no_argument, NULL, 'D' },
		{ "count", no_argument, NULL, O_COUNT },
		{ "findings", no_argument, NULL, O_FINDINGS },
		{ "stats", optional_argument, NULL, O_STATS },
		{ "utc", no_argument, NULL, O_UTC },
		{ "time-stamp-precision", required_argument, NULL, O_PRECISION },
		{ "roce-port", required_argument, NULL, O_ROCE },
		{ "iwarp-port", required_argument, NULL, O_IWARP },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	double v;
	memset(o, 0, sizeof(*o));
	o->count = -1;
	/* RDMA bursts fill tcpdump's 2 MiB default before a reader wakes */
	o->buffer_kib = 32768;
	while ((c = getopt_long(argc, argv, "r:i:e:w:B:s:c:DlUxXnvaKjqthV", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			o->ebpf = optarg;
			break;
		case O_RDMA:
			o->rdma = optarg;
			break;
		case O_LIST:
			exit(rr_verbs_list(stdout) ? 0 : EXIT_INPUT);
		case 'D': {
			/* tcpdump -D, then the RDMA devices --rdma takes */
			bool ok = rr_source_list(stdout);
			fflush(stdout);
			rr_verbs_list(stdout); /* none: said on stderr */
			exit(ok ? 0 : EXIT_INPUT);
		}
		case 's':
			/* tcpdump's 0 means its default */
			if (!rr_number_arg("rpcrdma-dump", "snapshot length", optarg, 0,
					   262144, false, &v))
				return -1;
			o->snaplen = (int)v;
			break;
		case 'l':
			o->line_buffered = true;
			break;
		case 'U':
			o->packet_buffered = true;
			break;
		case 'x':
		case 'X':
			if (++o->hex > 2) {
				fprintf(stderr, "rpcrdma-dump: -x or -X at most twice\n");
				return -1;
			}
			o->hex_ascii |= c == 'X';
			break;
		case O_COUNT:
			o->count_only = o->quiet = o->statistics_only = true;
			break;
		case 'w':
			o->write = optarg;
			/* as tcpdump -w: the frames go to the file, not lines */
			o->quiet = true;
			break;
		case 'r':
			o->file = optarg;
			break;
		case 'i':
			o->iface = optarg;
			break;
		case 'B':
			if (!rr_number_arg("rpcrdma-dump", "buffer size", optarg, 1,
					   4194304, false, &v))
				return -1;
			o->buffer_kib = (long)v;
			break;
		case 'c':
			if (!rr_number_arg("rpcrdma-dump", "count", optarg, 1,
					   1e18, false, &v))
				return -1;
			o->count = (long)v;
			break;
		case 'n':
			break; /* addresses are never resolved */
		case 'v':
			o->verbose++;
			break;
		case 'a':
			o->all_frames = true;
			break;
		case 'K':
			o->no_crc = true;
			break;
		case O_FINDINGS:
			o->findings_only = true;
			break;
		case O_STATS:
			if (optarg && strcmp(optarg, "json")) {
				fprintf(stderr, "rpcrdma-dump: --stats takes "
						"nothing or =json\n");
				return -1;
			}
			o->stats = true;
			o->stats_json = optarg != NULL;
			/* one JSON document, nothing else on stdout */
			o->quiet |= o->stats_json;
			break;
		case 'j':
			o->json = true;
			break;
		case 't':
			if (++o->t_count > 5) {
				fprintf(stderr, "rpcrdma-dump: -t at most five times (-ttttt)\n");
				return -1;
			}
			break;
		case O_UTC:
			o->utc = true;
			break;
		case O_PRECISION:
			if (!strcmp(optarg, "micro")) {
				o->precision = 6;
			} else if (!strcmp(optarg, "nano")) {
				o->precision = 9;
			} else {
				fprintf(stderr, "rpcrdma-dump: --time-stamp-precision "
						"takes micro or nano\n");
				return -1;
			}
			break;
		case O_ROCE:
		case O_IWARP:
			if (!rr_number_arg("rpcrdma-dump", c == O_ROCE ? "RoCE port" :
					   "iWARP port", optarg, 1, 65535, false, &v))
				return -1;
			*(c == O_ROCE ? &o->roce_port : &o->iwarp_port) = (long)v;
			break;
		case 'q':
			o->quiet = o->statistics_only = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			print_versions();
			exit(0);
		default:
			return -1;
		}
	}
	/* the rest is a libpcap filter expression, as in tcpdump */
	o->filter = rr_join_args(argc, argv, optind);
	if (optind < argc && !o->filter)
		return -1;
#ifndef RR_HAVE_JSONC
	if (o->json || o->stats_json) {
		fprintf(stderr, "rpcrdma-dump: built without json-c: no JSON output\n");
		return -1;
	}
#endif
	if (!!o->file + !!o->iface + !!o->ebpf + !!o->rdma != 1) {
		fprintf(stderr, "rpcrdma-dump: give one of -r FILE, -i IFACE, "
				"-e IFACE or --rdma DEV\n");
		return -1;
	}
	return 0;
}

static volatile sig_atomic_t stop;
static pcap_t *capture;

static struct rr_live *live;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
	/* wakes a live read blocked in poll(), as tcpdump does */
	if (capture)
		pcap_breakloop(capture);
	rr_live_break(live);
}

static pcap_t *open_source(const struct opts *o)
{
	struct rr_source_opts so = { .prog = "rpcrdma-dump", .file = o->file,
				     .iface = o->iface, .filter = o->filter,
				     .buffer_kib = o->buffer_kib, .snaplen = o->snaplen,
				     /* a terminal or -l wants each frame at once */
				     .immediate = isatty(1) || o->line_buffered,
				     .nano = dump_ts.nano };
	return rr_source_open(&so);
}

/* What the reading loop carries from frame to frame. */
struct run {
	struct rr_config cfg;
	int link;
	struct rr_frame f;
	struct totals t;
	pcap_dumper_t *writer;
	time_t started, shown;
	bool tty;
};

/* -x, -X from the network header (IP, or an IB packet's first header);
 * -xx, -XX from the link-level one */
static void print_hex(const struct rr_frame *decoded, const uint8_t *data,
		      uint32_t caplen, const struct opts *o)
{
	uint32_t from = 0;
	if (o->hex == 1 && decoded &&
	    (rr_has(decoded, RR_LAYER_IPV4) || rr_has(decoded, RR_LAYER_IPV6)))
		from = decoded->ip.off;
	rr_hexdump(stdout, data + from, caplen - from, o->hex_ascii);
}

/* One frame taken at ts_ns (h's own stamp may be micro- or nanoseconds). */
static void process(struct dump *d, struct run *r, const struct pcap_pkthdr *h,
		    const u_char *data, uint64_t ts_ns)
{
	const struct opts *o = &d->o;
	r->t.frames++;
	if (r->writer) {
		pcap_dump((u_char *)r->writer, h, data);
		if (o->packet_buffered)
			pcap_dump_flush(r->writer);
	}
	unsigned long lines_before = dump_lines;
	dump_frame_ts_ns = ts_ns;
	const struct rr_frame_report *rep =
		rr_analyzer_frame(d->a, (uint32_t)r->link, ts_ns, data, h->caplen, h->len);
	const struct rr_frame_summary *sum = &rep->units;
	r->t.cm += sum->cm;
	r->t.mpa += sum->mpa;
	r->t.icrc_good += sum->icrc_good;
	r->t.icrc_bad += sum->icrc_bad;
	if (!o->quiet && !o->findings_only) {
		if (o->all_frames) {
			/* -a: a line for each unit as the frame alone holds it
			 * (an iWARP segment's FPDUs, which the report takes
			 * from the reassembled stream) */
			for (bool more = rr_decode_frame(&r->cfg, (uint32_t)r->link, data,
							 h->caplen, h->len, NULL, &r->f);
			     more; more = rr_decode_next_unit(&r->cfg, &r->f))
				dump_print_unit(&r->f, o, r->t.frames, sum->conn_id);
		} else if (sum->cm || sum->mpa) {
			dump_print_unit(rep->decoded, o, r->t.frames, sum->conn_id);
		}
	}
	dump_print_report(d, rep);
	if (o->hex && dump_lines != lines_before)
		print_hex(rep->decoded, data, h->caplen, o);
	if (r->tty && time(NULL) - r->started >= 2 && time(NULL) != r->shown) {
		r->shown = time(NULL);
		fprintf(stderr, "\r%lu frames...", r->t.frames);
	}
}

/* The live tools' sources (eBPF, RDMA device) hand frames over here. */
struct live_ctx {
	struct dump *d;
	struct run *r;
};

static void on_live_frame(void *ctx, uint64_t ts_ns, const uint8_t *data,
			  uint32_t caplen, uint32_t wirelen)
{
	struct live_ctx *lc = ctx;
	if (lc->d->o.count >= 0 && (long)lc->r->t.frames >= lc->d->o.count)
		return;
	struct pcap_pkthdr h = { .caplen = caplen, .len = wirelen };
	h.ts.tv_sec = (time_t)(ts_ns / 1000000000u);
	h.ts.tv_usec = (suseconds_t)(ts_ns % 1000000000u / 1000u);
	process(lc->d, lc->r, &h, data, ts_ns);
}

int main(int argc, char **argv)
{
	static struct dump d;
	static struct run r;
	if (parse_args(argc, argv, &d.o) < 0) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const struct opts *o = &d.o;
	/* a reader at the end of a pipe sees each line as it comes, as
	 * tcpdump -l gives it */
	if (o->line_buffered || (!o->file && !isatty(1)))
		setvbuf(stdout, NULL, _IOLBF, 0);
	dump_ts.t_count = o->t_count;
	dump_ts.utc = o->utc;
	/* nanoseconds when asked, or when the file has them */
	dump_ts.nano = o->precision == 9 ||
			 (o->precision == 0 && rr_source_file_nano(o->file));
	pcap_t *p = NULL;
	struct live_ctx lc = { &d, &r };
	const char *name = o->file ? o->file : o->iface ? o->iface :
			   o->ebpf ? o->ebpf : o->rdma;
	if (o->file || o->iface) {
		p = open_source(o);
		if (!p)
			return EXIT_INPUT;
		r.link = pcap_datalink(p);
	} else {
		struct rr_live_opts lo;
		rr_live_opts_init(&lo, "rpcrdma-dump");
		lo.kind = o->ebpf ? RR_LIVE_EBPF : RR_LIVE_VERBS;
		lo.name = name;
		live = rr_live_open(&lo, on_live_frame, &lc);
		if (!live)
			return EXIT_INPUT;
		r.link = rr_live_link(live);
	}
	int link = r.link;
	if (!rr_link_str((unsigned)link)) {
		fprintf(stderr, "rpcrdma-dump: %s: link-layer type %d (%s) "
				"carries no RDMA traffic this tool decodes\n",
			name, link, pcap_datalink_val_to_name(link) ?
					    pcap_datalink_val_to_name(link) : "?");
		if (p)
			pcap_close(p);
		rr_live_close(live);
		return EXIT_INPUT;
	}
	pcap_t *dead = NULL;
	if (o->write) {
		/* libpcap writes the file, from whichever source */
		dead = p ? NULL : pcap_open_dead(link, 65535);
		r.writer = pcap_dump_open(p ? p : dead, o->write);
		if (!r.writer) {
			fprintf(stderr, "rpcrdma-dump: -w %s: %s\n", o->write,
				pcap_geterr(p ? p : dead));
			if (p)
				pcap_close(p);
			if (dead)
				pcap_close(dead);
			rr_live_close(live);
			return EXIT_INPUT;
		}
	}
	struct rr_config *cfg = &r.cfg;
	rr_config_init(cfg);
	if (o->no_crc)
		cfg->flags &= ~(uint32_t)(RR_CFG_VERIFY_ICRC | RR_CFG_VERIFY_CRC32C);
	if (o->ebpf)
		cfg->flags |= RR_CFG_CUTS_EXPECTED; /* headers only, by design */
	if (o->all_frames)
		cfg->flags |= RR_CFG_CHUNK_EVENTS;
	if (o->quiet)
		cfg->flags |= RR_CFG_NO_EVENTS; /* nothing per frame is printed */
	if (o->roce_port)
		cfg->roce_udp_port = (uint16_t)o->roce_port;
	if (o->iwarp_port)
		cfg->iwarp_tcp_port = (uint16_t)o->iwarp_port;
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
		if (p)
			pcap_close(p);
		rr_live_close(live);
		return EXIT_INPUT;
	}
	capture = p;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (!o->file) {
		/* as tcpdump does: tells a script the capture has started */
		fprintf(stderr, "listening on %s, link-type %s, snapshot length %d bytes\n",
			name, pcap_datalink_val_to_name(link) ?
				    pcap_datalink_val_to_name(link) : "?",
			p ? pcap_snapshot(p) : 65535);
		fflush(stderr);
	}

	struct pcap_pkthdr *h;
	const u_char *data;
	int rc = 0, status = 0;
	r.started = time(NULL);
	r.tty = isatty(2) && o->file;
	while (!stop && (o->count < 0 || (long)r.t.frames < o->count)) {
		if (!p) {
			if (rr_live_poll(live, 100) < 0)
				break;
			continue;
		}
		rc = pcap_next_ex(p, &h, &data);
		if (rc == 0)
			continue; /* live: the read timed out */
		if (rc != 1)
			break; /* end of file, SIGINT (PCAP_ERROR_BREAK) or error */
		process(&d, &r, h, data, rr_source_ts_ns(capture, h));
	}
	if (r.tty && r.shown)
		fputc('\n', stderr);
	if (rc == PCAP_ERROR) {
		fprintf(stderr, "rpcrdma-dump: %s: %s (after %lu frames)\n",
			name, pcap_geterr(p), r.t.frames);
		status = EXIT_INPUT;
	}
	if (o->iface) {
		struct pcap_stat ps;
		if (pcap_stats(p, &ps) == 0)
			rr_analyzer_dropped(a, ps.ps_drop + ps.ps_ifdrop);
	} else if (live) {
		rr_analyzer_dropped(a, rr_live_dropped(live));
	}
	if (r.writer)
		pcap_dump_close(r.writer);
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
		for (unsigned pr = 0; pr < 5; pr++)
			msgs += st->total.messages[dir][pr];
	/* tcpdump --count: "N packets"; here the messages too */
	if (o->count_only)
		printf("%lu frames, %llu RPC-over-RDMA messages\n", r.t.frames,
		       (unsigned long long)msgs);
	/* frame problems as the analyzer judged them: an FPDU split across
	 * segments is not malformed once the stream is reassembled; the
	 * report first, so that the two streams keep their order in one file */
	fflush(stdout);
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
	capture = NULL;
	if (p)
		pcap_close(p);
	if (dead)
		pcap_close(dead);
	rr_live_close(live);
	free(d.o.filter);
	return status;
}
