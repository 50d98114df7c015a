#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rpcrdma-dump --slow MS, nfsslower's habit: one line per answered call
# slower than MS.  On every NFS capture of the lab, each call's file handle
# hash, offset and count are those tshark's NFS dissector shows for the same
# xid (nfs.fh.hash, the first handle of the call; nfs.offset3/count3,
# nfs.offset4/count4, nfs.write.data_length for READ, WRITE, COMMIT), every
# answered call is listed at 0, a threshold lists exactly the calls at or
# above it, text and JSON agree, and the copies the test makes (cut a third
# in, each direction alone, frames cut to 232 bytes) list only what they
# show: no call without both its call and its reply, no value that differs
# from the whole capture's.
# usage: slow-calls-test.sh RPCRDMA_DUMP SOURCE_DIR
set -u
dump=$1
src=$2
. "$src/tests/tap.sh"
. "$src/tests/nfs-lib.sh"
# "xid fh offset count" of each slow_call line of rpcrdma-dump -j (NFS's
# alone with NFS=1: tshark's `nfs` leaves out the NFSv4.1 callbacks)
ours() { # capture
	"$dump" -j --slow 0 -r "$1" 2>/dev/null |
		jq -r --arg nfs "${NFS:-}" 'select(.type == "slow_call" and ($nfs == "" or .prog == 100003)) |
		"\(.xid) \(if .fh_hash == null then "-" else .fh_hash end) \(.offset // "-") \(.count // "-")"' |
		sort
}
runs=0
for capture in $(nfs_captures); do
	name=$(run_name "$capture")
	runs=$((runs + 1))
	"$dump" -j -r "$capture" 2>/dev/null >"$work/dump.json"
	ours "$capture" >"$work/ours"
	# tshark: each NFS call's xid, first handle and, for READ, WRITE and
	# COMMIT (NFSv3 procedures 6, 7, 21; NFSv4 operations 25, 38, 5), the
	# range; an iWARP segment holding several calls lists their fields
	# together: those xids are left out of both sides
	filter=$(without_retransmissions 'rpc.msgtyp == 0 && nfs' "$work/dump.json")
	tshark -r "$capture" -Y "$filter" -T fields -e rpc.xid -e rpc.programversion \
		-e rpc.procedure -e nfs.opcode -e nfs.fh.hash -e nfs.offset3 -e nfs.count3 \
		-e nfs.offset4 -e nfs.count4 -e nfs.write.data_length 2>/dev/null |
		awk -F'\t' "$awk_hex"'
			$1 ~ /,/ { n = split($1, x, ","); for (i = 1; i <= n; i++) print "several", hex(x[i]); next }
			{
				# tshark repeats the version for the NFS layer: "4,4"
				split($2, v, ","); split($3, p, ","); split($5, fh, ",")
				line = hex($1) " " (fh[1] == "" ? "-" : hex(fh[1]))
				io = 0
				if (v[1] == 3 && (p[1] == 6 || p[1] == 7 || p[1] == 21)) {
					split($6, o, ","); split($7, c, ","); io = 1
				}
				if (v[1] == 4 && $4 ~ /(^|,)(25|38|5)(,|$)/) {
					split($8, o, ","); split($9 != "" ? $9 : $10, c, ","); io = 1
				}
				print line " " (io ? o[1] " " c[1] : "- -")
			}' | sort -u >"$work/theirs.all"
	awk '$1 == "several" { print $2 }' "$work/theirs.all" | sort -u >"$work/several"
	grep -v '^several ' "$work/theirs.all" >"$work/theirs"
	NFS=1 ours "$capture" >"$work/ours.nfs"
	awk 'FILENAME == ARGV[1] { skip[$1] = 1; next } !($1 in skip)' "$work/several" "$work/ours.nfs" \
		>"$work/ours.single"
	listed=$(grep -c . "$work/ours.single")
	io=$(awk '$3 != "-"' "$work/ours.single" | grep -c .)
	check "$name: each call's handle hash, offset and count as tshark shows them ($listed calls, $io with a range; $(grep -c . "$work/several") in segments of several left out)" \
		eval "test '$listed' -gt 0 && test '$io' -gt 0 && test -z \"\$(comm -23 '$work/ours.single' '$work/theirs')\""
	check "$name: the lines follow the schema (docs/schema/rpcrdma-dump.schema.json)" \
		eval "'$dump' -j --slow 0 --findings -r '$capture' 2>/dev/null |
			python3 '$src/tests/tools/json-validate.py' --require slow_call \
				'$src/docs/schema/rpcrdma-dump.schema.json' >&2"
	# the busiest files: each whose count inherited nothing has the calls
	# tshark reads naming that handle first
	"$dump" -q --stats=json -r "$capture" 2>/dev/null |
		jq -r '.busiest_files[] | select(.overcount == 0) | "\(.fh_hash) \(.calls)"' | sort >"$work/busiest"
	awk '$2 != "-" { n[$2]++ } END { for (f in n) print f, n[f] }' "$work/theirs" | sort >"$work/per-file"
	check "$name: --stats=json's busiest files have the calls tshark reads for their handles ($(grep -c . "$work/busiest") of 10 counted exactly)" \
		eval "test -s '$work/busiest' && test ! -s '$work/several' &&
		      test -z \"\$(comm -23 '$work/busiest' '$work/per-file')\""
	# every answered call, once: a reply that completed its call
	answered=$(jq -r 'select(.type == "message" and .completed != null) | "\(.conn) \(.xid)"' \
		"$work/dump.json" | sort -u | grep -c .)
	check "$name: --slow 0 lists every answered call once ($answered)" \
		test "$(grep -c . "$work/ours")" -eq "$answered"
	# a threshold: the median latency lists those at or above it
	jq -r 'select(.type == "message" and .completed != null) | .completed.latency_ns' \
		"$work/dump.json" | sort -n >"$work/latencies"
	median_ns=$(awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }' "$work/latencies")
	ms=$(awk -v n="$median_ns" 'BEGIN { printf "%.3f", n / 1e6 }')
	threshold_ns=$(awk -v m="$ms" 'BEGIN { printf "%.0f", m * 1e6 }')
	want=$(awk -v t="$threshold_ns" '$1 >= t' "$work/latencies" | grep -c .)
	got=$("$dump" -j --slow "$ms" -r "$capture" 2>/dev/null | jq -r 'select(.type == "slow_call") | .latency_ns' |
		awk -v t="$threshold_ns" '$1 >= t { n++ } END { print n + 0 "/" NR }')
	check "$name: --slow $ms lists the $want calls at or above it ($got)" test "$got" = "$want/$want"
	# the text lines say what the JSON lines say, with nothing else
	"$dump" --slow "$ms" -r "$capture" 2>/dev/null >"$work/slow.txt"
	"$dump" -j --slow "$ms" -r "$capture" 2>/dev/null | jq -r 'select(.type == "slow_call") |
		"xid \(.xid) \(if .fh_hash == null then "" else "fh \(.fh_hash)" end) \(.latency_ns / 1000 | floor)"' \
		>"$work/want.txt"
	awk "$awk_hex"'{
		xid = ""; fh = ""; lat = ""
		for (i = 1; i < NF; i++) {
			if ($i == "xid") xid = hex($(i + 1))
			if ($i == "fh") fh = "fh " hex($(i + 1))
			if ($i == "latency") { split($(i + 1), l, "."); lat = l[1] * 1000 + l[2] }
		}
		print "xid " xid " " fh " " lat
	}' "$work/slow.txt" >"$work/got.txt"
	check "$name: each text line names the JSON line's xid, handle and latency ($(grep -c . "$work/got.txt") lines)" \
		eval "test -s '$work/got.txt' && diff '$work/want.txt' '$work/got.txt' >&2"
	# the RPC's own answer where it failed (RFC 5531 §9; the NFSv3 run's
	# large SETACL is answered GARBAGE_ARGS): each reply tshark reads so,
	# by xid, named in the JSON line and the text line of its call
	tshark -r "$capture" -Y 'rpc.msgtyp == 1 && (rpc.replystat == 1 || rpc.state_accept != 0)' \
		-T fields -e rpc.xid -e rpc.replystat -e rpc.state_accept -e rpc.state_reject 2>/dev/null |
		awk 'BEGIN { split("PROG_UNAVAIL PROG_MISMATCH PROC_UNAVAIL GARBAGE_ARGS SYSTEM_ERR", acc)
			     split("RPC_MISMATCH AUTH_ERROR", rej) }
		     { print tolower($1), ($2 == 1 ? rej[$4 + 1] : acc[$3]) }' | sort -u >"$work/failed-want"
	"$dump" -j --slow 0 -r "$capture" 2>/dev/null |
		jq -r 'select(.type == "slow_call" and .rpc_status != null and .rpc_status != "SUCCESS") |
		       "\(.xid) \(.rpc_status)"' |
		while read -r xid st; do printf '0x%08x %s\n' "$xid" "$st"; done | sort -u >"$work/failed-json"
	"$dump" --slow 0 -r "$capture" 2>/dev/null |
		awk '{ for (i = 1; i < NF; i++) if ($i == "xid") print $(i + 1), $NF }' |
		grep -E ' (PROG_UNAVAIL|PROG_MISMATCH|PROC_UNAVAIL|GARBAGE_ARGS|SYSTEM_ERR|RPC_MISMATCH|AUTH_ERROR)$' |
		sort -u >"$work/failed-text"
	check "$name: each RPC reply that failed, named by its status as tshark reads it, in JSON and text ($(grep -c . "$work/failed-want"): $(cut -d' ' -f2 "$work/failed-want" | sort | uniq -c | tr -s ' ' | tr '\n' ' '))" \
		eval "diff '$work/failed-want' '$work/failed-json' >&2 && diff '$work/failed-want' '$work/failed-text' >&2"
	# a third of the way in: only calls whose call and reply it holds,
	# with the whole capture's values
	cut_third "$capture" "$work/late.pcap"
	ours "$work/late.pcap" >"$work/late"
	check "$name, from a third of the way in: the whole capture's values ($(grep -c . "$work/late") calls)" \
		eval "test -s '$work/late' && test -z \"\$(comm -13 '$work/ours' '$work/late')\""
	# one direction: no call is answered where the capture holds only
	# calls or only replies
	client=$("$dump" -j --slow 0 -r "$capture" 2>/dev/null | jq -r 'select(.type == "slow_call") | .client' | head -1)
	for side in "ip.src == $client" "ip.dst == $client"; do
		tshark -r "$capture" -Y "$side" -w "$work/side.pcap" 2>/dev/null
		check "$name, $side only: no call listed (a latency needs both directions)" \
			test "$(ours "$work/side.pcap" | grep -c .)" -eq 0
	done
	# frames cut to 232 bytes, about where a RoCE call's handle ends: a
	# handle is given where the call's bytes hold it, and it is the whole
	# capture's
	editcap -s 232 "$capture" "$work/snap.pcap" 2>/dev/null
	ours "$work/snap.pcap" | awk '$2 != "-" { print $1, $2 }' >"$work/snap"
	awk '$2 != "-" { print $1, $2 }' "$work/ours" >"$work/whole-fh"
	check "$name, frames cut to 232 bytes: each handle given is the whole capture's ($(grep -c . "$work/snap") of $(grep -c . "$work/whole-fh"))" \
		eval "test -z \"\$(comm -13 '$work/whole-fh' '$work/snap')\""
	# frames cut where RPC call headers end part way: a call's procedure
	# is the whole capture's, or unknown (null, "procedure unknown" in
	# text), never read from bytes the capture lacks
	procedures() { # capture
		"$dump" -j --slow 0 -r "$1" 2>/dev/null |
			jq -r 'select(.type == "slow_call") | "\(.conn) \(.xid) \(.prog) \(.vers) \(.proc)"' | sort -u
	}
	procedures "$capture" >"$work/whole-proc"
	wrong=0 unknown=0 unknown_text=0
	for snap in 96 104 112 120 128; do
		editcap -s "$snap" "$capture" "$work/snap.pcap" 2>/dev/null
		procedures "$work/snap.pcap" >"$work/snap-proc"
		wrong=$((wrong + $(awk '$3 != "null"' "$work/snap-proc" | comm -13 "$work/whole-proc" - | grep -c .)))
		unknown=$((unknown + $(awk '$3 == "null" && $4 == "null" && $5 == "null"' "$work/snap-proc" | grep -c .)))
		unknown_text=$((unknown_text + $("$dump" --slow 0 -r "$work/snap.pcap" 2>/dev/null |
			grep -c ' procedure unknown xid ')))
		"$dump" -j --slow 0 -r "$work/snap.pcap" 2>/dev/null
	done >"$work/snaps.json"
	check "$name, frames cut to 96 to 128 bytes: the lines follow the schema, unknown procedures too" \
		eval "python3 '$src/tests/tools/json-validate.py' --require slow_call \
			'$src/docs/schema/rpcrdma-dump.schema.json' <'$work/snaps.json' >&2"
	check "$name, frames cut to 96 to 128 bytes: each procedure named is the whole capture's ($wrong not), the others unknown ($unknown)" \
		test "$wrong" -eq 0 -a "$unknown" -gt 0
	check "$name, frames cut to 96 to 128 bytes: the text says \"procedure unknown\" where the JSON has null ($unknown_text)" \
		test "$unknown_text" -eq "$unknown"
done
check "every NFS run of the lab was read ($runs)" test "$runs" -gt 0
check "a threshold that is no number is refused with a usage message" \
	eval "! '$dump' --slow fast -r '$capture' >/dev/null 2>'$work/err' && grep -q 'slow' '$work/err'"
tap_end
