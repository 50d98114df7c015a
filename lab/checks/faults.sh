# Checks of the faults job: each fault's capture decoded whole, the
# shellcheck shell=sh disable=SC2154
# (SC2154: transport and work are set by lab/run, which sources this)
# diagnosis naming the fault it was made with, and the figures behind it
# against what the guests set and what tshark reads in the same capture.
t=$transport
check_eq "faults/$t: server job exit status" 0 "$(cat server/job.status 2>/dev/null)"
check_eq "faults/$t: client job exit status" 0 "$(cat client/job.status 2>/dev/null)"
if [ -e client.console ]; then
	check_eq "faults/$t: no kernel WARNING or BUG in the guests' consoles" 0 \
		"$(cat client.console server.console | grep -c -E 'WARNING:|BUG:')"
fi

# fault_decode NAME: the fault's capture decoded whole, its statistics in
# $work/NAME.json
fault_decode() {
	check_decoded "faults/$t: $1" "client/fault-$1.pcap" "$work/$1.json"
	# (the storm's last calls may go unanswered: the read gives up)
	[ "$1" = storm ] ||
		check_eq "faults/$t: $1: unanswered calls" 0 "$(jq .total.unanswered "$work/$1.json")"
	# the streams followed whole through their resends and holes
	check_stream_whole "faults/$t: $1" "$work/$1.json"
	check_linux_findings "faults/$t: $1" "client/fault-$1.pcap" "$work/$1.findings"
}
# worst_of NAME FIELD: FIELD of the connection $worst (the diagnosis'
# worst) in NAME
worst_of() { jq -r ".connections[] | select(.conn == ${worst:-0}) | .$2" "$work/$1.json"; }
# diagnosed NAME: the problems the diagnosis of NAME names, worst first
diagnosed() { jq -r '[.diagnosis[] | "\(.problem):\(.severity)"] | join(" ")' "$work/$1.json"; }
# diagnosis_field NAME PROBLEM FIELD
diagnosis_field() {
	jq -r --arg p "$2" ".diagnosis[] | select(.problem == \$p) | .$3" "$work/$1.json"
}

# credit: a grant of svc_rdma/max_requests, eight readers at once
fault_decode credit
credits=$(workload_value server max_requests)
check_eq "faults/$t: credit: the server's max_requests as set" 4 "$credits"
check_eq "faults/$t: credit: the eight readers read their bytes" 0 "$(workload_value client credit_readers_failed)"
check_eq "faults/$t: credit: the diagnosis names credit_bound, a warning, and nothing else" \
	"credit_bound:warning" "$(diagnosed credit)"
worst=$(diagnosis_field credit credit_bound worst_conn)
check_eq "faults/$t: credit: the worst connection's grant, max_requests" "$credits $credits" \
	"$(worst_of credit credits.granted_min) $(worst_of credit credits.granted_max)"
check_eq "faults/$t: credit: what the client asked, its rdma_slot_table_entries" \
	"$(workload_value client slot_table_entries)" "$(worst_of credit credits.requested)"
check_eq "faults/$t: credit: calls in flight at most the grant" "$credits" \
	"$(worst_of credit credits.in_flight_max)"
# the calls that waited, counted again from tshark's RPC-over-RDMA headers
# (RoCE): each the first call after a reply that freed a credit of a full grant
if command -v tshark >/dev/null && [ "$t" = rxe ]; then
	srv=$(server_ip)
	tshark -r client/fault-credit.pcap -Y rpcordma -T fields -e frame.number -e ip.src \
		-e rpcordma.flow_control 2>/dev/null |
		awk -v srv="$srv" -v grant="$credits" '
			$2 != srv { if (freed) { waited++; freed = 0 } inflight++; next }
			{ if (inflight >= grant) freed = 1; if (inflight > 0) inflight-- }
			END { printf "%d", waited }' >"$work/credit-waited"
	check_eq "faults/$t: credit: calls that waited for a credit, as tshark's frames give them" \
		"$(cat "$work/credit-waited")" "$(worst_of credit credits.waited)"
	check_eq "faults/$t: credit: the diagnosis' events, those calls" \
		"$(cat "$work/credit-waited")" "$(diagnosis_field credit credit_bound events)"
fi

# loss: netem drops 1 % of what the server sends (2 % over soft-iWARP)
fault_decode loss
check_eq "faults/$t: loss: netem set on the server's link" "$([ "$t" = siw ] && echo 2% || echo 1%)" \
	"$(workload_value server netem_loss)"
