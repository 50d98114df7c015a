/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-peer: generate real RPC-over-RDMA v1 traffic.
 *
 *   rpcrdma-peer pcap -o FILE [options]     both ends, frames to a capture
 *   rpcrdma-peer server [-t udp|tcp] ...    the responder
 *   rpcrdma-peer client [-t udp|tcp] ...    the requester
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "mount.h"
#include "xport_net.h"
#include "xport_pcap.h"
#include "version.h"

enum { EXIT_USAGE = 1, EXIT_FAIL = 2 };

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(FILE *to)
{
	fprintf(to,
"usage: rpcrdma-peer pcap -o FILE [options]\n"
"       rpcrdma-peer image -o FILE\n"
"       rpcrdma-peer server [-t udp|tcp|verbs] [options]\n"
"       rpcrdma-peer client [-t udp|tcp|verbs] [options]\n"
"\n"
"  -t, --transport T     udp (software RoCEv2, default), tcp (software\n"
"                        iWARP), verbs (rdma-core); pcap mode is its own\n"
"  -o, --output FILE     capture file to write (pcap mode); image mode:\n"
"                        the file READ replies are checked against\n"
"  -s, --scenario NAME   what the client runs (default mixed; 'list')\n"
"  -n, --calls N         forward calls the client makes (default 64)\n"
"  -r, --rate N          calls per second (default: as credits allow)\n"
"  -c, --credits N       credits requested (client, 128) or granted\n"
"                        (server, 64)\n"
"      --vary-credits    server: halve the grant every other 16 replies\n"
"      --reply-delay MS  server: answer each call MS milliseconds late (a\n"
"                        slow server)\n"
"      --inline-send B   inline send size advertised (default 4096)\n"
"      --inline-recv B   inline receive size advertised (default 4096)\n"
"      --no-rinval       advertise R=0 (no remote invalidation; always\n"
"                        over verbs, whose plain MRs cannot be invalidated)\n"
"      --no-private-data send no RFC 8797 private data\n"
"      --reliable-reply  allow responder-provided read chunks and RDMA_DONE\n"
"      --no-backchannel  server: send no backward-direction calls\n"
"  -m, --mtu B           path MTU, 256 to 4096 (default 1024)\n"
"      --io-size B       bytes per READ (WRITE sends 2192 fewer; default 8192)\n"
"  -l, --local ADDR      address to bind (client 127.0.0.1, server 127.0.0.2\n"
"                        for udp, 127.0.0.1 for tcp)\n"
"  -a, --remote ADDR     the server's address (client)\n"
"      --mount EXPORT    client: real file handles, EXPORT's from the\n"
"                        server's MOUNT service and its file data.bin's\n"
"                        (NFSv3 LOOKUP), over TCP; data.bin must hold\n"
"                        what image mode writes\n"
"  -p, --port N          UDP port (4791) or TCP port (20049)\n"
"      --markers         tcp: negotiate and send MPA markers\n"
"      --no-crc          tcp: do not negotiate MPA CRCs\n"
"      --mpa-rev N       tcp: MPA revision 1 (RFC 5044) or 2 (RFC 6581, default)\n"
"      --no-align        tcp: let TCP pack FPDUs freely (faster; FPDUs may\n"
"                        straddle segments, which tshark cannot reassemble)\n"
"      --drop PCT        drop this share of outgoing datagrams (udp test)\n"
"      --fault NAME      inject one protocol violation ('list'); repeatable\n"
"      --timeout S       give up after S seconds without progress (10);\n"
"                        also the bound on --mount's calls and on the verbs\n"
"                        client's address and route resolution\n"
"  -q, --quiet           no summary\n"
"  -v, --verbose         say what goes wrong as it happens\n"
"  -h, --help            this text\n"
"  -V, --version         the versions (alone)\n");
}

static int list_scenarios(void)
{
	for (const struct scenario *s = scenarios; s->name; s++)
		printf("%-15s %s\n", s->name, s->what);
	return 0;
}

