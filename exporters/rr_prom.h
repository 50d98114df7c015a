/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The analyzer's statistics as Prometheus metrics: the text exposition
 * format 0.0.4, or OpenMetrics 1.0 when a scraper asks for it.  Debian
 * carries no C client library for either, so the few rules they have are
 * kept here: HELP and TYPE per family, counters ending in _total, base
 * units, escaped label values, and OpenMetrics' "# EOF".
 */
#ifndef RR_PROM_H
#define RR_PROM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <rpcrdma/analyzer.h>

#define RR_PROM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define RR_OPENMETRICS_CONTENT_TYPE \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"

/* A text that grows; `failed` once memory ran out (the text is then cut). */
struct rr_text {
	char *p;
	size_t len, cap;
	bool failed;
};

void rr_text_init(struct rr_text *t);
void rr_text_free(struct rr_text *t);
void rr_text_printf(struct rr_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The writer of one exposition: its format, and the family now open. */
struct rr_prom {
	struct rr_text *out;
	bool openmetrics;
};

/* Starts a family; `name` is the sample name (counters end in _total). */
void rr_prom_family(struct rr_prom *w, const char *name, const char *type,
		    const char *help);
/* One sample: name plus suffix ("" or "_bucket"...), labels as "k=v"
 * pairs already escaped (NULL for none), and its value. */
void rr_prom_sample(struct rr_prom *w, const char *name, const char *suffix,
		    const char *labels, double value);
void rr_prom_sample_u64(struct rr_prom *w, const char *name,
			const char *suffix, const char *labels, uint64_t value);
/* Appends `key="value"` to a label buffer, escaping the value. */
void rr_prom_label(char *buf, size_t size, const char *key, const char *value);
/* A histogram's _bucket (the fixed bounds of rpcrdma/latency.h, exact
 * counts), _sum and _count samples, with the labels given. */
void rr_prom_latency_histogram(struct rr_prom *w, const char *name,
			       const char *labels, const struct rr_latency *h);
/* Ends the exposition ("# EOF" in OpenMetrics). */
void rr_prom_end(struct rr_prom *w);

struct rr_prom_options {
	/* connections with series of their own; the rest are summed in one
	 * series labelled "other" */
	unsigned max_connection_series;
	/* whether an address belongs to this host: names the "local" end
	 * of a connection (NULL: the requester is local) */
	bool (*is_local)(const uint8_t *addr, unsigned len, void *ctx);
	void *ctx;
};

/* Every rpcrdma_* metric of the analyzer. */
void rr_prom_analyzer(struct rr_prom *w, const struct rr_analyzer *a,
		      const struct rr_prom_options *o);

#endif
