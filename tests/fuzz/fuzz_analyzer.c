/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the stateful analyzer: the input is a run of
 * frames, each a link-type selector byte, a 16-bit length and the bytes,
 * fed to an analyzer with small limits so that eviction is exercised too.
 */
#include <stdlib.h>

#include <rpcrdma/analyzer.h>

static const uint32_t links[] = {
	RR_LINK_ETHERNET, RR_LINK_RAW, RR_LINK_LINUX_SLL, RR_LINK_ERF,
	RR_LINK_IPV4, RR_LINK_IPV6, RR_LINK_INFINIBAND, RR_LINK_LINUX_SLL2,
};

static unsigned long events;
static volatile unsigned long sum; /* keeps the reads of rebuilt bytes */

/* Every event of a report holds together until the next frame. */
static void check(const struct rr_frame_report *r, const struct rr_event *ev)
{
	const struct rr_ev_message *m = &ev->msg;
	const struct rr_ev_rpc_message *rb = &ev->rebuilt;
	if (ev->kind == RR_EV_MESSAGE && !m->hdr)
		abort();
	/* a rebuilt message's bytes are all there to read (ASan checks) */
	if (ev->kind == RR_EV_RPC_MESSAGE) {
		if (!rb->data && !r->bytes_unkept)
			abort();
		for (uint32_t i = 0; rb->data && i < rb->data_len; i++)
			sum += rb->data[i];
	}
	if (ev->kind == RR_EV_MESSAGE && m->data)
		for (uint32_t i = 0; i < m->data_len; i++)
			sum += m->data[i];
	/* a message's own completion and rebuilt message, and the events
	 * joined to a message name it */
	if (ev->kind == RR_EV_MESSAGE &&
	    ((m->done && (m->done->message != ev || m->done->kind != RR_EV_RPC_DONE)) ||
	     (m->rebuilt && (m->rebuilt->message != ev ||
			     m->rebuilt->kind != RR_EV_RPC_MESSAGE))))
		abort();
	if (ev->message && ev->message->kind != RR_EV_MESSAGE)
		abort();
	/* a chunk's packet names a chunk kind and an operation that exist */
	if (ev->kind == RR_EV_CHUNK_DATA &&
	    (!rr_chunk_kind_str(ev->chunk.source) || !rr_access_str(ev->chunk.access)))
		abort();
	/* an event names its connection as it stood, or none */
	if ((ev->conn_id == RR_CONN_NONE) != !ev->connection ||
	    (ev->connection && ev->connection->id != ev->conn_id))
		abort();
	if (ev->kind == RR_EV_SETUP &&
	    (!ev->setup.unit || (!rr_has(ev->setup.unit, RR_LAYER_CM) &&
				 !rr_has(ev->setup.unit, RR_LAYER_MPA))))
		abort();
	events++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a fresh analyzer per input keeps every crash reproducible alone */
	struct rr_analyzer *a;
	{
		struct rr_config cfg;
		struct rr_analyzer_limits lim;
		rr_config_init(&cfg);
		cfg.flags |= RR_CFG_CHUNK_EVENTS | RR_CFG_LIST_UNITS;
		rr_analyzer_limits_init(&lim);
		lim.send_keep = 2048;
		lim.max_connections = 4;
		lim.max_calls = 8;
		lim.max_segments = 16;
		lim.reassembly_slots = 2;
		lim.tcp_streams = 2;
		lim.rebuild_slots = 2;
		lim.rebuild_bytes = 4 * 4096;
		lim.max_rebuild = 8192;
		lim.report_bytes = 65536;
		a = rr_analyzer_new(&cfg, &lim);
		if (!a)
			abort();
	}
	uint64_t ts = 0;
	while (size >= 3) {
		uint32_t link = links[data[0] % (sizeof(links) / sizeof(links[0]))];
		size_t len = (size_t)(data[1] << 8 | data[2]);
		data += 3;
		size -= 3;
		if (len > size)
			len = size;
		const struct rr_frame_report *r =
			rr_analyzer_frame(a, link, ts += 1000, data, (uint32_t)len,
					  (uint32_t)len);
		for (uint32_t i = 0; i < r->nevents; i++)
			check(r, &r->events[i]);
		/* the listed units lie in this frame */
		if (r->nunit_list > RR_REPORT_UNITS)
			abort();
		for (uint32_t i = 0; i < r->nunit_list; i++)
			if (r->unit_list[i].data != data || r->unit_list[i].caplen != len)
				abort();
		data += len;
		size -= len;
	}
	for (const struct rr_frame_report *r; (r = rr_analyzer_finish(a));)
		for (uint32_t i = 0; i < r->nevents; i++)
			check(r, &r->events[i]);
	const struct rr_stats *st = rr_analyzer_stats(a);
	if (rr_analyzer_conn_count(a) > 4 || st->total.in_flight > 8 * 2)
		abort();
	rr_analyzer_free(a);
	return 0;
}
