#!/bin/sh
# Differential check against tshark's own RPC-over-RDMA dissector: every
# message tshark decodes in CAPTURE, libdissect decodes in the same order
# with the same xid, vers, credits, proc, chunk counts and segment fields.
# libdissect may decode more: the version-2 messages tshark refuses.
# usage: tshark-diff.sh RR_FIELDS CAPTURE
set -eu
rr_fields=$1
capture=$2
command -v tshark >/dev/null || { echo "SKIP: tshark is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every segment as it is, retransmitted or not: rr-fields is stateless.
tshark -r "$capture" -o tcp.analyze_sequence_numbers:FALSE -Y rpcordma -T fields -E separator='|' \
	-e rpcordma.xid -e rpcordma.version -e rpcordma.flow_control \
	-e rpcordma.msg_type -e rpcordma.reads_count -e rpcordma.writes_count \
	-e rpcordma.reply_count -e rpcordma.position -e rpcordma.segment_count \
	-e rpcordma.rdma_handle -e rpcordma.rdma_length -e rpcordma.rdma_offset \
	-e rpcordma.rdma_align -e rpcordma.errcode -e rpcordma.vers_low \
	>"$tmp/tshark" 2>"$tmp/tshark.err" || { cat "$tmp/tshark.err"; exit 1; }
"$rr_fields" "$capture" >"$tmp/ours"

# Drop our version != 1 lines, which tshark's dissector does not decode.
awk -F'|' '$2 == 1' "$tmp/ours" >"$tmp/ours.v1"
tshark_n=$(wc -l <"$tmp/tshark")
ours_n=$(wc -l <"$tmp/ours.v1")
if [ "$tshark_n" -eq 0 ]; then
	echo "FAIL: tshark decoded no RPC-over-RDMA message in $capture"
	exit 1
fi
# tshark shows a SEND of several packets where it reassembles it, at its
# last packet; rr-fields at its first, where the header is: where another
# message came between them the two orders differ, the messages do not
order=""
if ! diff -u "$tmp/tshark" "$tmp/ours.v1" >"$tmp/diff"; then
	sort "$tmp/tshark" >"$tmp/tshark.sorted"
	sort "$tmp/ours.v1" >"$tmp/ours.sorted"
	if ! diff -u "$tmp/tshark.sorted" "$tmp/ours.sorted" >"$tmp/diff.sorted"; then
		echo "FAIL: libdissect and tshark disagree on $capture (- tshark, + libdissect):"
		cat "$tmp/diff"
		exit 1
	fi
	order=", $(grep -c '^+[^+]' "$tmp/diff") of them shown at another packet of a multi-packet SEND"
fi
extra=$(awk -F'|' '$2 != 1' "$tmp/ours" | wc -l)
echo "PASS: $tshark_n messages agree field by field ($ours_n compared, $extra version != 1 messages only libdissect decodes$order)"
