# Checks of the krb5 job, run in its run folder: each Kerberos flavour
# mounted and used, every call counted by procedure and answered; NFS
# statuses and operations read under krb5 and, inside the integrity
# wrapping (RFC 2203 §5.3.2.2), under krb5i, as tshark reads them; none
# read from krb5p's encrypted bodies, where it would be invented.
t=$transport
check_eq "krb5/$t: server job exit status" 0 "$(cat server/job.status 2>/dev/null)"
check_eq "krb5/$t: client job exit status" 0 "$(cat client/job.status 2>/dev/null)"
for sec in krb5 krb5i krb5p; do
	check_eq "krb5/$t: sec=$sec: mounted, 256 KiB read back, 20 files listed" "yes 262144 20" \
		"$(workload_value client "mounted_$sec") $(workload_value client "read_back_$sec") $(workload_value client "files_listed_$sec")"
done
check_capture_clean "krb5/$t"
"$LAB_DUMP" --findings -r client/capture.pcap >"$work/findings.txt" 2>/dev/null
check_eq "krb5/$t: findings other than invalidate_own_r_cleared" 0 \
	"$(grep -c -v -e invalidate_own_r_cleared -e '^$' "$work/findings.txt")"
check_eq "krb5/$t: every call answered" "0 $(jq .total.calls "$work/stats.json")" \
	"$(jq -r '"\(.total.unanswered) \(.total.replies)"' "$work/stats.json")"
check_ge "krb5/$t: NFSv4 COMPOUND calls counted by procedure, wrapped or not" 100 \
	"$(jq '[.procedures[] | select(.program == "NFS" and .procedure == "COMPOUND") | .calls] | add // 0' "$work/stats.json")"
# Three mounts one after the other, no restart: three connections with
# calls, each a new client's (its first call a NULL), none a reconnect
check_eq "krb5/$t: connections with calls, each mount's, none named a reconnect" "3 0 0" \
	"$(jq -r '"\([.connections[] | select(.calls > 0)] | length) \(.reconnects) \([.connections[] | select(.previous != null)] | length)"' "$work/stats.json")"
# The credentials (RFC 2203 §5): each mount's calls under its service,
# each context destroyed at unmount shown; no operation read from a
# call krb5p encrypts, and every COMPOUND's read under krb5i
"$LAB_DUMP" -j -r client/capture.pcap >"$work/dump.json" 2>/dev/null
jq -c 'select(.type == "message" and .rpc.gss) | .rpc' "$work/dump.json" >"$work/gss-calls"
check_eq "krb5/$t: RPCSEC_GSS data calls by service (none, integrity, privacy: each mount's)" "yes yes yes" \
	"$(for sv in none integrity privacy; do
		[ "$(jq -s --arg sv "$sv" '[.[] | select(.gss.proc == "RPCSEC_GSS_DATA" and .gss.service == $sv)] | length' "$work/gss-calls")" -ge 40 ] &&
			echo yes || echo no; done | paste -sd' ')"
check_ge "krb5/$t: contexts destroyed at unmount (RPCSEC_GSS_DESTROY on NULL, a line each)" 3 \
	"$("$LAB_DUMP" -r client/capture.pcap 2>/dev/null | grep -c 'CALL NFS v4 NULL RPCSEC_GSS_DESTROY seq ')"
check_eq "krb5/$t: privacy's COMPOUND calls with operations read (none: encrypted)" 0 \
	"$(jq -s '[.[] | select(.gss.service == "privacy" and .proc_name == "COMPOUND" and .ops)] | length' "$work/gss-calls")"
check_eq "krb5/$t: integrity's COMPOUND calls whose operations were not read" 0 \
	"$(jq -s '[.[] | select(.gss.service == "integrity" and .gss.proc == "RPCSEC_GSS_DATA" and .proc_name == "COMPOUND" and (.ops | not))] | length' "$work/gss-calls")"
# Under integrity and privacy no chunk reduces the wrapped body (RFC 8166
# §8.2.2.3): a call's read chunks are at position zero (a Long call, its
# message rebuilt here), and it has no write chunk; its reply may come
# by reply chunk
jq -c 'select((.type == "message" or .type == "rpc_message") and .dir == "call")' "$work/dump.json" |
	jq -rs '
		[.[] | select(.rpc.gss.service == "integrity" or .rpc.gss.service == "privacy") |
		 "\(.conn) \(.xid)"] as $wrapped |
		[.[] | select(.type == "message" and ("\(.conn) \(.xid)" | IN($wrapped[]))) |
		 select(([.reads[] | select(.position != 0)] | length) > 0 or (.writes | length) > 0)] |
		"\($wrapped | length) \(length)"' >"$work/wrapped-chunks"
