/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel's view rendered (exporters/rr_trace_report.c) for a client
 * whose calls went out on several connections, as an nconnect mount's
 * do: the screen's table of them, -j's transports, the exporter's series,
 * each connection's sends as read from the kernel; the backchannel's
 * sends, which no client made; and a client whose kernel does not tell
 * them apart renders none of it.
 * usage: trace-report-check
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "../unit/check.h"

#include "rr_trace_report.h"

/* What the screen's report (json false) or -j (true) wrote, as one
 * string (free it). */
static char *render(const struct rr_tp_stats *s, const struct rr_tp_detail *d, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	struct rr_tp_stats prev = *s;
	if (json)
		rr_trace_report_json(f, s, d);
	else
		rr_trace_report_text(f, s, &prev, d, 1.0);
	fclose(f);
	return buf;
}

static unsigned lines_with(const char *text, const char *what)
{
	unsigned n = 0;
	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

int main(void)
{
	struct rr_tp_transport transports[] = {
		{ .client_id = 0x2a, .cq_id = 17, .sends = 300 },
		{ .client_id = 0x2a, .cq_id = 19, .sends = 250 },
		{ .client_id = 0x2a, .cq_id = 21, .sends = 1 },
		/* an NFSv4.1 client's replies to callbacks: no client's */
		{ .client_id = RR_TP_NO_CLIENT, .cq_id = 19, .sends = 2 },
	};
	struct rr_tp_client clients[] = {
		{ .id = 0x2a, .peer = "[2001:db8::1]:20049", .calls = 551, .replies = 551,
		  .transports = 3, .first_transport = 0 },
		{ .id = 0x2b, .peer = "192.0.2.1:20049", .calls = 5, .replies = 5 },
	};
	struct rr_tp_detail d = { .nclients = 2, .clients = clients,
				  .ntransports = 4, .transports = transports,
				  .first_backchannel = 3, .nbackchannel = 1 };
	struct rr_tp_stats s = { .calls = 556, .replies = 556 };

	check_ctx = "screen";
	char *text = render(&s, &d, false);
	if (CHECK(text != NULL)) {
		CHECK(strstr(text, "SEND CQ") != NULL);
		CHECK_EQ(lines_with(text, "2a       [2001:db8::1]:20049"), 1 + 3);
		CHECK(strstr(text, "        17        300\n") != NULL);
		CHECK(strstr(text, "        21          1\n") != NULL);
		CHECK_EQ(lines_with(text, "2b       192.0.2.1:20049"), 1);
		CHECK(strstr(text, "BACKCHANNEL (replies to callbacks)") != NULL);
		CHECK(strstr(text, "\n-                                             19          2\n") != NULL);
	}
	free(text);

	check_ctx = "-j";
	char *js = render(&s, &d, true);
	json_object *o = js ? json_tokener_parse(js) : NULL;
	json_object *conns = NULL, *c0 = NULL, *c1 = NULL, *tr = NULL, *tmp = NULL;
	if (CHECK(o && json_object_object_get_ex(o, "connections", &conns) &&
		  json_object_array_length(conns) == 2)) {
		c0 = json_object_array_get_idx(conns, 0);
		c1 = json_object_array_get_idx(conns, 1);
		CHECK(json_object_object_get_ex(c0, "transports", &tr) &&
		      json_object_array_length(tr) == 3);
		uint64_t sum = 0;
		for (size_t i = 0; tr && i < json_object_array_length(tr); i++)
			if (json_object_object_get_ex(json_object_array_get_idx(tr, i), "sends", &tmp))
				sum += json_object_get_uint64(tmp);
		CHECK_EQ(sum, 551);
		/* not told apart: no key, not an empty list */
		CHECK(!json_object_object_get_ex(c1, "transports", &tmp));
		/* the backchannel's, with no client */
		json_object *bc = NULL;
		CHECK(json_object_object_get_ex(o, "backchannel_sends", &bc) &&
		      json_object_array_length(bc) == 1 &&
		      json_object_object_get_ex(json_object_array_get_idx(bc, 0), "sends", &tmp) &&
		      json_object_get_uint64(tmp) == 2);
	}
	json_object_put(o);
	free(js);

	check_ctx = "exporter";
	struct rr_text out;
	rr_text_init(&out);
	struct rr_prom w = { .out = &out };
	rr_trace_report_prom(&w, &s, &d);
	rr_prom_end(&w);
	if (CHECK(!out.failed && out.p)) {
		CHECK_EQ(lines_with(out.p, "rpcrdma_trace_transport_sends_total{"), 3);
		CHECK(strstr(out.p, "\nrpcrdma_trace_backchannel_sends_total{cq_id=\"19\"} 2\n") != NULL);
		CHECK(strstr(out.p, "rpcrdma_trace_transport_sends_total{remote=\"[2001:db8::1]:20049\","
				    "client=\"2a\",cq_id=\"19\"} 250\n") != NULL);
	}
	rr_text_free(&out);

	/* one connection a client: no table on the screen */
	check_ctx = "one connection";
	clients[0].transports = 1;
	d.nbackchannel = 0;
	text = render(&s, &d, false);
	CHECK(text && !strstr(text, "SEND CQ"));
	free(text);
	return check_done();
}
