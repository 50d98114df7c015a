/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-exporter's HTTP server (libmicrohttpd), secured as Prometheus's
 * exporter-toolkit secures an exporter (web-config.h): TLS through
 * libmicrohttpd's GnuTLS, client certificates checked as the file's
 * client_auth_type asks, basic authentication against bcrypt hashes
 * (libcrypt), the headers the file sets.  The file is read again when it
 * changes: a new server takes the same listening socket, then the old one
 * stops, so that no scrape finds the port closed; a file that became
 * bad leaves the running server as it was, and says why.
 */
#ifndef RR_EXPORTER_WEB_H
#define RR_EXPORTER_WEB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include <microhttpd.h>

/* Connections one address may hold at once: a Prometheus pair, federation
 * and a browser need a few, and more than --web.max-requests' default 40
 * at once are answered 503, not refused; a flood of idle ones is closed
 * past it. */
#define RR_EXPORTER_CONNECTIONS_PER_ADDRESS 64u

/* A page: its answer (NULL: out of memory) and status, for a GET or HEAD
 * that was let in. */
typedef struct MHD_Response *(*rr_web_page_fn)(void *ctx,
					       struct MHD_Connection *conn,
					       const char *url,
					       unsigned *status);

struct rr_web;

struct rr_web_opts {
	const struct sockaddr_storage *addr; /* where to listen, unless */
	/* the socket systemd passes (socket activation): asked for, or
	 * taken when systemd passes one */
	bool systemd_socket;
	const char *config_path; /* --web.config.file; NULL: plain HTTP to anyone */
	/* pages served at once at most, node_exporter's --web.max-requests;
	 * past them 503; 0: no limit */
	unsigned max_requests;
};

/* Serves as o says; NULL with why in err. */
struct rr_web *rr_web_start(const struct rr_web_opts *o, rr_web_page_fn page,
			    void *ctx, char *err, size_t errlen);
/* Whether it serves over TLS. */
bool rr_web_tls(const struct rr_web *w);
/* Whether it serves on the socket systemd passed (asked, or started by a
 * .socket unit). */
bool rr_web_systemd_socket(const struct rr_web *w);
/* Reads the file again if it changed since: true when a new server took
 * over; false when nothing changed or (with why in err) the file is bad
 * and the running server stays. */
bool rr_web_reload(struct rr_web *w, char *err, size_t errlen);
void rr_web_stop(struct rr_web *w);

#endif
