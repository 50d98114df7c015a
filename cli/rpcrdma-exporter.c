/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-exporter: serves the analyzer's statistics over HTTP
 * (libmicrohttpd) for Prometheus: /metrics in the text format 0.0.4, or
 * OpenMetrics 1.0 when the scraper's Accept header asks for it,
 * /stats.json (docs/json-schema.md) and an index page at /.  Frames come
 * from the eBPF program on an interface, a live interface (libpcap) or a
 * capture file replayed as fast as possible or at its recorded pace
 * (cli/live-source.h); the kernel's NFS/RDMA counters of
 * /proc/self/mountstats and /proc/sys/sunrpc/svc_rdma are added when the
 * files exist.
 */
#define _DEFAULT_SOURCE /* pcap.h uses u_int and u_char */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rpcrdma/analyzer.h>
#include <rpcrdma/version.h>

#include "rr_json.h"
#include "command-line.h"
#include "exporter-web.h"
#include "web-config.h"
#include "live-source.h"
#include "stop-signals.h"
#include "version.h"
#ifdef RR_HAVE_EBPF
#include "rr_ebpf.h"
#endif
#include "rr_trace_report.h"
#include "trace-source.h"
#include "verbs-source.h"
#include "rr_gzip.h"
#include "rr_kernel.h"
#include "rr_process.h"
#include "rr_prom.h"

/* Free in Prometheus' list of exporter ports when chosen (9100-9999 is
 * taken); README says so. */
#define DEFAULT_PORT 10186

enum { EXIT_USAGE = 1, EXIT_INPUT = 2 };

struct opts {
	struct rr_live_opts src;
	const char *listen, *mountstats, *svc_rdma;
	const char *web_config;        /* --web.config.file: TLS, users */
	long max_series;
	bool tracepoints;
};

struct exporter {
	struct opts o;
	pthread_mutex_t lock;          /* the analyzer and the counters below */
	struct rr_analyzer *a;
	struct rr_trace *trace;        /* -t: the kernel's tracepoints */
	uint64_t scrapes;
	bool replay_done;
	struct ifaddrs *ifaddrs;       /* for the "local" end of connections */
	struct rr_web *web;
	time_t web_looked;             /* when the web config was last looked at */
};

static struct rr_live *live;

