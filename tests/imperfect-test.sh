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
# where it holds neither a reply nor a whole setup.  Each side alone (the
# server's, the client's) is reported as one direction with the roles
# right: the server sends only replies and backward calls, the client only
# calls and backward replies; neither raises a finding.
# usage: imperfect-test.sh RPCRDMA_DUMP SOURCE_DIR
set -u
dump=$1
src=$2
for tool in tshark editcap capinfos jq curl; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$src/tests/tap.sh"
. "$src/tests/ports.sh"
errors() { # capture: its error findings, and all of them
	"$dump" --findings -r "$1" 2>/dev/null >"$work/findings.txt"
	echo "$(grep -c '(error)' "$work/findings.txt") errors of $(grep -c '!' "$work/findings.txt") findings"
}
# The diagnosis's problems above a note ("" on a healthy run).
above_note() { # capture
	"$dump" -q --stats=json -r "$1" 2>/dev/null |
		jq -r '[.diagnosis[] | select(.severity != "note") | .problem] | join(",")'
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
# The hosts sending in a capture (IPv4 or IPv6), and the filter of one.
senders() { # capture [display filter]
	tshark -r "$1" -T fields -e ip.src -e ipv6.src ${2:+-Y "$2"} 2>/dev/null | tr '\t' '\n' | grep .
}
sent_by() { # host
	case $1 in *:*) echo "ipv6.src == $1" ;; *) echo "ip.src == $1" ;; esac
}
unknown_thresholds() { # capture: connections whose thresholds are unknown
	"$dump" -q --stats=json -r "$1" 2>/dev/null |
		jq '[.connections[] | select(.thresholds == null)] | length'
}
# The exporter beside rpcrdma-dump: the metrics it serves once it has
# read a file.
exporter=$(dirname "$dump")/rpcrdma-exporter
. "$src/tests/replay-metrics.sh"
metrics() { # capture
	replay_metrics "$exporter" "$1" "$work/scrape"
	cat "$work/scrape"
}
runs=0
for capture in "$src"/tests/linux/*/client/capture.pcap; do
	name=$(basename "$(dirname "$(dirname "$capture")")")
	runs=$((runs + 1))
	said=$(errors "$capture")
	check "$name, whole: $said" test "${said%% *}" -eq 0
	check "$name, whole: no value shown without what it rests on" \
		test "$(unfounded "$capture")" -eq 0
	problems=$(above_note "$capture")
	check "$name, whole: no diagnosis above a note (${problems:-none})" test -z "$problems"
	for host in $(senders "$capture" | sort -u); do
		tshark -r "$capture" -Y "$(sent_by "$host")" -w "$work/one-way.pcap" 2>/dev/null
		said=$(errors "$work/one-way.pcap")
		check "$name, only what $host sent: $said" test "${said%% *}" -eq 0
		check "$name, only what $host sent: no value shown without what it rests on" \
			test "$(unfounded "$work/one-way.pcap")" -eq 0
		problems=$(above_note "$work/one-way.pcap")
		check "$name, only what $host sent: no diagnosis above a note (${problems:-none})" \
			test -z "$problems"
	done
	frames=$(capinfos -c -M "$capture" | awk '/Number of packets/ { print $NF }')
	editcap -r "$capture" "$work/late.pcap" "$((frames / 3))-$frames" 2>/dev/null
	said=$(errors "$work/late.pcap")
	# each side alone, the server's and the client's as tshark's RPC
	# dissector tells them (the host sending most replies, most calls)
	for role in server client; do
		[ "$role" = server ] && msgtyp=1 || msgtyp=0
		host=$(senders "$capture" "rpc.msgtyp == $msgtyp" |
			sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
		tshark -r "$capture" -Y "$(sent_by "$host")" -w "$work/$role.pcap" 2>/dev/null
		"$dump" -q --stats=json -r "$work/$role.pcap" 2>/dev/null >"$work/$role.json"
		if [ "$role" = server ]; then
			sent='"reply", "backward_call"' heard='{"requester": false, "responder": true}'
		else
			sent='"call", "backward_reply"' heard='{"requester": true, "responder": false}'
		fi
		check "$name, only what the $role $host sent: its messages alone ($sent)" \
			test "$(jq "[.total.messages | to_entries[] | select(.key | IN($sent) | not) |
				     .value | add] | add" "$work/$role.json")" -eq 0
		check "$name, only what the $role $host sent: each connection it sent on seen in one direction, its own ($(jq '[.connections[] | select(.calls + .replies > 0)] | length' "$work/$role.json"))" \
			test "$(jq "[.connections[] | select(.calls + .replies > 0) |
				     select(.heard != $heard or .unanswered != null or
					    .credits.in_flight_max != null)] | length" "$work/$role.json")" -eq 0
		said=$("$dump" --findings -r "$work/$role.pcap" 2>/dev/null | grep -c '!')
		check "$name, only what the $role $host sent: no finding at all ($said)" test "$said" -eq 0
		if [ -x "$exporter" ] && [ "$role" = client ]; then
			metrics "$work/$role.pcap" >"$work/metrics"
			check "$name, only what the client $host sent: the exporter serves no calls in flight, no grant ($(grep -c '^rpcrdma_connection_calls_total{' "$work/metrics") connection series)" \
				eval "grep -q '^rpcrdma_connection_calls_total{' '$work/metrics' &&
				      ! grep -q -e '^rpcrdma_connection_calls_in_flight' \
						-e '^rpcrdma_connection_credits_granted' '$work/metrics'"
		fi
	done
	check "$name, from a third of the way in: $said" test "${said%% *}" -eq 0
	check "$name, from a third of the way in: no value shown without what it rests on" \
		test "$(unfounded "$work/late.pcap")" -eq 0
	problems=$(above_note "$work/late.pcap")
	check "$name, from a third of the way in: no diagnosis above a note (${problems:-none})" \
		test -z "$problems"
	check "$name, from a third of the way in: thresholds unknown on connections set up before" \
		test "$(unknown_thresholds "$work/late.pcap")" -gt 0
	# started at a segment that begins inside an FPDU (an iWARP sender
	# need not align them: the segments shorter than a DDP header)
	for start in $(tshark -r "$capture" -Y 'tcp.len > 0 && tcp.len < 14' \
			-T fields -e frame.number 2>/dev/null | head -3); do
		editcap -r "$capture" "$work/mid.pcap" "$start-$frames" 2>/dev/null
		said=$(errors "$work/mid.pcap")
		check "$name, from frame $start, inside an FPDU: $said" test "${said%% *}" -eq 0
	done
done
check "every Linux run of the lab was read ($runs)" test "$runs" -gt 0
tap_end
