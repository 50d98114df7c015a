#!/bin/bash
# The live sources under load: the reference peer at its full rate over udp
# on lo (mixed scenario), watched once by rpcrdma-top on the eBPF source
# and once on libpcap.  Reports, for each, the frames seen and dropped,
# frames/s, the user-space CPU the watcher used, and for eBPF the program's
# average run time per packet from the kernel's BPF statistics
# (kernel.bpf_stats_enabled).  Needs root.
# Each source runs RUNS times (3), in turn; the medians are printed last,
# as one run on a 2-core machine varies with what else runs.
# usage: bench/live-bench.sh [BUILD_DIR] [CALLS] [RUNS]
set -u
build=${1:-build}
calls=${2:-100000}
runs=${3:-3}
top=$build/cli/rpcrdma-top
peer=$build/cli/rpcrdma-peer
[ "$(id -u)" -eq 0 ] || { echo "live-bench: needs root (eBPF, live capture)"; exit 1; }
work=$(mktemp -d)
old_stats=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null || echo 0)
trap 'sysctl -qw kernel.bpf_stats_enabled="$old_stats" 2>/dev/null; rm -rf "$work"' EXIT
sysctl -qw kernel.bpf_stats_enabled=1 2>/dev/null || echo "(kernel.bpf_stats_enabled cannot be set: no run time per packet)"

jnum() { sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p" "$1" | tail -n 1; }

run() { # label, source options...
	label=$1
	shift
	"$top" -b -j -d 1 -n 100000 "$@" >"$work/$label.json" 2>"$work/$label.err" &
	tpid=$!
	sleep 1.5
	"$peer" server >/dev/null 2>&1 &
	spid=$!
	sleep 0.3
	t0=$(date +%s.%N)
	"$peer" client -n "$calls" >"$work/$label-client.out" 2>&1
	t1=$(date +%s.%N)
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	sleep 1.5
	run_ns=0 run_cnt=0
	if [ "$label" = ebpf ]; then
		# the kernel's statistics of our programs, before they go
		read -r run_ns run_cnt < <(bpftool prog show 2>/dev/null |
			awk '/name rpcrdma_/ { for (i = 1; i <= NF; i++) {
				if ($i == "run_time_ns") ns += $(i + 1)
				if ($i == "run_cnt") cnt += $(i + 1) } }
			END { print ns + 0, cnt + 0 }')
	fi
	utime=$(awk '{ print $14 }' "/proc/$tpid/stat")
	kill -INT "$tpid"
	wait "$tpid" 2>/dev/null
	hz=$(getconf CLK_TCK)
	frames=$(jnum "$work/$label.json" frames)
	dropped=$(jnum "$work/$label.json" dropped)
	seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
	rate=$(sed -n 's/^calls .* (\([0-9]*\) calls\/s).*/\1/p' "$work/$label-client.out")
	awk -v l="$label" -v f="$frames" -v d="$dropped" -v s="$seconds" -v u="$utime" \
	    -v hz="$hz" -v ns="$run_ns" -v cnt="$run_cnt" -v r="$rate" 'BEGIN {
		printf "%-8s frames seen %9d  dropped %6d  %9.0f frames/s  user CPU %6.2f s",
			l, f, d, f / s, u / hz
		printf "  kernel %5.0f ns/packet", (cnt > 0 ? ns / cnt : 0)
		printf "  (peer %s calls/s)\n", r }' | tee -a "$work/runs.txt"
}
echo "== the peer, $calls mixed calls over udp on lo, at its full rate; $runs runs each"
for _ in $(seq "$runs"); do
	run ebpf -e lo
	run libpcap -i lo
done
# medians of dropped, frames/s, user CPU and kernel ns per source
for label in ebpf libpcap; do
	grep "^$label " "$work/runs.txt" | awk -v l="$label" '
		{ d[NR] = $6; r[NR] = $7; u[NR] = $11; k[NR] = $14 }
		function median(a, n,   i, j, t) {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return a[int((n + 1) / 2)] }
		END { n = NR
			printf "median %-8s dropped %d  %.0f frames/s  user CPU %.2f s", l,
				median(d, n), median(r, n), median(u, n)
			if (l == "ebpf") printf "  kernel %.0f ns/packet", median(k, n)
			printf "\n" }'
done
