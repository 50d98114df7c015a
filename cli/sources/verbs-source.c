/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Sniffing an RDMA device through rdma-core, as libpcap's rdmasniff module
 * and ibdump do (Debian's libpcap is built without the module): a raw
 * packet QP on the chosen port with an IBV_FLOW_ATTR_SNIFFER flow receives
 * a copy of every packet the port sends and receives, Ethernet framed on
 * RoCE ports and InfiniBand framed on IB ports.  Receive buffers are
 * reposted as they are consumed; when the QP runs out of them the device
 * drops packets, which its completions and the counters below report.
 */
#define _GNU_SOURCE
#include "verbs-source.h"
#include "source.h"
#include "wall-clock.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#ifdef RR_HAVE_VERBS
#include <infiniband/verbs.h>

#define RECV_BUFS 512
#define BUF_SIZE 16384

struct rr_verbs;
static void rr_verbs_close(struct rr_verbs *v);

struct rr_verbs {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_flow *flow;
	struct ibv_mr *mr;
	uint8_t *bufs;
	int link;
	uint64_t errors, exhausted;
	unsigned posted;
	rr_live_fn fn;
	void *fnctx;
};

/* What a port carries: iWARP devices (siw, cxgb4, irdma in iWARP mode)
 * report an Ethernet link layer as RoCE ones do. */
static const char *port_kind(struct ibv_device *dev, const struct ibv_port_attr *pa)
{
	if (dev->transport_type == IBV_TRANSPORT_IWARP)
		return "iWARP";
	return pa->link_layer == IBV_LINK_LAYER_ETHERNET ? "RoCE" : "InfiniBand";
}

/* Why a device cannot be sniffed, and what captures its traffic instead. */
#define SNIFF_HINT "; sniffing needs raw packet QPs with sniffer flows, which " \
	"mlx5 devices (ConnectX-4 and later) offer and soft devices (rxe, siw) " \
	"do not: capture the device's netdev with -i or -e"

int rr_verbs_list(FILE *out)
{
	int n = 0;
	struct ibv_device **list = ibv_get_device_list(&n);
	if (!list || n == 0) {
		/* said on stderr: stdout holds the list, empty */
		fprintf(stderr, "no RDMA device: ibv_get_device_list found none "
				"(no RDMA driver is loaded on this machine)\n");
		if (list)
			ibv_free_device_list(list);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		struct ibv_context *c = ibv_open_device(list[i]);
		struct ibv_device_attr da;
		fprintf(out, "%s", ibv_get_device_name(list[i]));
		if (c && ibv_query_device(c, &da) == 0) {
			for (uint8_t p = 1; p <= da.phys_port_cnt; p++) {
				struct ibv_port_attr pa;
				if (ibv_query_port(c, p, &pa) == 0)
					fprintf(out, "  port %u %s %s", p,
						port_kind(list[i], &pa),
						ibv_port_state_str(pa.state));
			}
		}
		fputc('\n', out);
		if (c)
			ibv_close_device(c);
	}
	ibv_free_device_list(list);
	return n;
}

static int post(struct rr_verbs *v, unsigned i)
{
	struct ibv_sge sge = { .addr = (uintptr_t)(v->bufs + (size_t)i * BUF_SIZE),
			       .length = BUF_SIZE, .lkey = v->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 }, *bad;
	return ibv_post_recv(v->qp, &wr, &bad);
}

static struct rr_verbs *rr_verbs_open(const char *spec, rr_live_fn fn,
			       void *fnctx, char *msg, size_t msglen)
{
	char name[64];
	unsigned port = 1;
	const char *colon = strchr(spec, ':');
	snprintf(name, sizeof(name), "%.*s", colon ? (int)(colon - spec) : 63, spec);
	if (colon)
		port = (unsigned)strtoul(colon + 1, NULL, 10);
	int n = 0;
	struct ibv_device **list = ibv_get_device_list(&n);
	struct ibv_device *dev = NULL;
	for (int i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			dev = list[i];
	if (!dev) {
		snprintf(msg, msglen, n ? "%s: no such RDMA device (--list-devices)" :
				      "%s: no RDMA device on this machine "
				      "(ibv_get_device_list found none)", name);
		if (list)
			ibv_free_device_list(list);
		return NULL;
	}
	if (dev->transport_type == IBV_TRANSPORT_IWARP) {
		snprintf(msg, msglen, "%s: an iWARP device, whose traffic is TCP "
			 "its netdev carries: capture that with -i or -e", name);
		ibv_free_device_list(list);
		return NULL;
	}
	struct rr_verbs *v = calloc(1, sizeof(*v));
	if (!v) {
		ibv_free_device_list(list);
		snprintf(msg, msglen, "out of memory");
		return NULL;
	}
	v->fn = fn;
	v->fnctx = fnctx;
	v->ctx = ibv_open_device(dev);
	ibv_free_device_list(list);
	struct ibv_port_attr pa;
	if (!v->ctx || ibv_query_port(v->ctx, (uint8_t)port, &pa)) {
		snprintf(msg, msglen, "%s: cannot open port %u: %s", name, port,
			 strerror(errno));
		rr_verbs_close(v);
		return NULL;
	}
	v->link = pa.link_layer == IBV_LINK_LAYER_ETHERNET ? 1 /* EN10MB */ :
							     247 /* INFINIBAND */;
	v->bufs = malloc((size_t)RECV_BUFS * BUF_SIZE);
	v->pd = ibv_alloc_pd(v->ctx);
	v->ch = ibv_create_comp_channel(v->ctx);
	v->cq = v->ch ? ibv_create_cq(v->ctx, RECV_BUFS, NULL, v->ch, 0) : NULL;
	v->mr = v->pd && v->bufs ? ibv_reg_mr(v->pd, v->bufs,
					      (size_t)RECV_BUFS * BUF_SIZE,
					      IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!v->cq || !v->mr) {
		int err = errno;
		struct rlimit ml;
		bool memlock = err == ENOMEM && !getrlimit(RLIMIT_MEMLOCK, &ml) &&
			       ml.rlim_cur != RLIM_INFINITY;
		snprintf(msg, msglen, "%s: cannot set up receive buffers: %s%s%llu%s", name,
			 strerror(err), memlock ? " (locked memory is limited to " : "",
			 memlock ? (unsigned long long)ml.rlim_cur / 1024 : 0ull,
			 memlock ? " KiB: raise RLIMIT_MEMLOCK, e.g. ulimit -l unlimited)" : "");
		rr_verbs_close(v);
		return NULL;
	}
	struct ibv_qp_init_attr qa = {
		.send_cq = v->cq, .recv_cq = v->cq, .qp_type = IBV_QPT_RAW_PACKET,
		.cap = { .max_recv_wr = RECV_BUFS, .max_recv_sge = 1 },
	};
	v->qp = ibv_create_qp(v->pd, &qa);
	if (!v->qp) {
		snprintf(msg, msglen, "%s: cannot create a raw packet QP: %s%s", name,
			 strerror(errno), errno == EPERM ?
				 " (needs CAP_NET_RAW, or root)" : SNIFF_HINT);
		rr_verbs_close(v);
		return NULL;
	}
	struct ibv_qp_attr to_init = { .qp_state = IBV_QPS_INIT, .port_num = (uint8_t)port };
	struct ibv_qp_attr to_rtr = { .qp_state = IBV_QPS_RTR };
	if (ibv_modify_qp(v->qp, &to_init, IBV_QP_STATE | IBV_QP_PORT) ||
	    ibv_modify_qp(v->qp, &to_rtr, IBV_QP_STATE)) {
		snprintf(msg, msglen, "%s: cannot ready the QP: %s", name, strerror(errno));
		rr_verbs_close(v);
		return NULL;
	}
	for (unsigned i = 0; i < RECV_BUFS; i++)
		if (!post(v, i))
			v->posted++;
	struct ibv_flow_attr fa = { .type = IBV_FLOW_ATTR_SNIFFER,
				    .size = sizeof(fa), .port = (uint8_t)port };
	v->flow = ibv_create_flow(v->qp, &fa);
	if (!v->flow) {
		snprintf(msg, msglen, "%s: the device refuses a sniffer flow: %s%s", name,
			 strerror(errno), SNIFF_HINT);
		rr_verbs_close(v);
		return NULL;
	}
	ibv_req_notify_cq(v->cq, 0);
	snprintf(msg, msglen, "%s port %u (%s): sniffing", name, port,
		 v->link == 1 ? "RoCE" : "InfiniBand");
	return v;
}

static int rr_verbs_link(const struct rr_verbs *v)
{
	return v->link;
}

static int rr_verbs_poll(struct rr_verbs *v, int timeout_ms)
{
	struct pollfd pfd = { v->ch->fd, POLLIN, 0 };
	if (poll(&pfd, 1, timeout_ms) > 0) {
		struct ibv_cq *cq;
		void *cqctx;
		if (ibv_get_cq_event(v->ch, &cq, &cqctx) == 0) {
			ibv_ack_cq_events(cq, 1);
			ibv_req_notify_cq(cq, 0);
		}
	}
	struct ibv_wc wc[32];
	int got = 0, n;
	while ((n = ibv_poll_cq(v->cq, 32, wc)) > 0) {
		uint64_t now = rr_wall_clock_ns();
		for (int i = 0; i < n; i++) {
			unsigned b = (unsigned)wc[i].wr_id;
			if (wc[i].status == IBV_WC_SUCCESS) {
				v->fn(v->fnctx, now, v->bufs + (size_t)b * BUF_SIZE,
				      wc[i].byte_len, wc[i].byte_len);
				got++;
			} else {
				v->errors++;
			}
			if (post(v, b))
				v->exhausted++; /* one receive buffer fewer */
		}
	}
	return n < 0 ? -1 : got;
}

static uint64_t rr_verbs_dropped(const struct rr_verbs *v)
{
	return v->errors + v->exhausted;
}

static void rr_verbs_close(struct rr_verbs *v)
{
	if (!v)
		return;
	if (v->flow)
		ibv_destroy_flow(v->flow);
	if (v->qp)
		ibv_destroy_qp(v->qp);
	if (v->mr)
		ibv_dereg_mr(v->mr);
	if (v->cq)
		ibv_destroy_cq(v->cq);
	if (v->ch)
		ibv_destroy_comp_channel(v->ch);
	if (v->pd)
		ibv_dealloc_pd(v->pd);
	if (v->ctx)
		ibv_close_device(v->ctx);
	free(v->bufs);
	free(v);
}

#else /* no rdma-core */

struct rr_verbs;

int rr_verbs_list(FILE *out)
{
	(void)out;
	fprintf(stderr, "built without rdma-core (libibverbs-dev): no RDMA device "
			"can be listed\n");
	return 0;
}

static struct rr_verbs *rr_verbs_open(const char *spec, rr_live_fn fn,
			       void *fnctx, char *msg, size_t msglen)
{
	(void)fn;
	(void)fnctx;
	snprintf(msg, msglen, "%s: built without rdma-core (libibverbs-dev)", spec);
	return NULL;
}

static int rr_verbs_link(const struct rr_verbs *v)
{
	(void)v;
	return 1;
}

static int rr_verbs_poll(struct rr_verbs *v, int timeout_ms)
{
	(void)v;
	(void)timeout_ms;
	return -1;
}

static uint64_t rr_verbs_dropped(const struct rr_verbs *v)
{
	(void)v;
	return 0;
}

static void rr_verbs_close(struct rr_verbs *v)
{
	(void)v;
}
#endif

/* The device as a source (source.h). */
struct verbs_source {
	struct rr_verbs *verbs;
	volatile sig_atomic_t stop;
};

static void *verbs_source_open(const struct rr_live_opts *o, rr_live_fn fn,
			       void *ctx, char *msg, size_t msglen)
{
	struct verbs_source *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(msg, msglen, "out of memory");
		return NULL;
	}
	/* msg says what was opened, or why nothing was */
	s->verbs = rr_verbs_open(o->name, fn, ctx, msg, msglen);
	if (!s->verbs) {
		free(s);
		return NULL;
	}
	return s;
}

static int verbs_source_link(const void *v)
{
	return rr_verbs_link(((const struct verbs_source *)v)->verbs);
}

static int verbs_source_poll(void *v, int timeout_ms)
{
	struct verbs_source *s = v;
	return s->stop ? -1 : rr_verbs_poll(s->verbs, timeout_ms);
}

static uint64_t verbs_source_dropped(void *v)
{
	return rr_verbs_dropped(((struct verbs_source *)v)->verbs);
}


static void verbs_source_stop(void *v)
{
	((struct verbs_source *)v)->stop = 1;
}

static void verbs_source_close(void *v)
{
	struct verbs_source *s = v;
	rr_verbs_close(s->verbs);
	free(s);
}

const struct rr_source_ops rr_verbs_source = {
	.open = verbs_source_open, .link = verbs_source_link,
	.poll = verbs_source_poll, .dropped = verbs_source_dropped,
	.stop = verbs_source_stop, .close = verbs_source_close,
};