static void usage(FILE *to)
{
	fprintf(to,
		"usage: rpcrdma-exporter (-e IFACE | -i IFACE [-B KIB] | -r FILE [--realtime] |\n"
		"                        --rdma DEV[:PORT] | -t) [--roce-port PORT]\n"
		"                        [--iwarp-port PORT] [-l ADDR:PORT] [--web.config.file FILE]\n"
		"                        [--max-connection-series N] [--mountstats FILE]\n"
		"                        [--svc-rdma DIR] [expression]\n"
		"       rpcrdma-exporter -V | --version\n");
	rr_live_usage(to, true);
	fprintf(to,
		"  -l, --web.listen-address ADDR:PORT\n"
		"               serve HTTP there (default 127.0.0.1:%d; :PORT\n"
		"               every IPv4 address, [V6ADDR]:PORT, PORT on 127.0.0.1)\n"
		"  --web.config.file FILE\n"
		"               TLS, client certificates, basic authentication and\n"
		"               headers, in the file format of Prometheus's exporter-\n"
		"               toolkit; read again when it changes\n"
		"  --max-connection-series N\n"
		"               connections with series of their own (default 100);\n"
		"               the others are summed in one \"other\" series\n"
		"  --mountstats FILE   (default /proc/self/mountstats)\n"
		"  --svc-rdma DIR      (default /proc/sys/sunrpc/svc_rdma)\n"
		"  expression   a libpcap filter (-i, -r)\n"
		"Serves /metrics (Prometheus text 0.0.4, or OpenMetrics 1.0 when\n"
		"asked), /stats.json and /.\n",
		DEFAULT_PORT);
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	enum { O_SERIES = 256, O_MOUNTSTATS, O_SVC, O_WEB_CONFIG };
	static const struct option longs[] = {
		RR_LIVE_LONG_OPTIONS,
		/* node_exporter's spelling */
		{ "web.listen-address", required_argument, NULL, 'l' },
		{ "web.config.file", required_argument, NULL, O_WEB_CONFIG },
		{ "max-connection-series", required_argument, NULL, O_SERIES },
		{ "mountstats", required_argument, NULL, O_MOUNTSTATS },
		{ "svc-rdma", required_argument, NULL, O_SVC },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	*o = (struct opts){ .max_series = 100,
			    .mountstats = "/proc/self/mountstats",
			    .svc_rdma = "/proc/sys/sunrpc/svc_rdma" };
	rr_live_opts_init(&o->src, "rpcrdma-exporter");
	int c, sources = 0;
	double v;
	while ((c = getopt_long(argc, argv, RR_LIVE_SHORT_OPTIONS "l:hV", longs, NULL)) != -1) {
		int taken = rr_live_option(&o->src, c, optarg, &o->tracepoints,
					   &sources);
		if (taken < 0)
			return -1;
		if (taken)
			continue;
		switch (c) {
		case 'l':
			o->listen = optarg;
			break;
		case O_SERIES:
			if (!rr_number_arg("rpcrdma-exporter", "--max-connection-series",
					   optarg, 0, 1000000, false, &v))
				return -1;
			o->max_series = (long)v;
			break;
		case O_WEB_CONFIG:
			o->web_config = optarg;
			break;
		case O_MOUNTSTATS:
			o->mountstats = optarg;
			break;
		case O_SVC:
			o->svc_rdma = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V': {
			char mhd[48];
			snprintf(mhd, sizeof(mhd), "libmicrohttpd %s", MHD_get_version());
			const char *extra[] = { rr_json_library_version(), mhd,
#ifdef RR_HAVE_EBPF
						rr_ebpf_library_version(),
#endif
						NULL };
			rr_print_version("rpcrdma-exporter", extra);
			exit(0);
		}
		default:
			return -1;
		}
	}
	if (!rr_live_one_source(&o->src, sources, true))
		return -1;
	if (optind < argc && o->src.kind == RR_LIVE_EBPF) {
		fprintf(stderr, "rpcrdma-exporter: a filter expression needs -i or "
				"-r (the eBPF program matches by port)\n");
		return -1;
	}
	o->src.filter = rr_join_args(argc, argv, optind);
	if (optind < argc && !o->src.filter)
		return -1;
	return 0;
}

/* ADDR:PORT, [V6ADDR]:PORT, :PORT (every IPv4 address, as node_exporter
 * reads it) or PORT (127.0.0.1). */
static bool parse_listen(const char *s, struct sockaddr_storage *ss)
{
	char host[64] = "127.0.0.1";
	const char *port = s;
	memset(ss, 0, sizeof(*ss));
	if (s && s[0] == '[') {
		const char *end = strchr(s, ']');
		if (!end || end[1] != ':' || (size_t)(end - s - 1) >= sizeof(host))
			return false;
		memcpy(host, s + 1, (size_t)(end - s - 1));
		host[end - s - 1] = '\0';
		port = end + 2;
	} else if (s && strrchr(s, ':')) {
		const char *colon = strrchr(s, ':');
		if ((size_t)(colon - s) >= sizeof(host))
			return false;
		memcpy(host, s, (size_t)(colon - s));
		host[colon - s] = '\0';
		port = colon + 1;
		if (!host[0])
			strcpy(host, "0.0.0.0");
	}
	long p = DEFAULT_PORT;
	if (s) {
		char *end;
		p = strtol(port, &end, 10);
		if (*end || end == port || p < 1 || p > 65535)
			return false;
	}
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons((uint16_t)p);
		return true;
	}
	if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons((uint16_t)p);
		return true;
	}
	return false;
}

/* An address of this host: names the "local" end of a connection. */
static bool is_local(const uint8_t *addr, unsigned len, void *ctx)
{
	(void)len;
	static const uint8_t zero[12];
	const struct exporter *e = ctx;
	bool v4 = !memcmp(addr + 4, zero, 12);
	for (const struct ifaddrs *i = e->ifaddrs; i; i = i->ifa_next) {
		if (!i->ifa_addr)
			continue;
		if (v4 && i->ifa_addr->sa_family == AF_INET &&
		    !memcmp(&((const struct sockaddr_in *)i->ifa_addr)->sin_addr,
			    addr, 4))
			return true;
		if (!v4 && i->ifa_addr->sa_family == AF_INET6 &&
		    !memcmp(&((const struct sockaddr_in6 *)i->ifa_addr)->sin6_addr,
			    addr, 16))
			return true;
	}
	return false;
}

