/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-exporter's command line, as node_exporter's where the two share
 * a flag (--web.*, --collector.NAME): its usage, its versions, and the
 * options read into struct opts.
 */
#define _DEFAULT_SOURCE
#include <getopt.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command-line.h"
#include "exporter.h"
#include "rr_json.h"
#include "version.h"
#ifdef RR_HAVE_EBPF
#include "rpcrdma_capture.h"
#endif

static const struct {
	const char *name, *help;
	bool on;
} collectors[RR_COLLECTORS] = {
#define RR_COLLECTOR_X_INFO(sym, name, on, help) [sym] = { name, help, on },
	RR_COLLECTOR_LIST(RR_COLLECTOR_X_INFO)
#undef RR_COLLECTOR_X_INFO
};

void exporter_usage(FILE *to)
{
	fprintf(to,
		"usage: rpcrdma-exporter (-e IFACE | -i IFACE [-B KIB] | -r FILE [--realtime] |\n"
		"                        --rdma DEV[:PORT] | -t | --no-collector.packets)\n"
		"                        [--roce-port PORT] [--iwarp-port PORT]\n"
		"                        [-l ADDR:PORT | --web.systemd-socket]\n"
		"                        [--web.config.file FILE] [--web.telemetry-path PATH]\n"
		"                        [--web.max-requests N] [--web.disable-exporter-metrics]\n"
		"                        [--[no-]collector.NAME] [--max-connection-series N]\n"
		"                        [--mountstats FILE] [--svc-rdma DIR]\n"
		"                        [--otlp.endpoint URL [--otlp.interval S] [--otlp.timeout S]\n"
		"                         [--otlp.header NAME=VALUE]... [--otlp.compression gzip]\n"
		"                         [--otlp.tls.ca-file FILE] [--otlp.tls.cert-file FILE]\n"
		"                         [--otlp.tls.key-file FILE] [--otlp.tls.insecure-skip-verify]]\n"
		"                        [expression]\n"
		"       rpcrdma-exporter -V | --version\n");
	rr_live_usage(to, true);
	fprintf(to,
		"  -l, --web.listen-address ADDR:PORT\n"
		"               serve HTTP there (default 127.0.0.1:%d; :PORT\n"
		"               every IPv4 address, [V6ADDR]:PORT, HOST:PORT its first\n"
		"               IPv4 address, PORT on 127.0.0.1)\n"
		"  --web.systemd-socket\n"
		"               serve on the socket systemd passes (socket activation,\n"
		"               rpcrdma-exporter.socket), not -l's\n"
		"  --web.config.file FILE\n"
		"               TLS, client certificates, basic authentication and\n"
		"               headers, in the file format of Prometheus's exporter-\n"
		"               toolkit; read again when it changes\n"
		"  --web.telemetry-path PATH\n"
		"               where the metrics are served (default /metrics)\n"
		"  --web.max-requests N\n"
		"               pages served at once at most, then 503 (default 40;\n"
		"               0: no limit)\n"
		"  --web.disable-exporter-metrics\n"
		"               leave out the exporter's own metrics (process_*,\n"
		"               rpcrdma_exporter_scrapes_total)\n",
		RR_EXPORTER_DEFAULT_PORT);
	for (unsigned i = 0; i < RR_COLLECTORS; i++)
		fprintf(to, "  --collector.%s, --no-collector.%s\n"
			    "               %s (%s)\n",
			collectors[i].name, collectors[i].name, collectors[i].help,
			collectors[i].on ? "on" : "off");
	fprintf(to,
		"  --max-connection-series N\n"
		"               connections with series of their own (default 100);\n"
		"               the others are summed in one \"other\" series\n"
		"  --mountstats FILE   (default /proc/self/mountstats)\n"
		"  --svc-rdma DIR      (default /proc/sys/sunrpc/svc_rdma)\n"
		"  --otlp.endpoint URL\n"
		"               also push the metrics as OTLP/HTTP (JSON) to URL, the\n"
		"               receiver's whole metrics URL (Prometheus's:\n"
		"               http://HOST:9090/api/v1/otlp/v1/metrics; a collector's:\n"
		"               http://HOST:4318/v1/metrics)\n"
		"  --otlp.interval S   seconds between pushes (default 60)\n"
		"  --otlp.timeout S    seconds a push may take (default 10)\n"
		"  --otlp.header NAME=VALUE\n"
		"               an HTTP header of every push (authorisation, a tenant);\n"
		"               again for more\n"
		"  --otlp.compression gzip|none\n"
		"               the request's encoding (default none)\n"
		"  --otlp.tls.ca-file FILE, --otlp.tls.cert-file FILE,\n"
		"  --otlp.tls.key-file FILE\n"
		"               with https: the CAs the receiver's certificate is checked\n"
		"               against, and the client's certificate and key\n"
		"  --otlp.tls.insecure-skip-verify\n"
		"               with https: the receiver's certificate is not checked\n"
		"  expression   a libpcap filter (-i, -r)\n"
		"Serves the metrics (Prometheus text 0.0.4, or OpenMetrics 1.0 when\n"
		"asked), /stats.json and /.\n");
}

