/* SPDX-License-Identifier: BSD-2-Clause */
/* rpcrdma-exporter's --web.config.file (web-config.h). */
#define _DEFAULT_SOURCE
#include "web-config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gnutls/gnutls.h>
#include <yaml.h>

const char *const rr_web_header_names[RR_WEB_HEADERS] = {
	"Content-Security-Policy", "X-Frame-Options", "X-Content-Type-Options",
	"X-XSS-Protection", "Strict-Transport-Security",
};

/* What a reading carries: the document, the file's name, the error. */
struct reading {
	yaml_document_t *doc;
	const char *path;
	char *err;
	size_t errlen;
};

static bool fail(struct reading *r, const yaml_node_t *at, const char *key,
		 const char *fmt, ...)
{
	char why[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "%s: line %lu: %s: %s", r->path,
		 at ? (unsigned long)at->start_mark.line + 1 : 0UL, key, why);
	return false;
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value
						  : NULL;
}

/* A scalar's copy into *out, or false after naming key. */
static bool take_string(struct reading *r, const yaml_node_t *v, const char *key,
			char **out)
{
	const char *s = scalar(v);
	if (!s)
		return fail(r, v, key, "a string is expected");
	free(*out);
	*out = strdup(s);
	return *out || fail(r, v, key, "out of memory");
}

static bool take_bool(struct reading *r, const yaml_node_t *v, const char *key,
		      bool *out)
{
	const char *s = scalar(v);
	if (s && !strcmp(s, "true"))
		*out = true;
	else if (s && !strcmp(s, "false"))
		*out = false;
	else
		return fail(r, v, key, "true or false is expected");
	return true;
}

/* A list of strings (cipher_suites, curve_preferences). */
static bool take_list(struct reading *r, const yaml_node_t *v, const char *key,
		      char **out, unsigned *n)
{
	if (v->type != YAML_SEQUENCE_NODE)
		return fail(r, v, key, "a list is expected");
	for (yaml_node_item_t *i = v->data.sequence.items.start;
	     i < v->data.sequence.items.top; i++) {
		const yaml_node_t *item = yaml_document_get_node(r->doc, *i);
		if (*n == RR_WEB_MAX_LIST)
			return fail(r, item, key, "more than %d entries", RR_WEB_MAX_LIST);
		if (!take_string(r, item, key, &out[*n]))
			return false;
		++*n;
	}
	return true;
}

