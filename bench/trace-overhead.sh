#!/bin/sh
# The live monitors' cost to a real NFS client: the lab's bench-overhead job
# (lab/jobs/bench-overhead.sh) times one NFSv3 workload over Soft-RoCE in
# the client guest alone, beside rpcrdma-top -t (BPF programs on the
# rpcrdma and sunrpc tracepoints) and beside rpcrdma-top -e eth0 (the TC
# program), ROUNDS times each, interleaved; prints each mode's median time
# and its ratio to the workload alone.
# usage: bench/trace-overhead.sh BUILD_DIR [ROUNDS]   (as root: lab/run)
set -eu
[ $# -ge 1 ] || { echo "usage: bench/trace-overhead.sh BUILD_DIR [ROUNDS]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
out=${LAB_OUT:-$(mktemp -d /tmp/trace-overhead.XXXXXX)}
mkdir -p "$out"
LAB_BUILD=$(cd "$1" && pwd) LAB_OUT=$out LAB_TRANSPORT=${LAB_TRANSPORT:-rxe} \
	LAB_BENCH_ROUNDS=${2:-5} "$top/lab/run" bench-overhead >"$out/lab.log" 2>&1 ||
	{ cat "$out/lab.log"; exit 1; }
cat "$out/lab.log"
times=$(ls "$out"/*-bench-overhead/client/bench-times)
median() { awk -v m="$1" '$1 == m { print $3 }' "$times" | sort -g |
	awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
base=$(median none)
printf '%-34s %10s %8s\n' "workload (median of rounds)" "seconds" "ratio"
for mode in none trace ebpf; do
	case $mode in
	none) what="alone" ;; trace) what="beside rpcrdma-top -t (BPF)" ;;
	ebpf) what="beside rpcrdma-top -e eth0" ;; esac
	m=$(median "$mode")
	printf '%-34s %10s %8s\n' "$what" "$m" "$(awk -v a="$m" -v b="$base" 'BEGIN { printf "%.3f", a / b }')"
done
echo "rounds: $(awk '$1 == "none"' "$times" | wc -l); every time: $times"
