/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The value lists of every protocol libdissect knows, each written once.
 *
 * Each list is an X-macro: X(symbol, value, "name").  dissect.h turns every
 * list into an enum, names.c into a to-string function, and the Wireshark
 * plugin into value_string tables, so a value added here reaches all three.
 */
#ifndef RPCRDMA_LISTS_H
#define RPCRDMA_LISTS_H

/* Per-layer outcome. */
#define RR_STATUS_LIST(X) \
	X(RR_COMPLETE, 0, "complete") \
	X(RR_TRUNCATED, 1, "truncated") \
	X(RR_MALFORMED, 2, "malformed")

/* Why a layer is truncated or malformed, or a note on a complete one. */
#define RR_PROBLEM_LIST(X) \
	X(RR_PROBLEM_NONE, 0, "none") \
	X(RR_PROBLEM_SHORT, 1, "capture ends before the field") \
	X(RR_PROBLEM_BAD_VERSION, 2, "unsupported version") \
	X(RR_PROBLEM_BAD_LENGTH, 3, "length field contradicts the bytes") \
	X(RR_PROBLEM_OVER_CAP, 4, "count exceeds the decoder's cap") \
	X(RR_PROBLEM_COUNT_EXCEEDS_BYTES, 5, "count exceeds the bytes left") \
	X(RR_PROBLEM_BAD_VALUE, 6, "value not allowed by the protocol") \
	X(RR_PROBLEM_BAD_ICRC, 7, "ICRC mismatch") \
	X(RR_PROBLEM_BAD_CRC32C, 8, "MPA CRC32c mismatch") \
	X(RR_PROBLEM_BAD_ALIGNMENT, 9, "value not a multiple of 4") \
	X(RR_PROBLEM_TRAILING_BYTES, 10, "bytes left after the message") \
	X(RR_PROBLEM_UNSUPPORTED_LINK, 11, "unsupported link-layer type") \
	X(RR_PROBLEM_FRAGMENT, 12, "message continues in a later packet") \
	X(RR_PROBLEM_NO_SCRATCH, 13, "no room to remove MPA markers")

/* What carries the RDMA traffic of a frame. */
#define RR_TRANSPORT_LIST(X) \
	X(RR_TRANSPORT_NONE, 0, "none") \
	X(RR_TRANSPORT_IB, 1, "InfiniBand") \
	X(RR_TRANSPORT_ROCEV1, 2, "RoCEv1") \
	X(RR_TRANSPORT_ROCEV2, 3, "RoCEv2") \
	X(RR_TRANSPORT_IWARP, 4, "iWARP")

/* State of an IB ICRC or an MPA CRC32c. */
#define RR_CRC_STATE_LIST(X) \
	X(RR_CRC_ABSENT, 0, "absent") \
	X(RR_CRC_UNCHECKED, 1, "not checked") \
	X(RR_CRC_GOOD, 2, "good") \
	X(RR_CRC_BAD, 3, "bad") \
	X(RR_CRC_ZERO, 4, "zero (not in use)")

/* The three chunk lists of an RPC-over-RDMA header (RFC 8166 §4.3). */
#define RR_CHUNK_LIST_LIST(X) \
	X(RR_LIST_READ, 0, "read") \
	X(RR_LIST_WRITE, 1, "write") \
	X(RR_LIST_REPLY, 2, "reply")

/* The layers a frame can hold, outermost first. */
#define RR_LAYER_LIST(X) \
	X(RR_LAYER_ERF, 0, "ERF") \
	X(RR_LAYER_ETH, 1, "Ethernet") \
	X(RR_LAYER_SLL, 2, "Linux cooked") \
	X(RR_LAYER_IPV4, 3, "IPv4") \
	X(RR_LAYER_IPV6, 4, "IPv6") \
	X(RR_LAYER_UDP, 5, "UDP") \
	X(RR_LAYER_TCP, 6, "TCP") \
	X(RR_LAYER_LRH, 7, "IB LRH") \
	X(RR_LAYER_GRH, 8, "IB GRH") \
	X(RR_LAYER_BTH, 9, "IB BTH") \
	X(RR_LAYER_EXT, 10, "IB extension headers") \
	X(RR_LAYER_ICRC, 11, "IB ICRC") \
	X(RR_LAYER_MAD, 12, "IB MAD") \
	X(RR_LAYER_CM, 13, "IB CM") \
	X(RR_LAYER_RDMA_CM, 14, "RDMA-CM header") \
	X(RR_LAYER_MPA, 15, "MPA") \
	X(RR_LAYER_DDP, 16, "DDP/RDMAP") \
	X(RR_LAYER_CM_PRIVATE, 17, "RFC 8797 private data") \
	X(RR_LAYER_RPCRDMA, 18, "RPC-over-RDMA") \
	X(RR_LAYER_RPC, 19, "ONC RPC")

