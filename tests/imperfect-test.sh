#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# No false alarm on the captures users really have: each capture of Linux's
# own NFS/RDMA client and server (the lab's), whole, filtered to each
# direction (as a mirror port that copies one way, or a `src host`
# filter, gives it) and cut to start a third of the way in (as a live
# capture of mounts that already exist starts), raises no error finding in
# rpcrdma-dump --findings: no finding rests on a connection setup, a reply
# or a call the capture did not hold.  Nor is a value shown that the
# capture did not hold: --stats=json leaves a connection's inline
# thresholds null where it holds no whole setup, and its credit grant null
# where it holds neither a reply nor a whole setup.  An iWARP capture of
# the server's side alone names the server (on the NFS/RDMA port) the
# responder: it sends replies and backward calls, never a call.
# usage: imperfect-test.sh RPCRDMA_DUMP SOURCE_DIR
set -u
dump=$1
src=$2
for tool in tshark editcap capinfos jq; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/tap.sh"
errors() { # capture: its error findings, and all of them
	"$dump" --findings -r "$1" 2>/dev/null >"$work/findings.txt"
	echo "$(grep -c '(error)' "$work/findings.txt") errors of $(grep -c '!' "$work/findings.txt") findings"
}
# Connections whose shown values rest on nothing captured: thresholds
# without a whole setup (one linked from traffic has none), a grant
# without a reply or a whole setup; and connections that hold them and
# show nothing.
unfounded() { # capture
	"$dump" -q --stats=json -r "$1" 2>/dev/null | jq '[.connections[] |
		(.messages.reply | add) as $replies |
		select((.inferred and .thresholds != null) or
		       ($replies == 0 and .thresholds == null and .credits.granted != null) or
		       ($replies > 0 and .credits.granted == null))] | length'
}
unknown_thresholds() { # capture: connections whose thresholds are unknown
	"$dump" -q --stats=json -r "$1" 2>/dev/null |
		jq '[.connections[] | select(.thresholds == null)] | length'
}
runs=0
for capture in "$src"/tests/linux/*/client/capture.pcap; do
	name=$(basename "$(dirname "$(dirname "$capture")")")
	runs=$((runs + 1))
	said=$(errors "$capture")
	check "$name, whole: $said" test "${said%% *}" -eq 0
	check "$name, whole: no value shown without what it rests on" \
		test "$(unfounded "$capture")" -eq 0
	for host in $(tshark -r "$capture" -T fields -e ip.src 2>/dev/null | sort -u); do
		tshark -r "$capture" -Y "ip.src == $host" -w "$work/one-way.pcap" 2>/dev/null
		said=$(errors "$work/one-way.pcap")
		check "$name, only what $host sent: $said" test "${said%% *}" -eq 0
		check "$name, only what $host sent: no value shown without what it rests on" \
			test "$(unfounded "$work/one-way.pcap")" -eq 0
	done
	frames=$(capinfos -c -M "$capture" | awk '/Number of packets/ { print $NF }')
	editcap -r "$capture" "$work/late.pcap" "$((frames / 3))-$frames" 2>/dev/null
	said=$(errors "$work/late.pcap")
	# iWARP: the server sends from the NFS/RDMA port
	for host in $(tshark -r "$capture" -T fields -e ip.src -Y 'tcp.srcport == 20049' 2>/dev/null |
		      sort -u); do
		tshark -r "$capture" -Y "ip.src == $host" -w "$work/server.pcap" 2>/dev/null
		check "$name, only what the server $host sent: replies and backward calls alone" \
			test "$("$dump" -q --stats=json -r "$work/server.pcap" 2>/dev/null |
				jq '[.total.messages | to_entries[] |
				     select(.key != "reply" and .key != "backward_call") |
				     .value | add] | add')" -eq 0
	done
	check "$name, from a third of the way in: $said" test "${said%% *}" -eq 0
	check "$name, from a third of the way in: no value shown without what it rests on" \
		test "$(unfounded "$work/late.pcap")" -eq 0
	check "$name, from a third of the way in: thresholds unknown on connections set up before" \
		test "$(unknown_thresholds "$work/late.pcap")" -gt 0
done
check "every Linux run of the lab was read ($runs)" test "$runs" -gt 0
tap_end
