#!/bin/sh
# Each fault capture of the reference peer raises exactly its findings,
# and the clean captures raise none (rpcrdma-dump --findings, and with -j
# only finding objects).
# usage: findings-test.sh RPCRDMA_DUMP SOURCE_DIR
set -u
dump=$1
src=$2
. "$(dirname "$0")/tap.sh"
expect() { # capture, expected "count id" lines joined by ';' ('' for none), filter...
	cap=$1 want=$2
	shift 2
	got=$("$dump" --findings -r "$src/samples/$cap" "$@" 2>/dev/null |
		sed -n 's/.*! \([a-z_.0-9]*\) .*/\1/p' | sort | uniq -c |
		awk '{printf "%s%s %s", (NR > 1 ? ";" : ""), $1, $2}')
	# -j: the same findings, and nothing else
	gotj=$want
	if command -v jq >/dev/null; then
		gotj=$("$dump" --findings -j -r "$src/samples/$cap" "$@" 2>/dev/null |
			jq -r 'if .type == "finding" then .id else "not-a-finding" end' | sort | uniq -c |
			awk '{printf "%s%s %s", (NR > 1 ? ";" : ""), $1, $2}')
	fi
	if [ "$got" = "$want" ] && [ "$gotj" = "$want" ]; then
		tap_ok "$cap${*:+ ($*)}: ${want:-no findings}"
	else
		tap_not_ok "$cap${*:+ ($*)}: want '${want:-none}', got '${got:-none}', with -j '${gotj:-none}'"
	fi
}
expect rocev2-fault-backward-chunks.pcap "1 rpcrdma.bc_chunks"
expect rocev2-fault-done-unknown-xid.pcap "1 rpcrdma.done_unknown_xid"
expect rocev2-fault-inline-too-big.pcap "1 rpcrdma.inline_too_big"
# the responder cleared R, the requester set it (Linux's nfsd): a warning;
# the requester cleared it: the harmful case, an error (RFC 8797 §3.2)
expect rocev2-fault-invalidate-without-r.pcap "1 rpcrdma.invalidate_own_r_cleared"
expect rocev2-fault-invalidate-requester-cleared-r.pcap "1 rpcrdma.invalidate_without_r"
# the retired procedure, and the ERR_CHUNK it gets
expect rocev2-fault-msgp.pcap "1 rpcrdma.err_chunk;1 rpcrdma.msgp"
expect rocev2-fault-missing-done.pcap "3 rpcrdma.read_chunk_not_released"
expect rocev2-fault-over-credit.pcap "1 rpcrdma.over_credit"
# the responder cannot use the chunk and says so with ERR_CHUNK
expect rocev2-fault-reply-chunk-small.pcap \
	"1 rpcrdma.err_chunk;1 rpcrdma.reply_chunk_unusable"
