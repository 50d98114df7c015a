#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rpcrdma-top on a capture file tells time by the capture: its rates are
# the capture's (calls over the time from the first frame to the last, as
# tshark reads the file) and its clock is the last frame's, not the
# machine's, on the lab's captures of Linux's NFS/RDMA client.
# usage: top-file-test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
top=$build/cli/rpcrdma-top
command -v tshark >/dev/null || { echo "SKIP: tshark is not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
for tool in editcap capinfos mergecap; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
. "$(dirname "$0")/tap.sh"
# top's -j clients and busiest files against rpcrdma-dump's ($json, $stats:
# the two documents, which may hold any character)
clients_and_files_match() {
	test "$(printf '%s' "$json" | jq -c '[.clients[] | [.address, .calls, .errors, .bytes]]')" = \
	     "$(printf '%s' "$stats" | jq -c '[(.clients // [])[] | [.address, .calls, .errors, .bytes]]')" &&
		test "$(printf '%s' "$json" | jq -c '[.busiest_files[0:10][] | [.fh_hash, .calls]]')" = \
		     "$(printf '%s' "$stats" | jq -c '[(.busiest_files // [])[] | [.fh_hash, .calls]]')"
}
for capture in "$src"/tests/linux/*/client/capture.pcap; do
	name=$(basename "$(dirname "$(dirname "$capture")")")
	"$top" -r "$capture" -b -j >"${TMPDIR:-/tmp}/top-file.$$" 2>/dev/null
	json=$(tail -n 1 "${TMPDIR:-/tmp}/top-file.$$")
	rm -f "${TMPDIR:-/tmp}/top-file.$$"
	first=$(tshark -r "$capture" -c 1 -T fields -e frame.time_epoch 2>/dev/null)
	last=$(tshark -r "$capture" -T fields -e frame.time_epoch 2>/dev/null | tail -n 1)
	calls=$(echo "$json" | jq .totals.calls)
	rate=$(echo "$json" | jq .totals.calls_per_s)
	want=$(awk -v n="$calls" -v a="$first" -v b="$last" 'BEGIN { printf "%.3f", n / (b - a) }')
	check "$name: calls/s in capture time ($rate; $calls calls over the capture: $want)" \
		awk -v g="$rate" -v w="$want" 'BEGIN { d = g - w; exit !(w > 0 && (d < 0 ? -d : d) <= w * 0.01) }'
	check "$name: the clock is the last frame's" \
		test "$(echo "$json" | jq .time)" = "${last%.*}"
	# the main view tells apart connections of the same hosts: one row
	# per connection with a QP (RoCE: the responder's QPN, iWARP: the
	# requester's port), each the one rpcrdma-dump --stats=json gives
	screen=$("$top" -r "$capture" -b 2>/dev/null | awk '/^REQUESTER/ { on = 1; next } on && NF { print $3 }' | sort)
	ids=$("$build/cli/rpcrdma-dump" -q --stats=json -r "$capture" 2>/dev/null | jq -r '.connections[] |
		(if .transport == "iWARP" then .requester_id else .responder_id end) as $id |
		if $id == 0 then "-" elif .transport == "iWARP" then "\($id)" else
		([range(5; -1; -1) as $i | (($id / pow(16; $i)) | floor) % 16 | "0123456789abcdef"[.:.+1]] | join("")) end' | sort)
	check "$name: main view: a QP or port per connection, as rpcrdma-dump's ($(echo $ids))" \
		test "$screen" = "$ids"
	# one definition of a call: RPC calls in both directions (the NFSv4.1
	# callbacks too), in total and per connection, as rpcrdma-dump counts
	stats=$("$build/cli/rpcrdma-dump" -q --stats=json -r "$capture" 2>/dev/null)
	check "$name: calls ($calls) as rpcrdma-dump --stats=json's total" \
		test "$calls" = "$(echo "$stats" | jq .total.calls)"
	check "$name: calls per connection as rpcrdma-dump's" \
		test "$(echo "$json" | jq -c '[.connections[] | [.conn, .calls]] | sort')" = \
		"$(echo "$stats" | jq -c '[.connections[] | [.conn, .calls]] | sort')"
	check "$name: backward calls as rpcrdma-dump's" \
		test "$(echo "$json" | jq .totals.backward_calls)" = \
		"$(echo "$stats" | jq '.total.messages.backward_call | add')"
	# the slow view: the 32 slowest calls answered in the minute up to
	# the last reply (the 60 whole seconds ending with its second), as
	# rpcrdma-dump --slow 0 lists them (latency, handle hash, and the NFS
	# status: top rebuilds no message, and reads a reply chunk's from its
	# head)
	slow=$(echo "$json" | jq -c '.slow_calls')
	want=$("$build/cli/rpcrdma-dump" -j --slow 0 -r "$capture" 2>/dev/null |
		jq -sc 'map(select(.type == "slow_call")) | (map(.ts) | max | floor) as $last |
			map(select((.ts | floor) > $last - 60)) | sort_by(-.latency_ns) | .[0:32]')
	check "$name: slow view: the $(echo "$slow" | jq length) slowest calls of the last minute, as rpcrdma-dump --slow's" \
		test "$(echo "$slow" | jq -c 'map(.latency_ns)')" = "$(echo "$want" | jq -c 'map(.latency_ns)')"
	check "$name: slow view: each call's handle hash and NFS status as rpcrdma-dump's ($(echo "$slow" | jq '[.[] | select(.nfs_status != null)] | length') with a status)" \
		test -z "$(jq -n --argjson top "$slow" --argjson dump "$want" '
			($dump | map({key: "\(.conn) \(.xid)", value: .}) | from_entries) as $d |
			$top[] | select($d["\(.conn) \(.xid)"] as $c | $c == null or $c.fh_hash != .fh_hash or
				.nfs_status != $c.nfs_status) | .xid')"
	lines=$("$top" -r "$capture" -b --view slow 2>/dev/null | awk '/^TIME/ { on = 1; next } on && NF { n++ } END { print n + 0 }')
	check "$name: slow view on the screen: a line per call ($lines)" \
		test "$lines" = "$(echo "$slow" | jq length)"
	# the clients view: each client's calls and errors as --stats=json's,
	# the busiest file first
	want=$(echo "$stats" | jq -r '(.clients // [])[] | "\(.address) \(.calls) \(.errors)"')
	got=$("$top" -r "$capture" -b --view clients 2>/dev/null |
		awk '/^CLIENT/ { on = 1; next } on && !NF { exit } on { print $1, $2, $3 }')
	busiest=$(echo "$stats" | jq -r 'if .busiest_files then .busiest_files[0] | "\(.fh_hash) \(.calls)" else "" end')
	first=$("$top" -r "$capture" -b --view clients 2>/dev/null |
		awk '/^BUSIEST/ { getline; print $1, $2 }' | { read -r fh calls && echo "$((16#$fh)) $calls"; })
	check "$name: clients view: calls and errors per client, and the busiest file, as rpcrdma-dump's ($got; $first)" \
		eval "test -n '$want' && test '$want' = '$got' && test '$busiest' = '$first'"
	check "$name: -j: clients and busiest files as rpcrdma-dump's" clients_and_files_match
done
# the procedures view's ERRORS: each procedure's failed replies and each
# NFSv4 operation's, as rpcrdma-dump --stats=json lists them
for capture in "$src"/tests/linux/bookworm-rxe-nfs*/client/capture.pcap; do
name=$(basename "$(dirname "$(dirname "$capture")")")
stats=$("$build/cli/rpcrdma-dump" -q --stats=json -r "$capture" 2>/dev/null)
screen=$("$top" -r "$capture" -b --view procedures 2>/dev/null)
want=$(echo "$stats" | jq -r '(.nfs_errors // []) as $e | .procedures[] | . as $p |
	"\($p.program) v\($p.version) \($p.procedure) \($p.calls) \(
		([$p.replies | to_entries[] | select(.key != "SUCCESS" and .key != "unseen") | .value] | add // 0) +
		([$e[] | select(.program == $p.program and .version == $p.version and
				.procedure == $p.procedure) | .count] | add // 0))"' | sort)
got=$(echo "$screen" | awk '/^PROCEDURE/ { on = 1; next } on && !/^  op / && NF >= 6 {
	n = NF; name = $1; for (i = 2; i <= n - 5; i++) name = name " " $i; print name, $(n - 4), $n }' | sort)
check "$name: procedures view: each procedure's calls and ERRORS as rpcrdma-dump --stats=json ($(echo "$got" | grep -c .) procedures)" \
	test -n "$got" -a "$got" = "$want"
want=$(echo "$stats" | jq -r '[(.nfs_errors // [])[] | select(.operation != null and .operation != "")] |
	group_by(.operation)[] | "\(.[0].operation) \(map(.count) | add)"' | sort)
got=$(echo "$screen" | awk '/^  op / && $NF > 0 { print $2, $NF }' | sort)
check "$name: procedures view: the NFSv4 operations COMPOUNDs failed at, as rpcrdma-dump --stats=json ($(echo "$got" | paste -sd, -))" \
	test "$got" = "$want"
done
check "--view takes traffic, latency, procedures, slow, clients or diagnosis; another is a usage error (1)" \
	eval "'$top' -r '$capture' -b --view fast >/dev/null 2>&1; test \$? -eq 1"
# the diagnosis view: the problems of the lab's fault captures (and none
# of a healthy one's) as rpcrdma-dump --stats=json names them, worst
# first, each with its evidence whole (its lines joined again), in lines
# of at most 80 columns
diagnosis_view() { # capture: "SEVERITY PROBLEM | EVIDENCE" per problem
	"$top" -r "$1" -b --view diagnosis 2>/dev/null | awk '
		/^SEVERITY / { on = 1; next }
		!on { next }
		/^no problem/ { print "none"; next }
		/^[a-z]/ { if (p != "") print p " | " e; p = $1 " " $2; e = ""; part = "head"; next }
		/^         frames |^         what to do:/ { part = "tail"; next }
		/^                            / { next }
		/^         / && part != "tail" { sub(/^ +/, ""); e = e == "" ? $0 : e " " $0 }
		END { if (p != "") print p " | " e }'
}
# (and two problems in one file: the loss fault's mount, then the inline
# fault's, one after the other)
faults=$src/tests/linux/bookworm-rxe-faults/client
two=${TMPDIR:-/tmp}/top-two-faults.$$.pcap
mergecap -a -w "$two" "$faults/fault-loss.pcap" "$faults/fault-inline.pcap"
for capture in "$src"/tests/linux/*-faults/client/fault-*.pcap "$two" \
	"$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap"; do
	name=$(basename "$(dirname "$(dirname "$capture")")")/$(basename "$capture" .pcap)
	[ "$capture" = "$two" ] && name="the loss and inline faults one after the other"
	got=$(diagnosis_view "$capture")
	want=$("$build/cli/rpcrdma-dump" -q --stats=json -r "$capture" 2>/dev/null |
		jq -r 'if (.diagnosis | length) == 0 then "none" else
			.diagnosis[] | "\(.severity) \(.problem) | \(.evidence)" end')
	wide=$("$top" -r "$capture" -b --view diagnosis 2>/dev/null | LC_ALL=C.UTF-8 awk 'length($0) > 80' | grep -c .)
	check "$name: diagnosis view: the problems and their evidence as rpcrdma-dump --stats=json's ($(echo "$got" | cut -d'|' -f1 | paste -sd, -)), no line past 80 columns ($wide)" \
		eval 'test "$got" = "$want" && test "$wide" = 0'
done
rm -f "$two"
# the slow view of a capture cut a third of the way in: only calls it holds
# whole, with the whole capture's values
capture=$src/tests/linux/bookworm-rxe-nfs41/client/capture.pcap
late=${TMPDIR:-/tmp}/top-late.$$.pcap
frames=$(capinfos -c -M "$capture" | awk '/Number of packets/ { print $NF }')
editcap -r "$capture" "$late" "$((frames / 3))-$frames" 2>/dev/null
# shellcheck disable=SC2034 # read by the eval below
whole=$("$build/cli/rpcrdma-dump" -j --slow 0 -r "$capture" 2>/dev/null |
	jq -r 'select(.type == "slow_call") | "\(.xid) \(.latency_ns) \(.fh_hash)"' | sort)
cut_slow=$("$top" -r "$late" -b -j 2>/dev/null | tail -n 1 | jq -r '.slow_calls[] | "\(.xid) \(.latency_ns) \(.fh_hash)"' | sort)
check "from a third of the way in: the slow view holds only the whole capture's calls ($(echo "$cut_slow" | grep -c .))" \
	eval "test -n \"\$cut_slow\" && test -z \"\$(comm -13 <(echo \"\$whole\") <(echo \"\$cut_slow\"))\""
rm -f "$late"
# [interval [count]] as libbpf-tools' top tools take them: 2 snapshots,
# a batch run without -b, and a filter after them still applies
capture=$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap
check "interval and count: 'rpcrdma-top -r FILE --realtime -j 0.5 2' prints 2 snapshots" \
	test "$("$top" -r "$capture" --realtime -j 0.5 2 2>/dev/null | grep -c .)" = 2
check "interval and count before a filter: 'udp port 4792' matches nothing" \
	test "$("$top" -r "$capture" -j 0.5 1 udp port 4792 2>/dev/null | jq .totals.calls)" = 0
# the ports reach the decoder: RoCEv2 on another UDP port is not RoCEv2
sample=$src/samples/rocev2-mixed.pcap
check "--roce-port: 4791 finds the sample's calls, 4792 none" \
	eval "test \"\$('$top' -r '$sample' -j 1 1 2>/dev/null | jq .totals.calls)\" -gt 0 &&
	      test \"\$('$top' -r '$sample' -j 1 1 --roce-port 4792 2>/dev/null | jq .totals.calls)\" = 0"
# a damaged file: what was read, then why it ended, and 2 (as rpcrdma-dump)
linux=$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap
cut=${TMPDIR:-/tmp}/top-cut.$$.pcap
head -c $(($(wc -c <"$linux") * 2 / 3)) "$linux" >"$cut"
"$top" -r "$cut" -b -j >"$cut.json" 2>"$cut.err"
status=$?
dump_said=$("$build/cli/rpcrdma-dump" -q -r "$cut" 2>&1 >/dev/null | sed -n 's/^rpcrdma-dump: //p')
dump_calls=$("$build/cli/rpcrdma-dump" -q --stats=json -r "$cut" 2>/dev/null | jq .total.calls)
check "a file cut at two thirds: status 2, the error as rpcrdma-dump says it ($dump_said)" \
	eval "test $status -eq 2 && test -n '$dump_said' &&
	      test \"\$(sed 's/^rpcrdma-top: //' '$cut.err')\" = '$dump_said'"
check "... and its last snapshot holds what was read: $dump_calls calls, as rpcrdma-dump's" \
	test "$(tail -n 1 "$cut.json" | jq .totals.calls)" = "$dump_calls"
check "... the screen's last header says the file was damaged" \
	eval "'$top' -r '$cut' -b 2>/dev/null | grep '^rpcrdma-top' | tail -n 1 | grep -q '(ended: damaged file)'"
rm -f "$cut" "$cut.json" "$cut.err"
# the screen once the file has ended: the address filter still applies
# (an nconnect capture's three connections, one over IPv6)
if command -v tmux >/dev/null; then
	session=top-file-$$
	capture=$src/tests/linux/bookworm-rxe-nconnect/client/capture.pcap
	tmux new-session -d -s "$session" -x 100 -y 30 "'$top' -r '$capture'"
	screen() { tmux capture-pane -p -t "$session"; }
	rows() { screen | grep -cE '^(192\.0\.2\.|2001:db8::)'; }
	for _ in $(seq 100); do screen | grep -q '(ended)' && break; sleep 0.1; done
	filtered() { # the filter, the rows wanted
		tmux send-keys -t "$session" / "$1" Enter
		for _ in $(seq 50); do [ "$(rows)" = "$2" ] && return 0; sleep 0.1; done
		return 1
	}
	check "rpcrdma-top on a file that ended: all three connections shown" eval '[ "$(rows)" = 3 ]'
	check "... / 2001:db8 then shows the IPv6 one alone" filtered 2001:db8 1
	check "... / with no match shows none" filtered no-such-address 0
	check "... an empty filter shows all again" filtered "" 3
	tmux kill-session -t "$session" 2>/dev/null
fi
# the header's diagnosis: the worst problem, as rpcrdma-dump --stats=json
# ranks them, and -j's the same array; none on a healthy capture
dump=$build/cli/rpcrdma-dump
for cap in rocev2-fault-rnr-storm rocev2-fault-write-wrong-stag rocev2-mixed; do
	want=$("$dump" -q --stats=json -r "$src/samples/$cap.pcap" 2>/dev/null |
		jq -r 'if (.diagnosis | length) == 0 then "diagnosis: no problem"
		       else "diagnosis: \(.diagnosis[0].severity) \(.diagnosis[0].problem)" +
			    (if (.diagnosis | length) > 1 then ", and \((.diagnosis | length) - 1) more" else "" end) end')
	check "$cap: the header's diagnosis as rpcrdma-dump ranks it ($want)" \
		eval "\"\$top\" -b -n 1 -r '$src/samples/$cap.pcap' 2>/dev/null | grep -qxF '$want'"
	check "$cap: -j's diagnosis is rpcrdma-dump --stats=json's" \
		eval "[ \"\$(\"\$top\" -b -j -n 1 -r '$src/samples/$cap.pcap' 2>/dev/null | tail -n 1 | jq -c .diagnosis)\" = \"\$(\"\$dump\" -q --stats=json -r '$src/samples/$cap.pcap' 2>/dev/null | jq -c .diagnosis)\" ]"
done
tap_end
