#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The highest rate each live source follows with no drop and exact counts.
#
# A veth pair in a namespace of its own is fed with the lab's captures of
# Linux NFS/RDMA (REPEATS repetitions, each on new QPs) at each of RATES
# packets/s ("top": as fast as the sender goes) by bench/feed-veth (frames
# in memory, sendmmsg; SENDER=tcpreplay for tcpreplay, which sends one
# frame a call and tops out lower).  At each rate the
# same feed is watched, in turn, by tcpdump -w /dev/null (the reference),
# rpcrdma-top -i (libpcap), rpcrdma-top -e (eBPF), rpcrdma-exporter -i and
# rpcrdma-exporter -e.  For each: the rate the sender reached, frames seen,
# drops as the source counts them, whether the frames, RPC calls and
# replies equal an offline read of the same file, and the watcher's CPU
# per frame.  All libpcap watchers get the same kernel buffer (32 MiB).
#
# usage: bench/line-rate.sh BUILD_DIR [REPEATS] [RATES] [WATCHERS]
#   (defaults: 20 repetitions (210,060 RoCEv2 frames),
#    "100000 200000 400000 800000 top", "tcpdump top-i top-e exporter-i exporter-e")
set -u
build=$(cd "${1:?usage: bench/line-rate.sh BUILD_DIR [REPEATS] [RATES] [WATCHERS]}" && pwd)
repeats=${2:-20}
rates=${3:-100000 200000 400000 800000 top}
kinds=${4:-tcpdump top-i top-e exporter-i exporter-e}
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/bench/veth-feed.sh"

make_feed "$repeats"
send() { # rate or top: the feed once on vsend; the rate reached in $work/sent
	if [ "${SENDER:-}" = tcpreplay ]; then
		case $1 in
		top) set -- --topspeed ;;
		*) set -- --pps="$1" ;;
		esac
		ip netns exec "$ns" tcpreplay -q -i vsend --preload-pcap "$1" "$work/feed.pcap" 2>&1 |
			sed -n 's/.*Rated: .*, \([0-9.]*\) pps.*/\1/p' | head -n 1 >"$work/sent"
	else
		case $1 in
		top) set -- ;;
		*) set -- -p "$1" ;;
		esac
		ip netns exec "$ns" "$build/bench/feed-veth" "$@" vsend "$work/feed.pcap" |
			sed -n 's/.*: \([0-9]*\) frames\/s$/\1/p' >"$work/sent"
	fi
}
echo "feed: $feed_frames frames, $feed_calls calls, $feed_replies replies (an offline read)"
printf '%-11s %-8s %10s %10s %9s %8s %-6s %8s\n' watcher rate sent/s frames dropped calls exact ns/frame
for rate in $rates; do
	for kind in $kinds; do
		start_watcher "$kind" "$kind-$rate" || continue
		pid=$watcher
		sleep 1 # the eBPF program attached, the ring drained
		cpu0=$(cpu_ns "$pid")
		send "$rate"
		sleep 2 # the last frames through the buffers
		cpu=$(($(cpu_ns "$pid") - cpu0))
		read -r frames calls replies dropped < <(watcher_counts "$kind" "$kind-$rate" "$pid")
		sent=$(cat "$work/sent")
		exact=yes
		[ "${frames:-0}" = "$feed_frames" ] || exact=no
		[ "${dropped:-?}" = 0 ] || exact=no
		[ "${calls:--}" = - ] || [ "$calls" = "$feed_calls" ] || exact=no
		[ "${replies:--}" = - ] || [ "$replies" = "$feed_replies" ] || exact=no
		awk -v k="$kind" -v r="$rate" -v s="${sent:-?}" -v f="${frames:-0}" -v d="${dropped:-?}" \
			-v c="${calls:-?}" -v e="$exact" -v t="$cpu" 'BEGIN {
			printf "%-11s %-8s %10s %10d %9s %8s %-6s %8.0f\n", k, r, s, f, d, c, e,
				(f > 0 ? t / f : 0) }'
	done
done

# Overload: each watcher stopped (SIGSTOP) while the whole feed is sent as
# fast as the sender goes, then let go; its buffer (the kernel's ring for
# libpcap, the eBPF ring buffer) overflows, and the frames it saw plus the
# drops its source counted should add up to the feed.
echo "overload: each watcher stopped while the feed is sent, then let go"
printf '%-11s %10s %10s %10s %-9s\n' watcher frames dropped sum adds_up
for kind in $kinds; do
	start_watcher "$kind" "$kind-stalled" || continue
	pid=$watcher
	sleep 1
	kill -STOP "$pid"
	send top
	kill -CONT "$pid"
	sleep 3
	read -r frames _ _ dropped < <(watcher_counts "$kind" "$kind-stalled" "$pid")
	sum=$((${frames:-0} + ${dropped:-0}))
	ok=yes
	[ "$sum" = "$feed_frames" ] || ok=no
	printf '%-11s %10s %10s %10s %-9s\n' "$kind" "${frames:-?}" "${dropped:-?}" "$sum" "$ok"
done