/* An answer that owns `text`: gzipped when the client accepts it, as
 * Prometheus servers do on every scrape. */
static struct MHD_Response *text_response(struct MHD_Connection *conn,
					  char *text, size_t len,
					  const char *type)
{
	bool gzip = rr_accepts_gzip(MHD_lookup_connection_value(
		conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING));
	if (gzip) {
		size_t zlen;
		char *z = rr_gzip(text, len, &zlen);
		free(text);
		if (!z)
			return NULL;
		text = z;
		len = zlen;
	}
	struct MHD_Response *r =
		MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(text);
		return NULL;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT_ENCODING);
	if (gzip)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
	return r;
}

/* What the rpcrdma tracepoints counted (-t). */

static struct MHD_Response *metrics(struct exporter *e,
				    struct MHD_Connection *conn)
{
	const char *accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);
	bool openmetrics = accept && strstr(accept, "application/openmetrics-text");
	struct rr_text t;
	rr_text_init(&t);
	struct rr_prom w = { .out = &t, .openmetrics = openmetrics };
	struct rr_prom_options po = {
		.max_connection_series = (unsigned)e->o.max_series,
		.is_local = e->o.src.kind != RR_LIVE_FILE ? is_local : NULL, .ctx = e,
	};
	pthread_mutex_lock(&e->lock);
	e->scrapes++;
	/* what only packets show is absent from the tracepoints' view */
	if (!e->trace)
		rr_prom_analyzer(&w, e->a, &po);
	uint64_t scrapes = e->scrapes;
	bool done = e->replay_done;
	pthread_mutex_unlock(&e->lock);
	/* as node_exporter's build_info: the versions as labels, value 1 */
	char lb[160] = "";
	rr_prom_label(lb, sizeof(lb), "version", RR_VERSION_STRING);
	rr_prom_label(lb, sizeof(lb), "libdissect", rr_version());
	rr_prom_family(&w, "rpcrdma_exporter_build_info", "gauge",
		       "the exporter's version and the library's it runs with");
	rr_prom_sample_u64(&w, "rpcrdma_exporter_build_info", "", lb, 1);
	rr_prom_family(&w, "rpcrdma_exporter_scrapes_total", "counter",
		       "requests for /metrics served");
	rr_prom_sample_u64(&w, "rpcrdma_exporter_scrapes_total", "", NULL, scrapes);
	if (e->o.src.kind == RR_LIVE_FILE && !e->trace) {
		rr_prom_family(&w, "rpcrdma_exporter_replay_done", "gauge",
			       "1 once the capture file has been read to its end");
		rr_prom_sample_u64(&w, "rpcrdma_exporter_replay_done", "", NULL, done);
	}
	if (e->trace) {
		pthread_mutex_lock(&e->lock);
		rr_trace_refresh(e->trace);
		rr_trace_report_prom(&w, rr_trace_stats(e->trace), rr_trace_detail(e->trace));
		pthread_mutex_unlock(&e->lock);
	}
	rr_prom_kernel(&w, e->o.mountstats, e->o.svc_rdma);
	rr_prom_process(&w);
	rr_prom_end(&w);
	if (t.failed) {
		rr_text_free(&t);
		return NULL;
	}
	return text_response(conn, t.p, t.len, openmetrics ? RR_OPENMETRICS_CONTENT_TYPE :
							  RR_PROM_CONTENT_TYPE);
}

static struct MHD_Response *stats_json(struct exporter *e,
				       struct MHD_Connection *conn)
{
	pthread_mutex_lock(&e->lock);
	json_object *j = rr_json_stats(e->a);
	pthread_mutex_unlock(&e->lock);
	const char *s = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN);
	char *copy = s ? strdup(s) : NULL;
	json_object_put(j);
	return copy ? text_response(conn, copy, strlen(copy), "application/json") : NULL;
}

static const char index_page[] =
	"<!DOCTYPE html>\n<html><head><title>rpcrdma-exporter</title></head>\n"
	"<body><h1>rpcrdma-exporter</h1>\n"
	"<p>RPC-over-RDMA credits, chunks, latency and conformance findings.</p>\n"
	"<ul><li><a href=\"/metrics\">/metrics</a>: Prometheus text 0.0.4, or "
	"OpenMetrics 1.0 when asked for</li>\n"
	"<li><a href=\"/stats.json\">/stats.json</a>: the same statistics as "
	"<code>rpcrdma-dump --stats=json</code></li></ul>\n</body></html>\n";

