# Checks of the nfs41 job, run in its run folder: the capture's decode
# against mountstats, the delegation the server recalled over the
# backchannel, and what the live sources and the exporter reported.
t=$transport
check_run nfs41
check_eq "nfs41/$t: server's write went through" yes "$(workload_value client delegation_recalled)"
check_ge "nfs41/$t: delegations returned (DELEGRETURN)" 1 "$(workload_value client delegations_returned)"
check_restart nfs41

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
check_eq "nfs41/$t: backward calls counted by procedure (NFS4_CB CB_COMPOUND)" \
	"$(jq '.total.messages.backward_call | add' "$work/stats.json")" \
	"$(jq '[.procedures[] | select(.program == "NFS4_CB") | .calls] | add // 0' "$work/stats.json")"
check_ge "nfs41/$t: backward credits granted" 1 "$(jq '[.connections[].credits.backward_granted] | max' "$work/stats.json")"
check_ge "nfs41/$t: calls with read chunks" 1 "$(jq '.total.chunks.read' "$work/stats.json")"
check_ge "nfs41/$t: calls with write chunks" 1 "$(jq '.total.chunks.write' "$work/stats.json")"
check_ge "nfs41/$t: calls with reply chunks" 1 "$(jq '.total.chunks.reply' "$work/stats.json")"
check_live nfs41

check_nfs4_ops nfs41
