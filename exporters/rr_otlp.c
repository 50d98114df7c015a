/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Prometheus text exposition (format 0.0.4) into an OTLP metrics request
 * (rr_otlp.h): the lines read into protobuf-c's messages, held in an arena
 * freed once the request is packed.
 */
#define _DEFAULT_SOURCE
#include "rr_otlp.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otlp-metrics.pb-c.h"

#define MAX_LABELS 16
#define MAX_BOUNDS 64

/* ---- an arena of zeroed blocks, freed at once --------------------------- */

struct block {
	struct block *next;
	size_t used, size;
	max_align_t data[];
};

struct arena {
	struct block *head;
	bool failed;
};

static void *anew(struct arena *a, size_t n)
{
	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	struct block *b = a->head;
	if (!b || b->size - b->used < n) {
		size_t size = n > 65536 ? n : 65536;
		b = calloc(1, sizeof(*b) + size);
		if (!b) {
			a->failed = true;
			return NULL;
		}
		b->size = size;
		b->next = a->head;
		a->head = b;
	}
	void *p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

static char *astr(struct arena *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = anew(a, n);
	if (p)
		memcpy(p, s, n);
	return p;
}

static void arena_free(struct arena *a)
{
	for (struct block *b = a->head, *next; b; b = next) {
		next = b->next;
		free(b);
	}
}

/* ---- the exposition's lines --------------------------------------------- */

struct label {
	char key[64];
	char value[256];
};

struct sample {
	char name[128];
	struct label labels[MAX_LABELS];
	unsigned nlabels;
	const char *value;     /* its token, NUL-ended in the line copy */
};

/* A label value as the exposition escapes it (\\, \", \n), into out. */
static const char *label_value(const char *p, char *out, size_t n)
{
	size_t k = 0;
	for (; *p && *p != '"'; p++) {
		char c = *p;
		if (c == '\\' && p[1]) {
			p++;
			c = *p == 'n' ? '\n' : *p;
		}
		if (k + 1 < n)
			out[k++] = c;
	}
	out[k] = '\0';
	return *p == '"' ? p + 1 : NULL;
}

/* name{k="v",...} value, in the line (which it cuts); false when it is
 * not a sample line. */
static bool parse_sample(char *line, struct sample *s)
{
	size_t n = strcspn(line, "{ ");
	if (!n || n >= sizeof(s->name))
		return false;
	memcpy(s->name, line, n);
	s->name[n] = '\0';
	char *p = line + n;
	s->nlabels = 0;
	if (*p == '{') {
		p++;
		while (*p && *p != '}') {
			size_t k = strcspn(p, "=");
			if (!p[k] || p[k + 1] != '"' || s->nlabels == MAX_LABELS ||
			    k >= sizeof(s->labels[0].key))
				return false;
			struct label *l = &s->labels[s->nlabels++];
			memcpy(l->key, p, k);
			l->key[k] = '\0';
			const char *end = label_value(p + k + 2, l->value, sizeof(l->value));
			if (!end)
				return false;
			p = (char *)end;
			if (*p == ',')
				p++;
		}
		if (*p != '}')
			return false;
		p++;
	}
	while (*p == ' ')
		p++;
	if (!*p)
		return false;
	s->value = p;
	p[strcspn(p, " ")] = '\0'; /* a timestamp after it is not kept */
	return true;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/* ---- the request being made ---------------------------------------------- */

enum family_type { FAMILY_GAUGE, FAMILY_COUNTER, FAMILY_HISTOGRAM };

/* A data point on its family's list. */
struct point {
	struct point *next;
	union {
		RrOtlp__NumberDataPoint number;
		RrOtlp__HistogramDataPoint histogram;
	};
};

/* A metric on the request's list, its points listed until it is closed. */
struct metric {
	struct metric *next;
	RrOtlp__Metric m;
	union {
		RrOtlp__Gauge gauge;
		RrOtlp__Sum sum;
		RrOtlp__Histogram histogram;
	};
	enum family_type type;
	char name[128];            /* as the exposition names it */
	struct point *points, **tail;
	size_t npoints;
};

/* The histogram data point being made of one label set's buckets, _sum
 * and _count. */
struct open_histogram {
	bool open;
	char key[1024];            /* the label set without le */
	struct sample first;       /* its labels */
	double bounds[MAX_BOUNDS];
	uint64_t cumulative[MAX_BOUNDS];
	unsigned nbounds;
	bool has_inf;
	uint64_t inf, count;
	double sum;
};

struct request {
	struct arena arena;
	const struct rr_otlp_resource *res;
	uint64_t now_ns;
	struct metric *metrics, **tail, *current;
	size_t nmetrics;
	struct open_histogram h;
	unsigned skipped;
};

static RrOtlp__KeyValue *key_value(struct arena *a, const char *key, const char *value)
{
	RrOtlp__KeyValue *kv = anew(a, sizeof(*kv));
	RrOtlp__AnyValue *v = anew(a, sizeof(*v));
	char *k = astr(a, key), *s = astr(a, value);
	if (!kv || !v || !k || !s)
		return NULL;
	*v = (RrOtlp__AnyValue)RR_OTLP__ANY_VALUE__INIT;
	v->value_case = RR_OTLP__ANY_VALUE__VALUE_STRING_VALUE;
	v->string_value = s;
	*kv = (RrOtlp__KeyValue)RR_OTLP__KEY_VALUE__INIT;
	kv->key = k;
	kv->value = v;
	return kv;
}

/* OpenTelemetry's names for an RPC's labels (the semantic conventions'
 * onc_rpc.* attributes), where a series names a program's procedure. */
static const struct {
	const char *label, *attribute;
	bool integer;
} onc_rpc_names[] = {
	{ "program", "onc_rpc.program.name", false },
	{ "procedure", "onc_rpc.procedure.name", false },
	{ "version", "onc_rpc.version", true },
};

static bool has_label(const struct sample *s, const char *key)
{
	for (unsigned i = 0; i < s->nlabels; i++)
		if (!strcmp(s->labels[i].key, key))
			return true;
	return false;
}

/* A label as an attribute: under its semantic-convention name in an RPC's
 * series (onc_rpc). */
static RrOtlp__KeyValue *label_attribute(struct arena *a, const struct label *l, bool rpc)
{
	for (size_t k = 0; rpc && k < sizeof(onc_rpc_names) / sizeof(onc_rpc_names[0]); k++) {
		if (strcmp(l->key, onc_rpc_names[k].label))
			continue;
		RrOtlp__KeyValue *kv = key_value(a, onc_rpc_names[k].attribute, l->value);
		char *end;
		long long v = strtoll(l->value, &end, 10);
		if (kv && onc_rpc_names[k].integer && l->value[0] && !*end) {
			kv->value->value_case = RR_OTLP__ANY_VALUE__VALUE_INT_VALUE;
			kv->value->int_value = v;
		}
		return kv;
	}
	return key_value(a, l->key, l->value);
}

/* A sample's labels, but "le", as attributes. */
static RrOtlp__KeyValue **attributes(struct arena *a, const struct sample *s, size_t *n)
{
	RrOtlp__KeyValue **out = anew(a, (s->nlabels + 1) * sizeof(*out));
	*n = 0;
	if (!out)
		return NULL;
	bool rpc = has_label(s, "program") && has_label(s, "procedure");
	for (unsigned i = 0; i < s->nlabels; i++)
		if (strcmp(s->labels[i].key, "le"))
			out[(*n)++] = label_attribute(a, &s->labels[i], rpc);
	return out;
}

static struct point *point_new(struct request *r)
{
	struct metric *m = r->current;
	struct point *p = anew(&r->arena, sizeof(*p));
	if (!p)
		return NULL;
	*m->tail = p;
	m->tail = &p->next;
	m->npoints++;
	return p;
}

/* A gauge's or counter's sample: asInt where the value is a whole number
 * (the counters), else asDouble; left out where OTLP cannot carry it. */
static void number_sample(struct request *r, const struct sample *s)
{
	const char *t = s->value;
	char *end;
	bool whole = t[0] >= '0' && t[0] <= '9' && !t[strspn(t, "0123456789")];
	unsigned long long u = 0;
	double d = 0;
	if (whole) {
		u = strtoull(t, &end, 10);
		if (u > INT64_MAX) { /* past sfixed64: as a double */
			whole = false;
			d = (double)u;
		}
	} else {
		d = strtod(t, &end);
		if (*end || !isfinite(d)) { /* NaN, infinities: OTLP's points carry none */
			r->skipped++;
			return;
		}
	}
	struct point *p = point_new(r);
	if (!p)
		return;
	RrOtlp__NumberDataPoint *pt = &p->number;
	*pt = (RrOtlp__NumberDataPoint)RR_OTLP__NUMBER_DATA_POINT__INIT;
	pt->attributes = attributes(&r->arena, s, &pt->n_attributes);
	if (r->current->type == FAMILY_COUNTER)
		pt->start_time_unix_nano = r->res->start_ns;
	pt->time_unix_nano = r->now_ns;
	if (whole) {
		pt->value_case = RR_OTLP__NUMBER_DATA_POINT__VALUE_AS_INT;
		pt->as_int = (int64_t)u;
	} else {
		pt->value_case = RR_OTLP__NUMBER_DATA_POINT__VALUE_AS_DOUBLE;
		pt->as_double = d;
	}
}

static void histogram_flush(struct request *r)
{
	struct open_histogram *h = &r->h;
	if (!h->open)
		return;
	h->open = false;
	struct point *p = point_new(r);
	uint64_t *counts = anew(&r->arena, (h->nbounds + 1) * sizeof(*counts));
	double *bounds = anew(&r->arena, (h->nbounds + 1) * sizeof(*bounds));
	if (!p || !counts || !bounds)
		return;
	RrOtlp__HistogramDataPoint *pt = &p->histogram;
	*pt = (RrOtlp__HistogramDataPoint)RR_OTLP__HISTOGRAM_DATA_POINT__INIT;
	pt->attributes = attributes(&r->arena, &h->first, &pt->n_attributes);
	pt->start_time_unix_nano = r->res->start_ns;
	pt->time_unix_nano = r->now_ns;
	pt->count = h->has_inf ? h->inf : h->count;
	pt->sum = h->sum;
	/* Prometheus' buckets count up to their bound; OTLP's each its own */
	uint64_t below = 0;
	for (unsigned i = 0; i < h->nbounds; i++) {
		counts[i] = h->cumulative[i] >= below ? h->cumulative[i] - below : 0;
		bounds[i] = h->bounds[i];
		below = h->cumulative[i] > below ? h->cumulative[i] : below;
	}
	counts[h->nbounds] = pt->count >= below ? pt->count - below : 0;
	pt->n_bucket_counts = h->nbounds + 1;
	pt->bucket_counts = counts;
	pt->n_explicit_bounds = h->nbounds;
	pt->explicit_bounds = bounds;
}

/* The label set without "le", as a key. */
static void histogram_key(const struct sample *s, char *out, size_t n)
{
	size_t at = 0;
	out[0] = '\0';
	for (unsigned i = 0; i < s->nlabels && at < n; i++)
		if (strcmp(s->labels[i].key, "le"))
			at += (size_t)snprintf(out + at, n - at, "%s=%s\x1f", s->labels[i].key,
					       s->labels[i].value);
}

/* One histogram sample (_bucket, _sum or _count) into its data point. */
static bool histogram_sample(struct request *r, const struct sample *s)
{
	struct open_histogram *h = &r->h;
	char key[sizeof(h->key)];
	histogram_key(s, key, sizeof(key));
	if (h->open && strcmp(key, h->key))
		histogram_flush(r);
	if (!h->open) {
		memset(h, 0, sizeof(*h));
		h->open = true;
		snprintf(h->key, sizeof(h->key), "%s", key);
		h->first = *s;
	}
	char *end;
	if (ends_with(s->name, "_sum")) {
		h->sum = strtod(s->value, &end);
		return !*end && isfinite(h->sum);
	}
	uint64_t v = strtoull(s->value, &end, 10);
	if (*end)
		return false;
	if (ends_with(s->name, "_count")) {
		h->count = v;
		return true;
	}
	const char *le = NULL;
	for (unsigned i = 0; i < s->nlabels; i++)
		if (!strcmp(s->labels[i].key, "le"))
			le = s->labels[i].value;
	if (!le)
		return false;
	if (!strcmp(le, "+Inf")) {
		h->has_inf = true;
		h->inf = v;
		return true;
	}
	double bound = strtod(le, &end);
	if (*end || h->nbounds == MAX_BOUNDS)
		return false;
	h->bounds[h->nbounds] = bound;
	h->cumulative[h->nbounds++] = v;
	return true;
}

/* The family now open gets its points as an array. */
static void family_close(struct request *r)
{
	struct metric *m = r->current;
	if (!m)
		return;
	if (m->type == FAMILY_HISTOGRAM)
		histogram_flush(r);
	void **points = anew(&r->arena, (m->npoints + 1) * sizeof(*points));
	if (!points)
		return;
	size_t i = 0;
	for (struct point *p = m->points; p; p = p->next)
		points[i++] = &p->number; /* the union's members start alike */
	switch (m->type) {
	case FAMILY_GAUGE:
		m->gauge.n_data_points = i;
		m->gauge.data_points = (RrOtlp__NumberDataPoint **)points;
		break;
	case FAMILY_COUNTER:
		m->sum.n_data_points = i;
		m->sum.data_points = (RrOtlp__NumberDataPoint **)points;
		break;
	case FAMILY_HISTOGRAM:
		m->histogram.n_data_points = i;
		m->histogram.data_points = (RrOtlp__HistogramDataPoint **)points;
		break;
	}
	r->current = NULL;
}

static void family_open(struct request *r, const char *name, const char *type,
			const char *help)
{
	family_close(r);
	struct metric *m = anew(&r->arena, sizeof(*m));
	if (!m)
		return;
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->type = !strcmp(type, "counter") ? FAMILY_COUNTER :
		  !strcmp(type, "histogram") ? FAMILY_HISTOGRAM : FAMILY_GAUGE;
	m->tail = &m->points;
	m->m = (RrOtlp__Metric)RR_OTLP__METRIC__INIT;
	char shown[128];
	snprintf(shown, sizeof(shown), "%s", name);
	if (m->type == FAMILY_COUNTER && ends_with(shown, "_total"))
		shown[strlen(shown) - 6] = '\0';
	m->m.name = astr(&r->arena, shown);
	m->m.description = astr(&r->arena, help);
	switch (m->type) {
	case FAMILY_GAUGE:
		m->gauge = (RrOtlp__Gauge)RR_OTLP__GAUGE__INIT;
		m->m.data_case = RR_OTLP__METRIC__DATA_GAUGE;
		m->m.gauge = &m->gauge;
		break;
	case FAMILY_COUNTER:
		m->sum = (RrOtlp__Sum)RR_OTLP__SUM__INIT;
		m->sum.aggregation_temporality =
			RR_OTLP__AGGREGATION_TEMPORALITY__AGGREGATION_TEMPORALITY_CUMULATIVE;
		m->sum.is_monotonic = 1;
		m->m.data_case = RR_OTLP__METRIC__DATA_SUM;
		m->m.sum = &m->sum;
		break;
	case FAMILY_HISTOGRAM:
		m->histogram = (RrOtlp__Histogram)RR_OTLP__HISTOGRAM__INIT;
		m->histogram.aggregation_temporality =
			RR_OTLP__AGGREGATION_TEMPORALITY__AGGREGATION_TEMPORALITY_CUMULATIVE;
		m->m.data_case = RR_OTLP__METRIC__DATA_HISTOGRAM;
		m->m.histogram = &m->histogram;
		break;
	}
	if (!m->m.name || !m->m.description)
		return;
	*r->tail = m;
	r->tail = &m->next;
	r->nmetrics++;
	r->current = m;
}

/* Whether a sample belongs to the family now open (a counter's named as
 * its TYPE line, a histogram's with their suffixes). */
static bool of_family(const struct metric *m, const char *name)
{
	size_t n = strlen(m->name);
	if (strncmp(name, m->name, n))
		return false;
	const char *rest = name + n;
	return !*rest || (m->type == FAMILY_HISTOGRAM &&
			  (!strcmp(rest, "_bucket") || !strcmp(rest, "_sum") ||
			   !strcmp(rest, "_count")));
}

static void read_lines(struct request *r, char *text)
{
	char help[512] = "";
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strncmp(line, "# HELP ", 7)) {
			const char *h = strchr(line + 7, ' ');
			snprintf(help, sizeof(help), "%s", h ? h + 1 : "");
			continue;
		}
		if (!strncmp(line, "# TYPE ", 7)) {
			char name[128], type[32];
			if (sscanf(line + 7, "%127s %31s", name, type) == 2)
				family_open(r, name, type, help);
			else
				r->skipped++;
			help[0] = '\0';
			continue;
		}
		if (line[0] == '#' || !line[0])
			continue;
		struct sample s;
		if (!r->current || !parse_sample(line, &s) || !of_family(r->current, s.name)) {
			r->skipped++;
			continue;
		}
		if (r->current->type == FAMILY_HISTOGRAM)
			r->skipped += !histogram_sample(r, &s);
		else
			number_sample(r, &s);
	}
	family_close(r);
}

