# Checks of the nfs3 job, run in its run folder: the capture of the client's
# interface decoded by rpcrdma-dump against the client's mountstats, the
# server's nfsd counters and what the workload did.
t=$transport
check_eq "nfs3/$t: server job exit status" 0 "$(cat server/job.status 2>/dev/null)"
check_eq "nfs3/$t: client job exit status" 0 "$(cat client/job.status 2>/dev/null)"
check_eq "nfs3/$t: 300 files listed" 300 "$(workload_value client files_listed)"
check_eq "nfs3/$t: 4000-byte symlink read back" 4000 "$(workload_value client symlink_target_bytes)"
check_eq "nfs3/$t: a one-user ACL read (GETACL)" 1 "$(workload_value client acl_small_users_read)"
check_eq "nfs3/$t: mount to a port without listener refused" failed "$(workload_value client refused_mount)"

"$LAB_DUMP" -q --stats=json -r client/capture.pcap >"$work/stats.json" 2>"$work/dump.err" ||
	check_fail "nfs3/$t: rpcrdma-dump decodes the capture" "$(cat "$work/dump.err")"
"$LAB_DUMP" -v -r client/capture.pcap >"$work/dump.txt" 2>&1 || true
# Linux's server clears R in its private data and still answers with Send
# With Invalidate when the client set R: RFC 8797 §4.1 forbids that, so the
# finding is right; any other finding is not expected here.
"$LAB_DUMP" --findings -r client/capture.pcap >"$work/findings.txt" 2>/dev/null
check_eq "nfs3/$t: findings other than invalidate_without_r" 0 \
	"$(grep -c -v -e invalidate_without_r -e '^$' "$work/findings.txt")"
check_eq "nfs3/$t: truncated or malformed frames" "0 0" \
	"$(sed -n 's/.* \([0-9]*\) truncated, \([0-9]*\) malformed.*/\1 \2/p' "$work/dump.err")"
check_eq "nfs3/$t: unanswered calls" 0 "$(jq .total.unanswered "$work/stats.json")"

# Every NFSv3 procedure the client counted, as often on the wire.
mountstats_ops client/mountstats | while read -r proc sent; do
	got=$(jq --arg p "$proc" '[.procedures[] | select(.program == "NFS" and .version == 3 and .procedure == $p) | .calls] | add // 0' "$work/stats.json")
	check_eq "nfs3/$t: NFSv3 $proc calls as mountstats counts" "$sent" "$got"
done
# A SETACL that the client saw fail was answered GARBAGE_ARGS, and each
# answer made the client reconnect and send the same xid again.
if [ "$(workload_value client acl_set)" = failed ]; then
	check_ge "nfs3/$t: SETACL answered GARBAGE_ARGS" 1 "$(grep -c 'REPLY MSG_ACCEPTED GARBAGE_ARGS' "$work/dump.txt")"
	check_ge "nfs3/$t: connections (reconnects after GARBAGE_ARGS)" 2 "$(jq '.connections | length' "$work/stats.json")"
fi
# NFS_ACL calls are not in mountstats: GETACL and SETACL at least once.
for proc in GETACL SETACL; do
	check_ge "nfs3/$t: NFS_ACL $proc calls" 1 \
		"$(jq --arg p "$proc" '[.procedures[] | select(.procedure == $p) | .calls] | add // 0' "$work/stats.json")"
done
# xprtrdma's own counters against the decode (RFC 8166 chunk kinds).
set -- $(mountstats_xprt client/mountstats)
[ $# -ge 17 ] || check_fail "nfs3/$t: an xprt: rdma line in mountstats" "$*"
check_eq "nfs3/$t: calls sent (mountstats sends)" "${6:-}" "$(jq .total.calls "$work/stats.json")"
# xprtrdma counts a Long Call when it marshals one, also when the connection
# breaks before it is sent: the wire shows at most as many.
nomsg=$(jq '.total.messages.call.RDMA_NOMSG' "$work/stats.json")
check_ge "nfs3/$t: Long Calls on the wire" 1 "$nomsg"
check_ge "nfs3/$t: Long Calls marshalled (mountstats nomsg_call_count)" "$nomsg" "${21:-}"
check_ge "nfs3/$t: calls with read chunks" 1 "$(jq '.total.chunks.read' "$work/stats.json")"
check_ge "nfs3/$t: calls with write chunks" 1 "$(jq '.total.chunks.write' "$work/stats.json")"
check_ge "nfs3/$t: calls with reply chunks" 1 "$(jq '.total.chunks.reply' "$work/stats.json")"
check_ge "nfs3/$t: RDMA Read bytes (WRITE data)" 262144 "$(jq '.total.bytes.rdma_read' "$work/stats.json")"
check_ge "nfs3/$t: RDMA Write bytes (READ data)" 262144 "$(jq '.total.bytes.rdma_write' "$work/stats.json")"
check_watchers nfs3
