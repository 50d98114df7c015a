#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Every tool's output from two builds, compared byte for byte: for a change
# that must print nothing new (a reshaping of the analyzer).  Each capture
# goes through rpcrdma-dump (-j -a, -vv -a --stats, -x -vv, --findings,
# --stats=json), rpcrdma-top -b -j and, where curl is installed,
# rpcrdma-exporter -r's /metrics once the replay is done (but the
# process_* and scrape series); with RPCRDMA_PLUGINS=1 and tshark,
# through the two plugins too (tshark -V, -2 -V, -V with the analyzer's
# RoCEv2 port moved and -z rpcrdma,stat, as an
# unprivileged user: tshark reads no personal plugins as root).  Where both
# builds have tests/analyzer-digest, all the captures go through it too:
# the analyzer under limits small enough to evict, which the tools'
# defaults never reach on these captures.
#
# usage: compare-builds.sh OLD NEW [CAPTURE...]
#   OLD, NEW  build folders (cli/, tests/, wireshark-plugin/ below them) or
#             folders holding the binaries themselves
#   CAPTURE   default: the samples, the Linux fixtures, tests/captures and
#             ../shared/captures, and (with tshark's editcap and capinfos)
#             each Linux fixture made imperfect as users' captures are: one
#             direction alone, cut to start a third of the way in, every
#             frame cut to 96 bytes, the file cut at two thirds
# Prints one line per difference and a closing "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
old=$1 new=$2
shift 2
tool() { # build folder, tool name
	for d in cli tests; do
		[ -x "$1/$d/$2" ] && { echo "$1/$d/$2"; return; }
	done
	echo "$1/$2"
}
plugin() { # build folder
	if [ -f "$1/wireshark-plugin/rpcrdma.so" ]; then echo "$1/wireshark-plugin/rpcrdma.so"
	else echo "$1/rpcrdma.so"; fi
}
for b in "$old" "$new"; do
	for t in rpcrdma-dump rpcrdma-top; do
		[ -x "$(tool "$b" $t)" ] || { echo "no $t in $b" >&2; exit 2; }
	done
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
imperfect() { # a capture, its name: copies of it as users often have them
	frames=$(capinfos -c -M "$1" | awk '/Number of packets/ { print $NF }')
	for host in $(tshark -r "$1" -T fields -e ip.src 2>/dev/null | sort | uniq -c |
		      sort -rn | awk 'NR <= 2 { print $2 }'); do
		tshark -r "$1" -Y "ip.src == $host" -w "$work/$2-from-$host.pcap" 2>/dev/null
	done
	editcap -r "$1" "$work/$2-cut-third.pcap" "$((frames / 3 + 1))-$frames"
	editcap -s 96 "$1" "$work/$2-snap96.pcap"
	head -c "$(($(stat -c %s "$1") * 2 / 3))" "$1" >"$work/$2-cut-file.pcap"
}
if [ $# -eq 0 ]; then
	set -- "$top"/samples/*.pcap "$top"/tests/linux/*/*/capture.pcap \
		"$top"/tests/captures/*.pcap
	[ -d "$top/../shared/captures" ] && set -- "$@" "$top"/../shared/captures/*.pcap
	if command -v tshark >/dev/null && command -v editcap >/dev/null &&
	   command -v capinfos >/dev/null; then
		for cap in "$top"/tests/linux/*/*/capture.pcap; do
			name=$(basename "$(dirname "$(dirname "$cap")")")
			imperfect "$cap" "$name"
		done
		set -- "$@" "$work"/*.pcap
	else
		echo "compare-builds: no tshark, editcap or capinfos: the imperfect copies are left out" >&2
	fi
fi
passed=0 failed=0
same() { # name, command (run with OLD's and NEW's binaries as $bin)
	name=$1
	shift
	bin_dir=$old "$@" >"$work/old" 2>&1
	echo "exit $?" >>"$work/old"
	bin_dir=$new "$@" >"$work/new" 2>&1
	echo "exit $?" >>"$work/new"
	if cmp -s "$work/old" "$work/new"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "DIFFERS: $name"
		diff "$work/old" "$work/new" | head -n 10
	fi
}
# shellcheck disable=SC2154 # bin_dir: set for each command by run()
dump() { "$(tool "$bin_dir" rpcrdma-dump)" "$@"; }
. "$top/tests/ports.sh"
metrics() { # capture: the exporter's /metrics after replaying it
	capture=$1
	start_exporter() {
		"$(tool "$bin_dir" rpcrdma-exporter)" -r "$capture" -l "127.0.0.1:$port" \
			2>"$work/exporter.err" &
	}
	rm -f "$work/exporter.err"
	serve_on_free_port start_exporter || true
	pid=$server_pid
	for _ in $(seq 300); do
		grep -qs 'replayed' "$work/exporter.err" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	curl -s "http://127.0.0.1:$port/metrics" >"$work/metrics"
	# nothing served counts as a difference: it names its build
	grep -q '^rpcrdma_frames_total' "$work/metrics" ||
		echo "$bin_dir: no metrics: $(cat "$work/exporter.err")"
	grep -v -E '^(# (HELP|TYPE) )?(process_|rpcrdma_exporter_scrape)' "$work/metrics"
	kill "$pid"
	wait "$pid" 2>/dev/null
}
exporters=0
[ -x "$(tool "$old" rpcrdma-exporter)" ] && [ -x "$(tool "$new" rpcrdma-exporter)" ] &&
	command -v curl >/dev/null && exporters=1
top_batch() { "$(tool "$bin_dir" rpcrdma-top)" "$@"; }

plugins=${RPCRDMA_PLUGINS:-0}
if [ "$plugins" = 1 ] && command -v tshark >/dev/null; then
	ver=$(tshark --version | sed -n '1s/.* \([0-9]*\.[0-9]*\)\..*/\1/p')
	user=nobody
	for b in old new; do
		eval "d=\$$b"
		home=$work/home-$b
		mkdir -p "$home/.local/lib/wireshark/plugins/$ver/epan"
		cp "$(plugin "$d")" "$home/.local/lib/wireshark/plugins/$ver/epan/"
	done
	chmod -R a+rX "$work"
fi
shark() { # capture, tshark options
	b=$([ "$bin_dir" = "$old" ] && echo old || echo new)
	cap=$1
	shift
	# one name for both builds' runs: tshark's messages name the file
	cp "$cap" "$work/capture.pcap" && chmod a+r "$work/capture.pcap"
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u "$user" -- env HOME="$work/home-$b" tshark -r "$work/capture.pcap" "$@"
	else
		HOME="$work/home-$b" tshark -r "$work/capture.pcap" "$@"
	fi
}

for cap in "$@"; do
	c=${cap#"$top"/}
	c=${c#"$work"/}
	same "$c -j -a" dump -r "$cap" -j -a
	same "$c -vv -a --stats" dump -r "$cap" -vv -a --stats
	same "$c -x -vv" dump -r "$cap" -x -vv
	same "$c --findings" dump -r "$cap" --findings
	same "$c --stats=json" dump -r "$cap" -q --stats=json
	same "$c top -b -j" top_batch -r "$cap" -b -j -n 1
	[ "$exporters" = 1 ] && same "$c exporter /metrics" metrics "$cap"
	if [ "$plugins" = 1 ]; then
		same "$c tshark -V" shark "$cap" -V
		same "$c tshark -2 -V" shark "$cap" -2 -V
		# the analyzer told of no traffic here: the plugin's stateless path
		same "$c tshark -V, RoCEv2 port 4792" shark "$cap" -o rpcrdma.roce_udp_port:4792 -V
		same "$c tshark -z rpcrdma,stat" shark "$cap" -q -z rpcrdma,stat
	fi
done
digest() { "$(tool "$bin_dir" analyzer-digest)" "$@" | sed "s|$top/||"; }
if [ -x "$(tool "$old" analyzer-digest)" ] && [ -x "$(tool "$new" analyzer-digest)" ]; then
	same "analyzer-digest (small limits)" digest "$@"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
