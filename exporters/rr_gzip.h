/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HTTP content coding for the exporter's answers: gzip (RFC 9110 §8.4.1.3)
 * through zlib, when a scraper's Accept-Encoding allows it, as Prometheus
 * servers ask.
 */
#ifndef RR_GZIP_H
#define RR_GZIP_H

#include <stdbool.h>
#include <stddef.h>

/* Whether an Accept-Encoding value accepts gzip: "gzip" or "*" listed
 * with a q-value other than 0 (RFC 9110 §12.5.3). */
bool rr_accepts_gzip(const char *accept_encoding);

/* `in` compressed into a new buffer (free it), or NULL without memory. */
char *rr_gzip(const char *in, size_t len, size_t *out_len);

#endif
