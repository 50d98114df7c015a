/* SPDX-License-Identifier: BSD-2-Clause */
#define _DEFAULT_SOURCE
#include "mount.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <rpcrdma/dissect.h>
#include <rpcrdma/encode.h>
#include <rpcrdma/xdr.h>

#include "engine-int.h"

/* RFC 1833 §3.2: PMAPPROC_GETPORT of the version 2 portmapper. */
#define PMAP_PORT 111
#define PMAP_VERS 2
#define PMAPPROC_GETPORT 3
#define MOUNT_VERS 3
#define MOUNTPROC3_MNT 1
#define NFS_TCP_PORT 2049
#define IPPROTO_TCP_NUMBER 6

struct rpc_tcp {
	int fd;
	uint32_t xid;
	uint8_t reply[4096];
	uint32_t reply_len;
};

static bool fail(char *err, size_t n, const char *what, const char *why)
{
	snprintf(err, n, "%s: %s", what, why);
	return false;
}

static bool connect_to(struct rpc_tcp *c, const char *addr, uint16_t port,
		       unsigned wait_s, char *err, size_t n)
{
	char service[8];
	snprintf(service, sizeof(service), "%u", port);
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	struct addrinfo *ai;
	int rc = getaddrinfo(addr, service, &hints, &ai);
	if (rc)
		return fail(err, n, addr, gai_strerror(rc));
	c->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct timeval tv = { .tv_sec = (time_t)wait_s };
	bool ok = c->fd >= 0 &&
		  setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == 0 &&
		  setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) == 0 &&
		  connect(c->fd, ai->ai_addr, ai->ai_addrlen) == 0;
	freeaddrinfo(ai);
	if (!ok) {
		snprintf(err, n, "%s port %u: %s", addr, port, strerror(errno));
		if (c->fd >= 0)
			close(c->fd);
		c->fd = -1;
	}
	return ok;
}

static bool io_all(int fd, void *p, size_t len, bool out)
{
	uint8_t *b = p;
	while (len) {
		ssize_t k = out ? send(fd, b, len, MSG_NOSIGNAL) : recv(fd, b, len, 0);
		if (k <= 0)
			return false;
		b += k;
		len -= (size_t)k;
	}
	return true;
}

/*
 * One call and its reply over TCP: each record one fragment with the last
 * fragment bit (RFC 5531 §11).  The body of an accepted, successful reply
 * is left in *x.
 */
static bool call(struct rpc_tcp *c, uint32_t prog, uint32_t vers, uint32_t proc,
		 const uint8_t *args, uint32_t args_len, struct rr_xdr *x,
		 char *err, size_t n)
{
	uint8_t msg[512];
	struct rr_buf b;
	rr_buf_init(&b, msg, sizeof(msg));
	rr_put_be32(&b, 0); /* the record mark, set below */
	pe_rpc_call(&b, ++c->xid, prog, vers, proc);
	rr_put_bytes(&b, args, args_len);
	if (b.overflow)
		return fail(err, n, "RPC call", "arguments too long");
	uint32_t mark = htonl(0x80000000u | (uint32_t)(b.len - 4));
	memcpy(msg, &mark, 4);
	uint32_t head;
	errno = 0;
	if (!io_all(c->fd, msg, b.len, true) || !io_all(c->fd, &head, 4, false))
		return fail(err, n, "RPC over TCP", errno ? strerror(errno) :
							     "connection closed");
	head = ntohl(head);
	c->reply_len = head & 0x7fffffffu;
	if (!(head & 0x80000000u) || c->reply_len > sizeof(c->reply))
		return fail(err, n, "RPC over TCP", "reply in fragments or too long");
	if (!io_all(c->fd, c->reply, c->reply_len, false))
		return fail(err, n, "RPC over TCP", "reply cut short");
	struct rr_rpc r;
	struct rr_note note = { 0 };
	if (rr_rpc_decode(c->reply, 0, c->reply_len, c->reply_len, &r, &note) !=
		    RR_COMPLETE ||
	    r.xid != c->xid || r.msg_type != RR_RPC_REPLY)
		return fail(err, n, "RPC over TCP", "not a reply to the call");
	if (r.reply_stat != RR_RPC_MSG_ACCEPTED || r.accept_stat != RR_RPC_SUCCESS) {
		const char *s = r.reply_stat != RR_RPC_MSG_ACCEPTED ? "MSG_DENIED" :
				rr_rpc_accept_stat_str(r.accept_stat);
		return fail(err, n, rr_rpc_program_str(prog), s ? s : "refused");
	}
	rr_xdr_init(x, c->reply + r.body.off, r.body.len);
	return true;
}

