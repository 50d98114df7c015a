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
#define _GNU_SOURCE /* asprintf; pcap.h uses u_int and u_char */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <netdb.h>
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
#include "capabilities.h"
#include "exporter-web.h"
#include "exporter.h"
#include "web-config.h"
#include "wall-clock.h"
#include "live-source.h"
#include "stop-signals.h"
#include "rr_trace_report.h"
#include "trace.h"
#include "verbs-source.h"
#include "rr_gzip.h"
#include "rr_kernel.h"
#include "rr_process.h"
#include "rr_prom.h"

struct exporter {
	struct opts o;
	pthread_mutex_t lock;          /* the analyzer and the counters below */
	struct rr_analyzer *a;
	struct rr_trace *trace;        /* -t: the kernel's tracepoints */
	uint64_t scrapes;
	bool replay_done;
	bool replay_failed;            /* the file was damaged or cut */
	struct ifaddrs *ifaddrs;       /* for the "local" end of connections */
	struct rr_web *web;
	time_t web_looked;             /* when the web config was last looked at */
	char *index_page;              /* / : links to the pages */
	struct rr_otlp_push *otlp;     /* --otlp.endpoint: the push, or NULL */
};

static struct rr_live *live;

/* ADDR:PORT, HOST:PORT, [V6ADDR]:PORT, :PORT (every IPv4 address, as
 * node_exporter reads it) or PORT (127.0.0.1).  A host name is resolved
 * and its first IPv4 address taken, else its first IPv6 one, as Go's
 * net.Listen does for node_exporter (localhost: 127.0.0.1). */
static bool parse_listen(const char *s, struct sockaddr_storage *ss)
{
	char host[256] = "127.0.0.1";
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
	long p = RR_EXPORTER_DEFAULT_PORT;
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
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *res;
	if (getaddrinfo(host, NULL, &hints, &res) != 0)
		return false;
	const struct addrinfo *pick = NULL;
	for (const struct addrinfo *r = res; r; r = r->ai_next)
		if (r->ai_family == AF_INET || (!pick && r->ai_family == AF_INET6)) {
			pick = r;
			if (r->ai_family == AF_INET)
				break;
		}
	if (pick) {
		memcpy(ss, pick->ai_addr, pick->ai_addrlen);
		if (pick->ai_family == AF_INET)
			v4->sin_port = htons((uint16_t)p);
		else
			v6->sin6_port = htons((uint16_t)p);
	}
	freeaddrinfo(res);
	return pick != NULL;
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

/* The exposition into t, as /metrics serves it (OpenMetrics or not);
 * scrape: an HTTP request's, counted. */
static void render(struct exporter *e, struct rr_text *t, bool openmetrics, bool scrape)
{
	struct rr_prom w = { .out = t, .openmetrics = openmetrics };
	struct rr_prom_options po = {
		.max_connection_series = (unsigned)e->o.max_series,
		.is_local = e->o.src.kind != RR_LIVE_FILE ? is_local : NULL, .ctx = e,
	};
	const bool *on = e->o.collector;
	pthread_mutex_lock(&e->lock);
	e->scrapes += scrape;
	/* live, the time now: a call outstanding grows old (stuck) between
	 * frames */
	if (e->o.src.kind != RR_LIVE_FILE)
		rr_analyzer_clock(e->a, rr_wall_clock_ns());
	/* what only packets show is absent from the tracepoints' view */
	if (on[RR_COLLECTOR_PACKETS])
		rr_prom_analyzer(&w, e->a, &po);
	uint64_t scrapes = e->scrapes;
	bool done = e->replay_done, failed = e->replay_failed;
	pthread_mutex_unlock(&e->lock);
	/* as node_exporter's build_info: the versions as labels, value 1 */
	char lb[160] = "";
	rr_prom_label(lb, sizeof(lb), "version", RR_VERSION_STRING);
	rr_prom_label(lb, sizeof(lb), "libdissect", rr_version());
	rr_prom_family(&w, "rpcrdma_exporter_build_info", "gauge",
		       "the exporter's version and the library's it runs with");
	rr_prom_sample_u64(&w, "rpcrdma_exporter_build_info", "", lb, 1);
	if (!e->o.no_exporter_metrics) {
		rr_prom_family(&w, "rpcrdma_exporter_scrapes_total", "counter",
			       "requests for the metrics served");
		rr_prom_sample_u64(&w, "rpcrdma_exporter_scrapes_total", "", NULL,
				   scrapes);
	}
	if (e->otlp && !e->o.no_exporter_metrics) {
		uint64_t ok, bad;
		rr_otlp_push_counts(e->otlp, &ok, &bad);
		rr_prom_family(&w, "rpcrdma_exporter_otlp_pushes_total", "counter",
			       "OTLP pushes of the metrics (--otlp.endpoint), by whether the "
			       "receiver took them (ok: HTTP 2xx)");
		rr_prom_sample_u64(&w, "rpcrdma_exporter_otlp_pushes_total", "",
				   "result=\"ok\"", ok);
		rr_prom_sample_u64(&w, "rpcrdma_exporter_otlp_pushes_total", "",
				   "result=\"failed\"", bad);
	}
	if (on[RR_COLLECTOR_PACKETS] && e->o.src.kind == RR_LIVE_FILE) {
		rr_prom_family(&w, "rpcrdma_exporter_replay_done", "gauge",
			       "1 once the capture file has been read to its end");
		rr_prom_sample_u64(&w, "rpcrdma_exporter_replay_done", "", NULL, done);
		rr_prom_family(&w, "rpcrdma_exporter_replay_failed", "gauge",
			       "1 when the capture file ended in damage: the metrics "
			       "hold what was read before it");
		rr_prom_sample_u64(&w, "rpcrdma_exporter_replay_failed", "", NULL,
				   failed);
	}
	if (e->trace) {
		pthread_mutex_lock(&e->lock);
		rr_trace_refresh(e->trace);
		rr_trace_report_prom(&w, rr_trace_stats(e->trace), rr_trace_detail(e->trace));
		pthread_mutex_unlock(&e->lock);
	}
	rr_prom_kernel(&w, on[RR_COLLECTOR_MOUNTSTATS] ? e->o.mountstats : NULL,
		       on[RR_COLLECTOR_SVC_RDMA] ? e->o.svc_rdma : NULL);
	if (on[RR_COLLECTOR_PROCESS] && !e->o.no_exporter_metrics)
		rr_prom_process(&w);
	rr_prom_end(&w);
}

static struct MHD_Response *metrics(struct exporter *e,
				    struct MHD_Connection *conn)
{
	const char *accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);
	bool openmetrics = accept && strstr(accept, "application/openmetrics-text");
	struct rr_text t;
	rr_text_init(&t);
	render(e, &t, openmetrics, true);
	if (t.failed) {
		rr_text_free(&t);
		return NULL;
	}
	return text_response(conn, t.p, t.len, openmetrics ? RR_OPENMETRICS_CONTENT_TYPE :
							  RR_PROM_CONTENT_TYPE);
}