check_ge "krb5/$t: calls under integrity or privacy" 100 "$(cut -d' ' -f1 "$work/wrapped-chunks")"
check_eq "krb5/$t: of them, calls that reduce their body (a read chunk past position zero, a write chunk)" 0 \
	"$(cut -d' ' -f2 "$work/wrapped-chunks")"
# The failed replies: the LOOKUP of a missing name, by the krb5 mount and,
# read inside its integrity wrapping, by the krb5i mount; the krb5p
# mount's is encrypted, and none is read from there
check_eq "krb5/$t: NFS errors: LOOKUP NFS4ERR_NOENT of the krb5 and krb5i mounts" "LOOKUP NFS4ERR_NOENT 2" \
	"$(jq -r '[.nfs_errors[] | "\(.operation // .procedure) \(.status) \(.count)"] | join(",")' "$work/stats.json")"
check_eq "krb5/$t: the client's errors, those two" 2 \
	"$(jq '[.clients[].errors] | add' "$work/stats.json")"
# every call tshark reads over RoCE, RPCSEC_GSS ones among them
if command -v tshark >/dev/null && [ "$t" = rxe ]; then
	tshark -r client/capture.pcap -Y 'rpc.msgtyp == 0 && infiniband' -T fields \
		-e rpc.auth.flavor -E occurrence=f 2>/dev/null >"$work/flavors"
	check_eq "krb5/$t: calls as tshark reads them over RoCE" "$(grep -c . "$work/flavors")" \
		"$(jq .total.calls "$work/stats.json")"
	check_ge "krb5/$t: calls with an RPCSEC_GSS credential (tshark)" 100 "$(grep -c '^6$' "$work/flavors")"
	# NFSv4 operations, call by call (xid), as tshark's NFS dissector reads
	# them under krb5 and krb5i; this decode's from each answered call (a
	# Long call's too, named once its message was read).  tshark lists in
	# nfs.opcode the operations an EXCHANGE_ID's SP4_MACH_CRED bitmaps name
	# (spo_must_enforce, spo_must_allow: RFC 8881 §18.35.1) after the
	# COMPOUND's own; where the COMPOUND counts one operation (numops, RFC
	# 8881 §16.2.3) and that is EXCHANGE_ID, only it is compared.
	op_names=$(nfs4_op_names)
	tshark -r client/capture.pcap -Y 'rpc.msgtyp == 0 && nfs && infiniband' -T fields -E separator=';' \
		-e rpc.xid -e nfs.opcode -e nfs.ops.count -e nfs.exchange_id.state_protect 2>/dev/null |
		perl -pe 's/\b0x([0-9a-fA-F]+)\b/hex($1)/ge' |
		awk -F';' -v names="$op_names" -v bitmaps="$work/sp4-mach-cred" '
			BEGIN { n = split(names, w, /[ \n]/); for (i = 1; i < n; i += 2) name[w[i]] = w[i + 1] }
			$2 != "" { split($1, x, ","); m = split($2, o, ","); split($3, c, ",")
				   if ($4 + 0 == 1 && c[1] + 0 == 1 && o[1] + 0 == 42 && m > 1) {
					   print x[1] >bitmaps; m = 1 }
				   s = ""
				   for (i = 1; i <= m; i++) s = s (i > 1 ? "," : "") (o[i] in name ? name[o[i]] : "other")
				   print x[1], s }' | sort >"$work/calls-tshark"
	jq -r 'select(.type == "message" and .dir == "reply" and .completed.ops) |
		"\(.xid) \(.completed.ops | join(","))"' "$work/dump.json" | sort >"$work/calls-ours"
	echo "# krb5/$t: EXCHANGE_ID calls with SP4_MACH_CRED, compared by their one operation: $(sort -u "$work/sp4-mach-cred" 2>/dev/null | wc -l)"
	check_ge "krb5/$t: NFSv4 calls tshark reads under krb5 and krb5i" 100 "$(wc -l <"$work/calls-tshark")"
	check_eq "krb5/$t: each of them decoded here with the same operations, and no other (different)" \
		"0 0" "$(comm -23 "$work/calls-tshark" "$work/calls-ours" | wc -l) $(comm -13 "$work/calls-tshark" "$work/calls-ours" | wc -l)"
	# the failed replies tshark reads (a COMPOUND's status, first)
	check_eq "krb5/$t: failed NFSv4 replies as tshark reads them (krb5, krb5i)" "2 NFS4ERR_NOENT" \
		"$(tshark -r client/capture.pcap -Y 'rpc.msgtyp == 1 && nfs && infiniband' -T fields \
			-e nfs.nfsstat4 -E occurrence=f 2>/dev/null | awk '$1 != "" && $1 != 0' | sort | uniq -c |
			awk '{ printf "%s %s", $1, ($2 == 2 ? "NFS4ERR_NOENT" : $2) }')"
fi