check_eq "faults/$t: loss: 1 MiB read back as written through the loss" 1048576 \
	"$(workload_value client loss_read_back_bytes)"
# RC's retries (TCP's on iWARP) carry it: a warning, no reconnect
check_eq "faults/$t: loss: the diagnosis names packet_loss, a warning, and nothing else" \
	"packet_loss:warning" "$(diagnosed loss)"
check_eq "faults/$t: loss: no reconnect" 0 "$(jq .reconnects "$work/loss.json")"
worst=$(diagnosis_field loss packet_loss worst_conn)
check_eq "faults/$t: loss: the lossy stream, the server's (the responder's)" responder \
	"$(diagnosis_field loss packet_loss evidence | sed -n "s/.*the \([a-z]*\)'s stream.*/\1/p")"
# the READ's data whole in its RDMA Writes, each READ's 64 KiB: on
# iWARP the stream held past each hole until TCP's resend filled it; on
# RoCE the packets past a PSN gap held until the receiver's NAK and the
# resend, taken as the receiver took them
check_ge "faults/$t: loss: RDMA Write bytes, the 1 MiB read" 1048576 \
	"$(worst_of loss bytes.rdma_write)"
"$LAB_DUMP" -j -r client/fault-loss.pcap 2>/dev/null |
	jq -r 'select(.type == "message" and .completed.proc_name == "READ") | .completed.bytes_write' \
		>"$work/loss-reads"
check_eq "faults/$t: loss: READs of 64 KiB whole in their RDMA Writes (all but the last, past the file's end)" \
	"$(($(grep -c . "$work/loss-reads") - 1))" "$(grep -c -x 65536 "$work/loss-reads")"
if command -v tshark >/dev/null && [ "$t" = siw ]; then
	# the server's TCP segments that start behind the highest byte seen
	# (resent, or their first copy lost before the capture point), but
	# the stream's last segment sent again (TCP's tail probe), as
	# tshark's sequence numbers give them
	check_eq "faults/$t: loss: the server's resent segments, as tshark's sequence numbers give them" \
		"$(tshark -r client/fault-loss.pcap -Y "ip.src == $(server_ip) && tcp.srcport == 20049 && tcp.len > 0" \
			-T fields -e tcp.seq -e tcp.len 2>/dev/null |
			awk 'NR > 1 && $1 < top && $1 + $2 != top { n++ } $1 + $2 > top { top = $1 + $2 } END { printf "%d", n }')" \
		"$(worst_of loss fabric.responder.retransmissions)"
fi
if [ "$t" = rxe ]; then
	# the server's packets that repeat a request PSN of their QP, as tshark
	# reads them (QP1's CM MADs apart)
	if command -v tshark >/dev/null; then
		tshark -r client/fault-loss.pcap -Y "ip.src == $(server_ip) && infiniband.bth.destqp != 1" \
			-T fields -e frame.number -e infiniband.bth.destqp -e infiniband.bth.psn \
			-e infiniband.bth.opcode 2>/dev/null >"$work/loss-psn"
		# a request packet (not an acknowledgement, opcode 17, nor a read
		# response, 13-16) resent: its PSN seen before, or behind the
		# highest seen, its first copy lost before the capture point
		# (PSNs count modulo 2^24)
		check_eq "faults/$t: loss: the server's resent packets, as tshark's PSNs give them" \
			"$(awk '$4 < 13 || $4 > 17 {
				k = $2 " " $3
				behind = 0
				if ($2 in top) { d = (top[$2] - $3 + 16777216) % 16777216; behind = d > 0 && d < 8388608 }
				if ((k in seen) || behind) n++
				seen[k]
				if (!($2 in top) || (($3 - top[$2] + 16777216) % 16777216) < 8388608) top[$2] = $3
			} END { printf "%d", n }' "$work/loss-psn")" \
			"$(worst_of loss fabric.responder.retransmissions)"
		# PSN gaps: a request packet past the one after the highest
		# seen (but after a Read Request, whose responses take PSNs)
		check_eq "faults/$t: loss: the server's PSN gaps, as tshark's PSNs give them" \
			"$(awk '$4 < 13 || $4 > 17 {
				if (($2 in top) && exact[$2]) { d = ($3 - top[$2] + 16777216) % 16777216; if (d > 1 && d < 8388608) n++ }
				if (!($2 in top) || (($3 - top[$2] + 16777216) % 16777216) < 8388608) { top[$2] = $3; exact[$2] = $4 != 12 }
			} END { printf "%d", n }' "$work/loss-psn")" \
			"$(worst_of loss fabric.responder.psn_gaps)"
	fi
