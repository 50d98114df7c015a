#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# NFSv4 lines name their operations (RFC 8881 §16.2), as tshark's NFS
# dissector lists them: on every NFSv4.1 and NFSv4.2 capture of the lab, each COMPOUND
# call's operations in rpcrdma-dump -j (rpc.ops) and its text line are
# those tshark gives the same frame (nfs.opcode), and each reply names
# the procedure and operations of the call it answered (completed); each
# callback's CB_COMPOUND (RFC 8881 §19.2) names its callback operations as
# tshark does (nfs.cb.operation), on its line and its reply's.
# usage: nfs4-ops-test.sh RPCRDMA_DUMP SOURCE_DIR
set -u
dump=$1
src=$2
. "$src/tests/tap.sh"
. "$src/tests/nfs-lib.sh"
# operation numbers and names, from the one list libdissect keeps
x_list RR_OP_ nfs4.h >"$work/names"
x_list RR_CB_OP_ nfs4.h >"$work/cb-names"
runs=0
for capture in "$src"/tests/linux/*-nfs4[12]/client/capture.pcap; do
	name=$(run_name "$capture")
	runs=$((runs + 1))
	"$dump" -j -r "$capture" 2>/dev/null >"$work/dump.json"
	"$dump" -r "$capture" 2>/dev/null >"$work/dump.txt"
	# ours: the RPC xid and operation names of each COMPOUND call, by xid
	# (tshark shows a call with read chunks where their data arrived, not
	# with its SEND); not the RC retransmissions, which the receiver drops
	# and tshark reads again
	jq -r 'select(.type == "message" and .dir == "call" and .rpc.ops != null) |
		"\(.rpc.xid) \(.rpc.ops | join(" "))"' "$work/dump.json" | sort >"$work/ours"
	filter=$(without_retransmissions 'rpc.msgtyp == 0 && nfs.opcode' "$work/dump.json")
	tshark -r "$capture" -Y "$filter" -T fields -e rpc.xid -e nfs.opcode 2>/dev/null |
		awk -v names="$(cat "$work/names")" "$awk_hex"'
			BEGIN { n = split(names, w, /[ \n]/); for (i = 1; i < n; i += 2) op[w[i]] = w[i + 1] }
			{ line = hex($1); k = split($2, o, ","); for (i = 1; i <= k; i++) line = line " " (o[i] in op ? op[o[i]] : o[i]); print line }' |
		sort >"$work/theirs"
	calls=$(grep -c . "$work/ours")
	check "$name: each COMPOUND call's operations as tshark lists them ($calls calls)" \
		eval "test '$calls' -gt 0 && diff '$work/theirs' '$work/ours' >&2"
	# the text line: "CALL NFS v4 COMPOUND" and the same names
	jq -r 'select(.type == "message" and .dir == "call" and .rpc.ops != null) | "COMPOUND \(.rpc.ops | join(" "))"' \
		"$work/dump.json" >"$work/want.txt"
	sed -n 's/.* CALL NFS v4 \(COMPOUND[A-Z0-9_ ]*\) len .*/\1/p' "$work/dump.txt" >"$work/got.txt"
	check "$name: the text lines name the same operations" diff "$work/want.txt" "$work/got.txt"
	# each answered call's reply names what it asked
	jq -r 'select(.type == "message" and .rpc.ops != null and .dir == "call") |
		"\(.conn) \(.xid) \(.rpc.ops | join(" "))"' "$work/dump.json" | sort -u >"$work/asked"
	jq -r 'select(.type == "message" and .dir == "reply" and .completed.ops != null) |
		"\(.conn) \(.xid) \(.completed.ops | join(" "))"' "$work/dump.json" | sort -u >"$work/answered"
	replies=$(grep -c . "$work/answered")
	check "$name: each reply names its call's operations ($replies replies)" \
		eval "test '$replies' -gt 0 && test -z \"\$(comm -13 '$work/asked' '$work/answered')\""
	check "$name: each reply to a COMPOUND names the procedure" \
		test "$(jq -r 'select(.type == "message" and .dir == "reply" and .completed.ops != null) | .completed.proc_name' \
			"$work/dump.json" | sort -u)" = COMPOUND
	# the server's callbacks: their CB_COMPOUND operations as tshark reads
	# them, on the call's line and its reply's
	jq -r 'select(.type == "message" and .dir == "backward_call" and .rpc.ops != null) |
		"\(.rpc.xid) \(.rpc.ops | join(" "))"' "$work/dump.json" | sort >"$work/cb-ours"
	filter=$(without_retransmissions 'rpc.msgtyp == 0 && nfs.cb.operation' "$work/dump.json")
	tshark -r "$capture" -Y "$filter" -T fields -e rpc.xid -e nfs.cb.operation 2>/dev/null |
		awk -v names="$(cat "$work/cb-names")" "$awk_hex"'
			BEGIN { n = split(names, w, /[ \n]/); for (i = 1; i < n; i += 2) op[w[i]] = w[i + 1] }
			{ line = hex($1); k = split($2, o, ","); for (i = 1; i <= k; i++) line = line " " (o[i] in op ? op[o[i]] : o[i]); print line }' |
		sort >"$work/cb-theirs"
	callbacks=$(grep -c . "$work/cb-ours")
	check "$name: each callback's CB_COMPOUND operations as tshark lists them ($callbacks callbacks)" \
		eval "test '$callbacks' -gt 0 && diff '$work/cb-theirs' '$work/cb-ours' >&2"
	jq -r 'select(.type == "message" and .dir == "backward_call" and .rpc.ops != null) | "CB_COMPOUND \(.rpc.ops | join(" "))"' \
		"$work/dump.json" >"$work/cb-want.txt"
	sed -n 's/.* backward CALL NFS4_CB v1 \(CB_COMPOUND[A-Z0-9_ ]*\) len .*/\1/p' "$work/dump.txt" >"$work/cb-got.txt"
	check "$name: the callbacks' text lines name the same operations" diff "$work/cb-want.txt" "$work/cb-got.txt"
	jq -r 'select(.type == "message" and .dir == "backward_call" and .rpc.ops != null) |
		"\(.conn) \(.xid) \(.rpc.ops | join(" "))"' "$work/dump.json" | sort -u >"$work/cb-asked"
	jq -r 'select(.type == "message" and .dir == "backward_reply" and .completed.ops != null) |
		"\(.conn) \(.xid) \(.completed.ops | join(" "))"' "$work/dump.json" | sort -u >"$work/cb-answered"
	check "$name: each callback's reply names its operations ($(grep -c . "$work/cb-answered") replies)" \
		cmp -s "$work/cb-asked" "$work/cb-answered"
	# cut to start a third of the way in, and every frame cut to 256 bytes:
	# what is named is what the whole capture names; a call cut short
	# names what it holds and counts the rest
	cut_third "$capture" "$work/late.pcap"
	"$dump" -j -r "$work/late.pcap" 2>/dev/null | jq -r 'select(.type == "message" and .dir == "call" and .rpc.ops != null) |
		"\(.rpc.xid) \(.rpc.ops | join(" "))"' | sort >"$work/late"
	late=$(grep -c . "$work/late")
	check "$name, from a third of the way in: the same operations ($late calls)" \
		eval "test '$late' -gt 0 && test -z \"\$(comm -13 '$work/ours' '$work/late')\""
	editcap -s 256 "$capture" "$work/snap.pcap" 2>/dev/null
	"$dump" -j -r "$work/snap.pcap" 2>/dev/null | jq -r 'select(.type == "message" and .rpc.ops != null) |
		"\(.rpc.xid) \(.rpc.ops | length) \(.rpc.numops)"' >"$work/snap"
	short=$(awk '$2 < $3' "$work/snap" | grep -c .)
	check "$name, frames cut to 256 bytes: calls name the operations they hold ($short of $(grep -c . "$work/snap") cut short)" \
		eval "test '$short' -gt 0 && awk '\$2 > \$3 { bad = 1 } END { exit bad }' '$work/snap'"
done
check "every NFSv4.1 run of the lab was read ($runs)" test "$runs" -gt 0
tap_end
