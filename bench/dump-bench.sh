#!/bin/sh
# rpcrdma-dump against tshark and a bare libpcap read loop on one large
# capture from the reference peer (mixed scenario), in one run:
#   rpcrdma-dump -q --stats   vs  tshark -q -z rpc,programs
#   rpcrdma-dump -j           vs  tshark -T fields -e rpcordma.xid -e rpcordma.flow_control
#   both                      vs  decode-bench's pcap_next_ex loop
# and the analyzer's memory per connection and per outstanding RPC.
# usage: bench/dump-bench.sh [BUILD_DIR] [CALLS]
set -eu
build=${1:-build}
calls=${2:-210000}
out=$(dirname "$0")/out
mkdir -p "$out"
file=$out/dump-bench.pcap
"$build/cli/rpcrdma-peer" pcap -o "$file" -n "$calls" --reliable-reply -q
frames=$("$build/bench/decode-bench" --seconds 1 --only read "$file" >/dev/null;
	 "$build/cli/rpcrdma-dump" -q -r "$file" 2>&1 | sed -n 's/^\([0-9]*\) frames.*/\1/p')
now() { date +%s.%N; }
timeit() { # label, command...
	label=$1
	shift
	t0=$(now)
	"$@" >/dev/null 2>&1
	t1=$(now)
	awk -v l="$label" -v a="$t0" -v b="$t1" -v n="$frames" 'BEGIN {
		printf "%-44s %7.2f s %12.0f frames/s\n", l, b - a, n / (b - a) }'
}
echo "== $frames frames in $(du -h "$file" | cut -f1)"
read_rate=$("$build/bench/decode-bench" --seconds 2 --only read "$file" |
	sed -n 's/^read: \([0-9]*\).*/\1/p')
echo "pcap_next_ex loop                                            $read_rate frames/s"
timeit "rpcrdma-dump -q --stats" "$build/cli/rpcrdma-dump" -q --stats -r "$file"
timeit "rpcrdma-dump -j" "$build/cli/rpcrdma-dump" -j -r "$file"
timeit "rpcrdma-dump -q --stats -K (no CRCs)" "$build/cli/rpcrdma-dump" -q --stats -K -r "$file"
if command -v tshark >/dev/null; then
	timeit "tshark -q" tshark -r "$file" -q
	timeit "tshark -q -z rpc,programs" tshark -r "$file" -q -z rpc,programs
	timeit "tshark -T fields -e rpcordma.xid -e ...flow_control" \
		tshark -r "$file" -T fields -e rpcordma.xid -e rpcordma.flow_control
fi
"$build/bench/analyzer-memory" 100000
rm -f "$file"