static RrOtlp__Resource *resource_of(struct request *r)
{
	const struct rr_otlp_resource *res = r->res;
	const struct { const char *key, *value; } a[] = {
		{ "service.name", res->service_name },
		{ "service.version", res->service_version },
		{ "service.instance.id", res->instance },
		{ "host.name", res->host },
	};
	RrOtlp__Resource *out = anew(&r->arena, sizeof(*out));
	RrOtlp__KeyValue **attrs = anew(&r->arena, sizeof(a) / sizeof(a[0]) * sizeof(*attrs));
	if (!out || !attrs)
		return NULL;
	*out = (RrOtlp__Resource)RR_OTLP__RESOURCE__INIT;
	out->attributes = attrs;
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		if (a[i].value && a[i].value[0])
			attrs[out->n_attributes++] = key_value(&r->arena, a[i].key, a[i].value);
	return out;
}

uint8_t *rr_otlp_encode(const char *text, size_t len, const struct rr_otlp_resource *res,
			uint64_t now_ns, size_t *out_len, unsigned *skipped)
{
	struct request r = { .res = res, .now_ns = now_ns };
	r.tail = &r.metrics;
	char *copy = anew(&r.arena, len + 1);
	if (copy) {
		memcpy(copy, text, len);
		read_lines(&r, copy);
	}
	RrOtlp__Metric **metrics = anew(&r.arena, (r.nmetrics + 1) * sizeof(*metrics));
	size_t i = 0;
	for (struct metric *m = r.metrics; metrics && m; m = m->next)
		metrics[i++] = &m->m;
	RrOtlp__InstrumentationScope scope = RR_OTLP__INSTRUMENTATION_SCOPE__INIT;
	scope.name = (char *)"rpcrdma-tools";
	if (res->service_version)
		scope.version = (char *)res->service_version;
	RrOtlp__ScopeMetrics sm = RR_OTLP__SCOPE_METRICS__INIT;
	sm.scope = &scope;
	sm.n_metrics = i;
	sm.metrics = metrics;
	RrOtlp__ScopeMetrics *sms[] = { &sm };
	RrOtlp__ResourceMetrics rm = RR_OTLP__RESOURCE_METRICS__INIT;
	rm.resource = resource_of(&r);
	rm.n_scope_metrics = 1;
	rm.scope_metrics = sms;
	RrOtlp__ResourceMetrics *rms[] = { &rm };
	RrOtlp__ExportMetricsServiceRequest req = RR_OTLP__EXPORT_METRICS_SERVICE_REQUEST__INIT;
	req.n_resource_metrics = 1;
	req.resource_metrics = rms;
	uint8_t *out = NULL;
	/* a failed allocation anywhere leaves a message with a NULL in it */
	if (!r.arena.failed) {
		size_t n = rr_otlp__export_metrics_service_request__get_packed_size(&req);
		out = malloc(n ? n : 1);
		if (out)
			*out_len = rr_otlp__export_metrics_service_request__pack(&req, out);
	}
	if (skipped)
		*skipped = r.skipped;
	arena_free(&r.arena);
	return out;
}
