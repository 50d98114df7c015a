# Checks of the nfs41 job, run in its run folder.
t=$transport
check_eq "nfs41/$t: server job exit status" 0 "$(cat server/job.status 2>/dev/null)"
check_eq "nfs41/$t: client job exit status" 0 "$(cat client/job.status 2>/dev/null)"
check_eq "nfs41/$t: 300 files listed" 300 "$(workload_value client files_listed)"
check_eq "nfs41/$t: 4000-byte symlink read back" 4000 "$(workload_value client symlink_target_bytes)"
check_eq "nfs41/$t: 256 KiB read back as written" 262144 "$(workload_value client read_back_bytes)"
check_eq "nfs41/$t: server's write went through" yes "$(workload_value client delegation_recalled)"
check_ge "nfs41/$t: delegations returned (DELEGRETURN)" 1 "$(workload_value client delegations_returned)"
check_eq "nfs41/$t: mount to a port without listener refused" failed "$(workload_value client refused_mount)"

"$LAB_DUMP" -q --stats=json -r client/capture.pcap >"$work/stats.json" 2>"$work/dump.err" ||
	check_fail "nfs41/$t: rpcrdma-dump decodes the capture" "$(cat "$work/dump.err")"
"$LAB_DUMP" -v -r client/capture.pcap >"$work/dump.txt" 2>&1 || true
"$LAB_DUMP" --findings -r client/capture.pcap >"$work/findings.txt" 2>/dev/null
check_eq "nfs41/$t: findings other than invalidate_without_r" 0 \
	"$(grep -c -v -e invalidate_without_r -e '^$' "$work/findings.txt")"
check_eq "nfs41/$t: truncated or malformed frames" "0 0" \
	"$(sed -n 's/.* \([0-9]*\) truncated, \([0-9]*\) malformed.*/\1 \2/p' "$work/dump.err")"
check_eq "nfs41/$t: unanswered calls" 0 "$(jq .total.unanswered "$work/stats.json")"

# Every COMPOUND the client had sent when it copied mountstats is on the
# wire; the unmount that follows sends a few more (DESTROY_SESSION, ...).
set -- $(mountstats_xprt client/mountstats)
check_ge "nfs41/$t: calls sent (at least mountstats sends)" "${6:-}" \
	"$(jq '[.procedures[] | select(.program == "NFS" and .version == 4) | .calls] | add // 0' "$work/stats.json")"
# The recall: the server's CB_COMPOUND on the backchannel, answered.
check_ge "nfs41/$t: backward calls (CB_COMPOUND)" 1 "$(jq '.total.messages.backward_call | add' "$work/stats.json")"
check_eq "nfs41/$t: backward replies as many as backward calls" \
	"$(jq '.total.messages.backward_call | add' "$work/stats.json")" \
	"$(jq '.total.messages.backward_reply | add' "$work/stats.json")"
check_ge "nfs41/$t: backward credits granted" 1 "$(jq '[.connections[].credits.backward_granted] | max' "$work/stats.json")"
check_ge "nfs41/$t: calls with read chunks" 1 "$(jq '.total.chunks.read' "$work/stats.json")"
check_ge "nfs41/$t: calls with write chunks" 1 "$(jq '.total.chunks.write' "$work/stats.json")"
check_ge "nfs41/$t: calls with reply chunks" 1 "$(jq '.total.chunks.reply' "$work/stats.json")"
check_watchers nfs41
