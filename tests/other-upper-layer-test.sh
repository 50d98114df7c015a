#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# RDMA connections of other upper layers are not RPC-over-RDMA ones: on
# real Soft-RoCE captures of rping and perftest (tests/captures, and the
# wider corpus where RPCRDMA_CAPTURES names it), rpcrdma-dump --stats and
# --stats=json, rpcrdma-top -b and -b -j and rpcrdma-exporter -r list no
# connection, count no byte, credit or threshold of theirs, and count them
# apart (connections, packets, payload bytes); on the lab's Linux NFS
# captures every connection is RPC-over-RDMA and none is counted apart.
# usage: other-upper-layer-test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
dump=$build/cli/rpcrdma-dump
top=$build/cli/rpcrdma-top
exporter=$build/cli/rpcrdma-exporter
. "$src/tests/exporter-lib.sh"
. "$src/tests/tap.sh"

stats() { "$dump" -q --stats=json -r "$1" 2>/dev/null; }
holds() { jq -e "$1" "$2" >/dev/null; } # a jq condition, JSON file
# a connection of RC traffic the capture holds (rping, perftest over RC)
for capture in "$src"/tests/captures/rocev2_softroce_{rping,rdma_read_bw,rdma_write_bw,rdma_send_bw,rdma_atomic_bw,pingpong_rc}.pcap \
	${RPCRDMA_CAPTURES:+"$RPCRDMA_CAPTURES"/rocev2_cm_rdma_read.pcap}; do
	[ -f "$capture" ] || continue
	name=$(basename "$capture" .pcap)
	stats "$capture" >"$work/stats.json"
	check "$name: --stats=json lists no connection" \
		[ "$(jq '.connections | length' "$work/stats.json")" = 0 ]
	check "$name: ... counts no RDMA Read, Write or SEND byte" \
		[ "$(jq '[.total.bytes[]] | add' "$work/stats.json")" = 0 ]
	# (an atomic carries no payload: perftest's atomic_bw none)
	check "$name: ... and counts its connections apart, with their packets" \
		holds '.other_upper_layer | .connections >= 1 and .packets > 0' "$work/stats.json"
	"$dump" -q --stats -r "$capture" >"$work/stats.txt" 2>/dev/null
	check "$name: --stats: 0 connections, and its own line with the same figures" \
		eval "grep -qx '0 connections' '$work/stats.txt' &&
		      grep -qF \"$(jq -r '.other_upper_layer | "\(.connections) RDMA connection"' "$work/stats.json")\" '$work/stats.txt' &&
		      grep -qF \"$(jq -r '.other_upper_layer | "\(.packets) packets, \(.bytes) bytes of payload"' "$work/stats.json")\" '$work/stats.txt'"
	check "$name: --stats shows no credits nor thresholds" \
		eval "! grep -q 'credits granted\|inline thresholds' '$work/stats.txt'"
	if [ -x "$top" ]; then
		"$top" -b -j -r "$capture" 2>/dev/null | tail -n 1 >"$work/top.json"
		check "$name: rpcrdma-top -b -j: no connection, the others counted as --stats=json counts them" \
			[ "$(jq -c '[(.connections | length), .totals.other_upper_layer]' "$work/top.json")" = \
			  "$(jq -c '[0, .other_upper_layer]' "$work/stats.json")" ]
		check "$name: rpcrdma-top -b: conns 0, the others said" \
			eval "\"$top\" -b -r '$capture' 2>/dev/null | grep -q 'conns 0 .*' &&
			      \"$top\" -b -r '$capture' 2>/dev/null | grep -q 'non-RPC conns $(jq .other_upper_layer.connections "$work/stats.json")'"
	fi
	if [ -x "$exporter" ] && command -v curl >/dev/null; then
		start_exporter() { "$exporter" -r "$capture" -l "127.0.0.1:$port" 2>/dev/null & }
		serve_on_free_port start_exporter
		pids+=("$server_pid")
		wait_replay_done "$work/metrics" "http://127.0.0.1:$port/metrics"
		kill "$server_pid" 2>/dev/null
		metric() { awk -v m="$1" '$1 == m { print $2 }' "$work/metrics"; }
		check "$name: exporter: no rpcrdma_connection_* series (no credits of 1 with max 0)" \
			eval "! grep -q '^rpcrdma_connection_[a-z_]*[{]' '$work/metrics'"
		check "$name: exporter: rpcrdma_bytes_total is 0 for every kind" \
			[ "$(awk '/^rpcrdma_bytes_total[{]/ { s += $2 } END { print s + 0 }' "$work/metrics")" = 0 ]
		check "$name: exporter: rpcrdma_connections_open 0" [ "$(metric rpcrdma_connections_open)" = 0 ]
		check "$name: exporter: rpcrdma_other_upper_layer_{connections,packets,bytes} as --stats=json" \
			[ "$(metric rpcrdma_other_upper_layer_connections) $(metric rpcrdma_other_upper_layer_packets) $(metric rpcrdma_other_upper_layer_bytes)" = \
			  "$(jq -r '.other_upper_layer | "\(.connections) \(.packets) \(.bytes)"' "$work/stats.json")" ]
	fi
done
# NFS over RDMA from Linux: every connection is RPC-over-RDMA
for capture in "$src"/tests/linux/*/client/capture.pcap; do
	name=$(basename "$(dirname "$(dirname "$capture")")")
	stats "$capture" >"$work/stats.json"
	check "$name: every connection is RPC-over-RDMA, none counted apart" \
		holds '.other_upper_layer == {"connections": 0, "packets": 0, "bytes": 0} and (.connections | length) > 0' \
		"$work/stats.json"
done
tap_end
