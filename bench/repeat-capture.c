/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A large capture made of small real ones: the input captures (RoCEv2 over
 * IPv4, as the lab's Soft-RoCE captures of Linux NFS/RDMA) written N times
 * one after the other, each repetition between hosts of its own, so that
 * every repetition's QPs are new connections to an analyzer:
 *   - the IPv4 addresses of RoCEv2 packets become I.R.R.h (I 10 plus the
 *     input's number, R the repetition, h the address's last byte; each
 *     input a run of its own, perhaps with the same QPNs), their header
 *     checksum redone and the UDP checksum cleared (RFC 768: zero is none);
 *   - IB CM communication IDs (IBA vol. 1 §12.6: the first words of a CM
 *     message's data, as libdissect decoded them) are changed per repetition, so that no REP or DREQ
 *     names an earlier repetition's connection;
 *   - the ICRC is computed again (IBA annex A17.3.3 covers the addresses);
 *   - timestamps move on by the inputs' duration plus one second.
 * Frames that are not RoCEv2 over IPv4 are written unchanged.
 * usage: repeat-capture -n N -o OUT IN...
 */
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rpcrdma/dissect.h>
#include <rpcrdma/encode.h>

struct packet {
	struct pcap_pkthdr h;
	uint8_t *data;
	uint8_t input;
};

static struct packet *packets;
static size_t npackets, cap_packets;
static int linktype = -1;

static void usage(void)
{
	fprintf(stderr, "usage: repeat-capture -n N -o OUT IN...\n");
	exit(2);
}

static void load(const char *path, uint8_t input)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(path, err);
	if (!p) {
		fprintf(stderr, "repeat-capture: %s\n", err);
		exit(1);
	}
	if (linktype < 0)
		linktype = pcap_datalink(p);
	if (pcap_datalink(p) != linktype) {
		fprintf(stderr, "repeat-capture: %s: link type differs\n", path);
		exit(1);
	}
	struct pcap_pkthdr *h;
	const u_char *d;
	int rc;
	while ((rc = pcap_next_ex(p, &h, &d)) == 1) {
		if (npackets == cap_packets) {
			cap_packets = cap_packets ? cap_packets * 2 : 4096;
			packets = realloc(packets, cap_packets * sizeof(*packets));
			if (!packets) {
				perror("repeat-capture");
				exit(1);
			}
		}
		struct packet *k = &packets[npackets++];
		k->h = *h;
		k->input = input;
		k->data = malloc(h->caplen);
		if (!k->data) {
			perror("repeat-capture");
			exit(1);
		}
		memcpy(k->data, d, h->caplen);
	}
	if (rc == -1) {
		fprintf(stderr, "repeat-capture: %s: %s\n", path, pcap_geterr(p));
		exit(1);
	}
	pcap_close(p);
}

static uint64_t usec(const struct timeval *t)
{
	return (uint64_t)t->tv_sec * 1000000u + (uint64_t)t->tv_usec;
}

/* A communication ID of repetition r, written at p: nonzero stays
 * nonzero and differs from the other repetitions'. */
static void comm_id_put(uint8_t *p, uint32_t id, uint32_t r)
{
	if (!id)
		return;
	uint32_t be = htonl(id ^ (r << 20 | r >> 12));
	memcpy(p, &be, 4);
}

static void rewrite(const struct rr_config *cfg, uint8_t *d, uint32_t caplen,
		    uint32_t wirelen, uint8_t input, uint32_t r)
{
	struct rr_frame f;
	if (!rr_decode_frame(cfg, (uint32_t)linktype, d, caplen, wirelen, NULL, &f))
		return;
	if (f.transport != RR_TRANSPORT_ROCEV2 ||
	    !(f.present & (1u << RR_LAYER_IPV4)) ||
	    !(f.present & (1u << RR_LAYER_UDP)))
		return;
	for (uint32_t a = 0; a < 2; a++) {
		uint8_t *addr = d + (a ? f.ip.dst_off : f.ip.src_off);
		addr[0] = (uint8_t)(10 + input);
		addr[1] = (uint8_t)(r >> 8);
		addr[2] = (uint8_t)r;
	}
	memset(d + f.ip.off + 10, 0, 2);
	uint16_t sum = htons(rr_ipv4_header_checksum(d + f.ip.off, f.ip.hdr_len));
	memcpy(d + f.ip.off + 10, &sum, 2);
	memset(d + f.udp.off + 6, 0, 2);
	if ((f.present & (1u << RR_LAYER_CM)) && f.mad.off + 32 <= caplen) {
		uint8_t *cm = d + f.mad.off + 24;   /* the MAD's data */
		comm_id_put(cm, f.cm.local_comm_id, r + 1);
		if (f.cm.attr_id != RR_CM_REQ)       /* REQ: reserved */
			comm_id_put(cm + 4, f.cm.remote_comm_id, r + 1);
	}
	if (f.icrc.state != RR_CRC_ABSENT) {
		/* little-endian on the wire, as the decoder reads it */
		uint32_t icrc = htole32(rr_icrc_compute(f.transport, d + f.ip.off,
							f.icrc.off - f.ip.off));
		memcpy(d + f.icrc.off, &icrc, 4);
	}
}

int main(int argc, char **argv)
{
	long n = 0;
	const char *out = NULL;
	int opt;
	while ((opt = getopt(argc, argv, "n:o:")) != -1) {
		if (opt == 'n')
			n = strtol(optarg, NULL, 10);
		else if (opt == 'o')
			out = optarg;
		else
			usage();
	}
	if (n <= 0 || n > 65535 || !out || optind == argc)
		usage();
	if (argc - optind > 100)
		usage();
	for (int i = optind; i < argc; i++)
		load(argv[i], (uint8_t)(i - optind));
	if (!npackets) {
		fprintf(stderr, "repeat-capture: no packets\n");
		return 1;
	}
	uint64_t first = usec(&packets[0].h.ts), last = first;
	for (size_t i = 0; i < npackets; i++)
		if (usec(&packets[i].h.ts) > last)
			last = usec(&packets[i].h.ts);
	/* inputs one after the other, then each repetition after the last */
	uint64_t span = last - first + 1000000u;

	pcap_t *dead = pcap_open_dead(linktype, 262144);
	pcap_dumper_t *w = dead ? pcap_dump_open(dead, out) : NULL;
	if (!w) {
		fprintf(stderr, "repeat-capture: %s: %s\n", out,
			dead ? pcap_geterr(dead) : strerror(errno));
		return 1;
	}
	struct rr_config cfg;
	rr_config_init(&cfg);
	uint8_t *buf = malloc(262144);
	if (!buf) {
		perror("repeat-capture");
		return 1;
	}
	uint64_t written = 0;
	for (uint32_t r = 0; r < (uint32_t)n; r++)
		for (size_t i = 0; i < npackets; i++) {
			struct pcap_pkthdr h = packets[i].h;
			uint32_t len = h.caplen < 262144 ? h.caplen : 262144;
			memcpy(buf, packets[i].data, len);
			rewrite(&cfg, buf, len, h.len, packets[i].input, r);
			uint64_t t = usec(&h.ts) + r * span;
			h.ts.tv_sec = (time_t)(t / 1000000u);
			h.ts.tv_usec = (suseconds_t)(t % 1000000u);
			h.caplen = len;
			pcap_dump((u_char *)w, &h, buf);
			written++;
		}
	if (pcap_dump_flush(w) == -1) {
		fprintf(stderr, "repeat-capture: %s: write failed\n", out);
		return 1;
	}
	pcap_dump_close(w);
	pcap_close(dead);
	fprintf(stderr, "repeat-capture: %llu frames, %ld repetitions of %zu\n",
		(unsigned long long)written, n, npackets);
	for (size_t i = 0; i < npackets; i++)
		free(packets[i].data);
	free(packets);
	free(buf);
	return 0;
}