fi

# storm_reconnects: what the connections made again did with the calls,
# against the calls -j shows: each forward call's xid with its sends'
# connections and the reply the client took (a "completed" one)
storm_reconnects() {
	"$LAB_DUMP" -j -r client/fault-storm.pcap 2>/dev/null |
		jq -s -c '[.[] | select(.type == "message" and .xid != null)] |
			group_by(.xid)[] | {xid: .[0].xid,
			conns: ([.[] | select(.dir == "call") | .conn] | unique | length),
			last_call: ([.[] | select(.dir == "call")] | last),
			answered: ([.[] | select(.dir == "reply" and .completed != null)] | first)} |
			select(.last_call != null)' >"$work/storm-calls.jsonl"
	# besides the loss, only the reconnects and the calls they left
	check_eq "faults/$t: storm: nothing named but packet_loss, reconnects and calls_stuck" none \
		"$(diagnosed storm | tr ' ' '\n' | grep -v -e '^packet_loss:error$' \
			-e '^reconnects:note$' -e '^reconnects:warning$' -e '^calls_stuck:error$' |
			paste -sd' ' - | sed 's/^$/none/')"
	check_eq "faults/$t: storm: reconnects named, with the connections made again" \
		"$(jq .reconnects "$work/storm.json")" "$(diagnosis_field storm reconnects events)"
	# a call sent on two connections or more and answered on the last:
	# answered only after it was sent again, which makes it a warning
	late=$(jq -s '[.[] | select(.conns > 1 and .answered != null)] | length' "$work/storm-calls.jsonl")
	check_eq "faults/$t: storm: reconnects a warning where $late calls sent again were answered only then" \
		"$([ "$late" -gt 0 ] && echo warning || echo note)" "$(diagnosis_field storm reconnects severity)"
	if [ "$late" -gt 0 ]; then
		xid=$(diagnosis_field storm reconnects evidence | sed -n 's/.*worst xid \(0x[0-9a-f]*\).*/\1/p')
		check_eq "faults/$t: storm: the late call named ($xid) was sent on more than one connection and answered" yes \
			"$(jq -s -r --argjson x "$(printf '%d' "${xid:-0}")" '[.[] | select(.xid == $x)] |
				if length == 1 and .[0].conns > 1 and .[0].answered != null then "yes" else "no" end' \
				"$work/storm-calls.jsonl")"
	fi
	# cut before the first such call's reply, 1.5 s or more after its last
	# send: where the cut leaves it unanswered (no reply taken in its -j;
	# RC's copies held past a gap are taken as the capture ends), stuck
	# there, on as many connections
	cut=$(jq -s -r '[.[] | select(.conns > 1 and .answered != null)] | first |
		select(. != null) | "\(.xid) \(.conns) \(.last_call.ts) \(.answered.frame) \(.answered.ts)"' \
		"$work/storm-calls.jsonl")
	[ -n "$cut" ] && command -v editcap >/dev/null || return 0
	read -r cut_xid cut_conns sent_ts reply_frame reply_ts <<EOT
$cut
EOT
	if ! awk -v sent="$sent_ts" -v answered="$reply_ts" 'BEGIN { exit !(answered - sent >= 1.5) }'; then
		echo "# faults/$t: storm: the call sent again answered within 1.5 s: no cut before its reply"
		return 0
	fi
	editcap -r client/fault-storm.pcap "$work/storm-cut.pcap" "1-$((reply_frame - 1))" 2>/dev/null
	if [ "$("$LAB_DUMP" -j -r "$work/storm-cut.pcap" 2>/dev/null | jq -s --argjson x "$cut_xid" \
		'[.[] | select(.type == "message" and .xid == $x and .dir == "reply" and .completed != null)] | length')" != 0 ]; then
		echo "# faults/$t: storm: cut before its reply, the call sent again is answered by a copy held past a gap"
		return 0
	fi
	"$LAB_DUMP" -q --stats=json -r "$work/storm-cut.pcap" >"$work/storm-cut.json" 2>/dev/null
	check_eq "faults/$t: storm cut before the reply of a call sent again: calls_stuck, an error, names it" \
		"$(printf 'xid 0x%08x, sent on %s connections' "$cut_xid" "$cut_conns")" \
		"$(jq -r '.diagnosis[] | select(.problem == "calls_stuck" and .severity == "error") | .evidence' \
			"$work/storm-cut.json" | grep -o 'xid 0x[0-9a-f]*, [^,]*, sent on [0-9]* connections' |
			sed 's/, [^,]*, sent/, sent/')"
}

