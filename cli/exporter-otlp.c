/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The OTLP/HTTP push (exporter-otlp.h): OTLP 1.x's HTTP transport, a POST
 * of the protobuf-encoded ExportMetricsServiceRequest with Content-Type
 * application/x-protobuf to the endpoint, through libcurl (GnuTLS for
 * https).
 */
#define _GNU_SOURCE
#include "exporter-otlp.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rr_gzip.h"
#include "wall-clock.h"

#ifdef RR_HAVE_OTLP
#include <curl/curl.h>

struct rr_otlp_push {
	struct rr_otlp_opts o;
	struct rr_otlp_resource res;
	rr_otlp_render_fn render;
	void *ctx;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;
	CURL *curl;
	struct curl_slist *headers;
	atomic_uint_fast64_t ok, failed;
	char last_error[512];     /* the failure said last, "" once one succeeds */
	char answer[256];         /* the start of the receiver's body */
	size_t answer_len;
};

bool rr_otlp_push_available(void)
{
	return true;
}

/* The receiver's answer, its first bytes kept for a failure's message. */
static size_t on_answer(char *data, size_t size, size_t n, void *ctx)
{
	struct rr_otlp_push *p = ctx;
	size_t len = size * n, room = sizeof(p->answer) - 1 - p->answer_len;
	size_t take = len < room ? len : room;
	memcpy(p->answer + p->answer_len, data, take);
	p->answer_len += take;
	p->answer[p->answer_len] = '\0';
	return len;
}

/* A failure said once until it changes or a push succeeds. */
static void say(struct rr_otlp_push *p, const char *what)
{
	if (!strcmp(p->last_error, what))
		return;
	snprintf(p->last_error, sizeof(p->last_error), "%s", what);
	fprintf(stderr, "rpcrdma-exporter: OTLP push to %s: %s\n", p->o.endpoint, what);
}