/* A file's whole text, PEM for GnuTLS. */
static bool read_pem(struct reading *r, const yaml_node_t *v, const char *key,
		     char **out)
{
	const char *path = scalar(v);
	if (!path || !path[0])
		return fail(r, v, key, "a file name is expected");
	FILE *f = fopen(path, "r");
	if (!f)
		return fail(r, v, key, "%s: %s", path, strerror(errno));
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	char buf[4096];
	size_t got;
	while (m && (got = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, got, m);
	bool bad = ferror(f);
	fclose(f);
	if (m)
		fclose(m);
	if (!m || bad || !text) {
		free(text);
		return fail(r, v, key, "%s: cannot be read", path);
	}
	free(*out);
	*out = text;
	return true;
}

static bool tls_version(struct reading *r, const yaml_node_t *v, const char *key,
			int *out)
{
	static const char *const names[] = { "TLS10", "TLS11", "TLS12", "TLS13" };
	const char *s = scalar(v);
	for (int i = 0; s && i < 4; i++)
		if (!strcmp(s, names[i])) {
			*out = 10 + i;
			return true;
		}
	return fail(r, v, key, "unknown TLS version '%s' (TLS10, TLS11, TLS12 or "
		    "TLS13)", s ? s : "");
}

static bool client_auth(struct reading *r, const yaml_node_t *v,
			enum rr_client_auth *out)
{
	static const char *const names[] = {
		"NoClientCert", "RequestClientCert", "RequireAnyClientCert",
		"VerifyClientCertIfGiven", "RequireAndVerifyClientCert" };
	const char *s = scalar(v);
	for (unsigned i = 0; s && i < 5; i++)
		if (!strcmp(s, names[i])) {
			*out = (enum rr_client_auth)i;
			return true;
		}
	return fail(r, v, "client_auth_type", "invalid ClientAuth '%s'", s ? s : "");
}

/* Keys the toolkit knows that this exporter does not do: refused, so that
 * nobody believes them in force. */
static bool not_offered(struct reading *r, const yaml_node_t *k, const char *key)
{
	return fail(r, k, key, "not supported by rpcrdma-exporter");
}

/* What GnuTLS will be given, tried now, so that the key at fault is named
 * before the server starts: the certificate with its key, the client CA,
 * the priorities the versions and suites make. */
static bool tls_material_ok(struct reading *r, const yaml_node_t *m,
			    const struct rr_web_config *c, const char *prio)
{
	gnutls_certificate_credentials_t cred;
	if (gnutls_certificate_allocate_credentials(&cred) < 0)
		return fail(r, m, "tls_server_config", "out of memory");
	gnutls_datum_t cert = { (unsigned char *)c->cert, (unsigned)strlen(c->cert) };
	gnutls_datum_t key = { (unsigned char *)c->key, (unsigned)strlen(c->key) };
	int rc = gnutls_certificate_set_x509_key_mem(cred, &cert, &key,
						     GNUTLS_X509_FMT_PEM);
	bool ok = rc >= 0 || fail(r, m, "cert_file, key_file", "not a PEM "
				  "certificate and its key: %s", gnutls_strerror(rc));
	if (ok && c->client_ca) {
		gnutls_datum_t ca = { (unsigned char *)c->client_ca,
				      (unsigned)strlen(c->client_ca) };
		rc = gnutls_certificate_set_x509_trust_mem(cred, &ca, GNUTLS_X509_FMT_PEM);
		ok = rc > 0 || fail(r, m, "client_ca_file", "no PEM certificate in "
				    "it%s%s", rc < 0 ? ": " : "",
				    rc < 0 ? gnutls_strerror(rc) : "");
	}
	gnutls_certificate_free_credentials(cred);
	gnutls_priority_t pc;
	const char *at = NULL;
	if (ok && gnutls_priority_init(&pc, prio, &at) < 0)
		ok = fail(r, m, "min_version, max_version, cipher_suites",
			  "GnuTLS cannot take '%s'", at ? at : prio);
	else if (ok)
		gnutls_priority_deinit(pc);
	return ok;
}

static bool tls_server_config(struct reading *r, const yaml_node_t *m,
			      struct rr_web_config *c)
{
	if (m->type != YAML_MAPPING_NODE)
		return fail(r, m, "tls_server_config", "a mapping is expected");
	c->tls = true;
	bool cert_file = false, key_file = false, ca_file = false;
	const yaml_node_t *auth_at = m;
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
	     p < m->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = yaml_document_get_node(r->doc, p->key);
		const yaml_node_t *v = yaml_document_get_node(r->doc, p->value);
		const char *key = scalar(k) ? scalar(k) : "?";
		bool ok;
		if (!strcmp(key, "cert_file"))
			ok = (cert_file = true) && read_pem(r, v, key, &c->cert);
		else if (!strcmp(key, "key_file"))
			ok = (key_file = true) && read_pem(r, v, key, &c->key);
		else if (!strcmp(key, "client_ca_file"))
			ok = (ca_file = true) && read_pem(r, v, key, &c->client_ca);
		else if (!strcmp(key, "cert"))
			ok = take_string(r, v, key, &c->cert);
		else if (!strcmp(key, "key"))
			ok = take_string(r, v, key, &c->key);
		else if (!strcmp(key, "client_ca"))
			ok = take_string(r, v, key, &c->client_ca);
		else if (!strcmp(key, "client_auth_type"))
			ok = (auth_at = v) && client_auth(r, v, &c->client_auth);
		else if (!strcmp(key, "min_version"))
			ok = tls_version(r, v, key, &c->min_version);
		else if (!strcmp(key, "max_version"))
			ok = tls_version(r, v, key, &c->max_version);
		else if (!strcmp(key, "cipher_suites"))
			ok = take_list(r, v, key, c->cipher_suites, &c->ncipher_suites);
		else if (!strcmp(key, "curve_preferences"))
			ok = take_list(r, v, key, c->curves, &c->ncurves);
		else if (!strcmp(key, "prefer_server_cipher_suites"))
			ok = take_bool(r, v, key, &c->prefer_server_cipher_suites);
		else if (!strcmp(key, "client_allowed_sans"))
			ok = not_offered(r, k, key);
		else
			ok = fail(r, k, key, "field not found in tls_server_config");
		if (!ok)
			return false;
		/* one of the two ways only, as the toolkit says */
		if ((cert_file && !strcmp(key, "cert")) ||
		    (key_file && !strcmp(key, "key")) ||
		    (ca_file && !strcmp(key, "client_ca")))
			return fail(r, k, key, "given with %s_file as well: one of "
				    "the two", key);
	}
	if (!c->cert)
		return fail(r, m, "tls_server_config", "missing cert_file");
	if (!c->key)
		return fail(r, m, "tls_server_config", "missing key_file");
	if (c->min_version > c->max_version)
		return fail(r, m, "min_version", "above max_version");
	if (c->client_ca && c->client_auth == RR_CLIENT_AUTH_NONE)
		return fail(r, m, "client_ca_file", "given without a client_auth_type "
			    "that asks for a client certificate");
	if (!c->client_ca && (c->client_auth == RR_CLIENT_AUTH_VERIFY_IF_GIVEN ||
			      c->client_auth == RR_CLIENT_AUTH_REQUIRE_VERIFY))
		return fail(r, auth_at, "client_auth_type", "verifies client "
			    "certificates: client_ca_file names their CA");
	char prio[1024], why[256];
	if (!rr_web_config_priorities(c, prio, sizeof(prio), why, sizeof(why)))
		return fail(r, m, "cipher_suites", "%s", why);
	return tls_material_ok(r, m, c, prio);
}

