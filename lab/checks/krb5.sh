# Checks of the krb5 job, run in its run folder: each Kerberos flavour
# shellcheck shell=sh disable=SC2154
# (SC2154: transport and work are set by lab/run, which sources this)
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
check_linux_findings "krb5/$t" client/capture.pcap "$work/findings.txt"
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
jq -c 'select(.type == "message" and .rpc.gss) | .rpc + {conn}' "$work/dump.json" >"$work/gss-calls"
# Each mount creates 20 files, an OPEN each under the user's credential:
# so at least 20 data calls under its service on its connection (krb5:
# none, krb5i: integrity, krb5p: privacy), the mounts' connections in
# order.  (The calls Linux sends under the machine credential, which
# SP4_MACH_CRED protects, RFC 8881 §18.35, come with integrity whatever
# the mount asked.)
check_eq "krb5/$t: each mount's connection, at least 20 data calls under its service" \
	"none yes, integrity yes, privacy yes" \
	"$(jq -rs '[.[] | select(.gss.proc == "RPCSEC_GSS_DATA")] | group_by(.conn) | to_entries |
		map(["none", "integrity", "privacy"][.key] as $sv |
		    "\($sv) \(if ([.value[] | select(.gss.service == $sv)] | length) >= 20 then "yes" else "no" end)") |
		join(", ")' "$work/gss-calls")"
# Each context destroyed at unmount is a line (RPCSEC_GSS_DESTROY on
# NULL); how many the kernel destroys before the capture ends is its own
# (Linux 6.1: each of the six, 7.2: two): as many as tshark reads
destroyed=$("$LAB_DUMP" -r client/capture.pcap 2>/dev/null | grep -c 'CALL NFS v4 NULL RPCSEC_GSS_DESTROY seq ')
check_ge "krb5/$t: contexts destroyed at unmount (RPCSEC_GSS_DESTROY on NULL, a line each)" 1 "$destroyed"
if command -v tshark >/dev/null && [ "$t" = rxe ]; then
	check_eq "krb5/$t: RPCSEC_GSS_DESTROY calls as tshark reads them" \
		"$(tshark -r client/capture.pcap -Y "$(but_retransmissions 'rpc.msgtyp == 0 && rpc.authgss.procedure == 3 && infiniband')" \
			-T fields -e frame.number 2>/dev/null | grep -c .)" "$destroyed"
fi
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
# The krb5i mount's WRITEs are Long Calls (position-zero read chunks):
# each rebuilt message names every operation its reply's completion
# names, WRITE's range read from the chunk's first packet; the bytes the
# krb5 and krb5i mounts wrote (krb5p's arguments are encrypted)
jq -r 'select(.type == "rpc_message" and .dir == "call" and .source == "position_zero_read" and
		.rpc.gss.service == "integrity") | "\(.conn) \(.xid) \(.rpc.ops // [] | join(","))"' \
	"$work/dump.json" | sort >"$work/integ-long-calls"
jq -r 'select(.type == "message" and .dir == "reply" and .completed.ops) |
		"\(.conn) \(.xid) \(.completed.ops | join(","))"' "$work/dump.json" | sort >"$work/reply-ops"
check_ge "krb5/$t: Long Calls under integrity (position-zero read chunk)" 4 \
	"$(grep -c . "$work/integ-long-calls")"
check_eq "krb5/$t: of them, rebuilt messages whose operations differ from their completion's" 0 \
	"$(comm -23 "$work/integ-long-calls" "$work/reply-ops" | wc -l)"
check_eq "krb5/$t: of them, WRITEs named" "$(grep -c . "$work/integ-long-calls")" \
	"$(grep -c 'WRITE' "$work/integ-long-calls")"
"$LAB_DUMP" --slow 0 -r client/capture.pcap 2>/dev/null >"$work/slow.txt"
check_eq "krb5/$t: --slow WRITE lines without their offset and count" 0 \
	"$(grep ' WRITE ' "$work/slow.txt" | grep -c -v ' offset [0-9]* count [0-9]* ')"
check_eq "krb5/$t: bytes written by the krb5 and krb5i mounts (files table)" 524288 \
	"$(jq '[.busiest_files[].write_bytes] | add' "$work/stats.json")"
# The failed replies: the LOOKUP of a missing name, by the krb5 mount and,
# read inside its integrity wrapping, by the krb5i mount; the krb5p
# mount's is encrypted, and none is read from there
check_eq "krb5/$t: NFS errors: LOOKUP NFS4ERR_NOENT of the krb5 and krb5i mounts" "LOOKUP NFS4ERR_NOENT 2" \
	"$(jq -r '[.nfs_errors[] | "\(.operation // .procedure) \(.status) \(.count)"] | join(",")' "$work/stats.json")"
check_eq "krb5/$t: the client's errors, those two" 2 \
	"$(jq '[.clients[].errors] | add' "$work/stats.json")"
# every call tshark reads over RoCE, RPCSEC_GSS ones among them
if command -v tshark >/dev/null && [ "$t" = rxe ]; then
	tshark -r client/capture.pcap -Y "$(but_retransmissions 'rpc.msgtyp == 0 && infiniband')" -T fields \
		-e rpc.auth.flavor -E occurrence=f 2>/dev/null >"$work/flavors"
	check_eq "krb5/$t: calls as tshark reads them over RoCE" "$(grep -c . "$work/flavors")" \
		"$(jq .total.calls "$work/stats.json")"
	check_ge "krb5/$t: calls with an RPCSEC_GSS credential (tshark)" 100 "$(grep -c '^6$' "$work/flavors")"
	# NFSv4 operations, call by call (xid), as tshark's NFS dissector reads
	# them under krb5 and krb5i (tshark_nfs4_calls: but the calls it loses
	# its way in); this decode's from each answered call (a Long call's
	# too, named once its message was read)
	tshark_nfs4_calls "$(but_retransmissions 'rpc.msgtyp == 0 && nfs && infiniband')"
	jq -r 'select(.type == "message" and .dir == "reply" and .completed.ops) |
		"\(.xid) \(.completed.ops | join(","))"' "$work/dump.json" | sort >"$work/calls-ours-all"
	split_lost_calls krb5
	echo "# krb5/$t: EXCHANGE_ID calls with SP4_MACH_CRED, compared by their one operation: $(sort -u "$work/sp4-mach-cred" | grep -c .)"
	check_ge "krb5/$t: NFSv4 calls tshark reads under krb5 and krb5i" 100 "$(wc -l <"$work/calls-tshark")"
	check_eq "krb5/$t: each of them decoded here with the same operations, and no other (different)" \
		"0 0" "$(comm -23 "$work/calls-tshark" "$work/calls-ours" | wc -l) $(comm -13 "$work/calls-tshark" "$work/calls-ours" | wc -l)"
	# the failed replies tshark reads (a COMPOUND's status, first)
	check_eq "krb5/$t: failed NFSv4 replies as tshark reads them (krb5, krb5i)" "2 NFS4ERR_NOENT" \
		"$(tshark -r client/capture.pcap -Y "$(but_retransmissions 'rpc.msgtyp == 1 && nfs && infiniband')" -T fields \
			-e nfs.nfsstat4 -E occurrence=f 2>/dev/null | awk '$1 != "" && $1 != 0' | sort | uniq -c |
			awk '{ printf "%s %s", $1, ($2 == 2 ? "NFS4ERR_NOENT" : $2) }')"
fi
