/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sends a capture's frames on an interface, in order, as fast as it can or
 * at a given rate: what tcpreplay does, with the frames read into memory
 * first and sent 64 at a time by sendmmsg(2) on a packet socket that skips
 * the queueing discipline (PACKET_QDISC_BYPASS), so that a veth pair is fed
 * faster than tcpreplay's one send a frame goes.  Prints the frames sent,
 * the seconds taken and the rate reached.
 * usage: feed-veth [-p PPS] [-l LOOPS] IFACE FILE
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { BATCH = 64 };

struct frame {
	size_t len;
	unsigned char *data;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int usage(void)
{
	fprintf(stderr, "usage: feed-veth [-p PPS] [-l LOOPS] IFACE FILE\n");
	return 2;
}

int main(int argc, char **argv)
{
	double pps = 0;
	unsigned long loops = 1;
	int opt;
	while ((opt = getopt(argc, argv, "p:l:")) != -1) {
		char *end;
		if (opt == 'p')
			pps = strtod(optarg, &end);
		else if (opt == 'l')
			loops = strtoul(optarg, &end, 10);
		else
			return usage();
		if (*end || pps < 0 || !loops)
			return usage();
	}
	if (argc - optind != 2)
		return usage();
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *in = pcap_open_offline(argv[optind + 1], err);
	if (!in) {
		fprintf(stderr, "feed-veth: %s\n", err);
		return 1;
	}
	if (pcap_datalink(in) != DLT_EN10MB) {
		fprintf(stderr, "feed-veth: %s: not Ethernet\n", argv[optind + 1]);
		return 1;
	}
	struct frame *frames = NULL;
	size_t n = 0, cap = 0;
	struct pcap_pkthdr *h;
	const unsigned char *data;
	while (pcap_next_ex(in, &h, &data) == 1) {
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			struct frame *more = realloc(frames, cap * sizeof(*frames));
			if (!more)
				return 1;
			frames = more;
		}
		frames[n].len = h->caplen;
		frames[n].data = malloc(h->caplen);
		if (!frames[n].data)
			return 1;
		memcpy(frames[n].data, data, h->caplen);
		n++;
	}
	pcap_close(in);

	int fd = socket(AF_PACKET, SOCK_RAW, 0);
	int one = 1;
	struct sockaddr_ll ll = { .sll_family = AF_PACKET,
				  .sll_ifindex = (int)if_nametoindex(argv[optind]) };
	if (fd < 0 || !ll.sll_ifindex ||
	    setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&ll, sizeof(ll))) {
		fprintf(stderr, "feed-veth: %s: %s\n", argv[optind], strerror(errno));
		return 1;
	}
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	unsigned long long sent = 0, total = (unsigned long long)n * loops;
	double t0 = now();
	for (unsigned long long i = 0; i < total;) {
		unsigned k = 0;
		for (; k < BATCH && i + k < total; k++) {
			const struct frame *f = &frames[(i + k) % n];
			iov[k] = (struct iovec){ f->data, f->len };
			msgs[k] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[k], .msg_iovlen = 1 } };
		}
		if (pps > 0) { /* the batch leaves when the rate allows it */
			double due = t0 + (double)i / pps;
			double wait = due - now();
			if (wait > 0)
				nanosleep(&(struct timespec){ (time_t)wait,
							      (long)((wait - (double)(time_t)wait) * 1e9) },
					  NULL);
		}
		int r = sendmmsg(fd, msgs, k, 0);
		if (r < 0) {
			if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR)
				continue; /* the device's queue is full: again */
			fprintf(stderr, "feed-veth: sendmmsg: %s\n", strerror(errno));
			return 1;
		}
		i += (unsigned)r;
		sent += (unsigned)r;
	}
	double s = now() - t0;
	printf("feed-veth: %llu frames in %.3f s: %.0f frames/s\n", sent, s, s > 0 ? (double)sent / s : 0);
	for (size_t i = 0; i < n; i++)
		free(frames[i].data);
	free(frames);
	close(fd);
	return 0;
}
