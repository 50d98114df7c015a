#!/bin/sh
# Every write the tools make is checked, as tcpdump checks its file: -w
# to a full disk, to a file past its size limit (the file then keeps its
# whole frames only, a prefix of what was read), the standard output full
# or a pipe whose reader went away (-j, -w -), rpcrdma-top's batch output:
# each stops with a message naming the file and the frame, and exit
# status 2.  On a real Linux NFSv3 capture.
# usage: write-errors-test.sh RPCRDMA_DUMP RPCRDMA_TOP|- SOURCE_DIR
set -u
dump=$1
top=$2
src=$3
. "$src/tests/tap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
capture=$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap

# run: status, standard error in $work/err
run() {
	"$@" >"$work/out" 2>"$work/err"
	echo $? >"$work/status"
}
status_is() { [ "$(cat "$work/status")" = "$1" ]; }
said() { grep -qF -- "$1" "$work/err"; }
# the file reads to its end with no error, and holds what it says
reads_clean() { # file
	"$dump" -q -r "$1" >/dev/null 2>"$work/read-err" &&
		! grep -q 'truncated dump file\|rpcrdma-dump: ' "$work/read-err"
}
frames_in() { "$dump" -q -r "$1" 2>&1 >/dev/null | sed -n 's/^\([0-9]*\) frames,.*/\1/p'; }
# the file is the first bytes of the capture it copies (-w writes the
# frames read byte for byte)
is_prefix() { # file
	size=$(wc -c <"$1")
	[ "$size" -gt 24 ] && cmp -s -n "$size" "$1" "$capture"
}
kept() { sed -n 's/.*the file keeps its first \([0-9]*\) frames.*/\1/p' "$work/err"; }
failed_at() { sed -n 's/.*write failed at frame \([0-9]*\):.*/\1/p' "$work/err"; }

run "$dump" -q -r "$capture" -w /dev/full
check "-w to a full device exits 2" status_is 2
check "... naming the file, the frame and why" \
	said "rpcrdma-dump: -w /dev/full: write failed at frame "
check "... No space left on device" said "No space left on device"

# a file size limit (RLIMIT_FSIZE) refuses the write in the middle of a
# frame, as a full file system does
limited() { # -w file, more arguments
	(trap '' XFSZ; ulimit -f 256; run "$dump" -q -r "$capture" -w "$@")
}
limited "$work/limited.pcap"
check "-w past the file's size limit exits 2" status_is 2
check "... with the system's reason" said "File too large"
check "... the file reads to its end with no error" reads_clean "$work/limited.pcap"
check "... it holds the whole frames it says it keeps" \
	[ "$(frames_in "$work/limited.pcap")" = "$(kept)" ]
check "... some, all first in the capture" is_prefix "$work/limited.pcap"
check "... and within the limit" [ "$(wc -c <"$work/limited.pcap")" -le 262144 ]
limited "$work/each.pcap" -U
all_before_failing() { [ "$(kept)" -gt 0 ] && [ "$(kept)" = "$(($(failed_at) - 1))" ]; }
check "-U: every frame before the failing one is kept" all_before_failing
check "... and reads clean" reads_clean "$work/each.pcap"

"$dump" -r "$capture" >/dev/full 2>"$work/err"
echo $? >"$work/status"
check "the standard output full exits 2" status_is 2
check "... naming it, the frame and why" \
	said "rpcrdma-dump: standard output: write failed at frame "

# a reader that goes away: a closed pipe is a failed write the tool
# says, not a silent death by SIGPIPE
{ "$dump" -j -r "$capture" 2>"$work/err"; echo $? >"$work/status"; } |
	head -n 1 >/dev/null
check "-j to a pipe whose reader left exits 2" status_is 2
check "... saying so" said "rpcrdma-dump: standard output: write failed at frame "
check "... Broken pipe" said "Broken pipe"
{ "$dump" -r "$capture" -w - 2>"$work/err"; echo $? >"$work/status"; } |
	head -c 1000 >"$work/head.pcap"
check "-w - to a pipe whose reader left exits 2" status_is 2
check "... saying so" said "rpcrdma-dump: -w -: write failed at frame "
check "... what the reader took is the capture's start" is_prefix "$work/head.pcap"

if [ "$top" != - ]; then
	"$top" -b -r "$capture" >/dev/full 2>"$work/err"
	echo $? >"$work/status"
	check "rpcrdma-top -b to a full standard output exits 2" status_is 2
	check "... naming the snapshot" \
		said "rpcrdma-top: standard output: write failed at snapshot 1"
	"$top" -b -j -r "$capture" >/dev/full 2>"$work/err"
	echo $? >"$work/status"
	check "rpcrdma-top -b -j the same" status_is 2
fi
tap_end
