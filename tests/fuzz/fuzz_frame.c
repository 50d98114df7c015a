/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer target for the frame decoder.  Input: one byte choosing the
 * link type, one byte of options (stream hints, a wire length longer than
 * the capture), then the frame.  Every unit of every frame is decoded, and
 * what the decoder reports is checked against what it was given.
 */
#include <stdlib.h>

#include <rpcrdma/dissect.h>

static const uint32_t links[] = {
	RR_LINK_ETHERNET, RR_LINK_RAW, RR_LINK_LINUX_SLL, RR_LINK_ERF,
	RR_LINK_IPV4, RR_LINK_IPV6, RR_LINK_INFINIBAND, RR_LINK_LINUX_SLL2,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rr_frame f;
	struct rr_config cfg;
	if (size < 2 || size > 65535)
		return 0;
	rr_config_init(&cfg);
	uint32_t link = links[data[0] % (sizeof(links) / sizeof(links[0]))];
	uint8_t opt = data[1];
	static uint8_t scratch[65536];
	struct rr_stream_hint hint = { .iwarp = opt & 1, .rpcrdma = opt & 2,
				       .iwarp_crc = opt & 4 };
	if (opt & 0x20) {
		/* markers on a grid chosen by the input's own bytes */
		hint.iwarp_markers = true;
		hint.marker_seq0 = (uint32_t)size * 2654435761u;
		hint.scratch = scratch;
		hint.scratch_len = (opt & 0x40) ? 16 : sizeof(scratch);
	}
	if (opt & 8)
		cfg.flags = 0;
	uint32_t caplen = (uint32_t)(size - 2);
	uint32_t wirelen = caplen + ((opt & 0x10) ? 1500u : 0);
	unsigned units = 0;
	for (bool more = rr_decode_frame(&cfg, link, data + 2, caplen, wirelen,
					 &hint, &f);
	     more; more = rr_decode_next_unit(&cfg, &f)) {
		/* a unit never runs backwards, so the loop always ends */
		if (++units > caplen + 1)
			abort();
		if (rr_has(&f, RR_LAYER_RPCRDMA)) {
			if (f.rdma.nsegs > RR_MAX_SEGMENTS)
				abort();
			for (unsigned i = 0; i < f.rdma.nsegs; i++)
				if (rr_wire_offset(&f, f.rdma.segs[i].off) >=
				    wirelen)
					abort();
		}
		if (f.status > RR_MALFORMED)
			abort();
	}
	return 0;
}
