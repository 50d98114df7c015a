#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Hours of live traffic, compressed: rpcrdma-exporter -i and rpcrdma-top -i
# watch, together, a veth pair fed by tcpreplay with the lab's captures of
# Linux NFS/RDMA (REPEATS repetitions, each on new QPs, looped until FRAMES
# frames) at RATE packets/s.  Every INTERVAL seconds: frames each has seen,
# drops, RSS, and CPU per frame over the interval; a last line compares the
# end with the start.  RSS and the cost of a frame should stay flat.
#
# usage: bench/soak.sh BUILD_DIR [FRAMES] [RATE] [REPEATS] [INTERVAL]
#   (defaults: 50,000,000 frames at 200,000/s of 200 repetitions, every 20 s)
set -u
build=$(cd "${1:?usage: bench/soak.sh BUILD_DIR [FRAMES] [RATE] [REPEATS] [INTERVAL]}" && pwd)
frames_wanted=${2:-50000000}
rate=${3:-200000}
repeats=${4:-200}
interval=${5:-20}
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/bench/veth-feed.sh"

make_feed "$repeats"
loops=$(((frames_wanted + feed_frames - 1) / feed_frames))
echo "feed: $feed_frames frames ($repeats repetitions) looped $loops times: $((loops * feed_frames)) frames at $rate/s"
start_watcher exporter-i exporter || exit 1
exporter_pid=$watcher
start_watcher top-i top || exit 1
top_pid=$watcher
ip netns exec "$ns" tcpreplay -q -i vsend --loop="$loops" --pps="$rate" "$work/feed.pcap" >"$work/replay.out" 2>&1 &
replay=$!
watchers+=("$replay")

printf '%6s | %12s %8s %8s %9s | %12s %8s %8s %9s\n' "" exporter "" "" "" rpcrdma-top "" "" ""
printf '%6s | %12s %8s %8s %9s | %12s %8s %8s %9s\n' seconds frames dropped RSS_MiB ns/frame \
	frames dropped RSS_MiB ns/frame
t=0 ef0=0 tf0=0 ec0=$(cpu_ns "$exporter_pid") tc0=$(cpu_ns "$top_pid")
while :; do
	sleep "$interval"
	t=$((t + interval))
	in_ns curl -s http://127.0.0.1:10186/metrics >"$work/m"
	ef=$(metric "$work/m" rpcrdma_frames_total)
	ed=$(metric "$work/m" rpcrdma_frames_dropped_total)
	read -r tf _ _ td < <(totals "$work/top.out")
	ec=$(cpu_ns "$exporter_pid") tc=$(cpu_ns "$top_pid")
	awk -v t="$t" -v ef="$ef" -v ed="$ed" -v er="$(rss_kib "$exporter_pid")" \
		-v tf="${tf:-0}" -v td="${td:-0}" -v tr="$(rss_kib "$top_pid")" \
		-v de="$((ec - ec0))" -v dt="$((tc - tc0))" -v dfe="$((ef - ef0))" -v dft="$((${tf:-0} - tf0))" 'BEGIN {
		printf "%6d | %12d %8d %8.1f %9.0f | %12d %8d %8.1f %9.0f\n", t,
			ef, ed, er / 1024, (dfe > 0 ? de / dfe : 0),
			tf, td, tr / 1024, (dft > 0 ? dt / dft : 0) }' | tee -a "$work/table"
	ef0=$ef tf0=${tf:-0} ec0=$ec tc0=$tc
	kill -0 "$replay" 2>/dev/null || break
done
wait "$replay"
sed -n 's/^ *Actual: /tcpreplay: /p; s/^ *Rated: /tcpreplay: /p' "$work/replay.out"
awk 'NR == 1 { er0 = $5; en0 = $6; tr0 = $10; tn0 = $11 }
	{ ef = $3; ed = $4; er = $5; en = $6; tf = $8; td = $9; tr = $10; tn = $11 }
	END { printf "exporter: %d frames, %d dropped; RSS %.1f -> %.1f MiB; %.0f -> %.0f ns a frame\n", ef, ed, er0, er, en0, en
	      printf "rpcrdma-top: %d frames, %d dropped; RSS %.1f -> %.1f MiB; %.0f -> %.0f ns a frame\n", tf, td, tr0, tr, tn0, tn }' \
	"$work/table"