/*
 * Link-layer types, by LINKTYPE_ value (pcap-linktype(7)); DLT_RAW's
 * platform value 12 is accepted as well.
 */
#define RR_LINK_LIST(X) \
	X(RR_LINK_ETHERNET, 1, "Ethernet") \
	X(RR_LINK_RAW_DLT, 12, "raw IP") \
	X(RR_LINK_RAW, 101, "raw IP") \
	X(RR_LINK_LINUX_SLL, 113, "Linux cooked v1") \
	X(RR_LINK_ERF, 197, "ERF") \
	X(RR_LINK_IPV4, 228, "raw IPv4") \
	X(RR_LINK_IPV6, 229, "raw IPv6") \
	X(RR_LINK_INFINIBAND, 247, "InfiniBand") \
	X(RR_LINK_LINUX_SLL2, 276, "Linux cooked v2")

/* Ethertypes a capture of RDMA hosts carries besides RDMA (IEEE
 * registry), named for frames that are not RDMA. */
#define RR_ETHERTYPE_LIST(X) \
	X(RR_ETHERTYPE_IPV4, 0x0800, "IPv4") \
	X(RR_ETHERTYPE_ARP, 0x0806, "ARP") \
	X(RR_ETHERTYPE_VLAN, 0x8100, "802.1Q") \
	X(RR_ETHERTYPE_ROCEV1, 0x8915, "RoCEv1") \
	X(RR_ETHERTYPE_IPV6, 0x86dd, "IPv6") \
	X(RR_ETHERTYPE_LACP, 0x8809, "Slow Protocols (LACP)") \
	X(RR_ETHERTYPE_LLDP, 0x88cc, "LLDP") \
	X(RR_ETHERTYPE_QINQ, 0x88a8, "802.1ad")

/* IP protocol numbers (IANA registry) named for frames that are not RDMA. */
#define RR_IP_PROTO_LIST(X) \
	X(RR_IP_PROTO_ICMP, 1, "ICMP") \
	X(RR_IP_PROTO_IGMP, 2, "IGMP") \
	X(RR_IP_PROTO_TCP, 6, "TCP") \
	X(RR_IP_PROTO_UDP, 17, "UDP") \
	X(RR_IP_PROTO_ICMPV6, 58, "ICMPv6") \
	X(RR_IP_PROTO_SCTP, 132, "SCTP")