static void push_once(struct rr_otlp_push *p)
{
	struct rr_text t;
	rr_text_init(&t);
	if (!p->render(p->ctx, &t) || t.failed) {
		rr_text_free(&t);
		p->failed++;
		say(p, "the metrics could not be rendered (out of memory)");
		return;
	}
	size_t len = 0;
	char *body = (char *)rr_otlp_encode(t.p, t.len, &p->res, rr_wall_clock_ns(), &len, NULL);
	rr_text_free(&t);
	if (!body) {
		p->failed++;
		say(p, "the OTLP request could not be made (out of memory)");
		return;
	}
	if (p->o.gzip) {
		size_t zlen;
		char *z = rr_gzip(body, len, &zlen);
		free(body);
		if (!z) {
			p->failed++;
			say(p, "the OTLP request could not be compressed (out of memory)");
			return;
		}
		body = z;
		len = zlen;
	}
	p->answer_len = 0;
	p->answer[0] = '\0';
	curl_easy_setopt(p->curl, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(p->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	CURLcode rc = curl_easy_perform(p->curl);
	long status = 0;
	curl_easy_getinfo(p->curl, CURLINFO_RESPONSE_CODE, &status);
	free(body);
	char what[512];
	if (rc != CURLE_OK) {
		snprintf(what, sizeof(what), "%s", curl_easy_strerror(rc));
	} else if (status < 200 || status > 299) {
		/* the receiver's reason, on one line */
		for (char *c = p->answer; *c; c++)
			if (*c == '\n' || *c == '\r')
				*c = ' ';
		snprintf(what, sizeof(what), "HTTP %ld%s%s", status, p->answer[0] ? ": " : "",
			 p->answer);
	} else {
		p->ok++;
		if (p->last_error[0])
			fprintf(stderr, "rpcrdma-exporter: OTLP push to %s: taken again\n",
				p->o.endpoint);
		p->last_error[0] = '\0';
		return;
	}
	p->failed++;
	say(p, what);
}

static void *run(void *arg)
{
	struct rr_otlp_push *p = arg;
	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		struct timespec until;
		clock_gettime(CLOCK_MONOTONIC, &until);
		double s = p->o.interval_s;
		until.tv_sec += (time_t)s;
		until.tv_nsec += (long)((s - (double)(time_t)s) * 1e9);
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		while (!p->stop && pthread_cond_timedwait(&p->wake, &p->lock, &until) != ETIMEDOUT)
			;
		pthread_mutex_unlock(&p->lock);
		push_once(p); /* the last one as the exporter stops */
		pthread_mutex_lock(&p->lock);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct rr_otlp_push *rr_otlp_push_start(const struct rr_otlp_opts *o,
					const struct rr_otlp_resource *res,
					rr_otlp_render_fn render, void *ctx,
					char *why, size_t n)
{
	struct rr_otlp_push *p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(why, n, "out of memory");
		return NULL;
	}
	p->o = *o;
	p->res = *res;
	p->render = render;
	p->ctx = ctx;
	p->curl = curl_easy_init();
	if (!p->curl) {
		snprintf(why, n, "libcurl could not start");
		free(p);
		return NULL;
	}
	bool ok = true;
	p->headers = curl_slist_append(NULL, "Content-Type: " RR_OTLP_CONTENT_TYPE);
	if (o->gzip)
		p->headers = curl_slist_append(p->headers, "Content-Encoding: gzip");
	for (unsigned i = 0; i < o->nheaders; i++)
		p->headers = curl_slist_append(p->headers, o->headers[i]);
	ok &= p->headers != NULL;
	CURL *c = p->curl;
	ok &= curl_easy_setopt(c, CURLOPT_URL, o->endpoint) == CURLE_OK;
	ok &= curl_easy_setopt(c, CURLOPT_HTTPHEADER, p->headers) == CURLE_OK;
	ok &= curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L) == CURLE_OK;
	ok &= curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)(o->timeout_s * 1000)) == CURLE_OK;
	ok &= curl_easy_setopt(c, CURLOPT_USERAGENT, "rpcrdma-exporter") == CURLE_OK;
	ok &= curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_answer) == CURLE_OK;
	ok &= curl_easy_setopt(c, CURLOPT_WRITEDATA, p) == CURLE_OK;
	ok &= curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_OK;
	if (o->ca_file)
		ok &= curl_easy_setopt(c, CURLOPT_CAINFO, o->ca_file) == CURLE_OK;
	if (o->cert_file)
		ok &= curl_easy_setopt(c, CURLOPT_SSLCERT, o->cert_file) == CURLE_OK;
	if (o->key_file)
		ok &= curl_easy_setopt(c, CURLOPT_SSLKEY, o->key_file) == CURLE_OK;
	if (o->insecure) {
		ok &= curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L) == CURLE_OK;
		ok &= curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L) == CURLE_OK;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &ca);
	pthread_condattr_destroy(&ca);
	if (!ok || pthread_create(&p->thread, NULL, run, p) != 0) {
		snprintf(why, n, "%s", ok ? "its thread could not start" :
				       "libcurl took not the options (an endpoint it cannot "
				       "read, or a protocol other than http and https)");
		curl_slist_free_all(p->headers);
		curl_easy_cleanup(p->curl);
		pthread_cond_destroy(&p->wake);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return NULL;
	}
	return p;
}

void rr_otlp_push_stop(struct rr_otlp_push *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	curl_slist_free_all(p->headers);
	curl_easy_cleanup(p->curl);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

void rr_otlp_push_counts(const struct rr_otlp_push *p, uint64_t *ok, uint64_t *failed)
{
	*ok = p ? p->ok : 0;
	*failed = p ? p->failed : 0;
}
#else
/* Without libcurl: nothing pushes, and the command line says so. */
bool rr_otlp_push_available(void)
{
	return false;
}

struct rr_otlp_push *rr_otlp_push_start(const struct rr_otlp_opts *o,
					const struct rr_otlp_resource *res,
					rr_otlp_render_fn render, void *ctx,
					char *why, size_t n)
{
	(void)o, (void)res, (void)render, (void)ctx;
	snprintf(why, n, "this build has no libcurl");
	return NULL;
}

void rr_otlp_push_stop(struct rr_otlp_push *p)
{
	(void)p;
}

void rr_otlp_push_counts(const struct rr_otlp_push *p, uint64_t *ok, uint64_t *failed)
{
	(void)p;
	*ok = *failed = 0;
}
#endif
