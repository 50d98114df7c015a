/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The JSON Lines writer (exporters/rr_json_lines.c) on message shapes the
 * bundled and Linux captures do not hold: several write chunks and a
 * reply chunk, RDMA_ERROR, a denied call, an accept status and a program
 * without names, findings.  Each line is compared with the text
 * docs/json-schema.md gives, and read back by json-c's parser.
 */
#include <string.h>

#include <json-c/json.h>

#include "check.h"
#include "rr_json.h"

static struct rr_json_writer *w;

static void line_is(const char *what, const char *got, const char *want)
{
	check_ctx = what;
	if (!CHECK(got && !strcmp(got, want)))
		printf("#   got  %s\n#   want %s\n", got ? got : "(null)", want);
	CHECK(got && rr_json_writer_len(w) == strlen(got));
	json_object *o = got ? json_tokener_parse(got) : NULL;
	CHECK(o && json_object_is_type(o, json_type_object));
	json_object_put(o);
}

static struct rr_rdma_seg seg(uint8_t list, uint8_t chunk, uint32_t handle)
{
	struct rr_rdma_seg s = { .list = list, .chunk = chunk, .position = 4,
				 .handle = handle, .length = 8192,
				 .offset = 0xffff880000001000ull };
	return s;
}

int main(void)
{
	w = rr_json_writer_new();
	CHECK(w != NULL);

	/* RFC 8166 §4.3: a read list, two write chunks, a reply chunk;
	 * an RPC reply whose accept status has no name; a finding */
	struct rr_rpcrdma h = { .xid = 7, .vers = 1, .credits = 128,
				.proc = RR_RDMA_MSG, .body_decoded = true };
	h.segs[h.nsegs++] = seg(RR_LIST_READ, 0, 1);
	h.segs[h.nsegs++] = seg(RR_LIST_WRITE, 0, 2);
	h.segs[h.nsegs++] = seg(RR_LIST_WRITE, 0, 3);
	h.segs[h.nsegs++] = seg(RR_LIST_WRITE, 1, 4);
	h.segs[h.nsegs++] = seg(RR_LIST_REPLY, 0, 5);
	struct rr_rpc rpc = { .xid = 7, .msg_type = RR_RPC_REPLY,
			      .reply_stat = RR_RPC_MSG_ACCEPTED, .accept_stat = 99 };
	struct rr_event ev[2] = { {
		.kind = RR_EV_MESSAGE, .frame = 3, .ts_ns = 1700000000123456789ull,
		.conn_id = 2, .dir = RR_DIR_FWD_REPLY,
		.msg = { .hdr = &h, .rpc = &rpc, .msg_len = 300, .inv_stag = 0x1234,
			 .resent_of = 1 },
	} };
	ev[1] = (struct rr_event){ .kind = RR_EV_FINDING, .message = &ev[0],
				   .finding = { .id = RR_FIND_SWI_WITHOUT_R } };
	struct rr_frame_report r = { .frame = 3, .events = ev, .nevents = 2 };
	line_is("chunk lists and an unnamed accept status",
		rr_json_writer_message(w, &r, &ev[0]),
		"{\"type\":\"message\",\"schema\":1,\"frame\":3,\"ts\":1700000000.123456,"
		"\"conn\":2,\"dir\":\"reply\",\"xid\":7,\"vers\":1,\"credits\":128,"
		"\"proc\":\"RDMA_MSG\",\"len\":300,\"invalidated_stag\":4660,\"resent_of\":1,"
		"\"reads\":[{\"position\":4,\"handle\":1,\"length\":8192,\"offset\":18446612132314222592}],"
		"\"writes\":[[{\"handle\":2,\"length\":8192,\"offset\":18446612132314222592},"
		"{\"handle\":3,\"length\":8192,\"offset\":18446612132314222592}],"
		"[{\"handle\":4,\"length\":8192,\"offset\":18446612132314222592}]],"
		"\"reply\":[{\"handle\":5,\"length\":8192,\"offset\":18446612132314222592}],"
		"\"rpc\":{\"xid\":7,\"msg_type\":\"REPLY\",\"reply_stat\":\"MSG_ACCEPTED\","
		"\"accept_stat\":99},\"completed\":null,"
		"\"findings\":[\"rpcrdma.invalidate_without_r\"]}");

	/* RDMA_ERROR ERR_VERS (RFC 8166 §4.5): no chunk lists; a denied
	 * call; completed */
	struct rr_rpcrdma e = { .xid = 9, .vers = 1, .credits = 1,
				.proc = RR_RDMA_ERROR, .body_decoded = true,
				.err = RR_ERR_VERS, .vers_low = 1, .vers_high = 1 };
	struct rr_rpc denied = { .xid = 9, .msg_type = RR_RPC_REPLY,
				 .reply_stat = RR_RPC_MSG_DENIED };
	/* the call was a COMPOUND of three operations, two followed, one of
	 * them a number no operation has */
	struct rr_nfs4_compound ops = { .minorversion = 1, .numops = 3, .named = 2,
					.op = { RR_OP_SEQUENCE, 200 } };
	struct rr_event done = { .kind = RR_EV_RPC_DONE,
				 .done = { .latency_ns = 1500, .bytes_inline = 40,
					   .bytes_read = 0, .bytes_write = 1ull << 40,
					   .rpc_known = true, .prog = RR_PROG_NFS,
					   .vers = 4, .proc = 1, .nfs4 = &ops } };
	struct rr_event em = { .kind = RR_EV_MESSAGE, .frame = 4, .ts_ns = 999,
			       .conn_id = 0, .dir = RR_DIR_FWD_REPLY,
			       .msg = { .hdr = &e, .rpc = &denied, .msg_len = 20,
					.done = &done } };
	struct rr_frame_report r2 = { .frame = 4, .events = &em, .nevents = 1 };
	line_is("RDMA_ERROR, a denied reply, a completion",
		rr_json_writer_message(w, &r2, &em),
		"{\"type\":\"message\",\"schema\":1,\"frame\":4,\"ts\":0.000000,"
		"\"conn\":0,\"dir\":\"reply\",\"xid\":9,\"vers\":1,\"credits\":1,"
		"\"proc\":\"RDMA_ERROR\",\"len\":20,\"reads\":[],\"writes\":[],\"reply\":null,"
		"\"err\":\"ERR_VERS\",\"vers_low\":1,\"vers_high\":1,"
		"\"rpc\":{\"xid\":9,\"msg_type\":\"REPLY\",\"reply_stat\":\"MSG_DENIED\"},"
		"\"completed\":{\"latency_ns\":1500,\"bytes_inline\":40,\"bytes_read\":0,"
		"\"bytes_write\":1099511627776,\"prog\":100003,\"prog_name\":\"NFS\",\"vers\":4,"
		"\"proc\":1,\"proc_name\":\"COMPOUND\",\"ops\":[\"SEQUENCE\",200],\"numops\":3},"
		"\"findings\":[]}");

	/* a procedure number past RDMA_ERROR: the number; a call to a
	 * program without a name */
	struct rr_rpcrdma odd = { .xid = 1, .vers = 1, .proc = 77 };
	struct rr_rpc call = { .xid = 1, .msg_type = RR_RPC_CALL, .prog = 400999,
			       .vers = 3, .proc = 5, .named = true, .cred_flavor = 1 };
	struct rr_event om = { .kind = RR_EV_MESSAGE, .frame = 5, .ts_ns = 1,
			       .dir = RR_DIR_FWD_CALL, .msg = { .hdr = &odd, .rpc = &call } };
	struct rr_frame_report r3 = { .frame = 5, .events = &om, .nevents = 1 };
	line_is("an unnamed procedure and program",
		rr_json_writer_message(w, &r3, &om),
		"{\"type\":\"message\",\"schema\":1,\"frame\":5,\"ts\":0.000000,"
		"\"conn\":0,\"dir\":\"call\",\"xid\":1,\"vers\":1,\"credits\":0,"
		"\"proc\":77,\"len\":0,\"reads\":[],\"writes\":[],\"reply\":null,"
		"\"rpc\":{\"xid\":1,\"msg_type\":\"CALL\",\"prog\":400999,\"prog_name\":null,"
		"\"vers\":3,\"proc\":5,\"proc_name\":null,\"cred_flavor\":1},"
		"\"completed\":null,\"findings\":[]}");

	/* RPCSEC_GSS credentials (RFC 2203 §5): a context's destruction,
	 * and a procedure and service past the RFC's, as numbers */
	struct rr_rpc gss = { .xid = 3, .msg_type = RR_RPC_CALL, .prog = RR_PROG_NFS, .vers = 4,
			      .proc = 0, .named = true, .cred_flavor = RR_AUTH_RPCSEC_GSS,
			      .gss = true, .gss_proc = RR_GSS_DESTROY, .gss_seq = 47,
			      .gss_service = RR_GSS_SVC_INTEGRITY };
	struct rr_event gm = { .kind = RR_EV_MESSAGE, .frame = 6, .ts_ns = 1,
			       .dir = RR_DIR_FWD_CALL, .msg = { .hdr = &odd, .rpc = &gss } };
	struct rr_frame_report r5 = { .frame = 6, .events = &gm, .nevents = 1 };
	line_is("an RPCSEC_GSS context destroyed",
		rr_json_writer_message(w, &r5, &gm),
		"{\"type\":\"message\",\"schema\":1,\"frame\":6,\"ts\":0.000000,"
		"\"conn\":0,\"dir\":\"call\",\"xid\":1,\"vers\":1,\"credits\":0,"
		"\"proc\":77,\"len\":0,\"reads\":[],\"writes\":[],\"reply\":null,"
		"\"rpc\":{\"xid\":3,\"msg_type\":\"CALL\",\"prog\":100003,\"prog_name\":\"NFS\","
		"\"vers\":4,\"proc\":0,\"proc_name\":\"NULL\",\"cred_flavor\":6,"
		"\"gss\":{\"proc\":\"RPCSEC_GSS_DESTROY\",\"seq\":47,\"service\":\"integrity\"}},"
		"\"completed\":null,\"findings\":[]}");
	gss.gss_proc = 9;
	gss.gss_service = 4;
	line_is("an RPCSEC_GSS procedure and service without names",
		rr_json_writer_message(w, &r5, &gm),
		"{\"type\":\"message\",\"schema\":1,\"frame\":6,\"ts\":0.000000,"
		"\"conn\":0,\"dir\":\"call\",\"xid\":1,\"vers\":1,\"credits\":0,"
		"\"proc\":77,\"len\":0,\"reads\":[],\"writes\":[],\"reply\":null,"
		"\"rpc\":{\"xid\":3,\"msg_type\":\"CALL\",\"prog\":100003,\"prog_name\":\"NFS\","
		"\"vers\":4,\"proc\":0,\"proc_name\":\"NULL\",\"cred_flavor\":6,"
		"\"gss\":{\"proc\":9,\"seq\":47,\"service\":4}},"
		"\"completed\":null,\"findings\":[]}");

	/* a call header cut before its procedure, and the reply to it: no
	 * number the capture did not hold */
	struct rr_rpc cut = { .xid = 2, .msg_type = RR_RPC_CALL, .prog = RR_PROG_NFS };
	struct rr_event cm = { .kind = RR_EV_MESSAGE, .frame = 7, .ts_ns = 1,
			       .dir = RR_DIR_FWD_CALL, .msg = { .hdr = &odd, .rpc = &cut } };
	struct rr_frame_report r4 = { .frame = 7, .events = &cm, .nevents = 1 };
	line_is("a call header cut before its procedure",
		rr_json_writer_message(w, &r4, &cm),
		"{\"type\":\"message\",\"schema\":1,\"frame\":7,\"ts\":0.000000,"
		"\"conn\":0,\"dir\":\"call\",\"xid\":1,\"vers\":1,\"credits\":0,"
		"\"proc\":77,\"len\":0,\"reads\":[],\"writes\":[],\"reply\":null,"
		"\"rpc\":{\"xid\":2,\"msg_type\":\"CALL\",\"prog\":null,\"prog_name\":null,"
		"\"vers\":null,\"proc\":null,\"proc_name\":null,\"cred_flavor\":null},"
		"\"completed\":null,\"findings\":[]}");
	struct rr_event unknown = { .kind = RR_EV_RPC_DONE, .frame = 8, .ts_ns = 1,
				    .dir = RR_DIR_FWD_REPLY,
				    .done = { .xid = 2, .call_frame = 7, .latency_ns = 5,
					      /* accept_stat 4 (RFC 5531 §9) */
					      .reply_status = RR_REPLY_ACCEPTED + 4 } };
	line_is("a slow call whose call header was cut, answered GARBAGE_ARGS",
		rr_json_writer_slow_call(w, &unknown),
		"{\"type\":\"slow_call\",\"schema\":1,\"frame\":8,\"ts\":0.000000,"
		"\"conn\":0,\"dir\":\"reply\",\"xid\":2,\"call_frame\":7,"
		"\"client\":null,\"server\":null,\"prog\":null,\"prog_name\":null,"
		"\"vers\":null,\"proc\":null,\"proc_name\":null,\"latency_ns\":5,"
		"\"fh_hash\":null,\"rpc_status\":\"GARBAGE_ARGS\"}");
	unknown.done.reply_status = RR_REPLY_UNSEEN;
	line_is("... and one whose reply's RPC header was not seen",
		rr_json_writer_slow_call(w, &unknown),
		"{\"type\":\"slow_call\",\"schema\":1,\"frame\":8,\"ts\":0.000000,"
		"\"conn\":0,\"dir\":\"reply\",\"xid\":2,\"call_frame\":7,"
		"\"client\":null,\"server\":null,\"prog\":null,\"prog_name\":null,"
		"\"vers\":null,\"proc\":null,\"proc_name\":null,\"latency_ns\":5,"
		"\"fh_hash\":null,\"rpc_status\":null}");

	/* an RPC message rebuilt from a reply chunk (RFC 8166 §3.5.4) */
	struct rr_event q = { .kind = RR_EV_RPC_MESSAGE, .frame = 6,
			      .ts_ns = 2000000000ull, .conn_id = 4294967294u,
			      .dir = RR_DIR_BWD_REPLY,
			      .rebuilt = { .xid = 0xffffffffu, .source = RR_KIND_REPLY,
					   .data_len = 65536 } };
	line_is("a rebuilt RPC message without its RPC header",
		rr_json_writer_rpc_message(w, &q),
		"{\"type\":\"rpc_message\",\"schema\":1,\"frame\":6,\"ts\":2.000000,"
		"\"conn\":4294967294,\"dir\":\"backward_reply\",\"xid\":4294967295,"
		"\"source\":\"reply\",\"len\":65536,\"rpc\":null}");

	rr_json_writer_free(w);
	return check_done();
}
