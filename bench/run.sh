#!/bin/sh
# Decode benchmark: a large capture of RoCEv2 NFSv3 traffic from the
# reference peer (its mixed scenario, CALLS calls), decoded by libdissect,
# against a bare libpcap read loop and against tshark on the same file, in
# one run.
# usage: bench/run.sh [BUILD_DIR] [CALLS]
set -eu
build=${1:-build}
calls=${2:-25000}
out=$(dirname "$0")/out
mkdir -p "$out"
file=$out/bench-rocev2.pcap
"$build/cli/rpcrdma-peer" pcap -o "$file" -n "$calls" --reliable-reply -q
echo "== libdissect"
"$build/bench/decode-bench" --seconds 3 "$file" | tee "$out/decode.txt"
frames=$(sed -n 's/^file: .*(\([0-9]*\) frames.*/\1/p' "$out/decode.txt")
read_rate=$(awk '/^pcap_next_ex/ {print $(NF-1)}' "$out/decode.txt")
dec_rate=$(awk '/^decode alone, CRCs checked/ {print $NF}' "$out/decode.txt")
if command -v tshark >/dev/null; then
	echo "== tshark -r FILE -q (best of 3)"
	best=""
	for _ in 1 2 3; do
		t0=$(date +%s.%N)
		tshark -r "$file" -q >/dev/null 2>&1
		t1=$(date +%s.%N)
		t=$(echo "$t1 - $t0" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
	done
	awk -v n="$frames" -v t="$best" -v r="$read_rate" -v d="$dec_rate" 'BEGIN {
		ts = n / t
		printf "tshark -q: %.2f s, %.0f frames/s\n", t, ts
		printf "libdissect decode is %.1fx tshark -q; the bare read loop is %.1fx tshark -q\n", d / ts, r / ts
	}' | tee -a "$out/decode.txt"
else
	echo "tshark not installed: no tshark comparison"
fi