/* IB transport opcodes (IBA vol. 1 §9.2, table 38). */
#define RR_BTH_OPCODE_LIST(X) \
	X(RR_OP_RC_SEND_FIRST, 0x00, "RC SEND FIRST") \
	X(RR_OP_RC_SEND_MIDDLE, 0x01, "RC SEND MIDDLE") \
	X(RR_OP_RC_SEND_LAST, 0x02, "RC SEND LAST") \
	X(RR_OP_RC_SEND_LAST_IMM, 0x03, "RC SEND LAST Immediate") \
	X(RR_OP_RC_SEND_ONLY, 0x04, "RC SEND ONLY") \
	X(RR_OP_RC_SEND_ONLY_IMM, 0x05, "RC SEND ONLY Immediate") \
	X(RR_OP_RC_WRITE_FIRST, 0x06, "RC RDMA WRITE FIRST") \
	X(RR_OP_RC_WRITE_MIDDLE, 0x07, "RC RDMA WRITE MIDDLE") \
	X(RR_OP_RC_WRITE_LAST, 0x08, "RC RDMA WRITE LAST") \
	X(RR_OP_RC_WRITE_LAST_IMM, 0x09, "RC RDMA WRITE LAST Immediate") \
	X(RR_OP_RC_WRITE_ONLY, 0x0A, "RC RDMA WRITE ONLY") \
	X(RR_OP_RC_WRITE_ONLY_IMM, 0x0B, "RC RDMA WRITE ONLY Immediate") \
	X(RR_OP_RC_READ_REQUEST, 0x0C, "RC RDMA READ REQUEST") \
	X(RR_OP_RC_READ_RESP_FIRST, 0x0D, "RC RDMA READ RESPONSE FIRST") \
	X(RR_OP_RC_READ_RESP_MIDDLE, 0x0E, "RC RDMA READ RESPONSE MIDDLE") \
	X(RR_OP_RC_READ_RESP_LAST, 0x0F, "RC RDMA READ RESPONSE LAST") \
	X(RR_OP_RC_READ_RESP_ONLY, 0x10, "RC RDMA READ RESPONSE ONLY") \
	X(RR_OP_RC_ACK, 0x11, "RC ACKNOWLEDGE") \
	X(RR_OP_RC_ATOMIC_ACK, 0x12, "RC ATOMIC ACKNOWLEDGE") \
	X(RR_OP_RC_CMP_SWAP, 0x13, "RC COMPARE SWAP") \
	X(RR_OP_RC_FETCH_ADD, 0x14, "RC FETCH ADD") \
	X(RR_OP_RC_SEND_LAST_INV, 0x16, "RC SEND LAST Invalidate") \
	X(RR_OP_RC_SEND_ONLY_INV, 0x17, "RC SEND ONLY Invalidate") \
	X(RR_OP_UC_SEND_FIRST, 0x20, "UC SEND FIRST") \
	X(RR_OP_UC_SEND_MIDDLE, 0x21, "UC SEND MIDDLE") \
	X(RR_OP_UC_SEND_LAST, 0x22, "UC SEND LAST") \
	X(RR_OP_UC_SEND_LAST_IMM, 0x23, "UC SEND LAST Immediate") \
	X(RR_OP_UC_SEND_ONLY, 0x24, "UC SEND ONLY") \
	X(RR_OP_UC_SEND_ONLY_IMM, 0x25, "UC SEND ONLY Immediate") \
	X(RR_OP_UC_WRITE_FIRST, 0x26, "UC RDMA WRITE FIRST") \
	X(RR_OP_UC_WRITE_MIDDLE, 0x27, "UC RDMA WRITE MIDDLE") \
	X(RR_OP_UC_WRITE_LAST, 0x28, "UC RDMA WRITE LAST") \
	X(RR_OP_UC_WRITE_LAST_IMM, 0x29, "UC RDMA WRITE LAST Immediate") \
	X(RR_OP_UC_WRITE_ONLY, 0x2A, "UC RDMA WRITE ONLY") \
	X(RR_OP_UC_WRITE_ONLY_IMM, 0x2B, "UC RDMA WRITE ONLY Immediate") \
	X(RR_OP_UD_SEND_ONLY, 0x64, "UD SEND ONLY") \
	X(RR_OP_UD_SEND_ONLY_IMM, 0x65, "UD SEND ONLY Immediate") \
	X(RR_OP_CNP, 0x81, "RoCEv2 CNP")

/* AETH syndrome type, bits 6-5 (IBA vol. 1 §9.7.5.2.1). */
#define RR_AETH_TYPE_LIST(X) \
	X(RR_AETH_ACK, 0, "ACK") \
	X(RR_AETH_RNR_NAK, 1, "RNR NAK") \
	X(RR_AETH_RESERVED, 2, "reserved") \
	X(RR_AETH_NAK, 3, "NAK")

/* NAK codes, the low 5 bits of a NAK syndrome. */
#define RR_NAK_CODE_LIST(X) \
	X(RR_NAK_PSN_SEQ_ERROR, 0, "PSN sequence error") \
	X(RR_NAK_INVALID_REQUEST, 1, "invalid request") \
	X(RR_NAK_REMOTE_ACCESS, 2, "remote access error") \
	X(RR_NAK_REMOTE_OP, 3, "remote operational error") \
	X(RR_NAK_INVALID_RD, 4, "invalid RD request")

/* MAD management classes that appear on RDMA links. */
#define RR_MAD_CLASS_LIST(X) \
	X(RR_MAD_CLASS_SMP_LID, 0x01, "Subnet Management (LID routed)") \
	X(RR_MAD_CLASS_SA, 0x03, "Subnet Administration") \
	X(RR_MAD_CLASS_PERF, 0x04, "Performance Management") \
	X(RR_MAD_CLASS_CM, 0x07, "Communication Management") \
	X(RR_MAD_CLASS_SMP_DR, 0x81, "Subnet Management (directed route)")