static bool copy_fh(struct rr_xdr *x, uint8_t *to, uint32_t *len)
{
	uint32_t n;
	const uint8_t *fh = rr_xdr_opaque(x, PE_FH_MAX, &n);
	if (!fh || x->error || n == 0)
		return false;
	memcpy(to, fh, n);
	*len = n;
	return true;
}

bool pe_mount(const char *addr, const char *export, const char *file,
	      unsigned wait_s, struct pe_handles *h, char *err, size_t errlen)
{
	struct rpc_tcp c = { .fd = -1, .xid = 0x6d6e7400u };
	uint8_t args[512];
	struct rr_buf b;
	struct rr_xdr x;
	bool ok = false;

	/* the MOUNT service's TCP port */
	rr_buf_init(&b, args, sizeof(args));
	rr_put_be32(&b, RR_PROG_MOUNT);
	rr_put_be32(&b, MOUNT_VERS);
	rr_put_be32(&b, IPPROTO_TCP_NUMBER);
	rr_put_be32(&b, 0);
	if (!connect_to(&c, addr, PMAP_PORT, wait_s, err, errlen) ||
	    !call(&c, RR_PROG_PORTMAP, PMAP_VERS, PMAPPROC_GETPORT, args,
		  (uint32_t)b.len, &x, err, errlen))
		goto out;
	uint32_t port = rr_xdr_u32(&x);
	close(c.fd);
	c.fd = -1;
	if (x.error || port == 0 || port > 65535) {
		fail(err, errlen, "portmapper", "MOUNT v3 over TCP not registered");
		goto out;
	}

	/* RFC 1813 §5.2.1: MNT gives the export's handle */
	rr_buf_init(&b, args, sizeof(args));
	rr_put_xdr_opaque(&b, export, (uint32_t)strlen(export));
	if (b.overflow) {
		fail(err, errlen, export, "export path too long");
		goto out;
	}
	if (!connect_to(&c, addr, (uint16_t)port, wait_s, err, errlen) ||
	    !call(&c, RR_PROG_MOUNT, MOUNT_VERS, MOUNTPROC3_MNT, args,
		  (uint32_t)b.len, &x, err, errlen))
		goto out;
	uint32_t status = rr_xdr_u32(&x);
	if (x.error || status != 0) {
		snprintf(err, errlen, "MNT %s: status %u", export, status);
		goto out;
	}
	if (!copy_fh(&x, h->dir, &h->dir_len)) {
		fail(err, errlen, "MNT", "no file handle in the reply");
		goto out;
	}
	close(c.fd);
	c.fd = -1;

	/* RFC 1813 §3.3.3: LOOKUP of the file in it, from nfsd over TCP */
	rr_buf_init(&b, args, sizeof(args));
	rr_put_xdr_opaque(&b, h->dir, h->dir_len);
	rr_put_xdr_opaque(&b, file, (uint32_t)strlen(file));
	if (!connect_to(&c, addr, NFS_TCP_PORT, wait_s, err, errlen) ||
	    !call(&c, RR_PROG_NFS, 3, 3 /* LOOKUP */, args, (uint32_t)b.len, &x,
		  err, errlen))
		goto out;
	status = rr_xdr_u32(&x);
	if (x.error || status != 0) {
		snprintf(err, errlen, "LOOKUP %s in %s: NFS status %u", file,
			 export, status);
		goto out;
	}
	if (!copy_fh(&x, h->file, &h->file_len)) {
		fail(err, errlen, "LOOKUP", "no file handle in the reply");
		goto out;
	}
	ok = true;
out:
	if (c.fd >= 0)
		close(c.fd);
	return ok;
}
