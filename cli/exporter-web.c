/* SPDX-License-Identifier: BSD-2-Clause */
/* rpcrdma-exporter's HTTP server (exporter-web.h). */
#define _GNU_SOURCE
#include "exporter-web.h"

#include <crypt.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gnutls/gnutls.h>
#include <systemd/sd-daemon.h>

#include "web-config.h"

/* One server and the configuration it was started with: connections of a
 * server being replaced finish with the configuration they began with. */
struct generation {
	struct rr_web *web;
	struct MHD_Daemon *daemon;
	struct rr_web_config cfg;   /* zero without a file: no security */
	char priorities[1024];
	pthread_mutex_t cache_lock;
	char **accepted;            /* per user, the last password bcrypt let in */
};

struct rr_web {
	int fd;                     /* the listening socket, kept across servers */
	const char *path;
	struct stat seen;           /* the file as last read */
	rr_web_page_fn page;
	void *ctx;
	unsigned max_requests;
	unsigned in_flight;         /* pages being made (atomic) */
	bool from_systemd;          /* the socket is the one systemd passed */
	struct generation *live;
};

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static bool equal_in_constant_time(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char diff = la != lb;
	for (size_t i = 0; i < la && i < lb; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return !diff;
}

/* bcrypt through libcrypt: the hash of password under hash's salt and
 * cost equals hash. */
static bool bcrypt_matches(const char *password, const char *hash)
{
	struct crypt_data *cd = calloc(1, sizeof(*cd));
	if (!cd)
		return false;
	const char *out = crypt_r(password, hash, cd);
	bool ok = out && out[0] != '*' && equal_in_constant_time(out, hash);
	free(cd);
	return ok;
}

/* Basic authentication against the file's users.  bcrypt costs tens of
 * milliseconds by design: a password once let in is remembered (per user,
 * until the file changes), as the toolkit caches it, so that a scrape a
 * second does not pay it each time. */
static bool user_let_in(struct generation *g, const char *user,
			const char *password)
{
	/* a hash checked even for an unknown user, so that the time taken
	 * does not tell which users exist */
	static const char decoy[] =
		"$2y$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi";
	for (unsigned i = 0; i < g->cfg.nusers; i++) {
		if (strcmp(user, g->cfg.users[i].name))
			continue;
		pthread_mutex_lock(&g->cache_lock);
		bool cached = g->accepted[i] &&
			      equal_in_constant_time(g->accepted[i], password);
		pthread_mutex_unlock(&g->cache_lock);
		if (cached)
			return true;
		if (!bcrypt_matches(password, g->cfg.users[i].hash))
			return false;
		pthread_mutex_lock(&g->cache_lock);
		free(g->accepted[i]);
		g->accepted[i] = strdup(password);
		pthread_mutex_unlock(&g->cache_lock);
		return true;
	}
	bcrypt_matches(password, decoy);
	return false;
}

static bool credentials_let_in(struct generation *g, struct MHD_Connection *conn)
{
	bool ok = false;
#if MHD_VERSION >= 0x00097701
	struct MHD_BasicAuthInfo *b = MHD_basic_auth_get_username_password3(conn);
	if (b) {
		ok = b->password && user_let_in(g, b->username, b->password);
		MHD_free(b);
	}
#else
	char *password = NULL;
	char *user = MHD_basic_auth_get_username_password(conn, &password);
	if (user && password)
		ok = user_let_in(g, user, password);
	MHD_free(user);
	MHD_free(password);
#endif
	return ok;
}

/* What the session's certificate and suite allow, as client_auth_type and
 * cipher_suites say: false closes the connection unanswered, as a failed
 * handshake would. */
static bool session_let_in(struct generation *g, struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	gnutls_session_t s = ci ? (gnutls_session_t)ci->tls_session : NULL;
	if (!s)
		return false;
	if (gnutls_protocol_get_version(s) <= GNUTLS_TLS1_2 &&
	    !rr_web_config_suite_listed(&g->cfg, gnutls_kx_get_name(gnutls_kx_get(s)),
					gnutls_cipher_get_name(gnutls_cipher_get(s)),
					gnutls_mac_get_name(gnutls_mac_get(s))))
		return false;
	unsigned n = 0;
	bool given = gnutls_certificate_get_peers(s, &n) && n > 0;
	unsigned status = 0;
	switch (g->cfg.client_auth) {
	case RR_CLIENT_AUTH_NONE:
	case RR_CLIENT_AUTH_REQUEST:
		return true;
	case RR_CLIENT_AUTH_REQUIRE_ANY:
		return given;
	case RR_CLIENT_AUTH_VERIFY_IF_GIVEN:
		return !given ||
		       (gnutls_certificate_verify_peers2(s, &status) == 0 && !status);
	case RR_CLIENT_AUTH_REQUIRE_VERIFY:
		return given &&
		       gnutls_certificate_verify_peers2(s, &status) == 0 && !status;
	}
	return false;
}

/* A page may be made: fewer than max_requests are being made. */
static bool page_begins(struct rr_web *w)
{
	unsigned n = __atomic_add_fetch(&w->in_flight, 1, __ATOMIC_RELAXED);
	if (w->max_requests && n > w->max_requests) {
		__atomic_sub_fetch(&w->in_flight, 1, __ATOMIC_RELAXED);
		return false;
	}
	return true;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn,
			      const char *url, const char *method,
			      const char *version, const char *upload_data,
			      size_t *upload_size, void **state)
{
	(void)version;
	(void)upload_data;
	struct generation *g = cls;
	if (!*state) {
		/* the headers first; a body, if any, is not wanted */
		*state = conn;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	if (g->cfg.tls && !session_let_in(g, conn))
		return MHD_NO;
	struct MHD_Response *r = NULL;
	unsigned status = MHD_HTTP_OK;
	bool unauthorized = g->cfg.nusers && !credentials_let_in(g, conn);
	if (unauthorized) {
		static char msg[] = "Unauthorized\n";
		r = MHD_create_response_from_buffer(sizeof(msg) - 1, msg,
						    MHD_RESPMEM_PERSISTENT);
	} else if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
		static char msg[] = "only GET and HEAD\n";
		status = MHD_HTTP_METHOD_NOT_ALLOWED;
		r = MHD_create_response_from_buffer(sizeof(msg) - 1, msg,
						    MHD_RESPMEM_PERSISTENT);
		if (r)
			MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	} else if (!page_begins(g->web)) {
		static char msg[] = "too many requests at once (--web.max-requests)\n";
		status = MHD_HTTP_SERVICE_UNAVAILABLE;
		r = MHD_create_response_from_buffer(sizeof(msg) - 1, msg,
						    MHD_RESPMEM_PERSISTENT);
	} else {
		r = g->web->page(g->web->ctx, conn, url, &status);
		__atomic_sub_fetch(&g->web->in_flight, 1, __ATOMIC_RELAXED);
	}
	if (!r) {
		static char msg[] = "out of memory\n";
		status = MHD_HTTP_INTERNAL_SERVER_ERROR;
		r = MHD_create_response_from_buffer(sizeof(msg) - 1, msg,
						    MHD_RESPMEM_PERSISTENT);
		if (!r)
			return MHD_NO;
	}
	for (unsigned h = 0; h < RR_WEB_HEADERS; h++)
		if (g->cfg.headers[h])
			MHD_add_response_header(r, rr_web_header_names[h],
						g->cfg.headers[h]);
	enum MHD_Result ok;
	if (unauthorized)
#if MHD_VERSION >= 0x00097701
		ok = MHD_queue_basic_auth_required_response3(conn, "rpcrdma-exporter",
							     MHD_YES, r);
#else
		ok = MHD_queue_basic_auth_fail_response(conn, "rpcrdma-exporter", r);
#endif
	else
		ok = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ok;
}

static void generation_free(struct generation *g)
{
	if (!g)
		return;
	for (unsigned i = 0; g->accepted && i < g->cfg.nusers; i++)
		free(g->accepted[i]);
	free(g->accepted);
	rr_web_config_free(&g->cfg);
	pthread_mutex_destroy(&g->cache_lock);
	free(g);
}

/* A server on w's socket with cfg (taken over), or NULL with why. */
static struct generation *serve(struct rr_web *w, struct rr_web_config *cfg,
				int family, char *err, size_t errlen)
{
	struct generation *g = calloc(1, sizeof(*g));
	if (!g) {
		snprintf(err, errlen, "out of memory");
		rr_web_config_free(cfg);
		return NULL;
	}
	g->web = w;
	g->cfg = *cfg;
	memset(cfg, 0, sizeof(*cfg));
	pthread_mutex_init(&g->cache_lock, NULL);
	g->accepted = calloc(g->cfg.nusers ? g->cfg.nusers : 1, sizeof(*g->accepted));
	if (!g->accepted) {
		snprintf(err, errlen, "out of memory");
		generation_free(g);
		return NULL;
	}
	/* bounded: a few threads, a cap on connections, and a timeout so
	 * that slow or broken clients cannot hold the exporter; ITC, so that
	 * a server can hand the socket on (MHD_quiesce_daemon) */
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL |
			 MHD_USE_ERROR_LOG | MHD_USE_ITC;
	if (family == AF_INET6)
		flags |= MHD_USE_IPv6;
	struct MHD_OptionItem tls[5];
	unsigned n = 0;
	if (g->cfg.tls) {
		flags |= MHD_USE_TLS;
		char why[256];
		if (!rr_web_config_priorities(&g->cfg, g->priorities,
					      sizeof(g->priorities), why, sizeof(why))) {
			snprintf(err, errlen, "%s", why);
			generation_free(g);
			return NULL;
		}
		tls[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, g->cfg.cert };
		tls[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, g->cfg.key };
		tls[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0,
						    g->priorities };
		/* a trust list makes the server ask for a client certificate;
		 * without a CA, RequireAnyClientCert asks all the same */
		if (g->cfg.client_auth != RR_CLIENT_AUTH_NONE)
			tls[n++] = (struct MHD_OptionItem){
				MHD_OPTION_HTTPS_MEM_TRUST, 0,
				g->cfg.client_ca ? g->cfg.client_ca : g->cfg.cert };
	}
	tls[n] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
	g->daemon = MHD_start_daemon(
		flags, 0, NULL, NULL, handle, g,
		MHD_OPTION_LISTEN_SOCKET, w->fd,
		MHD_OPTION_THREAD_POOL_SIZE, 4u,
		MHD_OPTION_CONNECTION_LIMIT, 512u,
		/* a flood of idle connections from one address (a slowloris
		 * client) holds none of the others' room */
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, RR_EXPORTER_CONNECTIONS_PER_ADDRESS,
		MHD_OPTION_CONNECTION_TIMEOUT, 10u,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536,
		MHD_OPTION_ARRAY, tls,
		MHD_OPTION_END);
	if (!g->daemon) {
		snprintf(err, errlen, "libmicrohttpd refused the server%s",
			 g->cfg.tls ? " (the certificate and key, or the TLS "
				      "settings, GnuTLS could not take)" : "");
		generation_free(g);
		return NULL;
	}
	return g;
}

static int family_of(const struct rr_web *w)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	return getsockname(w->fd, (struct sockaddr *)&ss, &len) == 0 ? ss.ss_family
								    : AF_INET;
}

