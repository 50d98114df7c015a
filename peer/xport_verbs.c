/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The verbs transport: librdmacm and libibverbs (rdma-core) on whatever
 * RDMA device exists (Soft-RoCE, soft-iWARP, a NIC).  RFC 8797 private
 * data travels in rdma_connect / rdma_accept; SENDs land in posted receive
 * buffers; RDMA WRITE and READ go from and to registered memory.
 *
 * Built when the rdma-core headers are present.  Machines without an RDMA
 * device get a plain message and a non-zero exit from verbs_probe().
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xport_net.h"

#ifdef RR_HAVE_VERBS
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include <rdma/rdma_verbs.h>

#define RECV_COUNT 256
#define RECV_SIZE 65536u     /* larger than any inline size we advertise */
#define SEND_SLOTS 256
#define VMR_MAX 1024

struct vmr {
	struct ibv_mr *mr;
};

/* A READ in flight: its local registration goes when it completes. */
struct vread {
	struct ibv_mr *mr;
	uint64_t cookie;
	bool used;
};

struct verbs {
	struct xport x;
	struct rdma_cm_id *listen, *id;
	uint8_t *recv_pool, *send_pool;
	struct ibv_mr *recv_mr, *send_mr;
	unsigned next_slot;
	struct vmr mrs[VMR_MAX];
	struct vread reads[SEND_SLOTS];
};

static struct verbs *vx_of(struct xport *x)
{
	return (struct verbs *)x;
}

static uint32_t v_reg(struct xport *x, void *buf, uint32_t len, uint64_t *va)
{
	struct verbs *v = vx_of(x);
	for (unsigned i = 0; i < VMR_MAX; i++) {
		if (v->mrs[i].mr)
			continue;
		struct ibv_mr *mr = ibv_reg_mr(v->id->pd, buf, len ? len : 1,
					       IBV_ACCESS_LOCAL_WRITE |
					       IBV_ACCESS_REMOTE_READ |
					       IBV_ACCESS_REMOTE_WRITE);
		if (!mr)
			return 0;
		v->mrs[i].mr = mr;
		*va = (uint64_t)(uintptr_t)buf;
		return mr->rkey;
	}
	return 0;
}

static void v_dereg(struct xport *x, uint32_t key)
{
	struct verbs *v = vx_of(x);
	for (unsigned i = 0; i < VMR_MAX; i++)
		if (v->mrs[i].mr && v->mrs[i].mr->rkey == key) {
			ibv_dereg_mr(v->mrs[i].mr);
			v->mrs[i].mr = NULL;
			return;
		}
}

static int post_recv(struct verbs *v, unsigned i)
{
	return rdma_post_recv(v->id, (void *)(uintptr_t)i,
			      v->recv_pool + (size_t)i * RECV_SIZE, RECV_SIZE,
			      v->recv_mr);
}

/* Outgoing bytes go through a registered ring of send buffers. */
static uint8_t *send_slot(struct verbs *v, uint32_t len)
{
	if (len > RECV_SIZE)
		return NULL;
	uint8_t *p = v->send_pool + (size_t)v->next_slot * RECV_SIZE;
	v->next_slot = (v->next_slot + 1) % SEND_SLOTS;
	return p;
}

static int post(struct verbs *v, struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	return ibv_post_send(v->id->qp, wr, &bad) ? -1 : 0;
}

static int v_send(struct xport *x, const void *m, uint32_t len, uint32_t inv)
{
	struct verbs *v = vx_of(x);
	uint8_t *buf = send_slot(v, len);
	if (!buf)
		return -1;
	memcpy(buf, m, len);
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = len,
			       .lkey = v->send_mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = inv ? IBV_WR_SEND_WITH_INV :
						  IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	wr.invalidate_rkey = inv;
	return post(v, &wr);
}

static int v_write(struct xport *x, uint32_t key, uint64_t va, const void *d,
		   uint32_t len)
{
	struct verbs *v = vx_of(x);
	uint8_t *buf = send_slot(v, len);
	if (!buf)
		return -1;
	memcpy(buf, d, len);
	struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = len,
			       .lkey = v->send_mr->lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE,
				  .send_flags = IBV_SEND_SIGNALED };
	wr.wr.rdma.remote_addr = va;
	wr.wr.rdma.rkey = key;
	return post(v, &wr);
}

static int v_read(struct xport *x, uint32_t key, uint64_t va, void *dst,
		  uint32_t len, uint64_t cookie)
{
	struct verbs *v = vx_of(x);
	struct vread *r = NULL;
	for (unsigned slot = 0; slot < SEND_SLOTS && !r; slot++)
		if (!v->reads[slot].used)
			r = &v->reads[slot];
	if (!r)
		return -1;
	r->mr = ibv_reg_mr(v->id->pd, dst, len ? len : 1,
			   IBV_ACCESS_LOCAL_WRITE);
	if (!r->mr)
		return -1;
	r->used = true;
	r->cookie = cookie;
	struct ibv_sge sge = { .addr = (uintptr_t)dst, .length = len,
			       .lkey = r->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = (uint64_t)(r - v->reads),
				  .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_RDMA_READ,
				  .send_flags = IBV_SEND_SIGNALED };
	wr.wr.rdma.remote_addr = va;
	wr.wr.rdma.rkey = key;
	return post(v, &wr);
}