/* The exporter's pages, for a GET or HEAD let in (exporter-web.c). */
static struct MHD_Response *page(void *ctx, struct MHD_Connection *conn,
				 const char *url, unsigned *status)
{
	struct exporter *e = ctx;
	struct MHD_Response *r = NULL;
	if (!strcmp(url, "/metrics")) {
		r = metrics(e, conn);
	} else if (!strcmp(url, "/stats.json")) {
		r = stats_json(e, conn);
	} else if (!strcmp(url, "/")) {
		r = MHD_create_response_from_buffer(sizeof(index_page) - 1,
						    (void *)index_page,
						    MHD_RESPMEM_PERSISTENT);
		if (r)
			MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
						"text/html; charset=utf-8");
	} else {
		static char msg[] = "not found: try /metrics, /stats.json or /\n";
		*status = MHD_HTTP_NOT_FOUND;
		r = MHD_create_response_from_buffer(sizeof(msg) - 1, msg,
						    MHD_RESPMEM_PERSISTENT);
	}
	return r;
}

/* Once a second: the web configuration read again if it changed. */
static void look_at_web_config(struct exporter *e)
{
	if (!e->o.web_config)
		return;
	time_t now = time(NULL);
	if (now == e->web_looked)
		return;
	e->web_looked = now;
	char err[512];
	if (rr_web_reload(e->web, err, sizeof(err)))
		fprintf(stderr, "rpcrdma-exporter: %s read again: serving with it\n",
			e->o.web_config);
	else if (err[0])
		fprintf(stderr, "rpcrdma-exporter: --web.config.file: %s; serving "
				"with the previous one\n", err);
}

static void on_frame(void *ctx, uint64_t ts, const uint8_t *data,
		     uint32_t caplen, uint32_t wirelen)
{
	struct exporter *e = ctx;
	pthread_mutex_lock(&e->lock);
	rr_analyzer_frame(e->a, (uint32_t)rr_live_link(live), ts, data, caplen,
			  wirelen);
	pthread_mutex_unlock(&e->lock);
}

/* Feeds the analyzer until the source ends or a signal comes. */
static void run_capture(struct exporter *e)
{
	uint64_t dropped_seen = 0;
	while (!rr_stopping && rr_live_poll(live, 100) >= 0) {
		look_at_web_config(e);
		/* the source's drops, as they grow */
		uint64_t dropped = rr_live_dropped(live);
		if (dropped > dropped_seen) {
			pthread_mutex_lock(&e->lock);
			rr_analyzer_dropped(e->a, dropped - dropped_seen);
			pthread_mutex_unlock(&e->lock);
			dropped_seen = dropped;
		}
	}
}