static int list_faults(void)
{
	for (unsigned i = 0; i < FAULT_COUNT; i++)
		printf("%-24s %s\n", fault_name(i), fault_what(i));
	return 0;
}

/* Which side commits each fault. */
static bool fault_is_server(unsigned f)
{
	return f == FAULT_ZERO_CREDIT || f == FAULT_WRITE_BEYOND ||
	       f == FAULT_WRITE_WRONG_STAG || f == FAULT_RNR_STORM ||
	       f == FAULT_SWI_WITHOUT_R || f == FAULT_BC_CHUNKS;
}

struct opts {
	const char *mode, *transport, *output, *local, *remote, *mount;
	struct peer_config cfg;
	uint16_t port;
	bool markers, no_crc, quiet, no_align;
	uint8_t mpa_rev;
	double drop;
	int timeout_s;
	uint32_t faults;
};

static bool parse_u32(const char *s, uint32_t lo, uint32_t hi, uint32_t *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || end == s || v < lo || v > hi)
		return false;
	*out = (uint32_t)v;
	return true;
}

static int parse(int argc, char **argv, struct opts *o)
{
	enum { O_VARY = 256, O_DELAY, O_ISEND, O_IRECV, O_NORINVAL, O_NOPD, O_RRC,
	       O_NOBC, O_IOSIZE, O_MARKERS, O_NOCRC, O_DROP, O_FAULT,
	       O_TIMEOUT, O_MPAREV, O_NOALIGN, O_MOUNT };
	static const struct option lo[] = {
		{ "transport", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "scenario", required_argument, NULL, 's' },
		{ "calls", required_argument, NULL, 'n' },
		{ "rate", required_argument, NULL, 'r' },
		{ "credits", required_argument, NULL, 'c' },
		{ "vary-credits", no_argument, NULL, O_VARY },
		{ "reply-delay", required_argument, NULL, O_DELAY },
		{ "inline-send", required_argument, NULL, O_ISEND },
		{ "inline-recv", required_argument, NULL, O_IRECV },
		{ "no-rinval", no_argument, NULL, O_NORINVAL },
		{ "no-private-data", no_argument, NULL, O_NOPD },
		{ "reliable-reply", no_argument, NULL, O_RRC },
		{ "no-backchannel", no_argument, NULL, O_NOBC },
		{ "mtu", required_argument, NULL, 'm' },
		{ "io-size", required_argument, NULL, O_IOSIZE },
		{ "local", required_argument, NULL, 'l' },
		{ "remote", required_argument, NULL, 'a' },
		{ "port", required_argument, NULL, 'p' },
		{ "markers", no_argument, NULL, O_MARKERS },
		{ "no-crc", no_argument, NULL, O_NOCRC },
		{ "mpa-rev", required_argument, NULL, O_MPAREV },
		{ "no-align", no_argument, NULL, O_NOALIGN },
		{ "drop", required_argument, NULL, O_DROP },
		{ "fault", required_argument, NULL, O_FAULT },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "mount", required_argument, NULL, O_MOUNT },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "-h") ||
				  !strcmp(argv[1], "--help"))) {
			usage(stdout);
			exit(0);
		}
		if (argc >= 2 && (!strcmp(argv[1], "-V") ||
				  !strcmp(argv[1], "--version"))) {
			rr_print_version("rpcrdma-peer", NULL);
			exit(0);
		}
		fprintf(stderr, "rpcrdma-peer: say pcap, server or client first\n");
		return -1;
	}
	o->mode = argv[1];
	bool client = !strcmp(o->mode, "client") || !strcmp(o->mode, "pcap") ||
		      !strcmp(o->mode, "image");
	if (!client && strcmp(o->mode, "server")) {
		fprintf(stderr, "rpcrdma-peer: unknown mode '%s'\n", o->mode);
		return -1;
	}
	peer_config_defaults(&o->cfg, client);
	o->transport = !strcmp(o->mode, "pcap") ? "pcap" : "udp";
	o->timeout_s = 10;
	optind = 2;
	int c;
	uint32_t v;
	while ((c = getopt_long(argc, argv, "t:o:s:n:r:c:m:l:a:p:qvh", lo,
				NULL)) != -1) {
		switch (c) {
		case 't': o->transport = optarg; break;
		case 'o': o->output = optarg; break;
		case 's':
			if (!strcmp(optarg, "list"))
				exit(list_scenarios());
			if (!scenario_find(optarg)) {
				fprintf(stderr, "rpcrdma-peer: unknown scenario "
						"'%s' (see --scenario list)\n",
					optarg);
				return -1;
			}
			o->cfg.scenario = optarg;
			break;
		case 'n':
			if (!parse_u32(optarg, 1, 100000000, &o->cfg.calls))
				goto bad;
			break;
		case 'r':
			if (!parse_u32(optarg, 1, 10000000, &o->cfg.rate))
				goto bad;
			break;
		case 'c':
			if (!parse_u32(optarg, 1, 65535, &o->cfg.credits))
				goto bad;
			break;
		case O_VARY: o->cfg.vary_credits = true; break;
		case O_DELAY:
			if (!parse_u32(optarg, 1, 60000, &o->cfg.reply_delay_ms))
				goto bad;
			break;
		case O_ISEND:
			if (!parse_u32(optarg, 1024, 262144, &o->cfg.inline_send))
				goto bad;
			break;
		case O_IRECV:
			if (!parse_u32(optarg, 1024, 262144, &o->cfg.inline_recv))
				goto bad;
			break;
		case O_NORINVAL: o->cfg.rinval = false; break;
		case O_NOPD: o->cfg.send_private = false; break;
		case O_RRC: o->cfg.reliable_reply = true; break;
		case O_NOBC: o->cfg.backchannel = false; break;
		case 'm':
			if (!parse_u32(optarg, 256, 4096, &v) || (v & (v - 1)))
				goto bad;
			o->cfg.mtu = v;
			break;
		case O_IOSIZE:
			if (!parse_u32(optarg, 4096, 1 << 20, &o->cfg.io_size))
				goto bad;
			break;
		case 'l': o->local = optarg; break;
		case 'a': o->remote = optarg; break;
		case 'p':
			if (!parse_u32(optarg, 1, 65535, &v))
				goto bad;
			o->port = (uint16_t)v;
			break;
		case O_MARKERS: o->markers = true; break;
		case O_NOCRC: o->no_crc = true; break;
		case O_NOALIGN: o->no_align = true; break;
		case O_MPAREV:
			if (!parse_u32(optarg, 1, 2, &v))
				goto bad;
			o->mpa_rev = (uint8_t)v;
			break;
		case O_DROP: {
			char *end;
			o->drop = strtod(optarg, &end);
			if (*end || o->drop < 0 || o->drop > 50)
				goto bad;
			break;
		}
		case O_FAULT: {
			if (!strcmp(optarg, "list"))
				exit(list_faults());
			int f = fault_by_name(optarg);
			if (f < 0) {
				fprintf(stderr, "rpcrdma-peer: unknown fault '%s' "
						"(see --fault list)\n", optarg);
				return -1;
			}
			o->faults |= 1u << f;
			break;
		}
		case O_TIMEOUT:
			if (!parse_u32(optarg, 1, 3600, &v))
				goto bad;
			o->timeout_s = (int)v;
			break;
		case O_MOUNT: o->mount = optarg; break;
		case 'q': o->quiet = true; break;
		case 'v': o->cfg.verbose++; break;
		case 'h': usage(stdout); exit(0);
		default: return -1;
		}
		continue;
bad:
		fprintf(stderr, "rpcrdma-peer: bad value '%s' for -%c%s\n",
			optarg, c < 256 ? c : '-', c < 256 ? "" : "-");
		return -1;
	}
	if (optind < argc) {
		fprintf(stderr, "rpcrdma-peer: unexpected argument '%s'\n",
			argv[optind]);
		return -1;
	}
	if ((!strcmp(o->mode, "pcap") || !strcmp(o->mode, "image")) && !o->output) {
		fprintf(stderr, "rpcrdma-peer: %s mode needs -o FILE\n", o->mode);
		return -1;
	}
	if (o->mount && (strcmp(o->mode, "client") || !o->remote)) {
		fprintf(stderr, "rpcrdma-peer: --mount is for a client with -a ADDR\n");
		return -1;
	}
	if (strcmp(o->transport, "udp") && strcmp(o->transport, "tcp") &&
	    strcmp(o->transport, "verbs") && strcmp(o->transport, "pcap")) {
		fprintf(stderr, "rpcrdma-peer: unknown transport '%s'\n",
			o->transport);
		return -1;
	}
	/* Over verbs the chunks are registered with ibv_reg_mr, whose keys a
	 * peer cannot invalidate (only memory windows and fast-registered
	 * MRs can be): R=1 would invite Send With Invalidate that the device
	 * fails, and the QP with it (RFC 8797 section 4.1). */
	if (!strcmp(o->transport, "verbs"))
		o->cfg.rinval = false;
	return 0;
}