/* The socket systemd passed: exactly one, a listening TCP one. */
static int systemd_socket(char *err, size_t errlen)
{
	int n = sd_listen_fds(1);
	if (n != 1) {
		snprintf(err, errlen, "--web.systemd-socket: %s", n < 0 ? strerror(-n) :
			 n == 0 ? "systemd passed no socket (start the .socket unit)" :
			 "systemd passed more than one socket");
		return -1;
	}
	if (sd_is_socket(SD_LISTEN_FDS_START, AF_UNSPEC, SOCK_STREAM, 1) <= 0) {
		snprintf(err, errlen, "--web.systemd-socket: the socket systemd "
			 "passed is not a listening stream socket");
		return -1;
	}
	return SD_LISTEN_FDS_START;
}

/* A socket listening on addr. */
static int listen_on(const struct sockaddr_storage *addr, char *err, size_t errlen)
{
	socklen_t len = addr->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
						     : sizeof(struct sockaddr_in);
	int one = 1;
	int fd = socket(addr->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, (const struct sockaddr *)addr, len) != 0 || listen(fd, 128) != 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

struct rr_web *rr_web_start(const struct rr_web_opts *o, rr_web_page_fn page,
			    void *ctx, char *err, size_t errlen)
{
	struct rr_web_config cfg;
	memset(&cfg, 0, sizeof(cfg));
	struct stat seen;
	memset(&seen, 0, sizeof(seen));
	if (o->config_path) {
		if (stat(o->config_path, &seen) != 0) {
			snprintf(err, errlen, "%s: %s", o->config_path, strerror(errno));
			return NULL;
		}
		if (!rr_web_config_load(o->config_path, &cfg, err, errlen))
			return NULL;
	}
	struct rr_web *w = calloc(1, sizeof(*w));
	if (!w) {
		rr_web_config_free(&cfg);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	w->path = o->config_path;
	w->seen = seen;
	w->page = page;
	w->ctx = ctx;
	w->max_requests = o->max_requests;
	/* a service that a .socket unit started serves on its socket even
	 * without --web.systemd-socket: the address is the unit's then */
	w->from_systemd = o->systemd_socket || sd_listen_fds(0) > 0;
	w->fd = w->from_systemd ? systemd_socket(err, errlen)
				: listen_on(o->addr, err, errlen);
	if (w->fd >= 0)
		w->live = serve(w, &cfg, family_of(w), err, errlen);
	else
		rr_web_config_free(&cfg);
	if (!w->live) {
		if (w->fd >= 0)
			close(w->fd);
		free(w);
		return NULL;
	}
	return w;
}

bool rr_web_tls(const struct rr_web *w)
{
	return w->live->cfg.tls;
}

bool rr_web_systemd_socket(const struct rr_web *w)
{
	return w->from_systemd;
}

bool rr_web_reload(struct rr_web *w, char *err, size_t errlen)
{
	err[0] = '\0';
	struct stat now;
	if (!w->path || stat(w->path, &now) != 0 || same_file(&now, &w->seen))
		return false;
	w->seen = now; /* a bad file is said once, not at every look */
	struct rr_web_config cfg;
	if (!rr_web_config_load(w->path, &cfg, err, errlen))
		return false;
	struct generation *next = serve(w, &cfg, family_of(w), err, errlen);
	if (!next)
		return false;
	/* both serve the socket for a moment; then the old one lets go of
	 * it without closing it and ends its connections */
	struct generation *old = w->live;
	w->live = next;
	MHD_quiesce_daemon(old->daemon);
	MHD_stop_daemon(old->daemon);
	generation_free(old);
	return true;
}

void rr_web_stop(struct rr_web *w)
{
	if (!w)
		return;
	/* the socket is ours: libmicrohttpd lets go of it unclosed */
	MHD_quiesce_daemon(w->live->daemon);
	MHD_stop_daemon(w->live->daemon);
	generation_free(w->live);
	close(w->fd);
	free(w);
}
