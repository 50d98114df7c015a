#!/bin/sh
# Reference-peer throughput: frames per second written in pcap mode, and
# calls per second between two processes over udp (software RoCEv2) and
# tcp (software iWARP) on loopback, on this machine, in one run.
# usage: bench/peer-bench.sh [BUILD_DIR]
set -eu
build=${1:-build}
peer=$build/cli/rpcrdma-peer
out=$(dirname "$0")/out
mkdir -p "$out"

now() { date +%s.%N; }

pcap_rate() { # scenario, calls
	t0=$(now)
	frames=$("$peer" pcap -o "$out/peer-bench.pcap" -s "$1" -n "$2" |
		sed -n 's/^frames written: //p')
	t1=$(now)
	bytes=$(stat -c %s "$out/peer-bench.pcap")
	rm -f "$out/peer-bench.pcap"
	awk -v f="$frames" -v a="$t0" -v b="$t1" -v s="$1" -v n="$bytes" 'BEGIN {
		printf "pcap %-12s %9d frames in %.2f s: %.2f M frames/s (%.0f MB/s to the file)\n",
		       s, f, b - a, f / (b - a) / 1e6, n / (b - a) / 1e6 }'
}

net_rate() { # transport, scenario, calls
	"$peer" server -t "$1" -q --timeout 20 >/dev/null 2>&1 &
	spid=$!
	sleep 0.3
	"$peer" client -t "$1" -s "$2" -n "$3" --timeout 20 >"$out/client.txt"
	wait "$spid" || true
	sed -n "s/^calls \([0-9]*\).*in \([0-9.]*\) s (\([0-9]*\) calls\/s)/$1 $2: \1 calls in \2 s: \3 calls\/s/p" \
		"$out/client.txt"
	grep "latency" "$out/client.txt"
}

echo "== rpcrdma-peer on $(nproc) cores"
pcap_rate mixed 100000
pcap_rate inline 300000
net_rate udp null 300000
net_rate udp inline 300000
net_rate udp mixed 40000
net_rate tcp inline 300000
net_rate tcp mixed 40000
