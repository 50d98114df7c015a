/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rpcrdma-exporter's --web.config.file, in the format of Prometheus's
 * exporter-toolkit (docs/web-configuration.md there), so that operators
 * reuse the files their other exporters read: TLS (tls_server_config),
 * basic authentication with bcrypt hashes (basic_auth_users) and the
 * response headers it may set (http_server_config.headers).  Read with
 * libyaml; a key it does not know, or a value it cannot take, is refused
 * with the key's place and name, as the toolkit's strict reading refuses
 * it.
 */
#ifndef RR_WEB_CONFIG_H
#define RR_WEB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

/* Go's crypto/tls names, as the toolkit takes them. */
enum rr_client_auth {
	RR_CLIENT_AUTH_NONE,            /* NoClientCert */
	RR_CLIENT_AUTH_REQUEST,         /* RequestClientCert */
	RR_CLIENT_AUTH_REQUIRE_ANY,     /* RequireAnyClientCert */
	RR_CLIENT_AUTH_VERIFY_IF_GIVEN, /* VerifyClientCertIfGiven */
	RR_CLIENT_AUTH_REQUIRE_VERIFY,  /* RequireAndVerifyClientCert */
};

#define RR_WEB_HEADERS 5
#define RR_WEB_MAX_LIST 32

struct rr_web_user {
	char *name, *hash;  /* a bcrypt hash: $2a$, $2b$ or $2y$ */
};

struct rr_web_config {
	bool tls;                    /* tls_server_config given */
	/* PEM: read from cert_file, key_file, client_ca_file or given inline
	 * (cert, key, client_ca) */
	char *cert, *key, *client_ca;
	enum rr_client_auth client_auth;
	int min_version, max_version;      /* 10 (TLS 1.0) to 13 */
	/* Go's names, TLS 1.2 and below; none: GnuTLS's defaults */
	char *cipher_suites[RR_WEB_MAX_LIST];
	unsigned ncipher_suites;
	bool prefer_server_cipher_suites;  /* default true */
	char *curves[RR_WEB_MAX_LIST];     /* curve_preferences */
	unsigned ncurves;
	struct rr_web_user *users;         /* basic_auth_users */
	unsigned nusers;
	/* http_server_config.headers, in the order of the toolkit's list;
	 * NULL: not set */
	char *headers[RR_WEB_HEADERS];
};

/* The headers' names, for headers[i]. */
extern const char *const rr_web_header_names[RR_WEB_HEADERS];

/* The file read and checked into c: true, or false with why in err
 * ("FILE: line N: KEY: what is wrong").  Files named in it are read now,
 * relative to the working directory as the toolkit reads them. */
bool rr_web_config_load(const char *path, struct rr_web_config *c, char *err,
			size_t errlen);
void rr_web_config_free(struct rr_web_config *c);

/* The GnuTLS priority string that the versions, cipher suites and curves
 * allow, or false with why in err (a cipher suite GnuTLS cannot offer). */
bool rr_web_config_priorities(const struct rr_web_config *c, char *out,
			      size_t outlen, char *err, size_t errlen);

/* Whether a TLS 1.2 session's key exchange, cipher and MAC (GnuTLS's
 * names) make one of the listed suites: GnuTLS picks from the parts the
 * list names, which may pair up otherwise.  True with no list. */
bool rr_web_config_suite_listed(const struct rr_web_config *c, const char *kx,
				const char *cipher, const char *mac);

#endif
