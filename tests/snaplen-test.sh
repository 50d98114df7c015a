#!/bin/sh
# Every sample cut to snap lengths 64, 96 and 128 (editcap -s) decodes
# without a crash or an error exit, and reports truncation.  The Linux
# captures cut to the eBPF source's snapshot (256 bytes, snap_len in
# ebpf/rpcrdma_capture.bpf.c) keep every connection's calls and replies and
# lose no stream: FPDUs that span segments or share one are followed by
# their lengths through the cut bytes.  Cut at any length, a Linux capture
# raises no error or warning the whole one does not.
# usage: snaplen-test.sh RPCRDMA_DUMP SOURCE_DIR
set -u
dump=$1
src=$2
command -v editcap >/dev/null || { echo "SKIP: editcap is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/tap.sh"
for f in "$src"/samples/*.pcap; do
	for snap in 64 96 128; do
		editcap -s "$snap" "$f" "$work/cut.pcap" >/dev/null 2>&1
		summary=$("$dump" -r "$work/cut.pcap" 2>&1 >/dev/null)
		rc=$?
		line=$(printf '%s\n' "$summary" | tail -1)
		truncated=$(printf '%s\n' "$line" | sed -n 's/.* \([0-9]*\) truncated.*/\1/p')
		if [ "$rc" = 0 ] && [ "${truncated:-0}" -gt 0 ]; then
			tap_ok "$(basename "$f") at $snap bytes: $truncated frames said truncated"
		else
			tap_not_ok "$(basename "$f") at $snap bytes: exit $rc: $line"
		fi
	done
done
# a connection that carried no call is left out: a refused mount's, whose
# RFC 8797 private data lies past 256 bytes of its CM REQ, is not known
# to be RPC-over-RDMA in the cut copy (counted apart there)
conversations() {
	"$dump" -q --stats -r "$1" 2>&1 |
		sed -n 's/^ *\(calls [0-9]* replies [0-9]*\).*/\1/p; s/.*\(iWARP stream gaps [0-9]*\); \(IB PSN gaps [0-9]*\).*/\1 \2/p' |
		grep -vx 'calls 0 replies 0'
}
for f in "$src"/tests/linux/*/client/capture.pcap; do
	[ -f "$f" ] || continue
	name=$(basename "$(dirname "$(dirname "$f")")")
	editcap -s 256 "$f" "$work/cut.pcap" >/dev/null 2>&1
	conversations "$f" >"$work/whole"
	conversations "$work/cut.pcap" >"$work/cut"
	if ! grep -q 'stream gaps 0 IB PSN gaps 0' "$work/whole"; then
		tap_not_ok "$name: the whole capture has gaps: $(tail -1 "$work/whole")"
	elif cmp -s "$work/whole" "$work/cut"; then
		tap_ok "$name at 256 bytes: the calls, replies and gaps of the whole capture"
	else
		tap_not_ok "$name at 256 bytes: calls, replies or gaps differ"
		diff "$work/whole" "$work/cut" | sed 's/^/# /'
	fi
done
# Every snap length from the link header to past the RPC header: a cut
# copy raises no error or warning finding more often than the whole
# capture does, and its diagnosis names no problem above a note that the
# whole one does not.  Each header a snap length can end inside (DDP's,
# the chunk lists', the RPC's) is one a healthy capture is cut in.
judged() { # capture: "id count" of its error and warning findings
	"$dump" --findings -j -r "$1" 2>/dev/null |
		jq -r 'select(.type == "finding" and .severity != "note") | .id' |
		sort | uniq -c | awk '{ print $2, $1 }'
}
problems() { # capture: the diagnosis's problems above a note
	"$dump" -q --stats=json -r "$1" 2>/dev/null |
		jq -r '.diagnosis[] | select(.severity != "note") | .problem' | sort
}
if command -v jq >/dev/null; then
	for f in "$src"/tests/linux/*/client/capture.pcap; do
		[ -f "$f" ] || continue
		name=$(basename "$(dirname "$(dirname "$f")")")
		judged "$f" >"$work/judged.whole"
		problems "$f" >"$work/problems.whole"
		bad=""
		snap=58
		while [ "$snap" -le 200 ]; do
			editcap -s "$snap" "$f" "$work/cut.pcap" >/dev/null 2>&1
			extra=$(judged "$work/cut.pcap" | awk 'NR == FNR { w[$1] = $2; next }
				$2 > w[$1] + 0 { printf " %s+%d", $1, $2 - w[$1] }' \
				"$work/judged.whole" -)
			new=$(problems "$work/cut.pcap" | comm -13 "$work/problems.whole" - | tr '\n' ' ')
			[ -n "$extra$new" ] && bad="$bad [$snap:$extra ${new% }]"
			snap=$((snap + 2))
		done
		if [ -z "$bad" ]; then
			tap_ok "$name cut at every even length 58 to 200: no error, warning or problem the whole capture lacks"
		else
			tap_not_ok "$name cut: findings or problems the whole capture lacks:$bad"
		fi
	done
fi
# IB CM messages cut before their fields (90 bytes of the Linux RoCE
# capture): shown as cut, never with IDs, QPNs or a REJ reason of 0; the
# REJs still counted, under an unknown reason
f=$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap
if [ -f "$f" ] && command -v jq >/dev/null; then
	editcap -s 90 "$f" "$work/cm-cut.pcap" >/dev/null 2>&1
	cms=$("$dump" -r "$work/cm-cut.pcap" 2>/dev/null | grep -c ' CM ')
	cut=$("$dump" -r "$work/cm-cut.pcap" 2>/dev/null | grep -c ' CM .* (cut before its fields)')
	rej_whole=$("$dump" -q --stats=json -r "$f" 2>/dev/null | jq '[.cm_rejects[]] | add')
	rej_cut=$("$dump" -q --stats=json -r "$work/cm-cut.pcap" 2>/dev/null | jq '.cm_rejects.other')
	named=$("$dump" -j -r "$work/cm-cut.pcap" 2>/dev/null |
		jq -s '[.[] | select(.type == "cm" and (.local_comm_id != null or .reject_reason != null))] | length')
	if [ "$cms" -gt 0 ] && [ "$cut" = "$cms" ] && [ "$named" = 0 ] &&
	   [ "$rej_whole" -gt 0 ] && [ "$rej_cut" = "$rej_whole" ]; then
		tap_ok "CM cut before its fields: $cut lines say so, no ID or reason in -j, $rej_cut REJs under an unknown reason"
	else
		tap_not_ok "CM cut before its fields: $cut of $cms lines, $named -j objects with IDs, REJs $rej_cut of $rej_whole"
	fi
fi
tap_end