/* CM attribute IDs (IBA vol. 1 §12.6, table 104). */
#define RR_CM_ATTR_LIST(X) \
	X(RR_CM_REQ, 0x0010, "ConnectRequest (REQ)") \
	X(RR_CM_MRA, 0x0011, "MsgRcptAck (MRA)") \
	X(RR_CM_REJ, 0x0012, "ConnectReject (REJ)") \
	X(RR_CM_REP, 0x0013, "ConnectReply (REP)") \
	X(RR_CM_RTU, 0x0014, "ReadyToUse (RTU)") \
	X(RR_CM_DREQ, 0x0015, "DisconnectRequest (DREQ)") \
	X(RR_CM_DREP, 0x0016, "DisconnectReply (DREP)") \
	X(RR_CM_SIDR_REQ, 0x0017, "ServiceIDResReq (SIDR_REQ)") \
	X(RR_CM_SIDR_REP, 0x0018, "ServiceIDResReqResp (SIDR_REP)") \
	X(RR_CM_LAP, 0x0019, "LoadAlternatePath (LAP)") \
	X(RR_CM_APR, 0x001A, "AlternatePathResponse (APR)")

/* CM REJ reasons (IBA vol. 1 §12.6.7.2, table 112). */
#define RR_CM_REJ_REASON_LIST(X) \
	X(RR_CM_REJ_NO_QP, 1, "no QP available") \
	X(RR_CM_REJ_NO_EEC, 2, "no EEC available") \
	X(RR_CM_REJ_NO_RESOURCES, 3, "no resources available") \
	X(RR_CM_REJ_TIMEOUT, 4, "timeout") \
	X(RR_CM_REJ_UNSUPPORTED_REQ, 5, "unsupported request") \
	X(RR_CM_REJ_INVALID_COMM_ID, 6, "invalid communication ID") \
	X(RR_CM_REJ_INVALID_COMM_INSTANCE, 7, "invalid communication instance") \
	X(RR_CM_REJ_INVALID_SERVICE_ID, 8, "invalid service ID") \
	X(RR_CM_REJ_INVALID_TRANSPORT_TYPE, 9, "invalid transport type") \
	X(RR_CM_REJ_STALE_CONN, 10, "stale connection") \
	X(RR_CM_REJ_RDC_NOT_EXIST, 11, "RDC does not exist") \
	X(RR_CM_REJ_INVALID_GID, 12, "primary remote port GID rejected") \
	X(RR_CM_REJ_INVALID_LID, 13, "primary remote port LID rejected") \
	X(RR_CM_REJ_INVALID_SL, 14, "invalid primary SL") \
	X(RR_CM_REJ_INVALID_TRAFFIC_CLASS, 15, "invalid primary traffic class") \
	X(RR_CM_REJ_INVALID_HOP_LIMIT, 16, "invalid primary hop limit") \
	X(RR_CM_REJ_INVALID_PACKET_RATE, 17, "invalid primary packet rate") \
	X(RR_CM_REJ_INVALID_ALT_GID, 18, "alternate remote port GID rejected") \
	X(RR_CM_REJ_INVALID_ALT_LID, 19, "alternate remote port LID rejected") \
	X(RR_CM_REJ_INVALID_ALT_SL, 20, "invalid alternate SL") \
	X(RR_CM_REJ_INVALID_ALT_TRAFFIC_CLASS, 21, "invalid alternate traffic class") \
	X(RR_CM_REJ_INVALID_ALT_HOP_LIMIT, 22, "invalid alternate hop limit") \
	X(RR_CM_REJ_INVALID_ALT_PACKET_RATE, 23, "invalid alternate packet rate") \
	X(RR_CM_REJ_PORT_CM_REDIRECT, 24, "port redirection") \
	X(RR_CM_REJ_INVALID_MTU, 26, "invalid path MTU") \
	X(RR_CM_REJ_INSUFFICIENT_RESP_RESOURCES, 27, "insufficient responder resources") \
	X(RR_CM_REJ_CONSUMER_DEFINED, 28, "consumer reject") \
	X(RR_CM_REJ_INVALID_RNR_RETRY, 29, "RNR retry count reject") \
	X(RR_CM_REJ_DUPLICATE_LOCAL_COMM_ID, 30, "duplicate local communication ID") \
	X(RR_CM_REJ_INVALID_CLASS_VERSION, 31, "unsupported class version") \
	X(RR_CM_REJ_INVALID_FLOW_LABEL, 32, "invalid primary flow label") \
	X(RR_CM_REJ_INVALID_ALT_FLOW_LABEL, 33, "invalid alternate flow label")

