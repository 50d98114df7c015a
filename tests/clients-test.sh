#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Who is calling: rpcrdma-dump --stats counts forward RPCs by requester
# address.  On every NFS capture of the lab, each client's calls are the
# RPC-over-RDMA calls tshark reads from that address (retransmissions and
# the NFSv4.1 callbacks left out), its answered calls and latencies those
# rpcrdma-dump -j completes, its errors the NFS and RPC errors the
# statistics count, its bytes what those RPCs moved; the text lists the
# same.  The copies the
# test makes: from the client alone, its calls and nothing answered; from
# the server alone, no client (no call was seen); cut a third in, no more
# than the whole capture's.
# usage: clients-test.sh RPCRDMA_DUMP SOURCE_DIR
set -u
dump=$1
src=$2
. "$src/tests/tap.sh"
. "$src/tests/nfs-lib.sh"
clients() { # capture: "address calls replies errors" per client
	"$dump" -q --stats=json -r "$1" 2>/dev/null |
		jq -r '(.clients // [])[] | "\(.address) \(.calls) \(.replies) \(.errors)"'
}
runs=0
for capture in $(nfs_captures); do
	name=$(run_name "$capture")
	runs=$((runs + 1))
	"$dump" -j -r "$capture" 2>/dev/null >"$work/dump.json"
	"$dump" -q --stats=json -r "$capture" 2>/dev/null >"$work/stats.json"
	client=$(jq -r '.clients[0].address' "$work/stats.json")
	# tshark: RPC calls carried by IB/RoCE or iWARP from the client's address (its MOUNT
	# and portmap calls over UDP and TCP are no RDMA), by xid (an iWARP
	# segment lists several), not the callbacks' program
	filter=$(without_retransmissions "(infiniband || iwarp_ddp_rdmap) && rpc.msgtyp == 0 && ip.src == $client && rpc.program != 1073741824" \
		"$work/dump.json")
	theirs=$(tshark -r "$capture" -Y "$filter" -T fields -e rpc.xid 2>/dev/null |
		tr ',' '\n' | grep -c .)
	ours=$(jq -r '.clients[0].calls' "$work/stats.json")
	check "$name: one client, $client, with the calls tshark reads from it ($ours, tshark $theirs)" \
		eval "test \"\$(jq '.clients | length' '$work/stats.json')\" = 1 && test '$ours' = '$theirs'"
	# answered: the forward replies that completed a call; latency the same
	answered=$(jq -r 'select(.type == "message" and .dir == "reply" and .completed != null) | .xid' \
		"$work/dump.json" | grep -c .)
	check "$name: answered calls and latency count as -j's completions ($answered)" \
		eval "test \"\$(jq '.clients[0].replies' '$work/stats.json')\" = '$answered' &&
		      test \"\$(jq '.clients[0].latency.count' '$work/stats.json')\" = '$answered'"
	# errors: the NFS replies that failed (dump_nfs_status checks them
	# against tshark's) and the RPC replies other than SUCCESS, as the
	# statistics count them by procedure
	failed=$(jq '([(.nfs_errors // [])[].count] | add // 0) + ([.procedures[].replies |
		to_entries[] | select(.key != "SUCCESS" and .key != "unseen") | .value] | add // 0)' \
		"$work/stats.json")
	check "$name: errors as the NFS errors and the RPC replies other than SUCCESS ($failed)" \
		eval "test '$failed' -gt 0 && test \"\$(jq '.clients[0].errors' '$work/stats.json')\" = '$failed'"
	bytes=$(jq -r 'select(.type == "message" and .dir == "reply" and .completed != null) |
		"\(.completed.bytes_inline) \(.completed.bytes_read) \(.completed.bytes_write)"' "$work/dump.json" |
		awk '{ s += $1; r += $2; w += $3 } END { printf "%d %d %d", s, r, w }')
	check "$name: bytes as its RPCs' completions moved ($bytes)" \
		test "$(jq -r '.clients[0].bytes | "\(.send) \(.rdma_read) \(.rdma_write)"' "$work/stats.json")" = "$bytes"
	check "$name: the text lists it" \
		eval "'$dump' -q --stats -r '$capture' 2>/dev/null | grep -A1 '^Clients' | grep -qE '^  $client +calls $ours  answered $answered  errors $failed  p50 '"
	# one direction: the client's calls alone, none answered; the
	# server's replies alone, no client
	tshark -r "$capture" -Y "ip.src == $client" -w "$work/from.pcap" 2>/dev/null
	check "$name, the client's side only: its calls, none answered, no error" \
		eval "clients '$work/from.pcap' | grep -qE '^$client [1-9][0-9]* 0 0\$'"
	tshark -r "$capture" -Y "ip.dst == $client" -w "$work/to.pcap" 2>/dev/null
	check "$name, the server's side only: no client (no call seen)" \
		test -z "$(clients "$work/to.pcap")"
	cut_third "$capture" "$work/late.pcap"
	late=$(clients "$work/late.pcap")
	check "$name, from a third of the way in: fewer calls, errors, answered ($late)" \
		eval "set -- $late && test \"\$1\" = '$client' && test \"\$2\" -gt 0 && test \"\$2\" -lt '$ours' &&
		      test \"\$3\" -le '$answered' && test \"\$4\" -le '$failed'"
done
check "every NFS run of the lab was read ($runs)" test "$runs" -gt 0
tap_end