# storm: netem drops 10 % of what the server sends
fault_decode storm
check_eq "faults/$t: storm: netem set on the server's link" 10% "$(workload_value server netem_storm_loss)"
if [ "$t" = rxe ]; then
	# RC's retries may run out, the QPs fail and the client connect again:
	# the loss outlasted them, an error; where they carried every call
	# within the read's 45 s (the kernel's timers decide), a warning.
	# The connections are counted again from the CM REQs tshark sees.
	if command -v tshark >/dev/null; then
		cm_requests=$(tshark -r client/fault-storm.pcap -Y 'infiniband.mad.attributeid == 0x0010' 2>/dev/null | grep -c .)
		check_eq "faults/$t: storm: connections, one per CM ConnectRequest (tshark)" \
			"$cm_requests" "$(jq '.connections | length' "$work/storm.json")"
	else
		cm_requests=$(jq '.connections | length' "$work/storm.json")
	fi
	if [ "$cm_requests" -gt 1 ]; then
		check_eq "faults/$t: storm: the diagnosis names packet_loss, an error, first" \
			"packet_loss:error" "$(diagnosed storm | cut -d' ' -f1)"
		# (a connection that carried no call before it failed replaces none)
		check_ge "faults/$t: storm: connections made again" 1 "$(jq .reconnects "$work/storm.json")"
		check_eq "faults/$t: storm: the evidence says so" yes \
			"$(diagnosis_field storm packet_loss evidence | grep -q 'made again after it' && echo yes)"
		storm_reconnects
	else
		check_eq "faults/$t: storm: the diagnosis names packet_loss, a warning, and nothing else" \
			"packet_loss:warning" "$(diagnosed storm)"
		check_eq "faults/$t: storm: no connection made again" 0 "$(jq .reconnects "$work/storm.json")"
	fi
else
	# TCP carries it, slowly: a warning
	check_eq "faults/$t: storm: the diagnosis names packet_loss, a warning, and nothing else" \
		"packet_loss:warning" "$(diagnosed storm)"
	check_eq "faults/$t: storm: the file read back through the loss" ok "$(workload_value client storm_read)"
fi
echo "# faults/$t: storm: the read $(workload_value client storm_read) after $(workload_value client storm_seconds) s"

# inline: the client's thresholds at 1024 bytes
fault_decode inline
check_eq "faults/$t: inline: the client's rdma_max_inline_write and _read as set" 1024,1024 \
	"$(workload_value client inline_thresholds)"
check_eq "faults/$t: inline: the diagnosis names inline_pressure, a note, and nothing else" \
	"inline_pressure:note" "$(diagnosed inline)"
worst=$(diagnosis_field inline inline_pressure worst_conn)
check_eq "faults/$t: inline: the thresholds negotiated, the client's (RFC 8797)" "1024 1024" \
	"$(worst_of inline thresholds.call) $(worst_of inline thresholds.reply)"
check_eq "faults/$t: inline: the evidence names them" "thresholds call 1024 reply 1024" \
	"$(diagnosis_field inline inline_pressure evidence | grep -o 'thresholds call [0-9]* reply [0-9]*')"
# every ACL set went as a Long Call (its call past 1024 bytes)
check_eq "faults/$t: inline: the twelve ACLs set" 12 "$(workload_value client inline_acls_set)"
check_eq "faults/$t: inline: Long Calls past the threshold, as many as the SETACLs" \
	"$(jq '[.procedures[] | select(.procedure == "SETACL") | .calls] | add' "$work/inline.json")" \
	"$(worst_of inline past_inline.long_calls)"
if command -v tshark >/dev/null && [ "$t" = rxe ]; then
	check_eq "faults/$t: inline: Long Calls (RDMA_NOMSG calls), as tshark counts them" \
		"$(tshark -r client/fault-inline.pcap -Y "rpcordma.msg_type == 1 && ip.dst == $(server_ip)" 2>/dev/null | grep -c .)" \
		"$(worst_of inline past_inline.long_calls)"
fi
# each directory listing's reply (16 files, about 3 KB) went by reply chunk
check_ge "faults/$t: inline: replies through a reply chunk past 1024 bytes, at least the READDIRPLUS" \
	"$(jq '[.procedures[] | select(.procedure == "READDIRPLUS") | .calls] | add' "$work/inline.json")" \
	"$(worst_of inline past_inline.reply_chunk_replies)"
check_ge "faults/$t: inline: the largest Long Call, past the threshold" 1025 \
	"$(worst_of inline past_inline.long_call_max)"