/* A header value the toolkit checks (X-Frame-Options, X-Content-Type-
 * Options), as it checks it. */
static bool header_value_ok(unsigned h, const char *v)
{
	if (h == 1)
		return !strcasecmp(v, "deny") || !strcasecmp(v, "sameorigin");
	if (h == 2)
		return !strcasecmp(v, "nosniff");
	return true;
}

static bool http_server_config(struct reading *r, const yaml_node_t *m,
			       struct rr_web_config *c)
{
	if (m->type != YAML_MAPPING_NODE)
		return fail(r, m, "http_server_config", "a mapping is expected");
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
	     p < m->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = yaml_document_get_node(r->doc, p->key);
		const yaml_node_t *v = yaml_document_get_node(r->doc, p->value);
		const char *key = scalar(k) ? scalar(k) : "?";
		if (!strcmp(key, "http2")) {
			/* HTTP/1.1 is what libmicrohttpd serves, Prometheus's
			 * scrapes among it */
			bool ignored;
			if (!take_bool(r, v, key, &ignored))
				return false;
			continue;
		}
		if (strcmp(key, "headers"))
			return fail(r, k, key, "field not found in http_server_config");
		if (v->type != YAML_MAPPING_NODE)
			return fail(r, v, key, "a mapping is expected");
		for (yaml_node_pair_t *q = v->data.mapping.pairs.start;
		     q < v->data.mapping.pairs.top; q++) {
			const yaml_node_t *hk = yaml_document_get_node(r->doc, q->key);
			const yaml_node_t *hv = yaml_document_get_node(r->doc, q->value);
			const char *name = scalar(hk) ? scalar(hk) : "?";
			unsigned h = 0;
			while (h < RR_WEB_HEADERS && strcasecmp(name, rr_web_header_names[h]))
				h++;
			if (h == RR_WEB_HEADERS)
				return fail(r, hk, name, "HTTP header cannot be configured");
			if (!take_string(r, hv, name, &c->headers[h]))
				return false;
			if (!c->headers[h][0]) { /* blank: unset */
				free(c->headers[h]);
				c->headers[h] = NULL;
			} else if (!header_value_ok(h, c->headers[h])) {
				return fail(r, hv, name, "invalid value '%s'", c->headers[h]);
			}
		}
	}
	return true;
}

static bool basic_auth_users(struct reading *r, const yaml_node_t *m,
			     struct rr_web_config *c)
{
	if (m->type == YAML_SCALAR_NODE && !scalar(m)[0])
		return true; /* "basic_auth_users:" and nothing: none */
	if (m->type != YAML_MAPPING_NODE)
		return fail(r, m, "basic_auth_users", "a mapping of user names to "
			    "bcrypt hashes is expected");
	size_t n = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	c->users = calloc(n ? n : 1, sizeof(*c->users));
	if (!c->users)
		return fail(r, m, "basic_auth_users", "out of memory");
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start;
	     p < m->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = yaml_document_get_node(r->doc, p->key);
		const yaml_node_t *v = yaml_document_get_node(r->doc, p->value);
		struct rr_web_user *u = &c->users[c->nusers];
		if (!take_string(r, k, "basic_auth_users", &u->name))
			return false;
		c->nusers++;
		if (!take_string(r, v, u->name, &u->hash))
			return false;
		/* bcrypt's own prefixes: libcrypt would take other schemes */
		if (strncmp(u->hash, "$2a$", 4) && strncmp(u->hash, "$2b$", 4) &&
		    strncmp(u->hash, "$2y$", 4))
			return fail(r, v, u->name, "not a bcrypt hash ($2a$, $2b$ or "
				    "$2y$; htpasswd -nBC 10 \"\" makes one)");
	}
	return true;
}