expect rocev2-fault-write-beyond-segment.pcap "1 rpcrdma.write_beyond_segment"
# the responder posted two receives for a grant of 64: a SEND past them
# draws an RNR NAK, each time the requester sends again
expect rocev2-fault-rnr-storm.pcap "11 rpcrdma.rnr_nak"
# the requester's RC refuses the Write to a key it never registered
expect rocev2-fault-write-wrong-stag.pcap "1 rpcrdma.nak_remote_access"
# the version-2 call, and the ERR_VERS it rightly gets
expect rocev2-fault-wrong-version.pcap "1 rpcrdma.err_vers;1 rpcrdma.vers"
# the call, and the reply that echoes both xids
expect rocev2-fault-xid-mismatch.pcap "2 rpcrdma.xid_mismatch"
expect rocev2-fault-zero-credit.pcap "1 rpcrdma.zero_credit"
expect iwarp-fault-truncated-private-data.pcap "1 rpcrdma.cm_private_data"
# what to do: with -v each finding's line is followed by its advice, and
# -j's finding objects carry it, as docs/findings.md's table has it
advised=0 findings=0 docs_ok=0
for cap in "$src"/samples/*fault*.pcap; do
	out=$("$dump" -v --findings -r "$cap" 2>/dev/null)
	findings=$((findings + $(echo "$out" | grep -c '! rpcrdma\.')))
	advised=$((advised + $(echo "$out" | grep -A1 '! rpcrdma\.' | grep -c '^	  advice: .*\.$')))
	if command -v jq >/dev/null; then
		"$dump" --findings -j -r "$cap" 2>/dev/null |
			jq -r '"\(.id)\t\(.advice)"' >"${TMPDIR:-/tmp}/advice.$$"
		while IFS='	' read -r id advice; do
			grep -F "| \`$id\` |" "$src/docs/findings.md" | grep -qF "| $advice. |" &&
				docs_ok=$((docs_ok + 1))
		done <"${TMPDIR:-/tmp}/advice.$$"
		rm -f "${TMPDIR:-/tmp}/advice.$$"
	fi
done
if [ "$findings" -gt 0 ] && [ "$advised" = "$findings" ]; then
	tap_ok "-v: each finding's advice below it ($advised of $findings)"
else
	tap_not_ok "-v: each finding's advice below it ($advised of $findings)"
fi
if ! command -v jq >/dev/null || [ "$docs_ok" = "$findings" ]; then
	tap_ok "-j: each finding's advice as docs/findings.md has it ($docs_ok of $findings)"
else
	tap_not_ok "-j: each finding's advice as docs/findings.md has it ($docs_ok of $findings)"
fi
for clean in rocev2-inline rocev2-long-call rocev2-mixed rocev2-null \
	rocev2-read rocev2-reliable-reply rocev2-reply-chunk rocev2-write \
	iwarp-mixed iwarp-markers; do
	expect "$clean.pcap" ""
done
# one side of each capture (a libpcap filter, as a capture on one host's
# port gets it): only what that side's frames show is a finding.  The
# requester's frames hold its CM REQ and never the responder's REP, so the
# responder's threshold is unknown (no inline_too_big) and so are the
# chunks its replies offered (no RDMA_DONE finding); the zero grant and the
# chunks on backward calls and the RNR NAKs are in the responder's frames,
# the NAK of a Write in the requester's.
requester="src host 192.0.2.1" responder="src host 192.0.2.2"
for cap in "$src"/samples/rocev2-*.pcap; do
	cap=${cap##*/}
	case $cap in
	rocev2-fault-msgp.pcap) expect "$cap" "1 rpcrdma.msgp" $requester ;;
	rocev2-fault-wrong-version.pcap) expect "$cap" "1 rpcrdma.vers" $requester ;;
	rocev2-fault-xid-mismatch.pcap) expect "$cap" "1 rpcrdma.xid_mismatch" $requester ;;
	# the NAK is the requester's own frame, the Write it refused is not
	rocev2-fault-write-wrong-stag.pcap) expect "$cap" "1 rpcrdma.nak_remote_access" $requester ;;
	*) expect "$cap" "" $requester ;;
	esac
	case $cap in
	rocev2-fault-backward-chunks.pcap) expect "$cap" "1 rpcrdma.bc_chunks" $responder ;;
	rocev2-fault-zero-credit.pcap) expect "$cap" "1 rpcrdma.zero_credit" $responder ;;
	rocev2-fault-rnr-storm.pcap) expect "$cap" "11 rpcrdma.rnr_nak" $responder ;;
	*) expect "$cap" "" $responder ;;
	esac
done
# the diagnosis (--stats=json): each fault capture's problem, ranked, none
# on the clean ones and on the faults that only warn
diagnosed() { # capture, expected "severity problem" joined by ';'
	got=$("$dump" -q --stats=json -r "$src/samples/$1" 2>/dev/null |
		jq -r '[.diagnosis[] | "\(.severity) \(.problem)"] | join(";")')
	if [ "$got" = "$2" ]; then
		tap_ok "$1: diagnosis ${2:-none}"
	else
		tap_not_ok "$1: diagnosis: want '${2:-none}', got '${got:-none}'"
	fi
}
for cap in "$src"/samples/*.pcap; do
	cap=${cap##*/}
	case $cap in
	rocev2-fault-write-wrong-stag.pcap) diagnosed "$cap" "error failed_on_nak" ;;
	rocev2-fault-zero-credit.pcap) diagnosed "$cap" "error zero_grant" ;;
	rocev2-fault-rnr-storm.pcap) diagnosed "$cap" "warning receiver_not_ready" ;;
	# every call a Long Call, every reply through a reply chunk
	rocev2-long-call.pcap | rocev2-reply-chunk.pcap) diagnosed "$cap" "note inline_pressure" ;;
	iwarp-fault-truncated-private-data.pcap | rocev2-fault-inline-too-big.pcap | \
		rocev2-fault-invalidate-requester-cleared-r.pcap | rocev2-fault-over-credit.pcap | \
		rocev2-fault-reply-chunk-small.pcap | rocev2-fault-write-beyond-segment.pcap | \
		rocev2-fault-wrong-version.pcap | rocev2-fault-xid-mismatch.pcap)
		diagnosed "$cap" "error protocol_errors" ;;
	*) diagnosed "$cap" "" ;;
	esac