static uint32_t side_faults(uint32_t faults, bool server)
{
	uint32_t out = 0;
	for (unsigned f = 0; f < FAULT_COUNT; f++)
		if ((faults >> f & 1u) && fault_is_server(f) == server)
			out |= 1u << f;
	return out;
}

static int finish(struct engine *e, const struct opts *o, uint64_t t0)
{
	double secs = (double)(now_ms() - t0) / 1000.0;
	if (!o->quiet)
		engine_print_summary(e, stdout, secs);
	const char *why = engine_failure(e);
	if (why) {
		fprintf(stderr, "rpcrdma-peer: FAILED: %s\n", why);
		return EXIT_FAIL;
	}
	return 0;
}

static int run_pcap(struct opts *o)
{
	struct peer_config ccfg = o->cfg, scfg = o->cfg;
	ccfg.requester = true;
	scfg.requester = false;
	/* the same options make the same file */
	ccfg.xid_seed = 0x5a170001;
	scfg.credits = 64;
	ccfg.faults = side_faults(o->faults, false);
	scfg.faults = side_faults(o->faults, true);
	uint8_t cpd[8], spd[8];
	uint32_t cn = peer_private_data(&ccfg, cpd);
	uint32_t sn = peer_private_data(&scfg, spd);
	struct xport *cx, *sx;
	char err[256];
	struct pcap_wire *w = pcap_wire_open(o->output, o->cfg.mtu, cpd, cn,
					     spd, sn, &cx, &sx, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "rpcrdma-peer: %s\n", err);
		return EXIT_FAIL;
	}
	struct engine *c = engine_new(&ccfg, cx, cx->peer_pd, cx->peer_pd_len);
	struct engine *s = engine_new(&scfg, sx, sx->peer_pd, sx->peer_pd_len);
	if (!c || !s) {
		fprintf(stderr, "rpcrdma-peer: out of memory\n");
		return EXIT_FAIL;
	}
	uint64_t t0 = now_ms();
	struct xev ev;
	while (!stop) {
		engine_kick(c, now_ms());
		/* one event each in turn, as two hosts would interleave */
		bool progress = false;
		if (cx->ops->poll(cx, 0, &ev) == 1) {
			engine_event(c, &ev);
			progress = true;
		}
		if (sx->ops->poll(sx, 0, &ev) == 1) {
			engine_event(s, &ev);
			progress = true;
		}
		engine_tick(s, now_ms());
		if (engine_done(c) && engine_quiet(s) && !pcap_wire_busy(w))
			break;
		if (!progress && !pcap_wire_busy(w) && !pcap_wire_wait(w)) {
			fprintf(stderr, "rpcrdma-peer: the exchange stalled\n");
			break;
		}
	}
	int rc = finish(c, o, t0);
	if (!o->quiet)
		printf("frames written: %llu\n",
		       (unsigned long long)pcap_wire_frames(w));
	pcap_wire_close(w);
	engine_free(c);
	engine_free(s);
	return rc;
}

