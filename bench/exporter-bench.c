/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Time and memory to render /metrics for an analyzer holding N
 * connections (default 10,000), each with calls answered on it: the
 * default series cap (100 connections with series of their own, the rest
 * summed) and every connection with its own series.  Best of several
 * renders; memory is the text's size and the analyzer's allocation.
 * usage: exporter-bench [N]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rpcrdma/analyzer.h>
#include <rpcrdma/encode.h>

#include "rr_prom.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* An RDMA_MSG carrying an NFSv3 call or its reply, as one RoCEv2 SEND. */
static size_t message(uint8_t *frame, size_t size, const struct rr_endpoints *ep,
		      uint32_t dqpn, uint32_t psn, uint32_t xid, bool reply)
{
	uint8_t msg[256], ib[320];
	struct rr_buf b;
	rr_buf_init(&b, msg, sizeof(msg));
	struct rr_rpcrdma h = { .xid = xid, .vers = 1, .credits = 32,
				.proc = RR_RDMA_MSG };
	rr_rpcrdma_encode(&b, &h);
	struct rr_rpc r = { .xid = xid, .msg_type = reply ? RR_RPC_REPLY : RR_RPC_CALL,
			    .rpcvers = 2, .prog = 100003, .vers = 3, .proc = 1 };
	rr_rpc_encode(&b, &r, NULL, NULL);
	rr_put_be32(&b, 0);
	struct rr_buf ibb;
	rr_buf_init(&ibb, ib, sizeof(ib));
	struct rr_bth bth = { .opcode = RR_OP_RC_SEND_ONLY, .pkey = 0xFFFF,
			      .dqpn = dqpn, .psn = psn };
	rr_ib_encode(&ibb, &bth, NULL, msg, b.len);
	struct rr_buf fb;
	rr_buf_init(&fb, frame, size);
	rr_frame_rocev2(&fb, ep, ib, ibb.len);
	return fb.len;
}

static void render(const struct rr_analyzer *a, unsigned cap, double *best,
		   size_t *bytes)
{
	*best = 1e9;
	for (int run = 0; run < 7; run++) {
		struct rr_text t;
		rr_text_init(&t);
		struct rr_prom w = { .out = &t };
		struct rr_prom_options o = { .max_connection_series = cap };
		double t0 = now();
		rr_prom_analyzer(&w, a, &o);
		rr_prom_end(&w);
		double dt = now() - t0;
		if (dt < *best)
			*best = dt;
		*bytes = t.cap;
		rr_text_free(&t);
	}
}

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 10000;
	struct rr_config cfg;
	struct rr_analyzer_limits lim;
	rr_config_init(&cfg);
	cfg.flags &= ~(unsigned)RR_CFG_VERIFY_ICRC;
	rr_analyzer_limits_init(&lim);
	lim.max_connections = n + 16;
	lim.rebuild_slots = 0;
	struct rr_analyzer *a = rr_analyzer_new(&cfg, &lim);
	if (!a) {
		fprintf(stderr, "exporter-bench: out of memory\n");
		return 1;
	}
	uint8_t frame[512];
	for (unsigned i = 0; i < n; i++) {
		/* a requester 10.x.y.z, QP 0x100+i, to one responder */
		struct rr_endpoints req = { .ip_version = 4, .ttl = 64,
					    .src_port = 49152, .dst_port = 4791 };
		req.src_ip[0] = 10;
		req.src_ip[1] = (uint8_t)(i >> 16);
		req.src_ip[2] = (uint8_t)(i >> 8);
		req.src_ip[3] = (uint8_t)i;
		req.dst_ip[0] = 10;
		req.dst_ip[1] = 255;
		req.dst_ip[3] = 1;
		struct rr_endpoints rsp = req;
		memcpy(rsp.src_ip, req.dst_ip, 4);
		memcpy(rsp.dst_ip, req.src_ip, 4);
		uint32_t req_qp = 0x100 + i, rsp_qp = 0x800000 + i;
		for (uint32_t c = 0; c < 4; c++) {
			uint32_t xid = 0x10000000u + i * 8 + c;
			size_t len = message(frame, sizeof(frame), &req, rsp_qp, c, xid, false);
			rr_analyzer_frame(a, 1, (uint64_t)c * 1000, frame, (uint32_t)len,
					  (uint32_t)len);
			len = message(frame, sizeof(frame), &rsp, req_qp, c, xid, true);
			rr_analyzer_frame(a, 1, (uint64_t)c * 1000 + 500, frame,
					  (uint32_t)len, (uint32_t)len);
		}
	}
	unsigned conns = rr_analyzer_conn_count(a);
	double t_cap, t_all;
	size_t b_cap, b_all;
	render(a, 100, &t_cap, &b_cap);
	render(a, n, &t_all, &b_all);
	printf("connections %u (calls %llu)\n", conns,
	       (unsigned long long)rr_analyzer_stats(a)->total.calls);
	printf("render /metrics, 100 connection series (default):  %6.2f ms, text buffer %zu KiB\n",
	       t_cap * 1e3, b_cap / 1024);
	printf("render /metrics, every connection its own series:  %6.2f ms, text buffer %zu KiB\n",
	       t_all * 1e3, b_all / 1024);
	printf("analyzer memory for %u connections: %zu KiB\n", lim.max_connections,
	       rr_analyzer_memory(a) / 1024);
	rr_analyzer_free(a);
	return conns == n ? 0 : 1;
}