bool rr_web_config_load(const char *path, struct rr_web_config *c, char *err,
			size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->min_version = 12;
	c->max_version = 13;
	c->prefer_server_cipher_suites = true;
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return false;
	}
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &doc)) {
		snprintf(err, errlen, "%s: line %lu: %s", path,
			 (unsigned long)parser.problem_mark.line + 1,
			 parser.problem ? parser.problem : "not YAML");
		yaml_parser_delete(&parser);
		fclose(f);
		return false;
	}
	struct reading r = { &doc, path, err, errlen };
	const yaml_node_t *root = yaml_document_get_root_node(&doc);
	bool ok = true;
	if (root && root->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
		     ok && p < root->data.mapping.pairs.top; p++) {
			const yaml_node_t *k = yaml_document_get_node(&doc, p->key);
			const yaml_node_t *v = yaml_document_get_node(&doc, p->value);
			const char *key = scalar(k) ? scalar(k) : "?";
			if (!strcmp(key, "tls_server_config"))
				ok = tls_server_config(&r, v, c);
			else if (!strcmp(key, "http_server_config"))
				ok = http_server_config(&r, v, c);
			else if (!strcmp(key, "basic_auth_users"))
				ok = basic_auth_users(&r, v, c);
			else if (!strcmp(key, "rate_limit"))
				ok = not_offered(&r, k, key);
			else
				ok = fail(&r, k, key, "field not found in the web "
					  "configuration");
		}
	} else if (root && !(root->type == YAML_SCALAR_NODE && !scalar(root)[0])) {
		ok = fail(&r, root, "(top)", "a mapping is expected");
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	fclose(f);
	if (!ok)
		rr_web_config_free(c);
	return ok;
}

void rr_web_config_free(struct rr_web_config *c)
{
	free(c->cert);
	free(c->key);
	free(c->client_ca);
	for (unsigned i = 0; i < c->ncipher_suites; i++)
		free(c->cipher_suites[i]);
	for (unsigned i = 0; i < c->ncurves; i++)
		free(c->curves[i]);
	for (unsigned i = 0; i < c->nusers; i++) {
		free(c->users[i].name);
		free(c->users[i].hash);
	}
	free(c->users);
	for (unsigned h = 0; h < RR_WEB_HEADERS; h++)
		free(c->headers[h]);
	memset(c, 0, sizeof(*c));
}

/* Go's suites (crypto/tls CipherSuites, TLS 1.2 and below) as GnuTLS's key
 * exchange, cipher and MAC. */