/* RDMAP opcodes (RFC 5040 §4.3, table 3). */
#define RR_RDMAP_OPCODE_LIST(X) \
	X(RR_RDMAP_WRITE, 0, "RDMA Write") \
	X(RR_RDMAP_READ_REQUEST, 1, "RDMA Read Request") \
	X(RR_RDMAP_READ_RESPONSE, 2, "RDMA Read Response") \
	X(RR_RDMAP_SEND, 3, "Send") \
	X(RR_RDMAP_SEND_INV, 4, "Send with Invalidate") \
	X(RR_RDMAP_SEND_SE, 5, "Send with Solicited Event") \
	X(RR_RDMAP_SEND_SE_INV, 6, "Send with Solicited Event and Invalidate") \
	X(RR_RDMAP_TERMINATE, 7, "Terminate")

/* RPC-over-RDMA v1 procedures (RFC 8166 §4.2.4). */
#define RR_RDMA_PROC_LIST(X) \
	X(RR_RDMA_MSG, 0, "RDMA_MSG") \
	X(RR_RDMA_NOMSG, 1, "RDMA_NOMSG") \
	X(RR_RDMA_MSGP, 2, "RDMA_MSGP") \
	X(RR_RDMA_DONE, 3, "RDMA_DONE") \
	X(RR_RDMA_ERROR, 4, "RDMA_ERROR")

/* RDMA_ERROR codes (RFC 8166 §4.2.4). */
#define RR_RDMA_ERR_LIST(X) \
	X(RR_ERR_VERS, 1, "ERR_VERS") \
	X(RR_ERR_CHUNK, 2, "ERR_CHUNK")

/* How sure the decoder is that a payload is RPC-over-RDMA. */
#define RR_CONFIDENCE_LIST(X) \
	X(RR_CONF_NONE, 0, "not RPC-over-RDMA") \
	X(RR_CONF_SHAPE, 1, "header shape only") \
	X(RR_CONF_XID, 2, "RPC xid matches") \
	X(RR_CONF_CONTEXT, 3, "connection known to carry RPC-over-RDMA")

/* ONC RPC (RFC 5531 §9). */
#define RR_RPC_MSG_TYPE_LIST(X) \
	X(RR_RPC_CALL, 0, "CALL") \
	X(RR_RPC_REPLY, 1, "REPLY")

#define RR_RPC_REPLY_STAT_LIST(X) \
	X(RR_RPC_MSG_ACCEPTED, 0, "MSG_ACCEPTED") \
	X(RR_RPC_MSG_DENIED, 1, "MSG_DENIED")

#define RR_RPC_ACCEPT_STAT_LIST(X) \
	X(RR_RPC_SUCCESS, 0, "SUCCESS") \
	X(RR_RPC_PROG_UNAVAIL, 1, "PROG_UNAVAIL") \
	X(RR_RPC_PROG_MISMATCH, 2, "PROG_MISMATCH") \
	X(RR_RPC_PROC_UNAVAIL, 3, "PROC_UNAVAIL") \
	X(RR_RPC_GARBAGE_ARGS, 4, "GARBAGE_ARGS") \
	X(RR_RPC_SYSTEM_ERR, 5, "SYSTEM_ERR")

#define RR_RPC_REJECT_STAT_LIST(X) \
	X(RR_RPC_MISMATCH, 0, "RPC_MISMATCH") \
	X(RR_RPC_AUTH_ERROR, 1, "AUTH_ERROR")

#define RR_RPC_AUTH_STAT_LIST(X) \
	X(RR_AUTH_OK, 0, "AUTH_OK") \
	X(RR_AUTH_BADCRED, 1, "AUTH_BADCRED") \
	X(RR_AUTH_REJECTEDCRED, 2, "AUTH_REJECTEDCRED") \
	X(RR_AUTH_BADVERF, 3, "AUTH_BADVERF") \
	X(RR_AUTH_REJECTEDVERF, 4, "AUTH_REJECTEDVERF") \
	X(RR_AUTH_TOOWEAK, 5, "AUTH_TOOWEAK") \
	X(RR_AUTH_INVALIDRESP, 6, "AUTH_INVALIDRESP") \
	X(RR_AUTH_FAILED, 7, "AUTH_FAILED") \
	X(RR_AUTH_GSS_CREDPROBLEM, 13, "RPCSEC_GSS_CREDPROBLEM") \
	X(RR_AUTH_GSS_CTXPROBLEM, 14, "RPCSEC_GSS_CTXPROBLEM")

#define RR_RPC_AUTH_FLAVOR_LIST(X) \
	X(RR_AUTH_NONE, 0, "AUTH_NONE") \
	X(RR_AUTH_SYS, 1, "AUTH_SYS") \
	X(RR_AUTH_SHORT, 2, "AUTH_SHORT") \
	X(RR_AUTH_DH, 3, "AUTH_DH") \
	X(RR_AUTH_RPCSEC_GSS, 6, "RPCSEC_GSS") \
	X(RR_AUTH_TLS, 7, "AUTH_TLS")

