#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The NFS status of every reply, as tshark's NFS dissector reads it: on
# every NFS capture of the lab, the replies rpcrdma-dump -j gives a
# status other than OK (completed.nfs_status; nfsstat3, RFC 1813 §2.6, or
# nfsstat4, RFC 8881 §15) are those tshark gives one (nfs.status3,
# nfs.nfsstat4), with the same status and, for an NFSv4 COMPOUND, the
# operation that failed (the last result, RFC 8881 §16.2.3); the text
# line names them, and --stats=json counts them; every NFS_ACL reply's
# status and every NFSv4.1 callback's (CB_COMPOUND) is tshark's.  On the same captures cut
# a third of the way in, every status given is the whole capture's.
# usage: nfs-status-test.sh RPCRDMA_DUMP SOURCE_DIR
set -u
dump=$1
src=$2
. "$src/tests/tap.sh"
. "$src/tests/nfs-lib.sh"
# NFSv3 and NFSv4 status numbers and names, from the lists libdissect keeps
x_list 'RR_NFS[34]' nfs.h >"$work/status-names"
x_list RR_OP_ nfs4.h >"$work/op-names"
# awk: s3[number] and s4[number], the names of NFSv3's and NFSv4's
# statuses (their lists share the numbers below 10000 but not the names)
status_lists=(-v names3="$(x_list RR_NFS3 nfs.h)" -v names4="$(x_list RR_NFS4 nfs.h)")
awk_status_names='BEGIN {
	n = split(names3, w, /[ \n]/); for (i = 1; i < n; i += 2) s3[w[i]] = w[i + 1]
	n = split(names4, w, /[ \n]/); for (i = 1; i < n; i += 2) s4[w[i]] = w[i + 1]
}'
# "xid status [operation]" of each failed reply, by name
ours() { # capture
	"$dump" -j -r "$1" 2>/dev/null | jq -r 'select(.type == "message" and
		.completed.nfs_status != null and .completed.nfs_status != "NFS3_OK" and
		.completed.nfs_status != "NFS4_OK") |
		"\(.xid) \(.completed.nfs_status) \(.completed.nfs_op // "")"' | sed 's/ $//' | sort
}
runs=0
for capture in $(nfs_captures); do
	name=$(run_name "$capture")
	runs=$((runs + 1))
	ours "$capture" >"$work/ours"
	"$dump" -j -r "$capture" 2>/dev/null >"$work/dump.json"
	filter=$(without_retransmissions 'rpc.msgtyp == 1 && nfs' "$work/dump.json")
	# tshark: the RPC xid, the status (NFSv4: the COMPOUND's, the first of
	# nfs.nfsstat4) and, for NFSv4, the last result's operation
	tshark -r "$capture" -Y "$filter" -T fields -e rpc.xid -e nfs.status3 -e nfs.nfsstat4 \
		-e nfs.opcode 2>/dev/null |
		awk -F'\t' -v names="$(cat "$work/status-names")" -v ops="$(cat "$work/op-names")" "$awk_hex"'
			BEGIN {
				n = split(names, w, /[ \n]/)
				for (i = 1; i < n; i += 2) if (!(w[i] in st)) st[w[i]] = w[i + 1]
				n = split(ops, w, /[ \n]/)
				for (i = 1; i < n; i += 2) op[w[i]] = w[i + 1]
			}
			# an iWARP segment holding several replies lists their
			# fields together, not always one per reply: left out
			# (their xids too, from ours, below)
			$1 ~ /,/ { n = split($1, x, ","); for (i = 1; i <= n; i++) print "several", hex(x[i]); next }
			$2 != "" && $2 != "0" { print hex($1), "NFS3ERR_" $2 }
			$3 != "" { split($3, s, ","); n = split($4, o, ",")
				if (s[1] != "0") print hex($1), s[1], (o[n] in op ? op[o[n]] : "") }' |
		sed 's/ $//' >"$work/theirs.all"
	awk '$1 == "several" { print $2 }' "$work/theirs.all" | sort -u >"$work/several"
	grep -v '^several ' "$work/theirs.all" >"$work/theirs.raw"
	awk 'FILENAME == ARGV[1] { skip[$1] = 1; next } !($1 in skip)' "$work/several" "$work/ours" \
		>"$work/ours.single"
	# status numbers to names, each by its own version's list
	awk "${status_lists[@]}" "$awk_status_names"'
		$2 ~ /^NFS3ERR_/ { v = substr($2, 9); $2 = (v in s3 ? s3[v] : v); print; next }
		{ $2 = ($2 in s4 ? s4[$2] : $2); print }' "$work/theirs.raw" | sort >"$work/theirs"
	failed=$(grep -c . "$work/theirs")
	several=$(grep -c . "$work/several")
	check "$name: the replies that failed and their NFS status, as tshark reads them ($failed; $several in segments of several left out)" \
		eval "test '$failed' -gt 0 && diff '$work/theirs' '$work/ours.single' >&2"
	# the statistics count each failed reply once, by procedure (NFSv4:
	# operation) and status
	counted=$("$dump" -q --stats=json -r "$capture" 2>/dev/null |
		jq -r '(.nfs_errors // [])[] | "\(.operation // .procedure) \(.status) \(.count)"' | sort)
	lines=$(jq -r 'select(.type == "message" and .completed.nfs_status != null and
			.completed.nfs_status != "NFS3_OK" and .completed.nfs_status != "NFS4_OK") |
		"\(.completed.nfs_op // .completed.proc_name) \(.completed.nfs_status)"' "$work/dump.json" |
		sort | uniq -c | awk '{ print $2, $3, $1 }' | sort)
	check "$name: --stats=json nfs_errors counts them by procedure or operation and status" \
		test "$counted" = "$lines"
	# the text line names the status
	named=$("$dump" -r "$capture" 2>/dev/null | grep -cE ' REPLY MSG_ACCEPTED SUCCESS .*NFS[34]ERR_')
	check "$name: each failed reply's line names its status ($named)" \
		test "$named" -eq "$(grep -c . "$work/ours")"
	# NFS_ACL's replies (nfsstat3) and the NFSv4.1 callbacks' CB_COMPOUND
	# replies (nfsstat4, RFC 8881 §20.2), OK or not, as tshark reads them
	jq -r 'select(.type == "message" and (.completed.prog_name == "NFS_ACL" or
		.completed.prog_name == "NFS4_CB") and .completed.nfs_status != null) |
		"\(.xid) \(.completed.nfs_status)"' "$work/dump.json" | sort >"$work/companions.ours"
	filter=$(without_retransmissions 'rpc.msgtyp == 1 && (nfsacl || rpc.program == 0x40000000)' "$work/dump.json")
	tshark -r "$capture" -Y "$filter" -T fields -e rpc.xid -e rpc.program -e nfs.status -e nfs.nfsstat4 2>/dev/null |
		awk -F'\t' "${status_lists[@]}" "$awk_hex$awk_status_names"'
			$1 ~ /,/ { next }  # several replies in one segment
			# NFS_ACL: nfs.status; a CB_COMPOUND: the first nfs.nfsstat4
			$2 == 100227 && $3 != "" { print hex($1), s3[$3]; next }
			$2 != 100227 && $4 != "" { split($4, s, ","); print hex($1), s4[s[1]] }' |
		sort >"$work/companions.theirs"
	companions=$(grep -c . "$work/companions.theirs")
	check "$name: the status of each NFS_ACL and callback reply, as tshark reads it ($companions)" \
		eval "test '$companions' -gt 0 && test -z \"\$(comm -13 '$work/companions.ours' '$work/companions.theirs')\" &&
		      test \"\$(grep -c . '$work/companions.ours')\" -ge '$companions'"
	# a third of the way in: what it gives is the whole capture's
	cut_third "$capture" "$work/late.pcap"
	ours "$work/late.pcap" >"$work/late"
	check "$name, from a third of the way in: each status given is the whole capture's ($(grep -c . "$work/late"))" \
		test -z "$(comm -13 "$work/ours" "$work/late")"
done
check "every NFS run of the lab was read ($runs)" test "$runs" -gt 0
tap_end
