#!/bin/sh
# rpcrdma-dump against tshark and a bare libpcap read loop on one large
# capture, in one run:
#   rpcrdma-dump -q --stats   vs  tshark -q -z rpc,programs
#   rpcrdma-dump -j           vs  tshark -T fields -e rpcordma.xid -e rpcordma.flow_control
#   both                      vs  decode-bench's pcap_next_ex loop
# and the analyzer's memory per connection and per outstanding RPC.
# The capture is the reference peer's mixed scenario (CALLS calls), or with
# --linux the lab's Soft-RoCE captures of Linux NFSv3 and NFSv4.1
# (tests/linux) repeated REPEATS times, each repetition on new QPs with
# valid ICRCs (repeat-capture).
# Each rpcrdma-dump figure is the best of several runs, as tshark -q's.
# usage: bench/dump-bench.sh [BUILD_DIR] [CALLS]
#        bench/dump-bench.sh BUILD_DIR --linux [REPEATS]
set -eu
build=${1:-build}
here=$(dirname "$0")
out=$here/out
mkdir -p "$out"
file=$out/dump-bench.pcap
if [ "${2:-}" = --linux ]; then
	linux=$here/../tests/linux
	"$build/bench/repeat-capture" -n "${3:-100}" -o "$file" \
		"$linux/bookworm-rxe-nfs3/client/capture.pcap" \
		"$linux/bookworm-rxe-nfs41/client/capture.pcap"
else
	"$build/cli/rpcrdma-peer" pcap -o "$file" -n "${2:-210000}" --reliable-reply -q
fi
frames=$("$build/bench/decode-bench" --seconds 1 --only read "$file" >/dev/null;
	 "$build/cli/rpcrdma-dump" -q -r "$file" 2>&1 | sed -n 's/^\([0-9]*\) frames.*/\1/p')
now() { date +%s.%N; }
timeit() { # label, runs, command...: the best of the runs
	label=$1
	runs=$2
	shift 2
	best=
	for _ in $(seq "$runs"); do
		t0=$(now)
		"$@" >/dev/null 2>&1
		t1=$(now)
		best=$(awk -v a="$t0" -v b="$t1" -v m="$best" 'BEGIN {
			d = b - a; print (m == "" || d < m) ? d : m }')
	done
	awk -v l="$label" -v d="$best" -v n="$frames" 'BEGIN {
		printf "%-44s %7.2f s %12.0f frames/s\n", l, d, n / d }'
	last=$best
}
ratio() { # label, numerator seconds, denominator seconds
	awk -v l="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%-60s %6.2fx\n", l, a / b }'
}
echo "== $frames frames in $(du -h "$file" | cut -f1)"
read_rate=$("$build/bench/decode-bench" --seconds 2 --only read "$file" |
	sed -n 's/^read: \([0-9]*\).*/\1/p')
echo "pcap_next_ex loop                                            $read_rate frames/s"
loop=$(awk -v n="$frames" -v r="$read_rate" 'BEGIN { print n / r }')
timeit "rpcrdma-dump -q --stats" 5 "$build/cli/rpcrdma-dump" -q --stats -r "$file"
stats=$last
timeit "rpcrdma-dump -j" 3 "$build/cli/rpcrdma-dump" -j -r "$file"
json=$last
timeit "rpcrdma-dump -q --stats -K (no CRCs)" 5 "$build/cli/rpcrdma-dump" -q --stats -K -r "$file"
nocrc=$last
ratio "rpcrdma-dump -q --stats, its time against the loop's (target <= 1.5)" "$stats" "$loop"
ratio "rpcrdma-dump -q --stats -K, its time against the loop's" "$nocrc" "$loop"
if command -v tshark >/dev/null; then
	timeit "tshark -q" 3 tshark -r "$file" -q
	timeit "tshark -q -z rpc,programs" 1 tshark -r "$file" -q -z rpc,programs
	ratio "rpcrdma-dump -q --stats faster than tshark -z rpc,programs (target >= 30)" "$last" "$stats"
	timeit "tshark -T fields -e rpcordma.xid -e ...flow_control" 1 \
		tshark -r "$file" -T fields -e rpcordma.xid -e rpcordma.flow_control
	ratio "rpcrdma-dump -j faster than tshark -T fields (target >= 30)" "$last" "$json"
fi
"$build/bench/analyzer-memory" 100000
rm -f "$file"