/* An RPCSEC_GSS credential's control procedure and service (RFC 2203 §5:
 * rpc_gss_proc_t, rpc_gss_service_t). */
#define RR_GSS_PROC_LIST(X) \
	X(RR_GSS_DATA, 0, "RPCSEC_GSS_DATA") \
	X(RR_GSS_INIT, 1, "RPCSEC_GSS_INIT") \
	X(RR_GSS_CONTINUE_INIT, 2, "RPCSEC_GSS_CONTINUE_INIT") \
	X(RR_GSS_DESTROY, 3, "RPCSEC_GSS_DESTROY")
#define RR_GSS_SERVICE_LIST(X) \
	X(RR_GSS_SVC_NONE, 1, "none") \
	X(RR_GSS_SVC_INTEGRITY, 2, "integrity") \
	X(RR_GSS_SVC_PRIVACY, 3, "privacy")

/* RPC programs with names; the NFSv4 callback number is Linux's choice. */
#define RR_RPC_PROGRAM_LIST(X) \
	X(RR_PROG_PORTMAP, 100000, "portmap") \
	X(RR_PROG_NFS, 100003, "NFS") \
	X(RR_PROG_MOUNT, 100005, "MOUNT") \
	X(RR_PROG_NLM, 100021, "NLM") \
	X(RR_PROG_NFS_ACL, 100227, "NFS_ACL") \
	X(RR_PROG_NFS4_CB, 0x40000000, "NFS4_CB")

/* NFSv2 procedures (RFC 1094 §2.2). */
#define RR_NFS2_PROC_LIST(X) \
	X(RR_NFS2_NULL, 0, "NULL") \
	X(RR_NFS2_GETATTR, 1, "GETATTR") \
	X(RR_NFS2_SETATTR, 2, "SETATTR") \
	X(RR_NFS2_ROOT, 3, "ROOT") \
	X(RR_NFS2_LOOKUP, 4, "LOOKUP") \
	X(RR_NFS2_READLINK, 5, "READLINK") \
	X(RR_NFS2_READ, 6, "READ") \
	X(RR_NFS2_WRITECACHE, 7, "WRITECACHE") \
	X(RR_NFS2_WRITE, 8, "WRITE") \
	X(RR_NFS2_CREATE, 9, "CREATE") \
	X(RR_NFS2_REMOVE, 10, "REMOVE") \
	X(RR_NFS2_RENAME, 11, "RENAME") \
	X(RR_NFS2_LINK, 12, "LINK") \
	X(RR_NFS2_SYMLINK, 13, "SYMLINK") \
	X(RR_NFS2_MKDIR, 14, "MKDIR") \
	X(RR_NFS2_RMDIR, 15, "RMDIR") \
	X(RR_NFS2_READDIR, 16, "READDIR") \
	X(RR_NFS2_STATFS, 17, "STATFS")

/* NFSv3 procedures (RFC 1813 §3). */
#define RR_NFS3_PROC_LIST(X) \
	X(RR_NFS3_NULL, 0, "NULL") \
	X(RR_NFS3_GETATTR, 1, "GETATTR") \
	X(RR_NFS3_SETATTR, 2, "SETATTR") \
	X(RR_NFS3_LOOKUP, 3, "LOOKUP") \
	X(RR_NFS3_ACCESS, 4, "ACCESS") \
	X(RR_NFS3_READLINK, 5, "READLINK") \
	X(RR_NFS3_READ, 6, "READ") \
	X(RR_NFS3_WRITE, 7, "WRITE") \
	X(RR_NFS3_CREATE, 8, "CREATE") \
	X(RR_NFS3_MKDIR, 9, "MKDIR") \
	X(RR_NFS3_SYMLINK, 10, "SYMLINK") \
	X(RR_NFS3_MKNOD, 11, "MKNOD") \
	X(RR_NFS3_REMOVE, 12, "REMOVE") \
	X(RR_NFS3_RMDIR, 13, "RMDIR") \
	X(RR_NFS3_RENAME, 14, "RENAME") \
	X(RR_NFS3_LINK, 15, "LINK") \
	X(RR_NFS3_READDIR, 16, "READDIR") \
	X(RR_NFS3_READDIRPLUS, 17, "READDIRPLUS") \
	X(RR_NFS3_FSSTAT, 18, "FSSTAT") \
	X(RR_NFS3_FSINFO, 19, "FSINFO") \
	X(RR_NFS3_PATHCONF, 20, "PATHCONF") \
	X(RR_NFS3_COMMIT, 21, "COMMIT")

