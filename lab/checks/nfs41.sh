# Checks of the nfs41 job, run in its run folder: the capture's decode
# shellcheck shell=sh disable=SC2154
# (SC2154: transport and work are set by lab/run, which sources this)
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
# The client's replies to the callbacks are sends of no rpc_clnt (the
# kernel's client_id -1, xprtrdma_post_send): rpcrdma-top -t shows them as
# the backchannel's, one send at least a reply on the wire
if [ -s client/watch-trace.jsonl ]; then
	last=$(tail -n 1 client/watch-trace.jsonl)
	if echo "$last" | jq -e 'has("backchannel_sends")' >/dev/null; then
		check_ge "nfs41/$t: rpcrdma-top -t: backchannel sends (the client's replies to callbacks)" \
			"$(jq '.total.messages.backward_reply | add' "$work/stats.json")" \
			"$(echo "$last" | jq '[.backchannel_sends[].sends] | add // 0')"
	else
		echo "# nfs41/$t: client/watch-trace.jsonl was written by a tool that showed no backchannel sends"
	fi
fi

check_nfs4_ops nfs41
