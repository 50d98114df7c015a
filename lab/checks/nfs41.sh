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

# NFSv4 operations: those of every COMPOUND call, by number, as tshark's
# NFS dissector lists them (nfs.opcode); the exporter's the same.
op_names=$(sed -n 's/.*X(RR_OP_[A-Z0-9_]*, \([0-9]*\), "\([A-Z0-9_]*\)").*/\1 \2/p' \
	"$lab/../libdissect/include/rpcrdma/nfs4.h")
ours=$(jq -r '(.nfs4_operations // {}) | to_entries[] | "\(.key) \(.value)"' "$work/stats.json" | sort)
check_ge "nfs41/$t: NFSv4 operations counted (SEQUENCE among them)" 1 \
	"$(echo "$ours" | awk '$1 == "SEQUENCE" { print $2 }')"
if command -v tshark >/dev/null; then
	# but RC retransmissions, which the receiver drops as duplicates
	# (IBA vol. 1 §9.7.5.1.2) and tshark takes as calls again
	again=$(jq -r 'select(.type == "retransmission") | .frame' "$work/dump.json" | paste -sd, -)
	filter='rpc.msgtyp == 0 && nfs'
	[ -z "$again" ] || filter="$filter && !(frame.number in {$again})"
	theirs=$(tshark -r client/capture.pcap -Y "$filter" -T fields -e nfs.opcode 2>/dev/null |
		tr ',' '\n' | grep . | sort -n | uniq -c |
		awk -v names="$op_names" 'BEGIN { n = split(names, w, /[ \n]/); for (i = 1; i < n; i += 2) name[w[i]] = w[i + 1] }
			{ print ($2 in name ? name[$2] : "other"), $1 }' | sort)
	check_eq "nfs41/$t: NFSv4 operations of the calls, each as tshark counts (nfs.opcode)" "$theirs" "$ours"
fi
check_eq "nfs41/$t: exporter: rpcrdma_nfs4_operations_total as --stats=json" \
	"$(jq '[(.nfs4_operations // {})[]] | add // 0' "$work/stats.json")" \
	"$(awk '/^rpcrdma_nfs4_operations_total[{]/ { n += $NF } END { printf "%d", n }' "$work/metrics")"