/* What an OTLP push sends: the Prometheus text of /metrics. */
static bool render_for_push(void *ctx, struct rr_text *t)
{
	render(ctx, t, false, false);
	return !t->failed;
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

/* The index page, with the metrics where --web.telemetry-path puts them. */
static char *make_index_page(const char *telemetry)
{
	char *page = NULL;
	if (asprintf(&page,
		     "<!DOCTYPE html>\n<html><head><title>rpcrdma-exporter</title></head>\n"
		     "<body><h1>rpcrdma-exporter</h1>\n"
		     "<p>RPC-over-RDMA credits, chunks, latency and conformance findings.</p>\n"
		     "<ul><li><a href=\"%s\">%s</a>: Prometheus text 0.0.4, or "
		     "OpenMetrics 1.0 when asked for</li>\n"
		     "<li><a href=\"/stats.json\">/stats.json</a>: the same statistics as "
		     "<code>rpcrdma-dump --stats=json</code></li></ul>\n</body></html>\n",
		     telemetry, telemetry) < 0)
		return NULL;
	return page;
}

/* The exporter's pages, for a GET or HEAD let in (exporter-web.c). */
static struct MHD_Response *page(void *ctx, struct MHD_Connection *conn,
				 const char *url, unsigned *status)
{
	struct exporter *e = ctx;
	struct MHD_Response *r = NULL;
	if (!strcmp(url, e->o.telemetry_path)) {
		r = metrics(e, conn);
	} else if (!strcmp(url, "/stats.json") && e->o.collector[RR_COLLECTOR_PACKETS]) {
		r = stats_json(e, conn);
	} else if (!strcmp(url, "/")) {
		r = MHD_create_response_from_buffer(strlen(e->index_page),
						    e->index_page,
						    MHD_RESPMEM_PERSISTENT);
		if (r)
			MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
						"text/html; charset=utf-8");
	} else {
		char *msg = NULL;
		*status = MHD_HTTP_NOT_FOUND;
		if (asprintf(&msg, "not found: try %s, /stats.json or /\n",
			     e->o.telemetry_path) >= 0)
			r = MHD_create_response_from_buffer(strlen(msg), msg,
							    MHD_RESPMEM_MUST_FREE);
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

/* Where it serves, for the line that says so. */
static void say_serving(const struct exporter *e, const struct sockaddr_storage *addr)
{
	const char *scheme = rr_web_tls(e->web) ? "https" : "http";
	char where[INET6_ADDRSTRLEN + 16];
	if (rr_web_systemd_socket(e->web)) {
		snprintf(where, sizeof(where), "systemd's socket");
	} else {
		char shown[INET6_ADDRSTRLEN];
		bool v6 = addr->ss_family == AF_INET6;
		inet_ntop(addr->ss_family,
			  v6 ? (const void *)&((const struct sockaddr_in6 *)addr)->sin6_addr
			     : (const void *)&((const struct sockaddr_in *)addr)->sin_addr,
			  shown, sizeof(shown));
		uint16_t port = ntohs(v6 ? ((const struct sockaddr_in6 *)addr)->sin6_port
					 : ((const struct sockaddr_in *)addr)->sin_port);
		snprintf(where, sizeof(where), "%s%s%s:%u", v6 ? "[" : "", shown,
			 v6 ? "]" : "", port);
	}
	static const char *const kinds[] = { "file", "interface", "eBPF on",
					     "RDMA device" };
	const char *from = e->trace ? "the kernel's" :
			   live ? kinds[e->o.src.kind] : "the kernel's files";
	const char *name = e->trace ? "tracepoints" : live ? e->o.src.name : "only";
	if (rr_web_systemd_socket(e->web))
		fprintf(stderr, "rpcrdma-exporter: serving %s on %s at %s from %s %s\n",
			scheme, where, e->o.telemetry_path, from, name);
	else
		fprintf(stderr, "rpcrdma-exporter: serving %s://%s%s from %s %s\n",
			scheme, where, e->o.telemetry_path, from, name);
}

/* Opens what the collectors read: the tracepoints or a frame source. */
static bool open_sources(struct exporter *e)
{
	char msg[640];
	if (e->o.collector[RR_COLLECTOR_TRACEPOINTS]) {
		e->trace = rr_trace_open(msg, sizeof(msg));
		fprintf(stderr, "rpcrdma-exporter: %s\n", msg);
		return e->trace != NULL;
	}
	if (!e->o.collector[RR_COLLECTOR_PACKETS])
		return true; /* the kernel's files only */
	live = rr_live_open(&e->o.src, on_frame, e, msg, sizeof(msg));
	if (msg[0])
		fprintf(stderr, "rpcrdma-exporter: %s\n", msg);
	return live != NULL;
}

/* The OTLP push (--otlp.endpoint): its resource names this exporter (the
 * host, and the source it reads, as service.instance.id). */
static bool start_push(struct exporter *e)
{
	static char host[256], instance[512];
	if (gethostname(host, sizeof(host) - 1) != 0)
		snprintf(host, sizeof(host), "localhost");
	const char *source = e->trace ? "tracepoints" : e->o.src.name;
	snprintf(instance, sizeof(instance), "%s%s%s", host, source ? ":" : "",
		 source ? source : "");
	struct rr_otlp_resource res = {
		.service_name = "rpcrdma-exporter", .service_version = RR_VERSION_STRING,
		.instance = instance, .host = host,
		.start_ns = rr_wall_clock_ns(),
	};
	char why[256];
	e->otlp = rr_otlp_push_start(&e->o.otlp, &res, render_for_push, e, why, sizeof(why));
	if (!e->otlp) {
		fprintf(stderr, "rpcrdma-exporter: --otlp.endpoint %s: %s\n", e->o.otlp.endpoint,
			why);
		return false;
	}
	fprintf(stderr, "rpcrdma-exporter: pushing OTLP/HTTP to %s every %g s\n",
		e->o.otlp.endpoint, e->o.otlp.interval_s);
	return true;
}

/* Until a signal, with nothing to read but the web configuration. */
static void idle(struct exporter *e)
{
	while (!rr_stopping) {
		look_at_web_config(e);
		struct timespec nap = { 0, 200000000 };
		nanosleep(&nap, NULL);
	}
}

int main(int argc, char **argv)
{
	static struct exporter e;
	if (exporter_parse_args(argc, argv, &e.o) < 0) {
		exporter_usage(stderr);
		return EXIT_USAGE;
	}
	struct sockaddr_storage addr;
	if (!e.o.systemd_socket && !parse_listen(e.o.listen, &addr)) {
		fprintf(stderr, "rpcrdma-exporter: -l takes ADDR:PORT, HOST:PORT (a "
				"name that resolves), [ADDR]:PORT or PORT, not '%s'\n",
			e.o.listen);
		exporter_usage(stderr);
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
	e.index_page = make_index_page(e.o.telemetry_path);
	struct rr_config cfg;
	rr_live_decoder_config(&e.o.src, &cfg);
	cfg.flags |= RR_CFG_NO_EVENTS; /* the statistics are what it serves */
	struct rr_analyzer_limits lim;
	rr_analyzer_limits_init(&lim);
	lim.rebuild_slots = 0; /* counts only: no message is shown */
	e.a = rr_analyzer_new(&cfg, &lim);
	if (!e.a || !e.index_page) {
		fprintf(stderr, "rpcrdma-exporter: not enough memory for the analyzer\n");
		return EXIT_INPUT;
	}
	if (!open_sources(&e))
		return EXIT_INPUT;
	pthread_mutex_init(&e.lock, NULL);
	if (e.o.src.kind != RR_LIVE_FILE && getifaddrs(&e.ifaddrs) != 0)
		e.ifaddrs = NULL;
	char why[512];
	struct rr_web_opts wo = { .addr = &addr, .systemd_socket = e.o.systemd_socket,
				  .config_path = e.o.web_config,
				  .max_requests = (unsigned)e.o.max_requests };
	e.web = rr_web_start(&wo, page, &e, why, sizeof(why));
	if (!e.web) {
		if (e.o.web_config || e.o.systemd_socket)
			fprintf(stderr, "rpcrdma-exporter: %s\n", why);
		else
			fprintf(stderr, "rpcrdma-exporter: cannot serve HTTP on %s: %s\n",
				e.o.listen ? e.o.listen : "the default address", why);
		rr_live_close(live);
		/* an address it cannot listen on is the command line's (1) */
		return EXIT_USAGE;
	}
	/* sources open and the socket bound: what they took no longer
	 * needed; the tracepoints keep theirs, their programs' maps being
	 * read at every scrape */
	char capmsg[256];
	if (!e.trace && !rr_capabilities_drop(live && e.o.src.kind == RR_LIVE_EBPF,
					      capmsg, sizeof(capmsg)))
		fprintf(stderr, "rpcrdma-exporter: %s; it keeps its capabilities\n",
			capmsg);
	say_serving(&e, &addr);
	if (e.o.otlp.endpoint && !start_push(&e))
		return EXIT_USAGE;
	rr_stop_on_signals(&live);
	if (e.trace) {
		while (!rr_stopping) {
			pthread_mutex_lock(&e.lock);
			rr_trace_poll(e.trace, 0); /* the maps are read at each scrape */
			pthread_mutex_unlock(&e.lock);
			look_at_web_config(&e);
			struct timespec nap = { 0, 100000000 };
			nanosleep(&nap, NULL);
		}
	} else if (live) {
		run_capture(&e);
	} else {
		idle(&e);
	}
	if (live && e.o.src.kind == RR_LIVE_FILE && !rr_stopping) {
		pthread_mutex_lock(&e.lock);
		/* the statistics have it all: the reports are not read */
		while (rr_analyzer_finish(e.a))
			;
		e.replay_done = true;
		/* a damaged or cut file: what was read is served, and it says so */
		e.replay_failed = rr_live_error(live) != NULL;
		uint64_t frames = rr_analyzer_stats(e.a)->frames;
		pthread_mutex_unlock(&e.lock);
		rr_live_say_error(live, &e.o.src, frames);
		fprintf(stderr, "rpcrdma-exporter: %s %s (%" PRIu64 " frames); serving "
				"until stopped\n", e.o.src.name,
			e.replay_failed ? "replayed up to the damage" : "replayed", frames);
		idle(&e);
	}
	fprintf(stderr, "rpcrdma-exporter: stopping\n");
	rr_otlp_push_stop(e.otlp); /* the last push, with everything read */
	e.otlp = NULL;
	rr_web_stop(e.web);
	rr_live_close(live);
	live = NULL;
	rr_trace_close(e.trace);
	rr_analyzer_free(e.a);
	if (e.ifaddrs)
		freeifaddrs(e.ifaddrs);
	free(e.index_page);
	free((char *)e.o.src.filter);
	return e.replay_failed ? EXIT_INPUT : 0;
}