/* One side of a network transport: poll, feed the engine, until done. */
static int run_net(struct opts *o)
{
	bool server = !strcmp(o->mode, "server");
	struct peer_config cfg = o->cfg;
	cfg.faults = side_faults(o->faults, server);
	struct pe_handles handles;
	if (o->mount) {
		char why[256];
		if (!pe_mount(o->remote, o->mount, PE_FILE_NAME,
			      (unsigned)o->timeout_s, &handles, why,
			      sizeof(why))) {
			fprintf(stderr, "rpcrdma-peer: --mount %s: %s\n", o->mount, why);
			return EXIT_FAIL;
		}
		cfg.handles = &handles;
	}
	uint8_t pd[8];
	uint32_t pdn = peer_private_data(&cfg, pd);
	struct net_opts no = {
		.tcp = !strcmp(o->transport, "tcp"),
		.server = server,
		.local = o->local,
		.remote = o->remote,
		.port = o->port,
		.mtu = cfg.mtu,
		.markers = o->markers,
		.crc = !o->no_crc,
		.mpa_rev = o->mpa_rev,
		.align_fpdus = !o->no_align,
		.drop_pct = o->drop,
		.timeout_ms = (uint32_t)o->timeout_s * 1000u,
		.pd = pd,
		.pd_len = pdn,
	};
	char err[256];
	struct xport *x = !strcmp(o->transport, "verbs") ?
				  verbs_connect(&no, err, sizeof(err)) :
				  net_connect(&no, err, sizeof(err));
	if (!x) {
		fprintf(stderr, "rpcrdma-peer: %s\n", err);
		return EXIT_FAIL;
	}
	struct engine *e = engine_new(&cfg, x, x->peer_pd, x->peer_pd_len);
	if (!e) {
		fprintf(stderr, "rpcrdma-peer: out of memory\n");
		return EXIT_FAIL;
	}
	uint64_t t0 = now_ms(), last = now_ms();
	struct xev ev;
	int rc = 0;
	while (!stop) {
		uint64_t now = now_ms();
		engine_kick(e, now);
		int got = x->ops->poll(x, 5, &ev);
		if (got < 0)
			break;
		if (got == 1) {
			engine_event(e, &ev);
			free(ev.data);
			last = now_ms();
			while (x->ops->poll(x, 0, &ev) == 1) {
				engine_event(e, &ev);
				free(ev.data);
			}
		}
		net_tick(x, now_ms());
		engine_tick(e, now_ms());
		if (server ? engine_done(e) :
			     (engine_done(e) && net_idle(x)))
			break;
		if (now_ms() - last > no.timeout_ms) {
			fprintf(stderr, "rpcrdma-peer: no progress for %d s; "
					"giving up\n", o->timeout_s);
			rc = EXIT_FAIL;
			break;
		}
	}
	if (!server)
		x->ops->disconnect(x);
	/* the server's run succeeds when the client came and went */
	int frc = server ? 0 : finish(e, o, t0);
	if (server && !o->quiet)
		engine_print_summary(e, stdout, (double)(now_ms() - t0) / 1000.0);
	x->ops->destroy(x);
	engine_free(e);
	return rc ? rc : frc;
}

/* The file a client's READs expect: what a real server's data.bin holds. */
static int write_image(const struct opts *o)
{
	uint32_t size;
	const uint8_t *image = peer_file_image(&size);
	FILE *f = fopen(o->output, "wb");
	if (!f || fwrite(image, 1, size, f) != size || fclose(f) != 0) {
		fprintf(stderr, "rpcrdma-peer: %s: %s\n", o->output, strerror(errno));
		return EXIT_FAIL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	memset(&o, 0, sizeof(o));
	if (parse(argc, argv, &o) < 0) {
		usage(stderr);
		return EXIT_USAGE;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	o.cfg.faults = o.faults;
	if (!strcmp(o.mode, "pcap"))
		return run_pcap(&o);
	if (!strcmp(o.mode, "image"))
		return write_image(&o);
	return run_net(&o);
}