static int v_poll(struct xport *x, int timeout_ms, struct xev *ev)
{
	struct verbs *v = vx_of(x);
	uint64_t until = now_ms() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0);
	do {
		if (evq_pop(&x->events, ev))
			return 1;
		struct ibv_wc wc[16];
		int n = ibv_poll_cq(v->id->recv_cq, 16, wc);
		for (int i = 0; i < n; i++) {
			struct xev e = { 0 };
			if (wc[i].status != IBV_WC_SUCCESS) {
				e.kind = wc[i].status == IBV_WC_WR_FLUSH_ERR ?
						 XEV_DISCONNECTED : XEV_ERROR;
				e.why = ibv_wc_status_str(wc[i].status);
				evq_push(&x->events, &e);
				continue;
			}
			unsigned slot = (unsigned)wc[i].wr_id;
			e.kind = XEV_RECV;
			e.len = wc[i].byte_len;
			e.data = malloc(e.len ? e.len : 1);
			if (!e.data)
				abort();
			memcpy(e.data, v->recv_pool + (size_t)slot * RECV_SIZE,
			       e.len);
			if (wc[i].wc_flags & IBV_WC_WITH_INV)
				e.inv_key = wc[i].invalidated_rkey;
			evq_push(&x->events, &e);
			post_recv(v, slot);
		}
		n = ibv_poll_cq(v->id->send_cq, 16, wc);
		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				struct xev e = { .kind = XEV_ERROR,
						 .why = ibv_wc_status_str(wc[i].status) };
				evq_push(&x->events, &e);
			} else if (wc[i].opcode == IBV_WC_RDMA_READ &&
				   wc[i].wr_id < SEND_SLOTS) {
				struct vread *r = &v->reads[wc[i].wr_id];
				struct xev e = { .kind = XEV_READ_DONE,
						 .cookie = r->cookie };
				ibv_dereg_mr(r->mr);
				r->used = false;
				evq_push(&x->events, &e);
			}
		}
	} while (now_ms() < until && x->events.head == x->events.tail);
	return evq_pop(&x->events, ev) ? 1 : 0;
}

static void v_disconnect(struct xport *x)
{
	struct verbs *v = vx_of(x);
	rdma_disconnect(v->id);
	x->connected = false;
}

static void v_destroy(struct xport *x)
{
	struct verbs *v = vx_of(x);
	for (unsigned i = 0; i < VMR_MAX; i++)
		if (v->mrs[i].mr)
			ibv_dereg_mr(v->mrs[i].mr);
	for (unsigned i = 0; i < SEND_SLOTS; i++)
		if (v->reads[i].used)
			ibv_dereg_mr(v->reads[i].mr);
	if (v->recv_mr)
		rdma_dereg_mr(v->recv_mr);
	if (v->send_mr)
		rdma_dereg_mr(v->send_mr);
	if (v->id)
		rdma_destroy_ep(v->id);
	if (v->listen)
		rdma_destroy_ep(v->listen);
	free(v->recv_pool);
	free(v->send_pool);
	evq_free(&x->events);
	free(v);
}

static const struct xport_ops verbs_ops = {
	.send = v_send, .write = v_write, .read = v_read, .poll = v_poll,
	.disconnect = v_disconnect, .destroy = v_destroy,
	.reg = v_reg, .dereg = v_dereg,
};

int verbs_probe(char *err, size_t errlen)
{
	int n = 0;
	struct ibv_device **list = ibv_get_device_list(&n);
	if (list)
		ibv_free_device_list(list);
	if (!list || n == 0) {
		snprintf(err, errlen, "no RDMA device found "
			 "(ibv_get_device_list: none); the verbs transport "
			 "needs Soft-RoCE (rdma link add ... type rxe), "
			 "soft-iWARP or an RDMA NIC");
		return -1;
	}
	return 0;
}

/* A client's endpoint as rdma_create_ep makes it, but with the address
 * and route resolved within the run's --timeout, not its fixed 2 s. */
static int client_endpoint(struct verbs *v, struct rdma_addrinfo *res,
			   struct ibv_qp_init_attr *attr, uint32_t timeout_ms,
			   const char **step)
{
	struct rdma_cm_id *id;
	int wait = (int)(timeout_ms ? timeout_ms : 2000u);
	*step = "rdma_create_id";
	if (rdma_create_id(NULL, &id, NULL, (enum rdma_port_space)res->ai_port_space))
		return -1;
	v->id = id;
	*step = "rdma_resolve_addr";
	if (rdma_resolve_addr(id, res->ai_src_addr, res->ai_dst_addr, wait))
		return -1;
	*step = "rdma_resolve_route";
	if (rdma_resolve_route(id, wait))
		return -1;
	*step = "rdma_create_qp";
	attr->qp_type = (enum ibv_qp_type)res->ai_qp_type;
	return rdma_create_qp(id, NULL, attr);
}

