# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash disable=SC2154
# (SC2154: build is set by the bench that sources this)
# What the live benchmarks share: a network namespace of their own with a
# veth pair (vsend, where tcpreplay or bench/feed-veth sends; vrecv, where
# the watchers capture), a feed of real Linux NFS/RDMA traffic (the lab's Soft-RoCE
# captures written REPEATS times by bench/repeat-capture, each repetition
# between hosts of its own, so on new QPs), the watchers started in the
# namespace and their counts.  Sourced, not run; needs root, tcpreplay and
# tcpdump (installed here from Debian's archive when missing), and sets
# $build, $src, $work, $ns before use.
set -u
[ "$(id -u)" -eq 0 ] || { echo "${0##*/}: needs root (namespaces, live capture, eBPF)"; exit 1; }
missing=""
for tool in tcpreplay tcpdump curl jq; do command -v "$tool" >/dev/null || missing="$missing $tool"; done
if [ -n "$missing" ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null ||
		{ echo "${0##*/}: cannot install$missing"; exit 1; }
fi
top=$build/cli/rpcrdma-top
exporter=$build/cli/rpcrdma-exporter
repeat=$build/bench/repeat-capture
inputs=("$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap"
	"$src/tests/linux/bookworm-rxe-nfs41/client/capture.pcap")
work=$(mktemp -d)
ns=rr-bench-$$
watchers=()
veth_feed_cleanup() {
	for p in "${watchers[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	ip netns del "$ns" 2>/dev/null
	rm -rf "$work"
}
trap veth_feed_cleanup EXIT
ip netns add "$ns" || exit 1
in_ns() { ip netns exec "$ns" "$@"; }
in_ns ip link set lo up
# no IPv6 router or multicast chatter on the pair: the watchers see the feed only
in_ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
in_ns ip link add vsend mtu 9000 type veth peer name vrecv mtu 9000
in_ns ip link set vsend up
in_ns ip link set vrecv up

. "$src/bench/proc-usage.sh"

# make_feed REPEATS: $work/feed.pcap, its RoCEv2 frames only (what the
# eBPF source hands over; the lab captures hold a few others), and what an
# offline read of it counts: $feed_frames, $feed_calls, $feed_replies
make_feed() {
	"$repeat" -n "$1" -o "$work/all.pcap" "${inputs[@]}" >/dev/null || exit 1
	tcpdump -r "$work/all.pcap" -w "$work/feed.pcap" 'udp port 4791' 2>/dev/null || exit 1
	rm -f "$work/all.pcap"
	"$top" -b -j -r "$work/feed.pcap" >"$work/offline.json" 2>/dev/null
	# shellcheck disable=SC2034 # read by the bench that sources this
	read -r feed_frames feed_calls feed_replies _ < <(totals "$work/offline.json")
}

# totals FILE: frames, calls, replies, dropped of rpcrdma-top's last JSON line
totals() {
	tail -n 1 "$1" | jq -r '.totals | "\(.frames) \(.calls) \(.replies) \(.dropped)"'
}

# metric FILE NAME: the sum of a metric's samples in an exporter's page
metric() {
	awk -v m="$2" '$1 == m || index($1, m "{") == 1 { s += $2 } END { printf "%.0f\n", s }' "$1"
}

# start_watcher KIND NAME: one watcher of vrecv; its pid in $watcher
#   tcpdump, top-i (rpcrdma-top -i), top-e (rpcrdma-top -e),
#   exporter-i (rpcrdma-exporter -i), exporter-e
start_watcher() {
	local kind=$1 name=$2
	case $kind in
	tcpdump) ip netns exec "$ns" tcpdump -i vrecv -w /dev/null -B 32768 -n -s 0 2>"$work/$name.out" & ;;
	top-i) ip netns exec "$ns" "$top" -b -j -d 1 -i vrecv >"$work/$name.out" 2>"$work/$name.err" & ;;
	top-e) ip netns exec "$ns" "$top" -b -j -d 1 -e vrecv >"$work/$name.out" 2>"$work/$name.err" & ;;
	exporter-i | exporter-e)
		ip netns exec "$ns" "$exporter" "-${kind#exporter-}" vrecv -l 127.0.0.1:10186 \
			>/dev/null 2>"$work/$name.err" & ;;
	esac
	watcher=$!
	watchers+=("$watcher")
	# ready: tcpdump says it listens, rpcrdma-top writes its first
	# line, the exporter serves
	for _ in $(seq 300); do
		case $kind in
		tcpdump) grep -q 'listening on' "$work/$name.out" && return 0 ;;
		top-*) [ -s "$work/$name.out" ] && return 0 ;;
		exporter-*) in_ns curl -s -o /dev/null http://127.0.0.1:10186/metrics && return 0 ;;
		esac
		sleep 0.1
	done
	echo "${0##*/}: $kind did not start: $(cat "$work/$name.err" 2>/dev/null)"
	return 1
}

# watcher_counts KIND NAME PID: stops a watcher (an exporter is read first)
# and prints frames, calls, replies, dropped
watcher_counts() {
	local kind=$1 name=$2 pid=$3
	case $kind in
	exporter-*)
		in_ns curl -s http://127.0.0.1:10186/metrics >"$work/$name.prom"
		kill "$pid"
		wait "$pid" 2>/dev/null
		echo "$(metric "$work/$name.prom" rpcrdma_frames_total)" \
			"$(metric "$work/$name.prom" rpcrdma_rpc_calls_total)" \
			"$(metric "$work/$name.prom" rpcrdma_rpc_replies_total)" \
			"$(metric "$work/$name.prom" rpcrdma_frames_dropped_total)" ;;
	tcpdump)
		kill -INT "$pid"
		wait "$pid" 2>/dev/null
		awk '/packets captured/ { f = $1 } /dropped by kernel/ { d = $1 }
			/dropped by interface/ { d += $1 } END { print f + 0, "-", "-", d + 0 }' "$work/$name.out" ;;
	top-*)
		kill -INT "$pid"
		wait "$pid" 2>/dev/null
		totals "$work/$name.out" ;;
	esac
}
