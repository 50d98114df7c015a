#!/bin/sh
# The reference peer, really run: pcap mode, and client and server as two
# processes over udp (software RoCEv2) and tcp (software iWARP) on
# loopback, captured live with dumpcap (libpcap).  Each capture is decoded
# by libdissect and by tshark.
# usage: peer-test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
peer=$build/cli/rpcrdma-peer
dump=$build/cli/rpcrdma-dump
fields=$build/tests/rr-fields
work=$(mktemp -d)
. "$(dirname "$0")/tap.sh"
cleanup() {
	pkill -f "$peer server" 2>/dev/null
	[ -n "${capture_pid:-}" ] && kill "$capture_pid" 2>/dev/null
	[ -n "${live_pid:-}" ] && kill "$live_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

ok() { tap_ok "$*"; }
not_ok() { tap_not_ok "$*"; }
check() { # description, then a command that must succeed
	d=$1
	shift
	if "$@" >"$work/check.out" 2>&1; then tap_ok "$d"; else
		tap_not_ok "$d"
		sed 's/^/#   /' "$work/check.out" | head -20
	fi
}

# rpcrdma-dump's closing line says nothing is truncated or malformed.
decodes_clean() {
	line=$("$dump" -r "$1" 2>&1 >/dev/null | tail -1)
	echo "$line"
	echo "$line" | grep -q " 0 truncated, 0 malformed" &&
		! echo "$line" | grep -qE "ICRC [0-9]+ good [1-9]"
}

# tshark's NFS call counts for the procedures it can rebuild equal the
# client's (tshark 4.0 cannot rebuild calls sent by read chunk: WRITE,
# and Long Calls).
nfs_counts_match() {
	capture=$1
	summary=$2
	tshark -r "$capture" -Y "rpc.msgtyp == 0 && rpc.program == 100003" \
		-T fields -e rpc.procedure 2>/dev/null | sort | uniq -c >"$work/ts"
	for pair in 0:NULL 1:GETATTR 3:LOOKUP 6:READ 17:READDIRPLUS; do
		num=${pair%%:*}
		name=${pair#*:}
		want=$(sed -n "s/.*procedures:.* $name \([0-9]*\).*/\1/p" "$summary")
		got=$(awk -v p="$num" '$2 == p {print $1}' "$work/ts")
		[ "${want:-0}" = "${got:-0}" ] || {
			echo "$name: client sent ${want:-0}, tshark decoded ${got:-0}"
			return 1
		}
	done
}

# dumpcap's 64 MiB buffer holds a whole run: a busy machine that
# schedules it late drops nothing. Its "File:" line comes once it
# captures.
start_capture() { # file, filter
	rm -f "$1"
	dumpcap -q -P -B 64 -i lo -f "$2" -w "$1" >/dev/null 2>"$work/dumpcap.err" &
	capture_pid=$!
	for _ in $(seq 100); do
		grep -q "^File: " "$work/dumpcap.err" && break
		sleep 0.1
	done
	sleep 0.3
}

# rpcrdma-dump itself on the live interface, beside dumpcap.
start_live_dump() { # filter
	"$dump" -i lo -q --stats "$1" >"$work/live.out" 2>"$work/live.err" &
	live_pid=$!
	for _ in $(seq 50); do
		grep -q "^listening on lo" "$work/live.err" && break
		sleep 0.1
	done
}

stop_live_dump() {
	sleep 0.3
	kill -INT "$live_pid" 2>/dev/null
	wait "$live_pid"
	live_rc=$?
	live_pid=
}

stop_capture() {
	sleep 0.3
	kill -INT "$capture_pid" 2>/dev/null
	wait "$capture_pid" 2>/dev/null
	capture_pid=
	# its drop counts, for the log of a check that fails
	grep "^Packets" "$work/dumpcap.err" | sed 's/^/# dumpcap: /'
}

run_pair() { # transport, client options, server options
	t=$1
	copts=$2
	sopts=$3
	# shellcheck disable=SC2086
	"$peer" server -t "$t" --timeout 10 $sopts >"$work/server.out" 2>&1 &
	spid=$!
	sleep 0.3
	# shellcheck disable=SC2086
	"$peer" client -t "$t" --timeout 10 $copts >"$work/client.out" 2>&1
	crc=$?
	wait "$spid"
	src_rc=$?
	[ "$crc" = 0 ] && [ "$src_rc" = 0 ] || {
		cat "$work/client.out" "$work/server.out"
		return 1
	}
}

# -- pcap mode: both ends in one process ----------------------------------
"$peer" pcap -o "$work/mixed.pcap" -n 64 --reliable-reply >"$work/pcap.out" 2>&1
check "pcap mode: the mixed scenario completes" test $? = 0
check "pcap mode: the capture decodes clean, every ICRC good" decodes_clean "$work/mixed.pcap"
check "pcap mode: tshark agrees field by field" \
	"$src/tests/tshark-diff.sh" "$fields" "$work/mixed.pcap"
check "pcap mode: tshark's NFS call counts equal the client's" \
	nfs_counts_match "$work/mixed.pcap" "$work/pcap.out"
check "pcap mode: backward-direction calls were answered" \
	grep -qE "backward: calls 0  replies [1-9]" "$work/pcap.out"

for s in $("$peer" pcap -o "$work/x" -s list | awk '{print $1}'); do
	opts="-n 16"
	[ "$s" = reliable-reply ] && opts="$opts --reliable-reply"
	# shellcheck disable=SC2086
	check "pcap mode: scenario $s completes" \
		"$peer" pcap -o "$work/s-$s.pcap" -s "$s" $opts -q
done

# The analyzer's per-RPC byte counts (rpcrdma-dump -j, "completed") add up
# to the RDMA Read and Write bytes the peer itself moved.
per_rpc_bytes_match() { # scenario
	"$peer" pcap -o "$work/b-$1.pcap" -s "$1" -n 40 >"$work/b-$1.out" 2>&1 ||
		return 1
	want=$(sed -n 's/^bytes: inline [0-9]*  RDMA Read \([0-9]*\)  RDMA Write \([0-9]*\).*/\1 \2/p' \
		"$work/b-$1.out")
	got=$("$dump" -j -r "$work/b-$1.pcap" 2>/dev/null |
		grep -o '"completed":{[^}]*}' |
		sed 's/.*"bytes_read":\([0-9]*\),"bytes_write":\([0-9]*\).*/\1 \2/' |
		awk '{r += $1; w += $2} END {print r + 0, w + 0}')
	echo "peer moved (read write): $want; per-RPC sums: $got"
	[ -n "$want" ] && [ "$want" = "$got" ] && [ "$want" != "0 0" ]
}
for s in read write long-call reply-chunk; do
	check "pcap mode: per-RPC RDMA bytes add up to the peer's ($s)" \
		per_rpc_bytes_match "$s"
done

# -- faults: each leaves its mark on the wire -------------------------------
fault_mark() { # fault, extra options, grep pattern in rpcrdma-dump -vv
	# shellcheck disable=SC2086
	"$peer" pcap -o "$work/f-$1.pcap" -n 24 --fault "$1" $2 -q &&
		"$dump" -vv -a -r "$work/f-$1.pcap" 2>/dev/null | grep -qE "$3"
}
check "fault wrong-version: ERR_VERS echoing version 2" \
	fault_mark wrong-version "" "RDMA_ERROR .* vers 2 .*ERR_VERS"
check "fault zero-credit: a reply granting 0" \
	fault_mark zero-credit "" "credits 0 \\[.*\\] REPLY"
check "fault done-unknown-xid: RDMA_DONE for 0xdead0001" \
	fault_mark done-unknown-xid "" "RDMA_DONE xid 0xdead0001"
check "fault xid-mismatch: the RPC xid differs" \
	fault_mark xid-mismatch "" "rpc-xid"
check "fault backward-chunks: a CB call with a chunk" \
	fault_mark backward-chunks "" "reply 1\\] backward CALL NFS4_CB"
check "fault invalidate-without-r: R=0, then Send With Invalidate" \
	fault_mark invalidate-without-r "" "SEND ONLY Invalidate"
check "fault reply-chunk-small: ERR_CHUNK" \
	fault_mark reply-chunk-small "" "ERR_CHUNK"
check "fault inline-too-big: a Long Call sent inline" \
	fault_mark inline-too-big "" "RDMA_MSG .*SYMLINK"
check "fault write-beyond-segment: the run completes" \
	fault_mark write-beyond-segment "" "RDMA_MSG .*READ"
# a Write to a key the requester never registered: its RC answers with
# a NAK remote access error at that Write's PSN (as tshark reads the
# frames), both QPs stop, the run fails on the calls left unanswered; the
# finding names the Write's frame and STag, which no chunk offered
wrong_stag() {
	if "$peer" pcap -o "$work/f-ws.pcap" -n 24 --fault write-wrong-stag -q \
		2>"$work/f-ws.err"; then
		echo "the run did not fail"
		return 1
	fi
	grep -q "FAILED: not every call was answered" "$work/f-ws.err" || return 1
	nak=$(tshark -r "$work/f-ws.pcap" -Y "infiniband.aeth.syndrome == 0x62" \
		-T fields -e infiniband.bth.psn 2>/dev/null)
	write=$(tshark -r "$work/f-ws.pcap" -Y "infiniband.bth.psn == ${nak:-0} && infiniband.reth" \
		-T fields -e frame.number -e infiniband.reth.r_key 2>/dev/null)
	offered=$("$dump" -j -r "$work/f-ws.pcap" 2>/dev/null |
		jq -r 'select(.type == "message" and .dir == "call") | .writes[][].handle' | sort -u)
	detail=$("$dump" --findings -j -r "$work/f-ws.pcap" 2>/dev/null |
		jq -r 'select(.id == "rpcrdma.nak_remote_access") | .detail')
	want=$(echo "$write" | awk '{printf "frame %s, PSN 0x%06x: STag %s, in no chunk of a call in flight", $1, '"${nak:-0}"', $2}')
	echo "tshark: NAK at PSN $nak, Write $write; finding: $detail"
	[ -n "$nak" ] && [ "$detail" = "$want" ] &&
		! echo "$offered" | grep -qx "${write#*	}"
}
check "fault write-wrong-stag: NAK remote access error at the Write's PSN, named with its STag" \
	wrong_stag
# two receives posted for a grant of 64: the responder's RC answers the
# SENDs past them with RNR NAKs (as tshark reads them), the requester sends
# them again after the wait asked for and every call is answered; a
# finding and a fabric count per RNR NAK, each finding with the calls in
# flight under the grant (the responder's receives at fault)
rnr_storm() {
	"$peer" pcap -o "$work/f-rnr.pcap" -n 24 --fault rnr-storm -q || return 1
	rnr=$(tshark -r "$work/f-rnr.pcap" -Y "infiniband.aeth.syndrome == 0x2e" 2>/dev/null | grep -c .)
	found=$("$dump" --findings -j -r "$work/f-rnr.pcap" 2>/dev/null |
		jq -r 'select(.id == "rpcrdma.rnr_nak") | .detail' |
		grep -c -E ': ([0-9]+) calls in flight, 64 credits granted; wait 1280 us$')
	counted=$("$dump" -q --stats=json -r "$work/f-rnr.pcap" 2>/dev/null |
		jq '.total.fabric.requester.rnr_naks, .total.unanswered' | tr '\n' ' ')
	echo "tshark RNR NAKs $rnr; findings $found; rnr_naks and unanswered: $counted"
	[ "$rnr" -gt 1 ] && [ "$found" = "$rnr" ] && [ "$counted" = "$rnr 0 " ]
}
check "fault rnr-storm: RNR NAKs, each a finding and counted, every call answered" rnr_storm
check "fault over-credit: the run completes" \
	fault_mark over-credit "" "CALL NFS"
check "fault truncated-private-data: the run completes" \
	fault_mark truncated-private-data "" "ConnectRequest"
missing_done() {
	"$peer" pcap -o "$work/f-md.pcap" -n 24 --reliable-reply \
		--fault missing-done -q &&
		"$dump" -r "$work/f-md.pcap" | grep -q "read 1 pz" &&
		! "$dump" -r "$work/f-md.pcap" | grep -q "RDMA_DONE xid"
}
check "fault missing-done: pulled replies, no RDMA_DONE" missing_done

# -- udp: software RoCEv2 between two processes, captured live -----------
start_capture "$work/udp.pcap" "udp port 4791"
start_live_dump "udp port 4791"
run_pair udp "-n 400 --reliable-reply" "--reliable-reply" >"$work/udp.log" 2>&1
rc=$?
stop_live_dump
stop_capture
check "udp: rpcrdma-dump -i lo stops on SIGINT with status 0" test "$live_rc" = 0
# every call either way: the client's 400 and the server's backward calls
live_report_complete() {
	bwd=$(sed -n 's/^backward: calls 0  replies \([0-9]*\).*/\1/p' "$work/client.out")
	all=$((400 + ${bwd:-0}))
	grep "calls .* replies" "$work/live.out"
	tail -1 "$work/live.err"
	grep -q "calls $all replies $all unanswered 0" "$work/live.out" &&
		grep -q " 0 truncated, 0 malformed, 0 dropped" "$work/live.err"
}
check "udp: ... and its live report has every call answered, nothing dropped" \
	live_report_complete
check "udp: client and server complete 400 calls" test $rc = 0
cp "$work/client.out" "$work/udp-client.out"
check "udp: the live capture decodes clean, every ICRC good" \
	decodes_clean "$work/udp.pcap"
check "udp: tshark's NFS call counts equal the client's" \
	nfs_counts_match "$work/udp.pcap" "$work/udp-client.out"
check "udp: no tshark-malformed packet" \
	sh -c "! tshark -r '$work/udp.pcap' -Y _ws.malformed 2>/dev/null | grep -q ."

start_capture "$work/drop.pcap" "udp port 4791"
run_pair udp "-n 300 --drop 5" "--drop 5" >"$work/drop.log" 2>&1
rc=$?
stop_capture
check "udp: with 5% of datagrams dropped the run completes" test $rc = 0
check "udp: ... through retransmission" \
	grep -qE "retransmitted [1-9]" "$work/client.out"
# the fabric counters of each side's stream against tshark's reading of
# the same capture: its RC packets (QP1's CM MADs apart) by sender, and
# the NAKs (PSN sequence error, syndrome 0x60) the other side sent back
"$dump" -q --stats=json -r "$work/drop.pcap" >"$work/drop.json" 2>/dev/null
fabric_matches_tshark() {
	for side in requester:127.0.0.1:127.0.0.2 responder:127.0.0.2:127.0.0.1; do
		name=${side%%:*}
		from=${side#*:}
		from=${from%%:*}
		peer_addr=${side##*:}
		packets=$(tshark -r "$work/drop.pcap" -Y "ip.src == $from && infiniband.bth.destqp != 1" 2>/dev/null | wc -l)
		naks=$(tshark -r "$work/drop.pcap" -Y "ip.src == $peer_addr && infiniband.aeth.syndrome == 0x60" 2>/dev/null | wc -l)
		got=$(jq -r ".connections[0].fabric.$name | \"\(.packets) \(.nak_psn_sequence)\"" "$work/drop.json")
		echo "$name: tshark packets $packets NAKs $naks; rpcrdma-dump $got"
		[ "$got" = "$packets $naks" ] && [ "$naks" -gt 0 ] || return 1
	done
}
check "udp: lossy run: each stream's packets and NAKs equal tshark's" fabric_matches_tshark
# timeouts: the bursts of resent request packets (a PSN not above the
# highest its receiver was sent) that no PSN sequence or RNR NAK from that
# receiver asked for, as tshark's fields show them, per stream
timeouts_match_tshark() {
	tshark -r "$work/drop.pcap" -Y "infiniband.bth.destqp != 1" -T fields \
		-e ip.src -e infiniband.bth.opcode -e infiniband.bth.psn \
		-e infiniband.aeth.syndrome 2>/dev/null | awk -F'\t' '
		# request opcodes of RC (IBA vol. 1 table 38): sends, writes, read requests
		function request(op) { return op <= 12 || op == 22 || op == 23 }
		$2 == 17 && ($4 == 96 || int($4 / 32) == 1) { asked[$1] = 1; next }
		request($2) {
			if (seen[$1] && $3 <= top[$1]) {
				if (!resending[$1] && !asked[other($1)]) n[$1]++
				resending[$1] = 1
				asked[other($1)] = 0
			} else {
				resending[$1] = 0
				top[$1] = $3
			}
			seen[$1] = 1
		}
		function other(h) { return h == "127.0.0.1" ? "127.0.0.2" : "127.0.0.1" }
		END { printf "%d %d", n["127.0.0.1"], n["127.0.0.2"] }'
}
timeouts_counted() {
	want=$(timeouts_match_tshark)
	got=$(jq -r '"\(.total.fabric.requester.timeouts) \(.total.fabric.responder.timeouts)"' "$work/drop.json")
	echo "timeouts (requester responder): tshark $want, rpcrdma-dump $got"
	[ "$want" = "$got" ] && [ "${got#* }" -gt 0 ]
}
check "udp: lossy run: each stream's timeouts (resends no NAK asked for) equal tshark's" timeouts_counted
# resends: request packets whose PSN is not above the highest its sender
# sent before, whether their first copy reached the capture point or not;
# the duplicates the receiver drops (ib_retransmissions) are some of them
resends_match_tshark() {
	tshark -r "$work/drop.pcap" -Y "infiniband.bth.destqp != 1" -T fields \
		-e ip.src -e infiniband.bth.opcode -e infiniband.bth.psn 2>/dev/null | awk -F'\t' '
		function request(op) { return op <= 12 || op == 22 || op == 23 }
		request($2) { if (seen[$1] && $3 <= top[$1]) n[$1]++; else top[$1] = $3; seen[$1] = 1 }
		END { printf "%d %d", n["127.0.0.1"], n["127.0.0.2"] }'
}
streams_add_up() {
	want=$(resends_match_tshark)
	got=$(jq -r '"\(.total.fabric.requester.retransmissions) \(.total.fabric.responder.retransmissions)"' "$work/drop.json")
	echo "resends (requester responder): tshark $want, rpcrdma-dump $got"
	[ "$want" = "$got" ] && [ "${got% *}" -gt 0 ] && [ "${got#* }" -gt 0 ] &&
		jq -e '.frames.ib_retransmissions <= .total.fabric.requester.retransmissions +
		       .total.fabric.responder.retransmissions' "$work/drop.json" >/dev/null
}
check "udp: lossy run: each stream's resends equal tshark's (its PSNs not above the highest sent)" streams_add_up
# the diagnosis names the loss: a warning (the connection survived), its
# events every resend and PSN gap, the worst stream's figures those of
# --stats=json, and no other problem
loss_diagnosed() {
	jq -r '.diagnosis[] | "\(.problem) \(.severity) \(.events) \(.worst_conn)"' "$work/drop.json"
	jq -e '[.diagnosis[] | select(.severity != "note")] as $d |
	       ($d | length) == 1 and $d[0].problem == "packet_loss" and
	       $d[0].severity == "warning" and $d[0].worst_conn == 0 and
	       $d[0].events == ([.total.fabric[] | .retransmissions + .psn_gaps] | add) and
	       $d[0].of == ([.total.fabric[].packets] | add) and
	       (.connections[0].fabric.responder as $r |
	        $d[0].evidence | startswith("worst: conn 0, the responder'"'"'s stream, \($r.retransmissions) of \($r.packets) packets resent"))' \
		"$work/drop.json" >/dev/null
}
check "udp: lossy run: the diagnosis names the loss, with the worst stream's figures" loss_diagnosed
# where the loss lies: from the first gap or resend to the last resend (a
# gap's packet is resent after it), the resends as tshark's PSNs show them
# (a request packet whose PSN is not past its sender's highest)
resent_frames_by_tshark() {
	tshark -r "$work/drop.pcap" -Y "infiniband.bth.destqp != 1" -T fields -e frame.number \
		-e ip.src -e infiniband.bth.opcode -e infiniband.bth.psn 2>/dev/null | awk -F'\t' '
		function request(op) { return op <= 12 || op == 22 || op == 23 }
		request($3) {
			if (seen[$2]) {
				d = ($4 - top[$2] + 16777216) % 16777216
				if (d == 0 || d >= 8388608) { if (!first) first = $1; last = $1; next }
			}
			top[$2] = $4
			seen[$2] = 1
		}
		END { printf "%d %d", first, last }'
}
loss_frames() {
	# shellcheck disable=SC2046
	set -- $(resent_frames_by_tshark)
	jq -r '.diagnosis[] | select(.problem == "packet_loss") | "frames \(.first_frame) to \(.last_frame)"' "$work/drop.json"
	echo "resends: tshark frames $1 to $2"
	jq -e --argjson first "$1" --argjson last "$2" '.diagnosis[] | select(.problem == "packet_loss") |
	       .first_frame > 0 and .first_frame <= $first and .last_frame == $last' "$work/drop.json" >/dev/null
}
check "udp: lossy run: the loss's frames run from its first gap or resend to its last resend, as tshark's PSNs show" loss_frames
# one direction (the requester's): what the responder sent is unknown,
# never zero: its stream's packets, and its NAKs of the requester's
tshark -r "$work/drop.pcap" -Y "ip.src == 127.0.0.1" -w "$work/drop-oneway.pcap" 2>/dev/null
one_way_unknown() {
	"$dump" -q --stats=json -r "$work/drop-oneway.pcap" 2>/dev/null |
		jq -e '.connections[0].fabric | .responder.packets == null and
		       .requester.nak_psn_sequence == null and .requester.packets > 0 and
		       .responder.nak_psn_sequence > 0' &&
		"$dump" -q --stats -r "$work/drop-oneway.pcap" 2>/dev/null |
		grep -q "fabric, the responder's stream: packets unknown, NAK PSN sequence error [1-9]"
}
check "udp: lossy run, one direction: what the unheard side sent is unknown, not zero" one_way_unknown
check "udp: lossy run: --stats names the resent share and the NAKs of each stream" \
	sh -c "'$dump' -q --stats -r '$work/drop.pcap' 2>/dev/null |
	       grep -E \"fabric, the (requester|responder)'s stream: packets [0-9]+, resent [0-9]+ \\([0-9.]+%\\).*NAK PSN sequence error [1-9]\" | wc -l | grep -qx 2"

# A slow server (each reply 5 ms late) granting 4 credits to a client that
# asks for 128 and has 300 calls to make: the grant holds the client back
# however busy the machine. The diagnosis names credit_bound, a warning,
# its calls that waited for a credit counted as tshark's messages show them
# (the first call after a reply that freed a credit of a full grant); the
# runs above, at the default grant of 64, do not name it.
start_capture "$work/grant.pcap" "udp port 4791"
run_pair udp "-n 300" "-c 4 --reply-delay 5" >"$work/grant.log" 2>&1
rc=$?
stop_capture
check "udp: a slow server granting 4 credits completes 300 calls" test $rc = 0
"$dump" -q --stats=json -r "$work/grant.pcap" >"$work/grant.json" 2>/dev/null
calls_waited_by_tshark() { # capture: forward calls, and those that waited
	tshark -r "$1" -Y rpcordma -T fields -e ip.src -e rpcordma.msg_type \
		-e rpcordma.flow_control -e rpc.msgtyp -e frame.number 2>/dev/null | awk -F'\t' '
		# RDMA_DONE (4) is no call; the client sends calls and backward
		# replies (msgtyp 1), the server replies and backward calls (0)
		$2 == 4 { next }
		$1 == "127.0.0.1" && $4 != 1 {
			if (freed) { waited++; if (!first) first = $5; last = $5 }
			freed = 0; calls++; inflight++; next
		}
		$1 == "127.0.0.1" || $4 == 0 { next }
		{
			full = grant > 0 && inflight >= grant
			grant = $3
			if (inflight > 0) inflight--
			if (full && inflight < grant) freed = 1
		}
		END { printf "%d %d %d %d", calls, waited, first, last }'
}
credit_bound_diagnosed() {
	# shellcheck disable=SC2046
	set -- $(calls_waited_by_tshark "$work/grant.pcap")
	jq -r '.diagnosis[] | "\(.problem) \(.severity) \(.events) of \(.of): \(.evidence), frames \(.first_frame) to \(.last_frame)"' "$work/grant.json"
	echo "calls, waited, first and last frame of a wait: tshark $*"
	jq -e --argjson calls "$1" --argjson waited "$2" --argjson first "$3" --argjson last "$4" '
	       [.diagnosis[] | select(.severity != "note")] as $d |
	       $waited * 5 >= $calls and ($d | length) == 1 and
	       $d[0].problem == "credit_bound" and $d[0].severity == "warning" and
	       $d[0].events == $waited and $d[0].of == $calls and
	       $d[0].first_frame == $first and $d[0].last_frame == $last and $first > 0 and
	       .connections[0].credits.waited == $waited and
	       .connections[0].credits.granted_max == 4 and .connections[0].credits.requested == 128 and
	       .connections[0].credits.at_grant_ns > 0 and
	       ($d[0].evidence | startswith("worst: conn 0, \($waited) of \($calls) calls waited for a credit, 4 in flight at its grant of 4"))' \
		"$work/grant.json" >/dev/null
}
check "udp: a grant of 4: the diagnosis names credit_bound, its waits those tshark's messages show" \
	credit_bound_diagnosed
check "udp: a grant of 4: --stats names the time at the grant and the calls that waited" \
	sh -c "'$dump' -q --stats -r '$work/grant.pcap' 2>/dev/null |
	       grep -qE 'in flight max 4, at the grant [0-9.]+% of the time, [1-9][0-9]* calls waited for a credit'"
# the exporter, replaying the same capture, serves the same figures
. "$src/tests/ports.sh"
. "$src/tests/replay-metrics.sh"
exporter_credit_figures() {
	replay_metrics "$build/cli/rpcrdma-exporter" "$work/grant.pcap" "$work/grant.prom" || return 1
	waited=$(jq '.connections[0].credits.waited' "$work/grant.json")
	grep -E 'credit_waits_total|at_grant_seconds_total|problem="credit_bound"' "$work/grant.prom"
	grep -q "^rpcrdma_connection_credit_waits_total{.*} $waited\$" "$work/grant.prom" &&
		grep -q "^rpcrdma_diagnosis_problem_events{problem=\"credit_bound\",severity=\"warning\"} $waited\$" "$work/grant.prom" &&
		grep -qE '^rpcrdma_connection_credits_at_grant_seconds_total\{.*\} 0\.[0-9]*[1-9]' "$work/grant.prom"
}
if command -v curl >/dev/null && [ -x "$build/cli/rpcrdma-exporter" ]; then
	check "udp: a grant of 4: the exporter serves the calls that waited, the time at the grant and the problem" \
		exporter_credit_figures
fi
no_credit_bound() {
	for f in udp drop; do
		"$dump" -q --stats=json -r "$work/$f.pcap" 2>/dev/null |
			jq -e '[.diagnosis[] | select(.problem == "credit_bound")] | length == 0' >/dev/null || return 1
	done
}
check "udp: at the default grant of 64, no credit_bound (the healthy and the lossy run)" no_credit_bound

# -- tcp: software iWARP ------------------------------------------------------
start_capture "$work/tcp.pcap" "tcp port 20049"
run_pair tcp "-n 300 --reliable-reply" "--reliable-reply" >"$work/tcp.log" 2>&1
rc=$?
stop_capture
check "tcp: client and server complete 300 calls" test $rc = 0
# the server's summary counts the replies it sent: the client's calls
check "tcp: the server's summary counts its 300 replies" \
	grep -q '^calls 300  replies 300 ' "$work/server.out"
check "tcp: the live capture decodes clean (FPDUs aligned to segments)" \
	decodes_clean "$work/tcp.pcap"
check "tcp: the capture holds the MPA exchange and RPC-over-RDMA" \
	sh -c "'$dump' -r '$work/tcp.pcap' 2>&1 | tail -1 | grep -qE '[1-9][0-9]* RPC-over-RDMA messages, 0 CM, 2 MPA'"
# tshark 4.0 rebuilds no write chunk: an NFS READ reply whose data went
# by RDMA Write is all it may call malformed
only_read_replies_malformed() {
	tshark -r "$1" -Y _ws.malformed 2>/dev/null >"$work/mal"
	! grep -v "V3 READ Reply" "$work/mal" | grep -q .
}
check "tcp: tshark calls nothing malformed but write-chunk READ replies" \
	only_read_replies_malformed "$work/tcp.pcap"
run_pair tcp "-n 100 --markers" "--markers" >"$work/mk.log" 2>&1
check "tcp: with MPA markers the run completes" test $? = 0
start_capture "$work/rev1.pcap" "tcp port 20049"
run_pair tcp "-n 50 --mpa-rev 1 --no-crc" "--mpa-rev 1 --no-crc" >"$work/r1.log" 2>&1
rc=$?
stop_capture
check "tcp: MPA revision 1 without CRC completes" test $rc = 0
check "tcp: ... and the capture shows rev 1 and zero CRC fields" \
	sh -c "'$dump' -vv -a -r '$work/rev1.pcap' 2>/dev/null | grep -q 'MPA Req rev 1' &&
	       '$dump' -vv -a -r '$work/rev1.pcap' 2>/dev/null | grep -q 'crc32c zero'"

# -- errors ------------------------------------------------------------------
"$peer" client --bogus >/dev/null 2>&1
check "a bad option exits 1" test $? = 1
"$peer" client -q --timeout 1 -a 127.0.0.9 >"$work/unreach" 2>&1
rc=$?
check "an unreachable server: exit 2 with a message" \
	sh -c "test $rc = 2 && grep -q 'no answer from' '$work/unreach'"
"$peer" client -t tcp -p 20999 -q --timeout 2 >"$work/refused" 2>&1
rc=$?
check "tcp to a port nobody listens on: exit 2 with a message" \
	sh -c "test $rc = 2 && grep -q 'cannot connect to 127.0.0.1:20999' '$work/refused'"
# no portmapper on 127.0.0.9: no handles, no run
"$peer" client -q --timeout 1 -a 127.0.0.9 --mount /export >"$work/mount" 2>&1
rc=$?
check "--mount without a server's MOUNT service: exit 2, says which" \
	sh -c "test $rc = 2 && grep -q -- '--mount /export: 127.0.0.9 port 111' '$work/mount'"
"$peer" client --mount /export >"$work/mount-usage" 2>&1
check "--mount without -a: exit 1 with the usage" \
	sh -c "test $? = 1 && grep -q 'for a client with -a ADDR' '$work/mount-usage'"
"$peer" image -o "$work/image" && size=$(wc -c <"$work/image")
check "image mode writes the 1 MiB READs expect" test "${size:-0}" = 1048576
"$peer" client -t verbs >"$work/verbs" 2>&1
rc=$?
check "verbs without an RDMA device: exit 2, says why" \
	sh -c "test $rc = 2 && grep -qiE 'no RDMA device|without rdma-core' '$work/verbs'"
echo "# verbs data path: skipped, this machine has no RDMA device"

tap_end
