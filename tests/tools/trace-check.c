/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The tracepoint reader on the layouts of two kernel generations (format
 * files written from include/trace/events/rpcrdma.h: "older" with the rep
 * and req pointers in xprtrdma_reply and no completion ID in
 * svcrdma_decode_rqst, "newer" without the pointers and with cq_id and
 * completion_id): records laid out by hand as each kernel lays them out
 * are read right through their own format file, and wrong through the
 * other's, so no offset is taken for granted.
 * usage: trace-check DIR (tests/kernel/tracepoints)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/check.h"

#include "trace.h"

/* the unit tests' TAP checks, with a sentence for each */
#define check(ok, what) check_report(!!(ok), what, __FILE__, __LINE__, check_ctx)

static void layout(const char *dir, const char *gen, const char *ev,
		   struct rr_tp_layout *l)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s/%s/format", dir, gen, ev);
	FILE *f = fopen(path, "r");
	static char text[16384];
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	if (f)
		fclose(f);
	text[n] = '\0';
	if (!rr_tp_parse_format(text, l)) {
		printf("not ok - %s does not parse\n", path);
		exit(1);
	}
}

static void put32(uint8_t *rec, unsigned off, uint32_t v)
{
	memcpy(rec + off, &v, 4);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: trace-check DIR\n");
		return 2;
	}
	struct rr_tp_layout old_reply, new_reply, old_rqst, new_rqst, old_rd, new_rd;
	layout(argv[1], "older", "xprtrdma_reply", &old_reply);
	layout(argv[1], "newer", "xprtrdma_reply", &new_reply);
	layout(argv[1], "older", "svcrdma_decode_rqst", &old_rqst);
	layout(argv[1], "newer", "svcrdma_decode_rqst", &new_rqst);
	layout(argv[1], "older", "xprtrdma_chunk_read", &old_rd);
	layout(argv[1], "newer", "xprtrdma_chunk_read", &new_rd);
	check(!strcmp(new_reply.name, "xprtrdma_reply") && new_reply.id == 2210 &&
		      new_reply.nfields == 8,
	      "name, ID and fields of a format file");
	uint8_t rep_old[40] = { 0 };
	uint64_t rep = 0x0123456789abcdefull, got = 0;
	memcpy(rep_old + 16, &rep, 8);
	check(rr_tp_get(&old_reply, rep_old, sizeof(rep_old), "rep", &got) &&
		      got == rep,
	      "a pointer field, named after its '*', read whole");

	/* xprtrdma_reply: xid and credits at 32/36 (older), 16/20 (newer) */
	uint8_t rec_old[40] = { 0 }, rec_new[24] = { 0 };
	put32(rec_old, 32, 0x5a170001);
	put32(rec_old, 36, 64);
	put32(rec_new, 16, 0x5a170002);
	put32(rec_new, 20, 32);
	uint64_t xid = 0, credits = 0;
	check(rr_tp_get(&old_reply, rec_old, sizeof(rec_old), "xid", &xid) &&
		      xid == 0x5a170001 &&
		      rr_tp_get(&old_reply, rec_old, sizeof(rec_old), "credits", &credits) &&
		      credits == 64,
	      "older xprtrdma_reply: xid and credits where that kernel puts them");
	check(rr_tp_get(&new_reply, rec_new, sizeof(rec_new), "xid", &xid) &&
		      xid == 0x5a170002 &&
		      rr_tp_get(&new_reply, rec_new, sizeof(rec_new), "credits", &credits) &&
		      credits == 32,
	      "newer xprtrdma_reply: xid and credits where that kernel puts them");
	check(!rr_tp_get(&old_reply, rec_new, sizeof(rec_new), "xid", &xid),
	      "a record shorter than its layout is refused");
	rr_tp_get(&new_reply, rec_old, sizeof(rec_old), "xid", &xid);
	check(xid != 0x5a170001, "the other kernel's layout reads other bytes");
	check(!rr_tp_get(&new_reply, rec_new, sizeof(rec_new), "rep", &xid),
	      "a field a kernel does not have is absent");

	/* svcrdma_decode_rqst: proc and credits */
	uint8_t rq_old[28] = { 0 }, rq_new[36] = { 0 };
	put32(rq_old, 16, 1);   /* RDMA_NOMSG */
	put32(rq_old, 20, 128);
	put32(rq_new, 24, 0);   /* RDMA_MSG */
	put32(rq_new, 28, 100);
	struct rr_tp_stats st;
	memset(&st, 0, sizeof(st));
	rr_tp_account(&st, RR_TP_SVC_RQST, &old_rqst, rq_old, sizeof(rq_old));
	rr_tp_account(&st, RR_TP_SVC_RQST, &new_rqst, rq_new, sizeof(rq_new));
	check(st.requests == 2 && st.requests_by_proc[1] == 1 &&
		      st.requests_by_proc[0] == 1 && st.requested_credits == 100,
	      "svcrdma_decode_rqst of both kernels: requests by proc, credits");

	/* xprtrdma_chunk_read: a segment's length at 36 (older), 28 (newer) */
	uint8_t rd_old[52] = { 0 }, rd_new[44] = { 0 };
	put32(rd_old, 36, 4096);
	put32(rd_new, 28, 1904);
	rr_tp_account(&st, RR_TP_CHUNK_READ, &old_rd, rd_old, sizeof(rd_old));
	rr_tp_account(&st, RR_TP_CHUNK_READ, &new_rd, rd_new, sizeof(rd_new));
	check(st.read_segments == 2 && st.segment_bytes == 6000,
	      "xprtrdma_chunk_read of both kernels: segments and bytes");
	rr_tp_account(&st, RR_TP_REPLY, &new_reply, rec_new, sizeof(rec_new));
	check(st.replies == 1 && st.credits == 32, "xprtrdma_reply: the grant");
	struct rr_tp_layout bad;
	check(!rr_tp_parse_format("not a format file\n", &bad),
	      "text that is not a format file is refused");
	rr_tp_layout_free(&bad);
	struct rr_tp_layout *all[] = { &old_reply, &new_reply, &old_rqst,
				       &new_rqst, &old_rd, &new_rd };
	for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		rr_tp_layout_free(all[i]);
	return check_done();
}
