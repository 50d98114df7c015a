/* SPDX-License-Identifier: BSD-2-Clause */
/* To-string functions, each generated from its list in rpcrdma/lists.h. */
#include "cursor.h"

#define RR_X_CASE(sym, val, str) case (val): return (str);
#define RR_NAME_FN(fn, LIST) \
	const char *fn(unsigned v) \
	{ \
		switch (v) { LIST(RR_X_CASE) default: return NULL; } \
	}

RR_NAME_FN(rr_status_str, RR_STATUS_LIST)
RR_NAME_FN(rr_problem_str, RR_PROBLEM_LIST)
RR_NAME_FN(rr_layer_str, RR_LAYER_LIST)
RR_NAME_FN(rr_bth_opcode_str, RR_BTH_OPCODE_LIST)
RR_NAME_FN(rr_aeth_type_str, RR_AETH_TYPE_LIST)
RR_NAME_FN(rr_nak_code_str, RR_NAK_CODE_LIST)
RR_NAME_FN(rr_mad_class_str, RR_MAD_CLASS_LIST)
RR_NAME_FN(rr_cm_attr_str, RR_CM_ATTR_LIST)
RR_NAME_FN(rr_cm_rej_reason_str, RR_CM_REJ_REASON_LIST)
RR_NAME_FN(rr_rdmap_opcode_str, RR_RDMAP_OPCODE_LIST)
RR_NAME_FN(rr_rdma_proc_str, RR_RDMA_PROC_LIST)
RR_NAME_FN(rr_rdma_err_str, RR_RDMA_ERR_LIST)
RR_NAME_FN(rr_confidence_str, RR_CONFIDENCE_LIST)
RR_NAME_FN(rr_rpc_msg_type_str, RR_RPC_MSG_TYPE_LIST)
RR_NAME_FN(rr_rpc_reply_stat_str, RR_RPC_REPLY_STAT_LIST)
RR_NAME_FN(rr_rpc_accept_stat_str, RR_RPC_ACCEPT_STAT_LIST)
RR_NAME_FN(rr_rpc_reject_stat_str, RR_RPC_REJECT_STAT_LIST)
RR_NAME_FN(rr_rpc_auth_stat_str, RR_RPC_AUTH_STAT_LIST)
RR_NAME_FN(rr_rpc_auth_flavor_str, RR_RPC_AUTH_FLAVOR_LIST)
RR_NAME_FN(rr_gss_proc_str, RR_GSS_PROC_LIST)
RR_NAME_FN(rr_gss_service_str, RR_GSS_SERVICE_LIST)
RR_NAME_FN(rr_rpc_program_str, RR_RPC_PROGRAM_LIST)

RR_NAME_FN(rr_link_str, RR_LINK_LIST)
RR_NAME_FN(rr_ethertype_str, RR_ETHERTYPE_LIST)
RR_NAME_FN(rr_ip_proto_str, RR_IP_PROTO_LIST)

static RR_NAME_FN(nfs2_proc_str, RR_NFS2_PROC_LIST)
static RR_NAME_FN(nfs3_proc_str, RR_NFS3_PROC_LIST)
static RR_NAME_FN(nfs4_proc_str, RR_NFS4_PROC_LIST)
static RR_NAME_FN(nfs4_cb_proc_str, RR_NFS4_CB_PROC_LIST)
static RR_NAME_FN(portmap_proc_str, RR_PORTMAP_PROC_LIST)
static RR_NAME_FN(mount_proc_str, RR_MOUNT_PROC_LIST)
static RR_NAME_FN(nlm_proc_str, RR_NLM_PROC_LIST)
static RR_NAME_FN(nfsacl_proc_str, RR_NFSACL_PROC_LIST)

const char *rr_rpc_proc_str(uint32_t prog, uint32_t vers, uint32_t proc)
{
	switch (prog) {
	case RR_PROG_NFS:
		if (vers == 2)
			return nfs2_proc_str(proc);
		if (vers == 3)
			return nfs3_proc_str(proc);
		if (vers == 4)
			return nfs4_proc_str(proc);
		return NULL;
	case RR_PROG_NFS4_CB:
		return nfs4_cb_proc_str(proc);
	case RR_PROG_PORTMAP:
		return portmap_proc_str(proc);
	case RR_PROG_MOUNT:
		return vers == 3 ? mount_proc_str(proc) : NULL;
	case RR_PROG_NLM:
		return vers == 4 ? nlm_proc_str(proc) : NULL;
	case RR_PROG_NFS_ACL:
		return vers == 3 ? nfsacl_proc_str(proc) : NULL;
	default:
		return NULL;
	}
}

RR_NAME_FN(rr_transport_str, RR_TRANSPORT_LIST)
RR_NAME_FN(rr_crc_state_str, RR_CRC_STATE_LIST)
RR_NAME_FN(rr_chunk_list_str, RR_CHUNK_LIST_LIST)
