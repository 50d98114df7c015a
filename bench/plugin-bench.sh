#!/bin/bash
# tshark with the rpcrdma-tools plugin against tshark with only its built-in
# RPC-over-RDMA dissector, on the same large capture from the reference peer
# (mixed scenario), in one run, and both against a bare libpcap read loop:
#   tshark -r FILE                 (the packet list: every frame dissected)
#   tshark -r FILE --disable-protocol nfs   (the same, like for like: with
#                                  the plugin NFS dissects every reply and
#                                  rebuilt message, with the built-in not)
#   tshark -r FILE -q -z rpc,programs
# Each figure is the best of RUNS.  Targets: the plugin's own cost at most
# 1.1x the built-in's time for the packet list, 1.5x for -z rpc,programs.
# Runs against the tshark on the PATH (bench/plugin-bench-versions.sh runs
# it for Wireshark 4.0 here and 4.4 and 4.6 in the test chroots).  tshark
# reads personal plugins only as a user other than root, so both run as
# nobody, from two HOME folders (one with the plugin).
# usage: bench/plugin-bench.sh [BUILD_DIR] [CALLS] [RUNS]
set -eu
build=${1:-build}
calls=${2:-210000}
runs=${3:-3}
plugin=$build/wireshark-plugin/rpcrdma.so
[ -f "$plugin" ] || { echo "plugin-bench: $plugin not built" >&2; exit 2; }
command -v tshark >/dev/null || { echo "plugin-bench: tshark not installed" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
ws_version=$("$(dirname "$0")/../scripts/wireshark-version.sh")
ws_minor=${ws_version%.*}
mkdir -p "$work/builtin" "$work/plugin/.local/lib/wireshark/plugins/$ws_minor/epan"
cp "$plugin" "$work/plugin/.local/lib/wireshark/plugins/$ws_minor/epan/"
file=$work/plugin-bench.pcap
"$build/cli/rpcrdma-peer" pcap -o "$file" -n "$calls" --reliable-reply -q
chmod -R a+rX "$work"
frames=$("$build/cli/rpcrdma-dump" -q -r "$file" 2>&1 | sed -n 's/^\([0-9]*\) frames.*/\1/p')
as_user() { # HOME, command...
	local home=$1
	shift
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$home" "$@"
	else
		env HOME="$home" "$@"
	fi
}
now() { date +%s.%N; }
best_of() { # label, HOME, command...: prints the best time, in seconds
	local label=$1 home=$2 best="" t0 t1
	shift 2
	for _ in $(seq "$runs"); do
		t0=$(now)
		as_user "$home" "$@" >/dev/null 2>&1
		t1=$(now)
		best=$(awk -v a="$t0" -v b="$t1" -v m="$best" 'BEGIN {
			d = b - a; print (m == "" || d < m) ? d : m }')
	done
	awk -v l="$label" -v d="$best" -v n="$frames" 'BEGIN {
		printf "%-50s %7.2f s %10.0f frames/s\n", l, d, n / d }' >&2
	echo "$best"
}
ratio() { # label, numerator, denominator
	awk -v l="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%-66s %6.2fx\n", l, a / b }'
}
echo "== tshark $ws_version: $frames frames in $(du -h "$file" | cut -f1), best of $runs runs"
read_rate=$("$build/bench/decode-bench" --seconds 2 --only read "$file" |
	sed -n 's/^read: \([0-9]*\).*/\1/p')
loop=$(awk -v n="$frames" -v r="$read_rate" 'BEGIN { print n / r }')
echo "pcap_next_ex loop                                  $(printf '%7.2f' "$loop") s $read_rate frames/s"
builtin_list=$(best_of "tshark -r FILE, built-in dissector" "$work/builtin" tshark -r "$file")
plugin_list=$(best_of "tshark -r FILE, with the plugin" "$work/plugin" tshark -r "$file")
# like for like: the plugin matches every RoCE reply to its call and
# rebuilds chunk messages, so Wireshark's NFS dissector does more work with
# it than with the built-in (which files the replies under "Unknown(0)");
# without NFS in both, the difference is the plugin's own
builtin_nonfs=$(best_of "tshark -r FILE --disable-protocol nfs, built-in" "$work/builtin" \
	tshark -r "$file" --disable-protocol nfs)
plugin_nonfs=$(best_of "tshark -r FILE --disable-protocol nfs, with the plugin" "$work/plugin" \
	tshark -r "$file" --disable-protocol nfs)
builtin_rpc=$(best_of "tshark -q -z rpc,programs, built-in dissector" "$work/builtin" \
	tshark -r "$file" -q -z rpc,programs)
plugin_rpc=$(best_of "tshark -q -z rpc,programs, with the plugin" "$work/plugin" \
	tshark -r "$file" -q -z rpc,programs)
ratio "packet list: the plugin's time against the built-in's" \
	"$plugin_list" "$builtin_list"
ratio "packet list, NFS off in both: the plugin's own cost (target <= 1.1)" \
	"$plugin_nonfs" "$builtin_nonfs"
ratio "-z rpc,programs: the plugin's time against the built-in's (target <= 1.5)" \
	"$plugin_rpc" "$builtin_rpc"
ratio "packet list with the plugin against the pcap_next_ex loop" "$plugin_list" "$loop"
# what the two report: the built-in matches no RoCE reply to its call
echo "== -z rpc,programs, built-in dissector"
as_user "$work/builtin" tshark -r "$file" -q -z rpc,programs 2>/dev/null | grep -v '^=*$'
echo "== -z rpc,programs, with the plugin"
as_user "$work/plugin" tshark -r "$file" -q -z rpc,programs 2>/dev/null | grep -v '^=*$'