done
# Linux's NFS/RDMA under Kerberos privacy (the lab's krb5 runs): its
# wrapped 64 KiB WRITEs go as Long Calls, its READs' replies through reply
# chunks, past the thresholds (4096 bytes); inline_pressure, a note, counts
# them as tshark does: the client's RDMA_NOMSG calls whose Position-Zero
# Read chunk holds more than the call threshold, the server's RDMA_NOMSG
# replies whose reply chunk tshark reassembles to more than the reply one.
past_inline_by_tshark() { # capture, client address, thresholds call, reply
	tshark -r "$1" -Y 'rpcordma.msg_type == 1' -T fields -e ip.src \
		-e rpcordma.position -e rpcordma.rdma_length \
		-e rpcordma.reassembled.length 2>/dev/null |
		awk -F'\t' -v client="$2" -v call="$3" -v reply="$4" '
		$1 == client && $2 != "" {
			np = split($2, pos, ","); split($3, len, ",")
			bytes = 0
			for (i = 1; i <= np; i++) if (pos[i] == 0) bytes += len[i]
			if (bytes > call) { calls++; if (bytes > cmax) cmax = bytes }
		}
		$1 != client && $4 > reply { replies++; if ($4 > rmax) rmax = $4 }
		END { printf "%d Long Calls (largest %d bytes), %d replies through a reply chunk (largest %d bytes)", calls, cmax, replies, rmax }'
}
# ... and the first and last frame of them on the worst connection: calls
# to its responder's QP (iWARP: from its requester's TCP port), replies to
# its requester's
past_inline_frames_by_tshark() { # capture, client, call, reply, iwarp?, requester id, responder id
	tshark -r "$1" -Y 'rpcordma.msg_type == 1' -T fields -e frame.number -e ip.src \
		-e rpcordma.position -e rpcordma.rdma_length -e rpcordma.reassembled.length \
		-e infiniband.bth.destqp -e tcp.srcport -e tcp.dstport 2>/dev/null |
		awk -F'\t' -v client="$2" -v call="$3" -v reply="$4" -v iwarp="$5" \
			-v req="$6" -v resp="$7" '
		function on(frame) { if (!first) first = frame; last = frame }
		# a QPN as tshark prints it: decimal (4.0) or 0x-hex (4.4 on)
		function qpn(v,   n, i) {
			if (v !~ /^0x/) return v + 0
			v = tolower(substr(v, 3))
			n = 0
			for (i = 1; i <= length(v); i++) n = n * 16 + index("0123456789abcdef", substr(v, i, 1)) - 1
			return n
		}
		$2 == client && $3 != "" && (iwarp ? $7 == req : qpn($6) == resp) {
			np = split($3, pos, ","); split($4, len, ",")
			bytes = 0
			for (i = 1; i <= np; i++) if (pos[i] == 0) bytes += len[i]
			if (bytes > call) on($1)
		}
		$2 != client && $5 > reply && (iwarp ? $8 == req : qpn($6) == req) { on($1) }
		END { printf "%d %d", first, last }'
}
if command -v tshark >/dev/null && command -v jq >/dev/null; then
	for f in "$src"/tests/linux/*-krb5/client/capture.pcap; do
		[ -f "$f" ] || continue
		name=$(basename "$(dirname "$(dirname "$f")")")
		json=$("$dump" -q --stats=json -r "$f" 2>/dev/null)
		client=$(printf '%s' "$json" | jq -r '.clients[0].address')
		call=$(printf '%s' "$json" | jq '[.connections[].thresholds.call // empty] | min')
		reply=$(printf '%s' "$json" | jq '[.connections[].thresholds.reply // empty] | min')
		want=$(past_inline_by_tshark "$f" "$client" "$call" "$reply")
		got=$(printf '%s' "$json" | jq -r '[.diagnosis[] | "\(.severity) \(.problem): \(.evidence)"] | join(";")')
		case $got in
		"note inline_pressure: $want; "*) tap_ok "$name: diagnosis note inline_pressure: $want" ;;
		*) tap_not_ok "$name: diagnosis: want 'note inline_pressure: $want', got '$got'" ;;
		esac
		worst=$(printf '%s' "$json" | jq '.diagnosis[] | select(.problem == "inline_pressure") | .worst_conn')
		conn=$(printf '%s' "$json" | jq -r --argjson w "${worst:-null}" \
			'.connections[] | select(.conn == $w) | "\(.transport == "iWARP") \(.requester_id) \(.responder_id)"')
		set -- $conn
		iwarp=0
		[ "${1:-}" = true ] && iwarp=1
		want=$(past_inline_frames_by_tshark "$f" "$client" "$call" "$reply" "$iwarp" "${2:-}" "${3:-}")
		got=$(printf '%s' "$json" | jq -r '.diagnosis[] | select(.problem == "inline_pressure") | "\(.first_frame) \(.last_frame)"')
		check "$name: inline_pressure's frames on its worst connection, conn $worst, as tshark finds them: $want" \
			test "$got" = "$want" -a "${want% *}" -gt 0
	done
fi
tap_end
