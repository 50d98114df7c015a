/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The analyzer's cost per frame when every RPC comes on a connection of its
 * own (a flood of new QPs, as a hostile or broken peer makes), against the
 * same frames on one connection: RoCEv2 SEND ONLY packets, an RDMA_MSG NFS
 * NULL call and its reply, with the default limits (so that connections and
 * calls are evicted all along).  Frames are made in batches outside the
 * timing; the ICRC is left unchecked in both runs.  Each figure is the
 * best of three runs.
 * usage: conn-flood [RPCS]   (default 1,000,000: 2,000,000 frames)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rpcrdma/analyzer.h>
#include <rpcrdma/encode.h>

#define BATCH 4096  /* RPCs per batch: two frames each */
#define RUNS 3
#define FRAME_MAX 160

static uint8_t frames[2 * BATCH][FRAME_MAX];
static uint32_t lens[2 * BATCH];

/* One SEND ONLY from `from` to QP dqpn carrying an RPC-over-RDMA message. */
static uint32_t packet(uint8_t *out, const struct rr_endpoints *ep, uint32_t dqpn,
		       uint32_t psn, uint32_t xid, bool call)
{
	uint8_t msg[96], ib[128];
	struct rr_buf m, b, f;
	rr_buf_init(&m, msg, sizeof(msg));
	struct rr_rpcrdma h = { .xid = xid, .vers = 1, .credits = 64,
				.proc = RR_RDMA_MSG };
	rr_rpcrdma_encode(&m, &h);
	struct rr_rpc r = { .xid = xid, .msg_type = call ? RR_RPC_CALL : RR_RPC_REPLY,
			    .rpcvers = 2, .prog = RR_PROG_NFS, .vers = 3,
			    .proc = 0 };
	rr_rpc_encode(&m, &r, NULL, NULL);
	struct rr_bth bth = { .opcode = RR_OP_RC_SEND_ONLY, .pkey = 0xffff,
			      .dqpn = dqpn, .psn = psn };
	rr_buf_init(&b, ib, sizeof(ib));
	rr_ib_encode(&b, &bth, NULL, msg, m.len);
	rr_buf_init(&f, out, FRAME_MAX);
	if (!rr_frame_rocev2(&f, ep, ib, b.len)) {
		fprintf(stderr, "conn-flood: frame does not fit\n");
		exit(1);
	}
	return (uint32_t)f.len;
}

/* ns per frame over rpcs call/reply pairs; flood: each on new QPs */
static double run(uint32_t rpcs, bool flood, struct rr_stats *out)
{
	struct rr_config cfg;
	rr_config_init(&cfg);
	cfg.flags &= ~(uint32_t)RR_CFG_VERIFY_ICRC;
	struct rr_analyzer *a = rr_analyzer_new(&cfg, NULL);
	if (!a) {
		fprintf(stderr, "conn-flood: out of memory\n");
		exit(1);
	}
	struct rr_endpoints req = { .ip_version = 4, .src_port = 49152,
				    .dst_port = 4791, .ttl = 64 };
	struct rr_endpoints rsp = req;
	memcpy(req.src_ip, (uint8_t[]){ 192, 0, 2, 2 }, 4);
	memcpy(req.dst_ip, (uint8_t[]){ 192, 0, 2, 1 }, 4);
	memcpy(rsp.src_ip, req.dst_ip, 4);
	memcpy(rsp.dst_ip, req.src_ip, 4);
	double ns = 0;
	uint64_t ts = 1000000000ull;
	for (uint32_t done = 0; done < rpcs;) {
		uint32_t n = rpcs - done < BATCH ? rpcs - done : BATCH;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t k = done + i;
			/* QPNs are 24 bits: a million connections fit */
			uint32_t rq = flood ? 0x100000 + (k & 0x7fffff) : 0x11;
			uint32_t rs = flood ? 0x900000 + (k & 0x7fffff) % 0x6fffff : 0x22;
			uint32_t psn = flood ? 0 : k;
			lens[2 * i] = packet(frames[2 * i], &req, rs, psn, k, true);
			lens[2 * i + 1] = packet(frames[2 * i + 1], &rsp, rq, psn, k, false);
		}
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (uint32_t i = 0; i < 2 * n; i++) {
			ts += 1000;
			rr_analyzer_frame(a, RR_LINK_ETHERNET, ts, frames[i], lens[i], lens[i]);
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ns += (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
		done += n;
	}
	*out = *rr_analyzer_stats(a);
	rr_analyzer_free(a);
	return ns / (2.0 * rpcs);
}

int main(int argc, char **argv)
{
	uint32_t rpcs = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 1000000;
	static struct rr_stats one, many;
	/* the best of RUNS each, alternating: a busy machine's noise is
	 * larger than the difference measured */
	double t1 = 0, tn = 0;
	for (int i = 0; i < RUNS; i++) {
		double a = run(rpcs, false, &one), b = run(rpcs, true, &many);
		t1 = i == 0 || a < t1 ? a : t1;
		tn = i == 0 || b < tn ? b : tn;
	}
	printf("one connection:          %8.1f ns/frame  (calls %llu, replies %llu)\n", t1,
	       (unsigned long long)one.total.calls, (unsigned long long)one.total.replies);
	printf("a new QP for every RPC:  %8.1f ns/frame  (calls %llu, replies %llu, "
	       "connections %llu, evicted %llu)\n", tn,
	       (unsigned long long)many.total.calls, (unsigned long long)many.total.replies,
	       (unsigned long long)many.connections,
	       (unsigned long long)many.connections_evicted);
	printf("ratio: %.2f (target: at most 2)\n", tn / t1);
	return 0;
}