int main(int argc, char **argv)
{
	static struct exporter e;
	if (parse_args(argc, argv, &e.o) < 0) {
		usage(stderr);
		return EXIT_USAGE;
	}
	struct sockaddr_storage addr;
	if (!parse_listen(e.o.listen, &addr)) {
		fprintf(stderr, "rpcrdma-exporter: -l takes ADDR:PORT, [ADDR]:PORT "
				"or PORT, not '%s'\n", e.o.listen);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (e.o.web_config) {
		/* a bad file stops the start, naming the key, before any capture */
		struct rr_web_config wc;
		char why[512];
		if (!rr_web_config_load(e.o.web_config, &wc, why, sizeof(why))) {
			fprintf(stderr, "rpcrdma-exporter: --web.config.file: %s\n", why);
			return EXIT_USAGE;
		}
		rr_web_config_free(&wc);
	}
	struct rr_config cfg;
	rr_config_init(&cfg);
	cfg.flags |= RR_CFG_NO_EVENTS; /* the statistics are what it serves */
	/* the ports name the traffic for the decoder as for the eBPF filter */
	cfg.roce_udp_port = e.o.src.roce_port;
	cfg.iwarp_tcp_port = e.o.src.iwarp_port;
	if (e.o.src.kind == RR_LIVE_EBPF)
		cfg.flags |= RR_CFG_CUTS_EXPECTED; /* headers only, by design */
	struct rr_analyzer_limits lim;
	rr_analyzer_limits_init(&lim);
	lim.rebuild_slots = 0; /* counts only: no message is shown */
	e.a = rr_analyzer_new(&cfg, &lim);
	if (!e.a) {
		fprintf(stderr, "rpcrdma-exporter: not enough memory for the analyzer\n");
		return EXIT_INPUT;
	}
	if (e.o.tracepoints) {
		char msg[512];
		e.trace = rr_trace_open(msg, sizeof(msg));
		if (!e.trace) {
			fprintf(stderr, "rpcrdma-exporter: %s\n", msg);
			return EXIT_INPUT;
		}
		fprintf(stderr, "rpcrdma-exporter: %s\n", msg);
	} else {
		char msg[640];
		live = rr_live_open(&e.o.src, on_frame, &e, msg, sizeof(msg));
		if (msg[0])
			fprintf(stderr, "rpcrdma-exporter: %s\n", msg);
		if (!live)
			return EXIT_INPUT;
	}
	pthread_mutex_init(&e.lock, NULL);
	if (e.o.src.kind != RR_LIVE_FILE && getifaddrs(&e.ifaddrs) != 0)
		e.ifaddrs = NULL;
	uint16_t port = ntohs(addr.ss_family == AF_INET ?
				      ((struct sockaddr_in *)&addr)->sin_port :
				      ((struct sockaddr_in6 *)&addr)->sin6_port);
	char why[512];
	e.web = rr_web_start(&addr, e.o.web_config, page, &e, why, sizeof(why));
	if (!e.web) {
		if (e.o.web_config)
			fprintf(stderr, "rpcrdma-exporter: --web.config.file: %s\n", why);
		else
			fprintf(stderr, "rpcrdma-exporter: cannot serve HTTP on %s: %s\n",
				e.o.listen ? e.o.listen : "the default address", why);
		rr_live_close(live);
		/* an address it cannot listen on is the command line's (1) */
		return EXIT_USAGE;
	}
	char shown[INET6_ADDRSTRLEN];
	inet_ntop(addr.ss_family,
		  addr.ss_family == AF_INET ?
			  (void *)&((struct sockaddr_in *)&addr)->sin_addr :
			  (void *)&((struct sockaddr_in6 *)&addr)->sin6_addr,
		  shown, sizeof(shown));
	static const char *const kinds[] = { "file", "interface", "eBPF on",
					     "RDMA device" };
	fprintf(stderr, "rpcrdma-exporter: serving %s://%s%s%s:%u/metrics from %s %s\n",
		rr_web_tls(e.web) ? "https" : "http", addr.ss_family == AF_INET6 ? "[" : "", shown,
		addr.ss_family == AF_INET6 ? "]" : "", port,
		e.trace ? "the kernel's" : kinds[e.o.src.kind],
		e.trace ? "tracepoints" : e.o.src.name);
	rr_stop_on_signals(&live);
	signal(SIGPIPE, SIG_IGN);
	if (e.trace) {
		while (!rr_stopping) {
			pthread_mutex_lock(&e.lock);
			rr_trace_poll(e.trace, 0); /* the maps are read at each scrape */
			pthread_mutex_unlock(&e.lock);
			look_at_web_config(&e);
			struct timespec nap = { 0, 100000000 };
			nanosleep(&nap, NULL);
		}
	} else {
		run_capture(&e);
	}
	if (!e.trace && e.o.src.kind == RR_LIVE_FILE && !rr_stopping) {
		pthread_mutex_lock(&e.lock);
		/* the statistics have it all: the reports are not read */
		while (rr_analyzer_finish(e.a))
			;
		e.replay_done = true;
		uint64_t frames = rr_analyzer_stats(e.a)->frames;
		pthread_mutex_unlock(&e.lock);
		fprintf(stderr, "rpcrdma-exporter: %s replayed (%" PRIu64
				" frames); serving until stopped\n", e.o.src.name, frames);
		while (!rr_stopping) {
			look_at_web_config(&e);
			struct timespec nap = { 0, 200000000 };
			nanosleep(&nap, NULL);
		}
	}
	fprintf(stderr, "rpcrdma-exporter: stopping\n");
	rr_web_stop(e.web);
	rr_live_close(live);
	live = NULL;
	rr_trace_close(e.trace);
	rr_analyzer_free(e.a);
	if (e.ifaddrs)
		freeifaddrs(e.ifaddrs);
	free((char *)e.o.src.filter);
	return 0;
}
