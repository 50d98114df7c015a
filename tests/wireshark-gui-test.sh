#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The plugin in the real Wireshark (Qt) under Xvfb, run as nobody with the
# plugin in its personal folder (Wireshark ignores those as root): it opens
# a bundled capture with a packet selected and its details shown, then
# Statistics > RPC-over-RDMA (the GUI's -z rpcrdma,stat); both windows
# appear, Wireshark logs no warning and no dissector bug, and screenshots
# of both are kept in BUILD_DIR/tests/screenshots/ (as PNG).
# usage: wireshark-gui-test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
plugin=$build/wireshark-plugin/rpcrdma.so
capture=$src/samples/rocev2-mixed.pcap
shots=$build/tests/screenshots
for tool in wireshark Xvfb xwininfo xwd xwdtopnm pnmtopng tshark; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
[ -f "$plugin" ] || { echo "SKIP: the plugin was not built (wireshark-dev)"; exit 77; }
work=$(mktemp -d)
xvfb_pid=""
ws_pid=""
cleanup() {
	[ -n "$ws_pid" ] && kill "$ws_pid" 2>/dev/null
	[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
	wait 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
. "$(dirname "$0")/tap.sh"
chmod 755 "$work"
. "$(dirname "$0")/plugin-home.sh"
plugin_home "$plugin" "$work/home" || exit 1
mkdir -p "$work/home/.config/wireshark" "$work/runtime" "$shots"
# a main window large enough for the packet list, details and bytes
printf 'gui.geometry_main_x: 0\ngui.geometry_main_y: 0\ngui.geometry_main_width: 1500\ngui.geometry_main_height: 960\n' \
	>"$work/home/.config/wireshark/recent_common"
as_user=()
if [ "$(id -u)" -eq 0 ]; then
	chown -R 65534:65534 "$work/home" "$work/runtime"
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
chmod 700 "$work/runtime"

# Xvfb takes a free display itself and writes its number once it listens
# (-displayfd): two runs at once cannot pick the same one.  -noreset: by
# default the server resets when its last client leaves, and a Wireshark
# started during that reset finds no display
: >"$work/display"
Xvfb -displayfd 3 -noreset -screen 0 1600x1000x24 -nolisten tcp >"$work/xvfb.log" 2>&1 \
	3>"$work/display" &
xvfb_pid=$!
display=""
for ((i = 0; i < 60; i++)); do
	read -r d <"$work/display" 2>/dev/null && [ -n "$d" ] && { display=:$d; break; }
	kill -0 "$xvfb_pid" 2>/dev/null || break
	sleep 0.5
done
[ -n "$display" ] || { echo "FAIL: Xvfb gave no display:"; cat "$work/xvfb.log"; exit 1; }

window_id() { # title pattern: the id of a Wireshark window whose title matches
	xwininfo -display "$display" -root -tree 2>/dev/null |
		awk -v pat="$1" '/\("wireshark" "Wireshark"\)/ && $0 ~ pat { print $1; exit }'
}
wait_window() { # title pattern, seconds: its id once it shows
	local i id
	for ((i = 0; i < $2 * 2; i++)); do
		id=$(window_id "$1")
		[ -n "$id" ] && { echo "$id"; return 0; }
		kill -0 "$ws_pid" 2>/dev/null || return 1
		sleep 0.5
	done
	return 1
}
shoot() { # window id, png
	xwd -silent -display "$display" -id "$1" | xwdtopnm 2>/dev/null | pnmtopng >"$2" 2>/dev/null
}
run_wireshark() { # log, arguments...
	local log=$1
	shift
	"${as_user[@]}" env -i PATH="$PATH" HOME="$work/home" DISPLAY="$display" \
		XDG_RUNTIME_DIR="$work/runtime" LANG=C.UTF-8 \
		wireshark "$@" >"$log" 2>&1 &
	ws_pid=$!
}
stop_wireshark() {
	kill "$ws_pid" 2>/dev/null
	wait "$ws_pid" 2>/dev/null
	ws_pid=""
}
for ((i = 0; i < 60; i++)); do
	xwininfo -display "$display" -root >/dev/null 2>&1 && break
	sleep 0.5
done
name=$(basename "$capture")

# 1. the packet list with frame 14 (an NFS READDIRPLUS call with its
# RPC-over-RDMA header) selected and its details shown; the main window
# takes the capture's name once the file is read
run_wireshark "$work/packets.log" -r "$capture" -g 14
main=$(wait_window "^ *0x[0-9a-f]+ \"$name\":" 120)
check "Wireshark $ws_minor opens $name with the plugin" test -n "$main"
sleep 3 # the selection and details drawn
[ -n "$main" ] && shoot "$main" "$shots/packets.png"
check "screenshot of the packet list and details ($shots/packets.png)" \
	eval "test \"\$(stat -c %s '$shots/packets.png' 2>/dev/null || echo 0)\" -gt 20000"
stop_wireshark

# 2. Statistics > RPC-over-RDMA, opened as -z opens it
run_wireshark "$work/stat.log" -r "$capture" -z rpcrdma,stat
stat=$(wait_window "RPC-over-RDMA \\(rpcrdma-tools\\)" 120)
check "Statistics > RPC-over-RDMA (rpcrdma-tools) opens on $name" test -n "$stat"
sleep 3
[ -n "$stat" ] && shoot "$stat" "$shots/statistics.png"
check "screenshot of the statistics dialog ($shots/statistics.png)" \
	eval "test \"\$(stat -c %s '$shots/statistics.png' 2>/dev/null || echo 0)\" -gt 10000"
stop_wireshark

for log in packets stat; do
	echo "# wireshark's log ($log):"
	sed 's/^/#   /' "$work/$log.log"
	check "Wireshark logged no warning, error or dissector bug ($log)" \
		eval "! grep -Eqi 'warning|critical|error|dissector bug|rpcrdma' '$work/$log.log'"
done
tap_end