static const struct {
	const char *go, *kx, *cipher, *mac;
} suites[] = {
	{ "TLS_RSA_WITH_AES_128_CBC_SHA", "RSA", "AES-128-CBC", "SHA1" },
	{ "TLS_RSA_WITH_AES_256_CBC_SHA", "RSA", "AES-256-CBC", "SHA1" },
	{ "TLS_RSA_WITH_AES_128_GCM_SHA256", "RSA", "AES-128-GCM", "AEAD" },
	{ "TLS_RSA_WITH_AES_256_GCM_SHA384", "RSA", "AES-256-GCM", "AEAD" },
	{ "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "ECDHE-ECDSA", "AES-128-CBC", "SHA1" },
	{ "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "ECDHE-ECDSA", "AES-256-CBC", "SHA1" },
	{ "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "ECDHE-RSA", "AES-128-CBC", "SHA1" },
	{ "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", "ECDHE-RSA", "AES-256-CBC", "SHA1" },
	{ "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "ECDHE-ECDSA", "AES-128-GCM", "AEAD" },
	{ "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "ECDHE-ECDSA", "AES-256-GCM", "AEAD" },
	{ "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "ECDHE-RSA", "AES-128-GCM", "AEAD" },
	{ "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "ECDHE-RSA", "AES-256-GCM", "AEAD" },
	{ "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-RSA", "CHACHA20-POLY1305", "AEAD" },
	{ "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA", "CHACHA20-POLY1305", "AEAD" },
	/* Go's older spellings of the last two */
	{ "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305", "ECDHE-RSA", "CHACHA20-POLY1305", "AEAD" },
	{ "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305", "ECDHE-ECDSA", "CHACHA20-POLY1305", "AEAD" },
};

static const struct {
	const char *go, *gnutls;
} curves[] = {
	{ "CurveP256", "SECP256R1" }, { "CurveP384", "SECP384R1" },
	{ "CurveP521", "SECP521R1" }, { "X25519", "X25519" },
};

/* Appends "+what" (or "-what") unless it is there already. */
static void add_item(char *out, size_t outlen, const char *item)
{
	char token[64];
	snprintf(token, sizeof(token), ":%s:", item);
	char probe[1100];
	snprintf(probe, sizeof(probe), "%s:", out);
	if (strstr(probe, token))
		return;
	size_t used = strlen(out);
	snprintf(out + used, outlen - used, ":%s", item);
}

bool rr_web_config_priorities(const struct rr_web_config *c, char *out,
			      size_t outlen, char *err, size_t errlen)
{
	static const char *const vers[] = { "VERS-TLS1.0", "VERS-TLS1.1",
					    "VERS-TLS1.2", "VERS-TLS1.3" };
	char item[64];
	snprintf(out, outlen, "NORMAL:-VERS-ALL");
	for (int v = c->min_version; v <= c->max_version; v++) {
		snprintf(item, sizeof(item), "+%s", vers[v - 10]);
		add_item(out, outlen, item);
	}
	if (c->ncipher_suites) {
		add_item(out, outlen, "-CIPHER-ALL");
		add_item(out, outlen, "-KX-ALL");
		add_item(out, outlen, "-MAC-ALL");
		for (unsigned i = 0; i < c->ncipher_suites; i++) {
			unsigned s = 0;
			while (s < sizeof(suites) / sizeof(suites[0]) &&
			       strcmp(c->cipher_suites[i], suites[s].go))
				s++;
			if (s == sizeof(suites) / sizeof(suites[0])) {
				snprintf(err, errlen, "unknown cipher suite '%s'",
					 c->cipher_suites[i]);
				return false;
			}
			snprintf(item, sizeof(item), "+%s", suites[s].cipher);
			add_item(out, outlen, item);
			snprintf(item, sizeof(item), "+%s", suites[s].kx);
			add_item(out, outlen, item);
			snprintf(item, sizeof(item), "+%s", suites[s].mac);
			add_item(out, outlen, item);
		}
		/* TLS 1.3's suites are not configurable, as in Go: all of them */
		if (c->max_version == 13) {
			add_item(out, outlen, "+AES-128-GCM");
			add_item(out, outlen, "+AES-256-GCM");
			add_item(out, outlen, "+CHACHA20-POLY1305");
			add_item(out, outlen, "+AEAD");
		}
	}
	if (c->ncurves) {
		add_item(out, outlen, "-GROUP-ALL");
		for (unsigned i = 0; i < c->ncurves; i++) {
			unsigned g = 0;
			while (g < sizeof(curves) / sizeof(curves[0]) &&
			       strcmp(c->curves[i], curves[g].go))
				g++;
			if (g == sizeof(curves) / sizeof(curves[0])) {
				snprintf(err, errlen, "unknown curve '%s' (CurveP256, "
					 "CurveP384, CurveP521, X25519)", c->curves[i]);
				return false;
			}
			snprintf(item, sizeof(item), "+GROUP-%s", curves[g].gnutls);
			add_item(out, outlen, item);
		}
	}
	if (c->prefer_server_cipher_suites)
		add_item(out, outlen, "%SERVER_PRECEDENCE");
	return true;
}

/* The suite a TLS 1.2 session agreed on is one listed (GnuTLS picks from
 * the components the list names, which may pair up otherwise). */
bool rr_web_config_suite_listed(const struct rr_web_config *c, const char *kx,
				const char *cipher, const char *mac)
{
	if (!c->ncipher_suites)
		return true;
	for (unsigned i = 0; i < c->ncipher_suites; i++)
		for (unsigned s = 0; s < sizeof(suites) / sizeof(suites[0]); s++)
			if (!strcmp(c->cipher_suites[i], suites[s].go) &&
			    !strcasecmp(kx, suites[s].kx) &&
			    !strcasecmp(cipher, suites[s].cipher) &&
			    !strcasecmp(mac, suites[s].mac))
				return true;
	return false;
}