/* NFSv4 and NFSv4.x callback procedures (RFC 7530 §16, RFC 8881 §20). */
#define RR_NFS4_PROC_LIST(X) \
	X(RR_NFS4_NULL, 0, "NULL") \
	X(RR_NFS4_COMPOUND, 1, "COMPOUND")

#define RR_NFS4_CB_PROC_LIST(X) \
	X(RR_CB_NULL, 0, "CB_NULL") \
	X(RR_CB_COMPOUND, 1, "CB_COMPOUND")

/* portmap v2 / rpcbind (RFC 1833). */
#define RR_PORTMAP_PROC_LIST(X) \
	X(RR_PMAP_NULL, 0, "NULL") \
	X(RR_PMAP_SET, 1, "SET") \
	X(RR_PMAP_UNSET, 2, "UNSET") \
	X(RR_PMAP_GETPORT, 3, "GETPORT") \
	X(RR_PMAP_DUMP, 4, "DUMP") \
	X(RR_PMAP_CALLIT, 5, "CALLIT")

/* MOUNT v3 (RFC 1813 §5). */
#define RR_MOUNT_PROC_LIST(X) \
	X(RR_MNT_NULL, 0, "NULL") \
	X(RR_MNT_MNT, 1, "MNT") \
	X(RR_MNT_DUMP, 2, "DUMP") \
	X(RR_MNT_UMNT, 3, "UMNT") \
	X(RR_MNT_UMNTALL, 4, "UMNTALL") \
	X(RR_MNT_EXPORT, 5, "EXPORT")

/* NLM v4 (X/Open XNFS, as in Linux nlm.h). */
#define RR_NLM_PROC_LIST(X) \
	X(RR_NLM_NULL, 0, "NULL") \
	X(RR_NLM_TEST, 1, "TEST") \
	X(RR_NLM_LOCK, 2, "LOCK") \
	X(RR_NLM_CANCEL, 3, "CANCEL") \
	X(RR_NLM_UNLOCK, 4, "UNLOCK") \
	X(RR_NLM_GRANTED, 5, "GRANTED") \
	X(RR_NLM_TEST_MSG, 6, "TEST_MSG") \
	X(RR_NLM_LOCK_MSG, 7, "LOCK_MSG") \
	X(RR_NLM_CANCEL_MSG, 8, "CANCEL_MSG") \
	X(RR_NLM_UNLOCK_MSG, 9, "UNLOCK_MSG") \
	X(RR_NLM_GRANTED_MSG, 10, "GRANTED_MSG") \
	X(RR_NLM_TEST_RES, 11, "TEST_RES") \
	X(RR_NLM_LOCK_RES, 12, "LOCK_RES") \
	X(RR_NLM_CANCEL_RES, 13, "CANCEL_RES") \
	X(RR_NLM_UNLOCK_RES, 14, "UNLOCK_RES") \
	X(RR_NLM_GRANTED_RES, 15, "GRANTED_RES") \
	X(RR_NLM_SHARE, 20, "SHARE") \
	X(RR_NLM_UNSHARE, 21, "UNSHARE") \
	X(RR_NLM_NM_LOCK, 22, "NM_LOCK") \
	X(RR_NLM_FREE_ALL, 23, "FREE_ALL")

/* NFS_ACL v3 (Linux nfsacl). */
#define RR_NFSACL_PROC_LIST(X) \
	X(RR_NFSACL_NULL, 0, "NULL") \
	X(RR_NFSACL_GETACL, 1, "GETACL") \
	X(RR_NFSACL_SETACL, 2, "SETACL")

/*
 * Fields at fixed places within a decoded element, for highlighting:
 * X(symbol, anchor, offset, length, "abbreviation", "label").  The anchor
 * names the element the offset counts from (dissect.h, enum rr_anchor);
 * segment fields take the segment's index.
 */