static void print_versions(void)
{
	char mhd[48];
	snprintf(mhd, sizeof(mhd), "libmicrohttpd %s", MHD_get_version());
	const char *extra[] = { rr_json_library_version(), mhd,
#ifdef RR_HAVE_EBPF
				rr_ebpf_library_version(),
#endif
				NULL };
	rr_print_version("rpcrdma-exporter", extra);
}

/* Which sources the collectors asked for can be read: -t, or one frame
 * source with the packets collector, or none without it. */
static bool sources_agree(struct opts *o, int sources)
{
	bool *on = o->collector;
	if (on[RR_COLLECTOR_TRACEPOINTS]) {
		/* the kernel's view replaces what only packets give */
		on[RR_COLLECTOR_PACKETS] = false;
		return rr_live_one_source(&o->src, sources, true);
	}
	if (on[RR_COLLECTOR_PACKETS])
		return rr_live_one_source(&o->src, sources, true);
	if (sources) {
		fprintf(stderr, "rpcrdma-exporter: --no-collector.packets reads no "
				"frames: leave out -e, -i, -r and --rdma\n");
		return false;
	}
	return true;
}

int exporter_parse_args(int argc, char **argv, struct opts *o)
{
	enum { O_SERIES = 256, O_MOUNTSTATS, O_SVC, O_WEB_CONFIG, O_TELEMETRY,
	       O_SYSTEMD, O_MAX_REQUESTS, O_NO_EXPORTER_METRICS, O_OTLP_ENDPOINT,
	       O_OTLP_INTERVAL, O_OTLP_TIMEOUT, O_OTLP_HEADER, O_OTLP_COMPRESSION,
	       O_OTLP_CA, O_OTLP_CERT, O_OTLP_KEY, O_OTLP_INSECURE, O_COLLECTOR };
	/* the collectors' two flags each come after the fixed ones */
	static struct option longs[32 + 2 * RR_COLLECTORS] = {
		RR_LIVE_LONG_OPTIONS,
		/* node_exporter's spellings */
		{ "web.listen-address", required_argument, NULL, 'l' },
		{ "web.systemd-socket", no_argument, NULL, O_SYSTEMD },
		{ "web.config.file", required_argument, NULL, O_WEB_CONFIG },
		{ "web.telemetry-path", required_argument, NULL, O_TELEMETRY },
		{ "web.max-requests", required_argument, NULL, O_MAX_REQUESTS },
		{ "web.disable-exporter-metrics", no_argument, NULL,
		  O_NO_EXPORTER_METRICS },
		{ "max-connection-series", required_argument, NULL, O_SERIES },
		{ "mountstats", required_argument, NULL, O_MOUNTSTATS },
		{ "svc-rdma", required_argument, NULL, O_SVC },
		{ "otlp.endpoint", required_argument, NULL, O_OTLP_ENDPOINT },
		{ "otlp.interval", required_argument, NULL, O_OTLP_INTERVAL },
		{ "otlp.timeout", required_argument, NULL, O_OTLP_TIMEOUT },
		{ "otlp.header", required_argument, NULL, O_OTLP_HEADER },
		{ "otlp.compression", required_argument, NULL, O_OTLP_COMPRESSION },
		{ "otlp.tls.ca-file", required_argument, NULL, O_OTLP_CA },
		{ "otlp.tls.cert-file", required_argument, NULL, O_OTLP_CERT },
		{ "otlp.tls.key-file", required_argument, NULL, O_OTLP_KEY },
		{ "otlp.tls.insecure-skip-verify", no_argument, NULL, O_OTLP_INSECURE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
	};
	static char names[2 * RR_COLLECTORS][48];
	unsigned fixed = 0;
	while (longs[fixed].name)
		fixed++;
	for (unsigned i = 0; i < RR_COLLECTORS; i++)
		for (unsigned no = 0; no < 2; no++) {
			char *name = names[2 * i + no];
			snprintf(name, sizeof(names[0]), "%scollector.%s", no ? "no-" : "",
				 collectors[i].name);
			longs[fixed + 2 * i + no] = (struct option){
				name, no_argument, NULL, O_COLLECTOR + (int)(2 * i + no) };
		}
	*o = (struct opts){ .max_series = 100, .max_requests = 40,
			    .otlp = { .interval_s = 60, .timeout_s = 10 },
			    .telemetry_path = "/metrics",
			    .mountstats = "/proc/self/mountstats",
			    .svc_rdma = "/proc/sys/sunrpc/svc_rdma" };
	for (unsigned i = 0; i < RR_COLLECTORS; i++)
		o->collector[i] = collectors[i].on;
	rr_live_opts_init(&o->src, "rpcrdma-exporter");
	int c, sources = 0;
	double v;
	bool otlp_set = false; /* an --otlp.* option other than the endpoint */
	while ((c = getopt_long(argc, argv, RR_LIVE_SHORT_OPTIONS "l:hV", longs, NULL)) != -1) {
		int taken = rr_live_option(&o->src, c, optarg,
					   &o->collector[RR_COLLECTOR_TRACEPOINTS], &sources);
		if (taken < 0)
			return -1;
		if (taken)
			continue;
		if (c >= O_COLLECTOR && c < O_COLLECTOR + 2 * RR_COLLECTORS) {
			unsigned i = (unsigned)(c - O_COLLECTOR) / 2;
			bool on = (c - O_COLLECTOR) % 2 == 0;
			/* --collector.tracepoints is -t: a source */
			if (i == RR_COLLECTOR_TRACEPOINTS && on &&
			    !o->collector[RR_COLLECTOR_TRACEPOINTS])
				sources++;
			else if (i == RR_COLLECTOR_TRACEPOINTS && !on &&
				 o->collector[RR_COLLECTOR_TRACEPOINTS])
				sources--;
			o->collector[i] = on;
			continue;
		}
		otlp_set |= c > O_OTLP_ENDPOINT && c <= O_OTLP_INSECURE;
		switch (c) {
		case 'l':
			o->listen = optarg;
			break;
		case O_SYSTEMD:
			o->systemd_socket = true;
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
		case O_TELEMETRY:
			if (optarg[0] != '/' || !strcmp(optarg, "/") ||
			    !strcmp(optarg, "/stats.json")) {
				fprintf(stderr, "rpcrdma-exporter: --web.telemetry-path "
						"takes a path from / other than / and "
						"/stats.json, not '%s'\n", optarg);
				return -1;
			}
			o->telemetry_path = optarg;
			break;
		case O_MAX_REQUESTS:
			if (!rr_number_arg("rpcrdma-exporter", "--web.max-requests",
					   optarg, 0, 100000, false, &v))
				return -1;
			o->max_requests = (long)v;
			break;
		case O_NO_EXPORTER_METRICS:
			o->no_exporter_metrics = true;
			break;
		case O_OTLP_ENDPOINT:
			if (strncmp(optarg, "http://", 7) && strncmp(optarg, "https://", 8)) {
				fprintf(stderr, "rpcrdma-exporter: --otlp.endpoint takes an "
						"http:// or https:// URL, not '%s'\n", optarg);
				return -1;
			}
			o->otlp.endpoint = optarg;
			break;
		case O_OTLP_INTERVAL:
		case O_OTLP_TIMEOUT:
			if (!rr_number_arg("rpcrdma-exporter", c == O_OTLP_INTERVAL ?
					   "--otlp.interval" : "--otlp.timeout", optarg,
					   0.1, 86400, true, &v))
				return -1;
			*(c == O_OTLP_INTERVAL ? &o->otlp.interval_s : &o->otlp.timeout_s) = v;
			break;
		case O_OTLP_HEADER: {
			/* NAME=VALUE, as OTEL_EXPORTER_OTLP_HEADERS spells one */
			static char headers[RR_OTLP_MAX_HEADERS][512];
			const char *eq = strchr(optarg, '=');
			size_t name_len = eq ? (size_t)(eq - optarg) : 0;
			if (!name_len || strcspn(optarg, ": \t\r\n") < name_len ||
			    strpbrk(optarg, "\r\n") ||
			    o->otlp.nheaders == RR_OTLP_MAX_HEADERS ||
			    strlen(optarg) + 2 > sizeof(headers[0])) {
				fprintf(stderr, "rpcrdma-exporter: --otlp.header takes NAME=VALUE "
						"(a name without ':' or spaces, up to %d of them), "
						"not '%s'\n", RR_OTLP_MAX_HEADERS, optarg);
				return -1;
			}
			char *h = headers[o->otlp.nheaders];
			snprintf(h, sizeof(headers[0]), "%.*s: %s", (int)name_len, optarg, eq + 1);
			o->otlp.headers[o->otlp.nheaders++] = h;
			break;
		}
		case O_OTLP_COMPRESSION:
			if (strcmp(optarg, "gzip") && strcmp(optarg, "none")) {
				fprintf(stderr, "rpcrdma-exporter: --otlp.compression takes gzip "
						"or none, not '%s'\n", optarg);
				return -1;
			}
			o->otlp.gzip = !strcmp(optarg, "gzip");
			break;
		case O_OTLP_CA:
			o->otlp.ca_file = optarg;
			break;
		case O_OTLP_CERT:
			o->otlp.cert_file = optarg;
			break;
		case O_OTLP_KEY:
			o->otlp.key_file = optarg;
			break;
		case O_OTLP_INSECURE:
			o->otlp.insecure = true;
			break;
		case O_MOUNTSTATS:
			o->mountstats = optarg;
			break;
		case O_SVC:
			o->svc_rdma = optarg;
			break;
		case 'h':
			exporter_usage(stdout);
			exit(0);
		case 'V':
			print_versions();
			exit(0);
		default:
			return -1;
		}
	}
	if (!sources_agree(o, sources))
		return -1;
	if (otlp_set && !o->otlp.endpoint) {
		fprintf(stderr, "rpcrdma-exporter: the --otlp.* options need "
				"--otlp.endpoint URL\n");
		return -1;
	}
	if (!o->otlp.cert_file != !o->otlp.key_file) {
		fprintf(stderr, "rpcrdma-exporter: --otlp.tls.cert-file and "
				"--otlp.tls.key-file go together\n");
		return -1;
	}
	if (o->otlp.endpoint && !rr_otlp_push_available()) {
		fprintf(stderr, "rpcrdma-exporter: this build has no libcurl, so it cannot "
				"push (--otlp.endpoint): apt-get install libcurl4-gnutls-dev, "
				"then build again\n");
		return -1;
	}
	if (o->systemd_socket && o->listen) {
		fprintf(stderr, "rpcrdma-exporter: --web.systemd-socket serves on "
				"systemd's socket: leave out -l\n");
		return -1;
	}
	if (optind < argc && !o->collector[RR_COLLECTOR_PACKETS]) {
		fprintf(stderr, "rpcrdma-exporter: a filter expression needs frames "
				"to filter (-i or -r)\n");
		return -1;
	}
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
