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
	# Call by call (xid and operations): but RC retransmissions, which the
	# receiver drops as duplicates (IBA vol. 1 §9.7.5.1.2) and tshark
	# takes as calls again
	again=$(jq -r 'select(.type == "retransmission") | .frame' "$work/dump.json" | paste -sd, -)
	filter='rpc.msgtyp == 0 && nfs'
	[ -z "$again" ] || filter="$filter && !(frame.number in {$again})"
	tshark -r client/capture.pcap -Y "$filter" -T fields -e rpc.xid -e nfs.opcode 2>/dev/null |
		perl -pe 's/\b0x([0-9a-fA-F]+)\b/hex($1)/ge' |
		awk -v names="$op_names" 'BEGIN { n = split(names, w, /[ \n]/); for (i = 1; i < n; i += 2) name[w[i]] = w[i + 1] }
			$2 != "" { split($1, x, ","); m = split($2, o, ","); s = ""
				   for (i = 1; i <= m; i++) s = s (i > 1 ? "," : "") (o[i] in name ? name[o[i]] : "other")
				   print x[1], s }' | sort >"$work/calls-tshark"
	jq -r 'select(.type == "message" and .rpc.msg_type == "CALL" and .rpc.ops) |
		"\(.rpc.xid) \(.rpc.ops | join(",")) \(.frame)"' "$work/dump.json" |
		sort >"$work/calls-ours-framed"
	cut -d' ' -f1,2 "$work/calls-ours-framed" >"$work/calls-ours"
	check_eq "nfs41/$t: each call tshark's NFS dissector reads (xid, nfs.opcode), decoded with the same operations ($(wc -l <"$work/calls-tshark") calls; missing or different)" \
		0 "$(comm -23 "$work/calls-tshark" "$work/calls-ours" | wc -l)"
	# The calls only this decode reads must be on TCP connections where
	# tshark reads no NFS call at all (its MPA framing lost the stream):
	# never one it reads in part.
	comm -13 "$work/calls-tshark" "$work/calls-ours" >"$work/calls-only-ours"
	tshark -r client/capture.pcap -T fields -e frame.number -e tcp.stream 2>/dev/null >"$work/streams"
	tshark -r client/capture.pcap -Y "$filter" -T fields -e tcp.stream 2>/dev/null | sort -u >"$work/streams-read"
	awk 'FILENAME == ARGV[1] { want[$1 " " $2]++; next }
	     FILENAME == ARGV[2] { stream[$1] = $2; next }
	     ($1 " " $2) in want && want[$1 " " $2]-- > 0 { print stream[$3] }' \
		"$work/calls-only-ours" "$work/streams" "$work/calls-ours-framed" | sort -u >"$work/streams-only-ours"
	check_eq "nfs41/$t: the calls only this decode reads ($(wc -l <"$work/calls-only-ours")) lie on TCP connections tshark reads no NFS call on ($(paste -sd' ' "$work/streams-only-ours"); partly read)" \
		0 "$(comm -12 "$work/streams-only-ours" "$work/streams-read" | wc -l)"
	[ -s "$work/calls-only-ours" ] &&
		echo "# nfs41/$t: tshark reads no NFS call on TCP streams $(paste -sd' ' "$work/streams-only-ours"): $(cut -d' ' -f2 "$work/calls-only-ours" | tr ',' '\n' | sort | uniq -c | awk '{ printf "%s %s ", $2, $1 }')"
fi
check_eq "nfs41/$t: exporter: rpcrdma_nfs4_operations_total as --stats=json" \
	"$(jq '[(.nfs4_operations // {})[]] | add // 0' "$work/stats.json")" \
	"$(awk '/^rpcrdma_nfs4_operations_total[{]/ { n += $NF } END { printf "%d", n }' "$work/metrics")"
