# Checks of the nfs3 job, run in its run folder: the capture of the client's
# shellcheck shell=sh disable=SC2154
# (SC2154: transport and work are set by lab/run, which sources this)
# interface decoded by rpcrdma-dump against the client's mountstats, the
# server's nfsd counters and what the workload did.
t=$transport
check_run nfs3
check_eq "nfs3/$t: a one-user ACL read (GETACL)" 1 "$(workload_value client acl_small_users_read)"

# Every NFSv3 procedure the client counted, as often on the wire.
mountstats_ops client/mountstats | while read -r proc sent; do
	got=$(jq --arg p "$proc" '[.procedures[] | select(.program == "NFS" and .version == 3 and .procedure == $p) | .calls] | add // 0' "$work/stats.json")
	check_eq "nfs3/$t: NFSv3 $proc calls as mountstats counts" "$sent" "$got"
done
check_restart nfs3
# The server's tracepoints: each NFSv3 procedure it served over RDMA as
# often as nfsd counted it (proc3 in /proc/net/rpc/nfsd, in RFC 1813's
# order; NULL aside: svc_stats_latency names NFS_ACL's NULL the same).
if [ -e server/watch-trace.jsonl ]; then
	served=$(tail -n 1 server/watch-trace.jsonl)
	set -- $(awk '$1 == "proc3" { for (i = 4; i <= NF; i++) print $i }' server/nfsd)
	for proc in GETATTR SETATTR LOOKUP ACCESS READLINK READ WRITE CREATE MKDIR SYMLINK MKNOD \
		REMOVE RMDIR RENAME LINK READDIR READDIRPLUS FSSTAT FSINFO PATHCONF COMMIT; do
		check_counted "nfs3/$t: rpcrdma-top -t on the server: $proc served as nfsd counts it" "${1:-}" \
			"$(echo "$served" | jq --arg p "$proc" '[.server_procedures[] | select(.procedure == $p) | .calls] | add // 0')" \
			"$(echo "$served" | jq '.events_missed // 0')"
		shift
	done
fi
# A SETACL that the client saw fail was answered GARBAGE_ARGS, and each
# answer made the client reconnect and send the same xid again.
if [ "$(workload_value client acl_set)" = failed ]; then
	check_ge "nfs3/$t: SETACL answered GARBAGE_ARGS" 1 "$(grep -c 'REPLY MSG_ACCEPTED GARBAGE_ARGS' "$work/dump.txt")"
	# the client resends on the new connection what the old one left: each
	# resent call names the frame that carried its xid on the previous one
	resent=$(jq -rs '
		[.[] | select(.type == "message")] as $m |
		([$m[] | {key: "\(.frame)", value: .}] | from_entries) as $by |
		[$m[] | select(.resent_of != null) | . as $r | $by["\($r.resent_of)"] |
		 select(. != null and .xid == $r.xid and .dir == "call" and .conn != $r.conn)] | length' "$work/dump.json")
	check_ge "nfs3/$t: calls resent after a reconnect (same xid, the frame they first went in)" 1 "$resent"
	check_eq "nfs3/$t: calls resent, as counted" "$(jq '.calls_resent' "$work/stats.json")" "$resent"
	# answered, and sent again all the same: the reconnects' evidence
	# counts them as tshark's RPC headers give them (a call whose xid a
	# reply carried before)
	if command -v tshark >/dev/null; then
		retried=$(tshark -r client/capture.pcap -Y rpc -T fields -e rpc.xid -e rpc.msgtyp \
			-E occurrence=a -E aggregator=, 2>/dev/null | awk -F'\t' '
			{ n = split($1, x, ","); split($2, m, ",")
			  for (i = 1; i <= n; i++)
				if (m[i] == 0) { if (x[i] in replied) retried++ } else replied[x[i]] = 1 }
			END { print retried + 0 }')
		check_ge "nfs3/$t: calls sent again though answered (tshark)" 1 "$retried"
		check_eq "nfs3/$t: the reconnects' evidence: calls answered before and sent again, as tshark counts them" \
			"$retried" "$(jq -r '.diagnosis[] | select(.problem == "reconnects") | .evidence' "$work/stats.json" |
				sed -n 's/.*, \([0-9]*\) though answered: .*/\1/p')"
	fi
	check_eq "nfs3/$t: SETACL's GARBAGE_ARGS answers in the procedure statistics" \
		"$(grep -c 'REPLY MSG_ACCEPTED GARBAGE_ARGS' "$work/dump.txt")" \
		"$(jq '[.procedures[] | select(.procedure == "SETACL") | .replies.GARBAGE_ARGS // 0] | add' "$work/stats.json")"
fi
# every answered call counted once by its reply's status
check_eq "nfs3/$t: replies by status add up to the replies" "$(jq .total.replies "$work/stats.json")" \
	"$(jq '[.procedures[].replies[]] | add' "$work/stats.json")"
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
check_live nfs3
