#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# What a capture misses or repeats on IB/RoCE: every frame seen twice (as a
# retransmitting sender puts them on the wire) reads as the capture did
# once, and a lost reply leaves a PSN gap, one unanswered call and no
# credit finding.
# usage: capture-loss-test.sh RPCRDMA-DUMP SOURCE-DIR
set -u
dump=$1
src=$2
sample=$src/samples/rocev2-mixed.pcap
command -v mergecap >/dev/null && command -v editcap >/dev/null || {
	echo "SKIP: mergecap and editcap (wireshark-common) are not installed"
	exit 77
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/tap.sh"

# mergecap interleaves the two copies by time: each frame twice in a row
mergecap -w "$work/twice.pcap" "$sample" "$sample"
"$dump" -r "$sample" 2>/dev/null | grep -v ' CM ' >"$work/once.out"
"$dump" -r "$work/twice.pcap" 2>/dev/null | grep -v ' CM ' >"$work/twice.all"
grep -v ' retransmission' "$work/twice.all" >"$work/twice.out"
check "every frame twice: the same messages, RPCs and rebuilt messages" \
	diff -u "$work/once.out" "$work/twice.out"
"$dump" -q --stats -r "$work/twice.pcap" >"$work/twice.stats" 2>&1
check "every frame twice: the repeats are counted as retransmissions" \
	grep -q 'IB PSN gaps 0, retransmissions [1-9]' "$work/twice.stats"
retx=$(sed -n 's/.*IB PSN gaps 0, retransmissions \([0-9]*\).*/\1/p' "$work/twice.stats")
check "every frame twice: a line per retransmission ($retx)" \
	test "$(grep -c ' retransmission of frame ' "$work/twice.all")" = "$retx"
check "every frame twice: each retransmission repeats the frame before it" \
	test "$("$dump" -j -r "$work/twice.pcap" 2>/dev/null |
		jq -s '[.[] | select(.type == "retransmission") | select(.original_frame == .frame - 1)] | length')" = "$retx"
check "every frame twice: no finding" \
	grep -q ' 0 findings$' "$work/twice.stats"

# the third reply's frame cut out
frame=$("$dump" -j -r "$sample" | grep '"dir":"reply"' | sed -n 3p |
	sed 's/.*"frame":\([0-9]*\),.*/\1/')
editcap "$sample" "$work/gap.pcap" "$frame"
"$dump" -q --stats -r "$work/gap.pcap" >"$work/gap.stats" 2>&1
check "a reply lost: one PSN gap" grep -q 'IB PSN gaps 1,' "$work/gap.stats"
check "a reply lost: its call unanswered, the others answered" \
	grep -q 'replies 17 unanswered 1;' "$work/gap.stats"
check "a reply lost: no credit or reply finding" \
	grep -q ' 0 findings$' "$work/gap.stats"
tap_end