#define RR_FIELD_LIST(X) \
	X(RR_F_XID, RR_ANCHOR_RPCRDMA, 0, 4, "xid", "XID") \
	X(RR_F_VERS, RR_ANCHOR_RPCRDMA, 4, 4, "vers", "Version") \
	X(RR_F_CREDITS, RR_ANCHOR_RPCRDMA, 8, 4, "credits", "Credits") \
	X(RR_F_PROC, RR_ANCHOR_RPCRDMA, 12, 4, "proc", "Procedure") \
	X(RR_F_ALIGN, RR_ANCHOR_RPCRDMA, 16, 4, "align", "RDMA_MSGP align") \
	X(RR_F_THRESH, RR_ANCHOR_RPCRDMA, 20, 4, "thresh", "RDMA_MSGP threshold") \
	X(RR_F_ERR, RR_ANCHOR_RPCRDMA, 16, 4, "err", "Error code") \
	X(RR_F_VERS_LOW, RR_ANCHOR_RPCRDMA, 20, 4, "vers_low", "Lowest version") \
	X(RR_F_VERS_HIGH, RR_ANCHOR_RPCRDMA, 24, 4, "vers_high", "Highest version") \
	X(RR_F_SEG_POSITION, RR_ANCHOR_SEGMENT, 0, 4, "position", "XDR position") \
	X(RR_F_SEG_HANDLE, RR_ANCHOR_SEGMENT, 4, 4, "handle", "Handle") \
	X(RR_F_SEG_LENGTH, RR_ANCHOR_SEGMENT, 8, 4, "length", "Length") \
	X(RR_F_SEG_OFFSET, RR_ANCHOR_SEGMENT, 12, 8, "offset", "Offset") \
	X(RR_F_PRIV_FORMAT, RR_ANCHOR_CM_PRIVATE, 0, 4, "private.format", "Format identifier") \
	X(RR_F_PRIV_VERSION, RR_ANCHOR_CM_PRIVATE, 4, 1, "private.version", "Version") \
	X(RR_F_PRIV_FLAGS, RR_ANCHOR_CM_PRIVATE, 5, 1, "private.flags", "Flags") \
	X(RR_F_PRIV_SEND, RR_ANCHOR_CM_PRIVATE, 6, 1, "private.send_size", "Send size") \
	X(RR_F_PRIV_RECV, RR_ANCHOR_CM_PRIVATE, 7, 1, "private.recv_size", "Receive size") \
	X(RR_F_BTH_OPCODE, RR_ANCHOR_BTH, 0, 1, "bth.opcode", "OpCode") \
	X(RR_F_BTH_PKEY, RR_ANCHOR_BTH, 2, 2, "bth.pkey", "P_Key") \
	X(RR_F_BTH_DESTQP, RR_ANCHOR_BTH, 5, 3, "bth.destqp", "Destination QP") \
	X(RR_F_BTH_PSN, RR_ANCHOR_BTH, 9, 3, "bth.psn", "PSN") \
	X(RR_F_RETH_VA, RR_ANCHOR_RETH, 0, 8, "reth.va", "Virtual address") \
	X(RR_F_RETH_RKEY, RR_ANCHOR_RETH, 8, 4, "reth.rkey", "R_Key") \
	X(RR_F_RETH_LEN, RR_ANCHOR_RETH, 12, 4, "reth.dma_len", "DMA length") \
	X(RR_F_AETH_SYNDROME, RR_ANCHOR_AETH, 0, 1, "aeth.syndrome", "Syndrome") \
	X(RR_F_AETH_MSN, RR_ANCHOR_AETH, 1, 3, "aeth.msn", "MSN") \
	X(RR_F_IETH_RKEY, RR_ANCHOR_IETH, 0, 4, "ieth.rkey", "Invalidated R_Key") \
	X(RR_F_ICRC, RR_ANCHOR_ICRC, 0, 4, "icrc", "ICRC") \
	X(RR_F_DDP_STAG, RR_ANCHOR_DDP, 2, 4, "ddp.stag", "STag") \
	X(RR_F_DDP_TO, RR_ANCHOR_DDP, 6, 8, "ddp.to", "Tagged offset") \
	X(RR_F_DDP_INV_STAG, RR_ANCHOR_DDP, 2, 4, "rdmap.inv_stag", "Invalidate STag") \
	X(RR_F_DDP_QN, RR_ANCHOR_DDP, 6, 4, "ddp.qn", "Queue number") \
	X(RR_F_DDP_MSN, RR_ANCHOR_DDP, 10, 4, "ddp.msn", "Message sequence number") \
	X(RR_F_DDP_MO, RR_ANCHOR_DDP, 14, 4, "ddp.mo", "Message offset") \
	X(RR_F_MPA_CRC, RR_ANCHOR_FPDU_CRC, 0, 4, "mpa.crc", "CRC32c") \
	X(RR_F_MPA_IRD, RR_ANCHOR_MPA, 20, 2, "mpa.ird", "IRD") \
	X(RR_F_MPA_ORD, RR_ANCHOR_MPA, 22, 2, "mpa.ord", "ORD")

#endif /* RPCRDMA_LISTS_H */
