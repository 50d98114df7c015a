#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# No false alarm on the captures users really have: each capture of Linux's
# own NFS/RDMA client and server (the lab's), whole, filtered to each
# direction (as a mirror port that copies one way, or a `src host`
# filter, gives it) and cut to start a third of the way in (as a live
# capture of mounts that already exist starts), raises no error finding in
# rpcrdma-dump --findings: no finding rests on a connection setup, a reply
# or a call the capture did not hold.
# usage: imperfect-test.sh RPCRDMA_DUMP SOURCE_DIR
set -u
dump=$1
src=$2
for tool in tshark editcap capinfos; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/tap.sh"
errors() { # capture: its error findings, and all of them
	"$dump" --findings -r "$1" 2>/dev/null >"$work/findings.txt"
	echo "$(grep -c '(error)' "$work/findings.txt") errors of $(grep -c '!' "$work/findings.txt") findings"
}
runs=0
for capture in "$src"/tests/linux/*/client/capture.pcap; do
	name=$(basename "$(dirname "$(dirname "$capture")")")
	runs=$((runs + 1))
	said=$(errors "$capture")
	check "$name, whole: $said" test "${said%% *}" -eq 0
	for host in $(tshark -r "$capture" -T fields -e ip.src 2>/dev/null | sort -u); do
		tshark -r "$capture" -Y "ip.src == $host" -w "$work/one-way.pcap" 2>/dev/null
		said=$(errors "$work/one-way.pcap")
		check "$name, only what $host sent: $said" test "${said%% *}" -eq 0
	done
	frames=$(capinfos -c -M "$capture" | awk '/Number of packets/ { print $NF }')
	editcap -r "$capture" "$work/late.pcap" "$((frames / 3))-$frames" 2>/dev/null
	said=$(errors "$work/late.pcap")
	check "$name, from a third of the way in: $said" test "${said%% *}" -eq 0
done
check "every Linux run of the lab was read ($runs)" test "$runs" -gt 0
tap_end
