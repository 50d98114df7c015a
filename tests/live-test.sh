#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The live path for real: two network namespaces made here and joined by a
# veth pair carry the reference peer's udp (RoCEv2) and tcp (iWARP)
# traffic; rpcrdma-top -b on the eBPF source attached to one veth end
# reports the calls and RDMA bytes the peer reports, the same traffic
# through libpcap (-i) gives the same numbers, a fault's finding appears,
# and after exit no BPF program, qdisc or filter remains, even after a
# SIGKILL (the next start removes what was left and says so); two tools
# watch one interface at once, each with its own filter.  The
# interactive view is driven in tmux: it starts, sorts, filters, changes
# view, scrolls, shows its help and quits.
# usage: live-test.sh BUILD_DIR
set -u
build=$1
top=$build/cli/rpcrdma-top
peer=$build/cli/rpcrdma-peer
exporter=$build/cli/rpcrdma-exporter
src=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "SKIP: namespaces and eBPF need root"; exit 77; }
for tool in ip tc bpftool tmux; do
	command -v "$tool" >/dev/null || {
		echo "SKIP: $tool is not installed (scripts/install-deps.sh installs it)"
		exit 77
	}
done
[ -x "$top" ] || { echo "SKIP: rpcrdma-top was not built (ncurses, json-c)"; exit 77; }
tag=rr$$
A=${tag}a
B=${tag}b
work=$(mktemp -d)
cleanup() {
	tmux kill-session -t "$tag" 2>/dev/null
	ip netns pids "$A" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns pids "$B" 2>/dev/null | xargs -r kill 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/ports.sh"
inA() { ip netns exec "$A" "$@"; }
inB() { ip netns exec "$B" "$@"; }

ip netns add "$A" && ip netns add "$B" &&
	ip link add vA netns "$A" type veth peer name vB netns "$B" &&
	inA ip addr add 10.77.0.1/24 dev vA && inB ip addr add 10.77.0.2/24 dev vB &&
	inA ip link set vA up && inB ip link set vB up &&
	inA ip link set lo up && inB ip link set lo up || {
	echo "SKIP: cannot make network namespaces and a veth pair here"
	exit 77
}

# json values without a JSON tool: "key":number
jnum() { # file key: the first number named key in the file's last object
	tail -n 1 "$1" | jq -r --arg k "$2" 'first(.. | objects | select(has($k)) | .[$k] | numbers) // empty'
}
# What the test's own tools attached: the programs on its veth vA (in its
# namespace), by id, noted while they run; programs another watcher of
# the machine loaded (an exporter running as a service) are not ours.
note_ours() { # namespace
	for dir in ingress egress; do
		ip netns exec "$1" tc filter show dev vA "$dir" 2>/dev/null |
			grep -o ' id [0-9]*' | awk '{ print $2 }'
	done >>"$work/ours.ids"
}
left_now() { # namespace: filters or clsact qdisc on vA, programs we noted
	ip netns exec "$1" tc filter show dev vA ingress 2>/dev/null | grep -q . && return 0
	ip netns exec "$1" tc filter show dev vA egress 2>/dev/null | grep -q . && return 0
	ip netns exec "$1" tc qdisc show dev vA | grep -q clsact && return 0
	[ -s "$work/ours.ids" ] || return 1
	for id in $(sort -u "$work/ours.ids"); do
		bpftool prog show id "$id" >/dev/null 2>&1 && return 0
	done
	return 1
}
ours_left() { # the kernel frees a detached program a moment later
	for _ in $(seq 30); do
		left_now "$1" || return 1
		sleep 0.1
	done
	return 0
}

# -- RoCEv2 over the veth: eBPF and libpcap side by side --------------------
run_pair() { # label, transport, calls, extra options for both peers...
	label=$1 transport=$2 calls=$3
	shift 3
	inA "$top" -b -j -d 0.5 -n 12 -e vA >"$work/$label-ebpf.json" 2>"$work/$label-ebpf.err" &
	ebpf_pid=$!
	inA "$top" -b -j -d 0.5 -n 12 -i vA >"$work/$label-pcap.json" 2>"$work/$label-pcap.err" &
	pcap_pid=$!
	sleep 1.5
	note_ours "$A"
	inB "$peer" server -t "$transport" -l 10.77.0.2 "$@" >"$work/$label-server.out" 2>&1 &
	server_pid=$!
	sleep 0.3
	inA "$peer" client -t "$transport" -l 10.77.0.1 -a 10.77.0.2 -n "$calls" "$@" \
		>"$work/$label-client.out" 2>&1
	wait "$ebpf_pid" "$pcap_pid"
	kill "$server_pid" 2>/dev/null
	wait "$server_pid" 2>/dev/null
}
run_pair udp udp 1000
# rpcrdma-top counts RPC calls in both directions: the peer client's and
# the backward calls its server sent, each of which the client answered
calls_both() {
	local f b
	f=$(sed -n 's/^calls \([0-9]*\)  replies.*/\1/p' "$1")
	b=$(sed -n 's/^backward: calls [0-9]*  replies \([0-9]*\) .*/\1/p' "$1")
	echo $(( ${f:-0} + ${b:-0} ))
}
want_calls=$(sed -n 's/^calls \([0-9]*\)  replies.*/\1/p' "$work/udp-client.out")
read -r want_read want_write < <(sed -n 's/^bytes: inline [0-9]*  RDMA Read \([0-9]*\)  RDMA Write \([0-9]*\).*/\1 \2/p' "$work/udp-client.out")
last() { tail -n 1 "$1"; }
last "$work/udp-ebpf.json" >"$work/udp-ebpf.last"
last "$work/udp-pcap.json" >"$work/udp-pcap.last"
check "udp: the peer completed $want_calls calls" test "${want_calls:-0}" -eq 1000
want_calls=$(calls_both "$work/udp-client.out")
check "udp, eBPF: rpcrdma-top's calls equal the peer's, both directions ($(jnum "$work/udp-ebpf.last" calls) = $want_calls)" \
	test "$(jnum "$work/udp-ebpf.last" calls)" = "$want_calls"
check "udp, eBPF: RDMA Read and Write bytes equal the peer's" \
	eval "test '$(jnum "$work/udp-ebpf.last" rdma_read)' = '$want_read' &&
	      test '$(jnum "$work/udp-ebpf.last" rdma_write)' = '$want_write'"
check "udp, libpcap: the same calls and bytes" \
	eval "test '$(jnum "$work/udp-pcap.last" calls)' = '$want_calls' &&
	      test '$(jnum "$work/udp-pcap.last" rdma_read)' = '$want_read' &&
	      test '$(jnum "$work/udp-pcap.last" rdma_write)' = '$want_write'"
check "udp, eBPF: nothing dropped, no finding" \
	eval "test '$(jnum "$work/udp-ebpf.last" dropped)' = 0 &&
	      test '$(jnum "$work/udp-ebpf.last" findings)' = 0"
check "udp: the programs it attached were noted by id ($(sort -u "$work/ours.ids" | wc -l))" \
	test -s "$work/ours.ids"
check "udp: after exit no filter, qdisc or program of ours remains" \
	eval "! ours_left $A"

# -- iWARP over TCP -----------------------------------------------------------
run_pair tcp tcp 600
want_calls=$(calls_both "$work/tcp-client.out")
read -r want_read want_write < <(sed -n 's/^bytes: inline [0-9]*  RDMA Read \([0-9]*\)  RDMA Write \([0-9]*\).*/\1 \2/p' "$work/tcp-client.out")
last "$work/tcp-ebpf.json" >"$work/tcp-ebpf.last"
last "$work/tcp-pcap.json" >"$work/tcp-pcap.last"
check "tcp, eBPF: calls and RDMA bytes equal the peer's" \
	eval "test '$(jnum "$work/tcp-ebpf.last" calls)' = '$want_calls' &&
	      test '$(jnum "$work/tcp-ebpf.last" rdma_read)' = '$want_read' &&
	      test '$(jnum "$work/tcp-ebpf.last" rdma_write)' = '$want_write'"
check "tcp, libpcap: the same" \
	eval "test '$(jnum "$work/tcp-pcap.last" calls)' = '$want_calls' &&
	      test '$(jnum "$work/tcp-pcap.last" rdma_write)' = '$want_write'"

# -- rpcrdma-exporter on the eBPF source ------------------------------------
eport=$(free_port)
ip netns exec "$A" "$exporter" -e vA -l "127.0.0.1:$eport" 2>"$work/exporter.err" &
exporter_pid=$!
sleep 1.5
note_ours "$A"
inB "$peer" server -l 10.77.0.2 >/dev/null 2>&1 &
server_pid=$!
sleep 0.3
inA "$peer" client -l 10.77.0.1 -a 10.77.0.2 -n 300 >"$work/exp-client.out" 2>&1
sleep 1
got=$(inA curl -s "http://127.0.0.1:$eport/metrics" |
	awk '$1 ~ /^rpcrdma_rpc_calls_total/ && $1 !~ /program="NFS4_CB"/ { s += $2 }
	     END { print s + 0 }')
check "rpcrdma-exporter -e: rpcrdma_rpc_calls_total but NFS4_CB's equals the peer client's calls ($got)" \
	test "$got" = "$(sed -n 's/^calls \([0-9]*\)  replies.*/\1/p' "$work/exp-client.out")"
# CAP_NET_ADMIN (bit 12) for the TC hook it takes off at the end, CAP_BPF
# (bit 39) for its maps
check "rpcrdma-exporter -e: its program attached, it keeps CAP_BPF and CAP_NET_ADMIN alone" \
	eval "grep -q '^CapEff:[[:space:]]*0*8000001000$' /proc/$exporter_pid/status &&
	      grep -q '^CapBnd:[[:space:]]*0*8000001000$' /proc/$exporter_pid/status"
kill "$server_pid" "$exporter_pid" 2>/dev/null
wait "$server_pid" "$exporter_pid" 2>/dev/null
check "rpcrdma-exporter -e: after SIGTERM nothing of ours remains" eval "! ours_left $A"

# -- rpcrdma-dump -e -w: an eBPF capture to a file, read back ---------------
dump=$build/cli/rpcrdma-dump
ip netns exec "$A" "$dump" -e vA -w "$work/ebpf.pcap" 2>"$work/dumpw.err" &
dump_pid=$!
sleep 1.5
inB "$peer" server -l 10.77.0.2 >/dev/null 2>&1 &
server_pid=$!
sleep 0.3
inA "$peer" client -l 10.77.0.1 -a 10.77.0.2 -n 200 -s read >"$work/w-client.out" 2>&1
sleep 0.5
kill -INT "$dump_pid"
wait "$dump_pid"
kill "$server_pid" 2>/dev/null
wait "$server_pid" 2>/dev/null
"$dump" -q --stats -r "$work/ebpf.pcap" >"$work/w.stats" 2>&1
want_write=$(sed -n 's/^bytes: inline [0-9]*  RDMA Read [0-9]*  RDMA Write \([0-9]*\).*/\1/p' "$work/w-client.out")
check "rpcrdma-dump -e vA -w: the file holds every call and RDMA Write ($want_write bytes)" \
	eval "grep -qE '^  READ +200 ' '$work/w.stats' &&
	      grep -q 'unanswered 0;' '$work/w.stats' &&
	      grep -q 'RDMA write $want_write;' '$work/w.stats'"

# -- a fault's finding appears ----------------------------------------------
run_pair fault udp 200 --fault zero-credit
last "$work/fault-ebpf.json" >"$work/fault-ebpf.last"
check "a zero credit grant shows as rpcrdma.zero_credit" \
	grep -q '"rpcrdma.zero_credit":[1-9]' "$work/fault-ebpf.last"

# -- a call stuck on a live link ------------------------------------------------
# The lab's storm over Soft-RoCE (the server's link losing 10 %), cut before
# the reply that finally answered a READ sent on two connections (frame
# 1112), replayed onto the veth at top speed: its sends arrive within a
# moment, so only the clock going on after the last frame makes the READ
# stuck; the exporter and rpcrdma-top, both on libpcap, say so live.
storm=$src/tests/linux/bookworm-rxe-faults/client/fault-storm.pcap
if command -v tcpreplay >/dev/null && command -v editcap >/dev/null && [ -f "$storm" ]; then
	editcap -r "$storm" "$work/stuck.pcap" 1-1111 2>/dev/null
	sport=$(free_port)
	inA "$exporter" -i vA -l "127.0.0.1:$sport" 2>"$work/stuck-exporter.err" &
	stuck_exporter=$!
	inA "$top" -b -j -d 1 -n 8 -i vA >"$work/stuck-top.json" 2>"$work/stuck-top.err" &
	stuck_top=$!
	sleep 1.5
	inB tcpreplay -q -t -i vB "$work/stuck.pcap" >"$work/tcpreplay.out" 2>&1
	sleep 3
	stuck_events=$(inA curl -s "http://127.0.0.1:$sport/metrics" |
		sed -n 's/^rpcrdma_diagnosis_problem_events{problem="calls_stuck",severity="error"} \([0-9]*\)$/\1/p')
	check "a call stuck on the link: the exporter's diagnosis names calls_stuck, an error, 3 s after the replay (${stuck_events:-none})" \
		test "${stuck_events:-0}" -ge 1
	wait "$stuck_top"
	kill "$stuck_exporter" 2>/dev/null
	wait "$stuck_exporter" 2>/dev/null
	check "a call stuck on the link: rpcrdma-top names it, the READ sent on two connections, outstanding now" \
		eval "tail -n 1 '$work/stuck-top.json' | jq -e '.diagnosis[] |
			select(.problem == \"calls_stuck\" and .severity == \"error\" and
			       (.evidence | test(\"xid 0x752d38fc, NFS v3 READ .*sent on 2 connections.*outstanding now\")))' >/dev/null"
else
	echo "# tcpreplay or editcap missing: no stuck call replayed"
fi

# -- two eBPF users of one interface -------------------------------------------
# rpcrdma-top first, rpcrdma-exporter beside it, stopped first: each keeps
# its own filter, and the one left still sees everything.  The exporter runs
# as its systemd unit has it: another user with capabilities only, to whom
# /run is not writable
service_caps=+bpf,+perfmon,+net_admin,+net_raw
ip netns exec "$A" "$top" -b -j -d 0.5 -e vA >"$work/two-top.json" 2>"$work/two-top.err" &
two_top=$!
sleep 1.5
inB "$peer" server -l 10.77.0.2 >/dev/null 2>&1 &
server_pid=$!
eport2=$(free_port)
ip netns exec "$A" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps="$service_caps" \
	--ambient-caps="$service_caps" \
	"$exporter" -e vA -l "127.0.0.1:$eport2" 2>"$work/two-exporter.err" &
two_exporter=$!
sleep 1.5
note_ours "$A"
inA "$peer" client -l 10.77.0.1 -a 10.77.0.2 -n 300 >"$work/two-client1.out" 2>&1
sleep 1
got=$(inA curl -s "http://127.0.0.1:$eport2/metrics" |
	awk '$1 ~ /^rpcrdma_rpc_calls_total/ && $1 !~ /program="NFS4_CB"/ { s += $2 }
	     END { print s + 0 }')
check "two eBPF users: the exporter, started second as a service, sees the peer's calls ($got)" \
	test "$got" = "$(sed -n 's/^calls \([0-9]*\)  replies.*/\1/p' "$work/two-client1.out")"
kill "$two_exporter" 2>/dev/null
wait "$two_exporter" 2>/dev/null
check "two eBPF users: the exporter stopped, rpcrdma-top's filter is still on vA" \
	eval "inA tc filter show dev vA ingress | grep -q rpcrdma &&
	      inA tc filter show dev vA egress | grep -q rpcrdma"
# the server answers one client: a second one for the second run
kill "$server_pid" 2>/dev/null
wait "$server_pid" 2>/dev/null
inB "$peer" server -l 10.77.0.2 >/dev/null 2>&1 &
server_pid=$!
sleep 0.3
inA "$peer" client -l 10.77.0.1 -a 10.77.0.2 -n 200 >"$work/two-client2.out" 2>&1
sleep 1.2
kill -INT "$two_top"
wait "$two_top"
kill "$server_pid" 2>/dev/null
wait "$server_pid" 2>/dev/null
want=$(( $(calls_both "$work/two-client1.out") + $(calls_both "$work/two-client2.out") ))
last "$work/two-top.json" >"$work/two-top.last"
top_calls=$(jq .totals.calls "$work/two-top.last")
check "two eBPF users: rpcrdma-top saw both runs' calls, before and after the exporter left ($top_calls = $want)" \
	test "$top_calls" = "$want"
check "two eBPF users: after both exit nothing of ours remains" eval "! ours_left $A"

# -- killed: the next start cleans up and says so ----------------------------
# not through inA: a function runs in a subshell, whose pid $! would be
ip netns exec "$A" "$top" -b -d 1 -n 100 -e vA >/dev/null 2>&1 &
killme=$!
sleep 1.5
note_ours "$A"
check "while running: its filter is on vA" \
	eval "inA tc filter show dev vA ingress | grep -q rpcrdma"
kill -KILL "$killme"
wait "$killme" 2>/dev/null
check "after SIGKILL its filter stays (as TC keeps it)" \
	eval "inA tc filter show dev vA ingress | grep -q rpcrdma"
inA "$top" -b -n 1 -d 0.2 -e vA >/dev/null 2>"$work/restart.err"
check "the next start removes it and says so" \
	grep -q "removed the filters an earlier run left" "$work/restart.err"
check "and leaves nothing behind when it exits" eval "! ours_left $A"

# -- no privileges: a clear message ---------------------------------------------
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$top" -b -n 1 -e lo >/dev/null 2>"$work/noperm.err"
	check "without privileges: the capabilities needed are named" \
		grep -q "CAP_BPF" "$work/noperm.err"
fi

# -- the interactive view in tmux -----------------------------------------------
"$peer" pcap -o "$work/mixed.pcap" -n 400 -q
tmux new-session -d -s "$tag" -x 80 -y 24 \
	"$top -r $work/mixed.pcap --realtime -d 0.3; echo TOP-EXITED; sleep 30"
sleep 1.2
tmux capture-pane -p -t "$tag" >"$work/screen1.txt"
check "tmux: the screen shows the header and the connection" \
	eval "grep -q 'rpcrdma-top' '$work/screen1.txt' &&
	      grep -q 'REQUESTER' '$work/screen1.txt' &&
	      grep -q '192.0.2.1' '$work/screen1.txt'"
check "tmux: it fits 80 columns" \
	eval "! awk 'length > 80' '$work/screen1.txt' | grep -q ."
keys() { # screen file, seconds to wait, keys...: the keys typed, then the screen
	local file=$1 wait=$2
	shift 2
	tmux send-keys -t "$tag" "$@"
	sleep "$wait"
	tmux capture-pane -p -t "$tag" >"$work/$file"
}
keys screen2.txt 0.5 i
check "tmux: 'i' sorts by calls in flight" grep -q 'sort in flight' "$work/screen2.txt"
keys screen3.txt 0.5 v
check "tmux: 'v' shows the latency view, each latency with its unit" \
	eval "grep -qE '^REQUESTER .* P50 +P99 +FIND' '$work/screen3.txt' &&
	      grep -qE '^192[.]0[.]2[.][0-9]+ .* [0-9.]+(us|ms|s) +[0-9.]+(us|ms|s) +[0-9]+\$' '$work/screen3.txt'"
keys screen4.txt 0.5 v
check "tmux: 'v' again shows latency per procedure" \
	eval "grep -q 'PROCEDURE' '$work/screen4.txt' && grep -q 'READDIRPLUS' '$work/screen4.txt'"
keys screen5.txt 0.6 v / 10.9.9.9 Enter
check "tmux: '/' filters by address (none matches 10.9.9.9)" \
	eval "grep -q 'addr~10.9.9.9' '$work/screen5.txt' && ! grep -q '^192.0.2.1' '$work/screen5.txt'"
keys screen6.txt 0.5 q
check "tmux: 'q' quits" grep -q TOP-EXITED "$work/screen6.txt"
# help and scrolling, in a window too small for every procedure of a Linux capture
# (the new session starts before the first is killed: killing the last
# session ends tmux's server, and a session started while it exits is lost)
tmux new-session -d -s "${tag}s" -x 80 -y 11 \
	"$top -r $src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap -d 0.3; echo TOP-EXITED; sleep 30"
tmux kill-session -t "$tag" 2>/dev/null
tag=${tag}s
sleep 1.2
keys scroll1.txt 0.6 v v
keys scroll2.txt 0.6 End
keys scroll3.txt 0.6 Home
# the table's first row: below the six lines that stay (top.h's
# TOP_HEAD_LINES: title, rates, findings, diagnosis, totals, column heads)
first=$(sed -n 7p "$work/scroll1.txt")
check "tmux: the table scrolls: End shows other procedures, Home the first again ($first)" \
	eval "grep -q '^NFS v3 NULL' '$work/scroll1.txt' && grep -q 'down: more' '$work/scroll1.txt' &&
	      ! grep -q '^NFS v3 NULL' '$work/scroll2.txt' && grep -q '^NFS_ACL v3 SETACL' '$work/scroll2.txt' &&
	      grep -q 'up: more' '$work/scroll2.txt' && test \"\$(sed -n 7p '$work/scroll3.txt')\" = '$first'"
keys scroll4.txt 0.6 Down
check "tmux: down scrolls one line" \
	eval "test \"\$(sed -n 7p '$work/scroll4.txt')\" = \"\$(sed -n 8p '$work/scroll3.txt')\""
keys help1.txt 0.6 h
keys help2.txt 0.6 x
check "tmux: 'h' shows the help, any key goes back" \
	eval "grep -q 'next view: traffic, latency, procedures' '$work/help1.txt' &&
	      grep -q '^PROCEDURE' '$work/help2.txt'"
keys slow.txt 0.6 v
check "tmux: 'v' after procedures shows the slow calls, slowest first, with their handles" \
	eval "grep -q '^TIME  *LATms CLIENT' '$work/slow.txt' &&
	      grep -qE '^[0-9:]{8} +[0-9.]+ 192[.]0[.]2[.]2 +NFS v3 [A-Z]+ +[0-9a-f]{8} ' '$work/slow.txt'"
check "tmux: refreshes after the file's end keep its whole: totals, and rates over it (not 0)" \
	eval "grep -q '^whole capture: calls 1187  replies 1187 ' '$work/slow.txt' &&
	      grep -qE '^calls/s [1-9][0-9]*  replies/s [1-9]' '$work/slow.txt'"
keys diagnosis.txt 0.6 v v
# (the healthy NFSv3 run restarts nfsd and reads an ACL its server fails:
# connections made again, a note, and nothing above it; the view keeps the
# line scrolled down to above, so the header names it)
check "tmux: 'v' after clients shows the diagnosis: a healthy Linux capture's one note, its reconnects" \
	eval "grep -q '^SEVERITY PROBLEM' '$work/diagnosis.txt' &&
	      grep -q '^diagnosis: note reconnects\$' '$work/diagnosis.txt' &&
	      grep -q '^         5 reconnects, ' '$work/diagnosis.txt' &&
	      ! grep -qE '^(warning|error) ' '$work/diagnosis.txt'"
keys help3.txt 0.6 q
check "tmux: 'q' quits from the table" grep -q TOP-EXITED "$work/help3.txt"

# -- kernel tracepoints: absent here, and said so ------------------------------
if [ ! -d /sys/kernel/tracing/events/rpcrdma ] && [ ! -d /sys/kernel/debug/tracing/events/rpcrdma ]; then
	"$top" -t -b -n 1 >/dev/null 2>"$work/trace.err"
	check "tracepoints: status 2 and 'kernel tracepoints are not available'" \
		eval "test $? -eq 2 && grep -q 'kernel tracepoints are not available' '$work/trace.err'"
	"$exporter" -t >/dev/null 2>"$work/trace2.err"
	check "rpcrdma-exporter -t: the same" \
		eval "test $? -eq 2 && grep -q 'kernel tracepoints are not available' '$work/trace2.err'"
fi

# -- command line ----------------------------------------------------------------
"$top" -b >/dev/null 2>&1
check "no source: status 1" test $? -eq 1
"$top" -b -e no-such-if0 >/dev/null 2>"$work/noif.err"
check "an absent interface: status 2 and its name" \
	eval "test $? -eq 2 && grep -q no-such-if0 '$work/noif.err'"
"$top" -r "$work/mixed.pcap" </dev/null >/dev/null 2>"$work/notty.err"
check "the screen without a terminal: says to use -b" grep -q -- "-b" "$work/notty.err"

tap_end