/* rdma_client.c / rdma_server.c in rdma-core's examples, with our data.
 * *connect_errno is rdma_connect's errno when that step failed, else 0. */
static struct xport *connect_once(const struct net_opts *o, char *err,
				  size_t errlen, int *connect_errno)
{
	*connect_errno = 0;
	struct verbs *v = calloc(1, sizeof(*v));
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	v->x.ops = &verbs_ops;
	char port[8];
	snprintf(port, sizeof(port), "%u", o->port ? o->port : RR_NFS_RDMA_PORT);
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_TCP }, *res;
	if (o->server)
		hints.ai_flags = RAI_PASSIVE;
	const char *node = o->server ? o->local : (o->remote ? o->remote :
						   "127.0.0.1");
	if (rdma_getaddrinfo(node, port, &hints, &res)) {
		snprintf(err, errlen, "rdma_getaddrinfo %s:%s: %m",
			 node ? node : "*", port);
		free(v);
		return NULL;
	}
	struct ibv_qp_init_attr attr = {
		.cap = { .max_send_wr = SEND_SLOTS, .max_recv_wr = RECV_COUNT,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC, .sq_sig_all = 1,
	};
	struct rdma_conn_param param = {
		.private_data = o->pd, .private_data_len = (uint8_t)o->pd_len,
		.responder_resources = 16, .initiator_depth = 16,
		.retry_count = 7, .rnr_retry_count = 7,
	};
	int rc;
	const char *step = "rdma_create_ep";
	if (o->server) {
		rc = rdma_create_ep(&v->listen, res, NULL, &attr);
		if (!rc)
			rc = rdma_listen(v->listen, 1);
		if (!rc)
			rc = rdma_get_request(v->listen, &v->id);
	} else {
		rc = client_endpoint(v, res, &attr, o->timeout_ms, &step);
	}
	rdma_freeaddrinfo(res);
	if (rc) {
		snprintf(err, errlen, "%s %s:%s: %m", step, node ? node : "*", port);
		v_destroy(&v->x);
		return NULL;
	}
	v->recv_pool = malloc((size_t)RECV_COUNT * RECV_SIZE);
	v->send_pool = malloc((size_t)SEND_SLOTS * RECV_SIZE);
	v->recv_mr = v->recv_pool ? rdma_reg_msgs(v->id, v->recv_pool,
						  (size_t)RECV_COUNT * RECV_SIZE) : NULL;
	v->send_mr = v->send_pool ? rdma_reg_msgs(v->id, v->send_pool,
						  (size_t)SEND_SLOTS * RECV_SIZE) : NULL;
	if (!v->recv_mr || !v->send_mr) {
		snprintf(err, errlen, "cannot register message buffers: %m");
		v_destroy(&v->x);
		return NULL;
	}
	for (unsigned i = 0; i < RECV_COUNT; i++)
		post_recv(v, i);
	/* the peer's private data; the receiver may see it zero-padded */
	const struct rdma_conn_param *got = NULL;
	if (o->server) {
		got = &v->id->event->param.conn;
		rc = rdma_accept(v->id, &param);
	} else {
		rc = rdma_connect(v->id, &param);
		if (!rc && v->id->event)
			got = &v->id->event->param.conn;
	}
	if (rc) {
		if (!o->server)
			*connect_errno = errno;
		snprintf(err, errlen, "%s: %m",
			 o->server ? "rdma_accept" : "rdma_connect");
		v_destroy(&v->x);
		return NULL;
	}
	if (got && got->private_data) {
		uint32_t n = got->private_data_len; /* a uint8_t: < PD_MAX */
		memcpy(v->x.peer_pd, got->private_data, n);
		v->x.peer_pd_len = n;
	}
	v->x.connected = true;
	return &v->x;
}

/* On iWARP the CM's port is also the TCP port, and the one it picked may
 * still be held by an earlier connection in TIME_WAIT: a new CM id takes
 * another port. */
#define CONNECT_ATTEMPTS 5

struct xport *verbs_connect(const struct net_opts *o, char *err,
			    size_t errlen)
{
	if (verbs_probe(err, errlen) < 0)
		return NULL;
	for (unsigned attempt = 1;; attempt++) {
		int connect_errno;
		struct xport *x = connect_once(o, err, errlen, &connect_errno);
		if (x || connect_errno != EADDRINUSE ||
		    attempt == CONNECT_ATTEMPTS)
			return x;
	}
}
#else
int verbs_probe(char *err, size_t errlen)
{
	snprintf(err, errlen, "built without rdma-core (install "
		 "libibverbs-dev and librdmacm-dev and rebuild) and this "
		 "machine has no RDMA device");
	return -1;
}

struct xport *verbs_connect(const struct net_opts *o, char *err,
			    size_t errlen)
{
	(void)o;
	verbs_probe(err, errlen);
	return NULL;
}
#endif
