#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The Wireshark plugin in the real tshark (4.0, 4.4 or 4.6), against rpcrdma-dump on every
# sample capture: the plugin loads; message by message the header fields,
# every chunk segment and the analysis (direction, credits, completion,
# bytes moved) agree with rpcrdma-dump -j, and a second pass shows the same;
# so do the RPC messages rebuilt from chunk data and the chunk each RDMA
# Read or Write packet serves; each RPC message is dissected once in one
# pass, and clean captures give no malformed packet; -z expert lists exactly the
# findings of rpcrdma-dump --findings; -z rpcrdma,stat matches --stats;
# NFS replies are matched to their calls (-z rpc,programs); RFC 8797 private
# data in CM and MPA frames reads as rpcrdma-dump reads it; a capture cut
# before its connection setup still links calls and replies; no dissector
# bug anywhere, the real captures of other upper layers show no rpcrdma
# packet, and tshark survives randomly corrupted captures.  tshark ignores
# personal plugin folders as root, so it runs as nobody with a HOME that
# holds the plugin.
# PLUGIN_PART=I/N runs the I-th of N parts (every N-th capture and section,
# and of the corrupted captures, from the I-th), for parallel runs; the
# plugin's loading is checked in each.
# usage: wireshark-plugin-test.sh BUILD_DIR SOURCE_DIR [CORRUPTED_RUNS]
set -u
build=$1
src=$2
corrupted_runs=${3:-500}
plugin=$build/wireshark-plugin/rpcrdma.so
dump=$build/cli/rpcrdma-dump
command -v tshark >/dev/null || { echo "SKIP: tshark is not installed"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
[ -f "$plugin" ] || { echo "SKIP: the plugin was not built (wireshark-dev)"; exit 77; }
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
chmod 755 "$work"
. "$(dirname "$0")/plugin-home.sh"
plugin_home "$plugin" "$work/home" || exit 1
chmod -R a+rX "$work"
ts() { # tshark as an unprivileged user when run as root
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			env HOME="$work/home" tshark "$@"
	else
		HOME="$work/home" tshark "$@"
	fi
}
. "$(dirname "$0")/tap.sh"
part=${PLUGIN_PART:-1/1}
part_index=${part%/*}
parts=${part#*/}
unit=0
mine() { # the next unit of work (a capture, a section): this part's?
	unit=$((unit + 1))
	[ $(((unit - 1) % parts)) -eq $((part_index - 1)) ]
}
# tshark -T fields: 4.2 and later print hexadecimal fields as 0x..., 4.0
# in decimal; decimal here (perl's hex() keeps 64 bits exact)
tsf() {
	ts "$@" | perl -pe 's/\b0x([0-9a-fA-F]+)\b/hex($1)/ge'
}
equal_files() { # expected file, got file: equal and not empty, or the diff
	[ -s "$1" ] && cmp -s "$1" "$2" && return 0
	diff "$1" "$2" | head -6 | sed 's/^/#   /'
	return 1
}
same() { # label, expected file, got file
	check "$1 ($(wc -l <"$2") lines)" equal_files "$2" "$3"
}
check "tshark -G plugins lists rpcrdma.so" \
	eval "ts -G plugins 2>/dev/null | grep -q 'rpcrdma.so'"
check "tshark -z help offers rpcrdma,stat (the table Statistics shows in the GUI)" \
	eval "ts -z help 2>&1 | grep -qx ' *rpcrdma,stat'"
check "every finding is an expert item of its own (tshark -G fields)" \
	eval "test \"\$(ts -G fields 2>/dev/null | awk -F'\t' '\$3 ~ /^rpcrdma\\./ && \$4 == \"FT_NONE\"' | grep -c .)\" -ge 24"

# rpcrdma-dump's names as the numbers tshark -T fields prints
names='def dir: {"call": 0, "reply": 1, "backward_call": 2, "backward_reply": 3, "unknown": 4}[.];
def proc: {"RDMA_MSG": 0, "RDMA_NOMSG": 1, "RDMA_MSGP": 2, "RDMA_DONE": 3, "RDMA_ERROR": 4}[.];
def kind: {"inline": 0, "read": 1, "position_zero_read": 2, "write": 3, "reply": 4, "responder_read": 5}[.];
def op: {"read_request": 0, "read_response": 1, "write": 2}[.];'
# graded_as_diagnosed NAME STATS TAPS: each problem of the diagnosis
# (rpcrdma-dump --stats=json in STATS) whose frames are kept has its
# expert item at the severity the diagnosis gives it (packet_loss a
# warning or an error, as the capture shows): in that section of the
# -z expert output in TAPS
graded_as_diagnosed() {
	jq -r '.diagnosis[] | select(.first_frame != null) | "\(.severity) \(.problem)"' "$2" |
		sort >"$work/diag.dump"
	awk '/^Errors \(/ { sev = "error" } /^Warns \(/ { sev = "warning" }
	     /^Notes \(/ { sev = "note" } /^Chats \(/ { sev = "chat" }
	     $3 == "RPCRDMA" && $4 ~ /^(note|warning|error)$/ && $5 ~ /^[a-z_]+:$/ {
		sub(/:$/, "", $5); print sev, $5 }' "$3" | sort >"$work/diag.ts"
	if [ -s "$work/diag.dump" ]; then
		same "$1: each problem's expert item at its severity" "$work/diag.dump" "$work/diag.ts"
	else
		check "$1: no problem, no diagnosis expert item" test ! -s "$work/diag.ts"
	fi
}

# the peer's samples, and the lab's captures of Linux's client and server
# over Soft-RoCE and soft-iWARP (PLUGIN_CAPTURES may name others)
for capture in ${PLUGIN_CAPTURES:-"$src"/samples/*.pcap "$src"/tests/linux/*/client/capture.pcap}; do
	mine || continue
	case $capture in
	*/tests/linux/*) name=linux-$(basename "$(dirname "$(dirname "$capture")")") ;;
	*) name=$(basename "$capture" .pcap) ;;
	esac
	"$dump" -j -a -r "$capture" >"$work/dump.json" 2>/dev/null
	tsf -r "$capture" -T fields -E occurrence=f -e frame.number -e rpcrdma.xid \
		-e rpcrdma.dir -e rpcrdma.credits -e rpcrdma.proc -e rpcrdma.time \
		-e rpcrdma.moved.inline -e rpcrdma.moved.read -e rpcrdma.moved.write \
		-e rpcrdma.rebuilt.xid -e rpcrdma.rebuilt.source -e rpcrdma.rebuilt \
		-Y 'rpcrdma.xid || rpcrdma.rebuilt' 2>"$work/ts.err" >"$work/ts.fields"
	# messages: frame xid dir credits proc, and for a reply that completed
	# its call the RPC time in ns and the bytes moved; an RC retransmission
	# of a SEND's first packet shows its message's header again
	jq -r "$names"'select(.type == "message" or (.type == "retransmission" and .xid != null)) |
		"\(.frame) \(.xid) \(.dir | dir) \(.credits) \(.proc | proc) " +
		(.completed | if . then "\(.latency_ns) \(.bytes_inline) \(.bytes_read) \(.bytes_write)" else "-" end)' \
		"$work/dump.json" | sort -n >"$work/msg.dump"
	awk -F'\t' '$2 != "" { printf "%d %.0f %d %d %d ", $1, $2, $3, $4, $5
		if ($6 == "") print "-"
		else printf "%.0f %d %d %d\n", $6 * 1e9, $7, $8, $9 }' \
		"$work/ts.fields" | sort -n >"$work/msg.ts"
	check "$name: tshark reports no dissector bug" \
		eval "! grep -qi 'dissector bug' '$work/ts.err'"
	# a second look (tshark -2, as the GUI's clicks) shows what the first
	# pass showed: the analyzer's results are kept per frame
	tsf -2 -r "$capture" -T fields -E occurrence=f -e frame.number -e rpcrdma.xid \
		-e rpcrdma.dir -e rpcrdma.credits -e rpcrdma.proc -e rpcrdma.time \
		-e rpcrdma.moved.inline -e rpcrdma.moved.read -e rpcrdma.moved.write \
		-e rpcrdma.rebuilt.xid -e rpcrdma.rebuilt.source -e rpcrdma.rebuilt \
		-Y 'rpcrdma.xid || rpcrdma.rebuilt' 2>/dev/null >"$work/ts2.fields"
	same "$name: a second pass shows the first pass's analysis" \
		"$work/ts.fields" "$work/ts2.fields"
	same "$name: every message, field by field as rpcrdma-dump -j has it" \
		"$work/msg.dump" "$work/msg.ts"
	# the per-packet lists below, from one run: frame, each chunk segment
	# (handle length offset), each chunk served (xid kind op handle offset
	# bytes), Send With Invalidate's STag, CM REJ reason, first frame of a
	# resent call, RC retransmission (PSN, the frame it repeats)
	tsf -r "$capture" -T fields -E occurrence=a -E aggregator=, -e frame.number \
		-e rpcrdma.segment.handle -e rpcrdma.segment.length -e rpcrdma.segment.offset \
		-e rpcrdma.chunk.xid -e rpcrdma.chunk.kind -e rpcrdma.chunk.op \
		-e rpcrdma.chunk.handle -e rpcrdma.chunk.offset -e rpcrdma.chunk.bytes \
		-e rpcrdma.invalidated_stag -e rpcrdma.cm_reject_reason -e rpcrdma.resent_of \
		-e rpcrdma.retransmission_psn -e rpcrdma.retransmission_of \
		-Y 'rpcrdma.segment || rpcrdma.chunk || rpcrdma.invalidated_stag ||
		    rpcrdma.cm_reject_reason || rpcrdma.resent_of || rpcrdma.retransmission_psn' \
		2>/dev/null >"$work/ts.lists"
	# every segment of every chunk list (read list, write list, reply
	# chunk, in header order): handle length offset, frame by frame, a
	# SEND's RC retransmission's too (its header shown again)
	# offsets through the same double on both sides: jq reads numbers as
	# doubles, and Linux's FRWR offsets carry the xid in their top bits
	jq -rs '[.[] | select(.type == "message" or (.type == "retransmission" and .xid != null))] |
		group_by(.frame)[] | . as $m |
		[$m[] | (.reads[], .writes[][], (.reply // [])[]) | "\(.handle)/\(.length)/\(.offset)"] |
		select(length > 0) | "\($m[0].frame) \(join(","))"' "$work/dump.json" |
		awk '{ n = split($2, s, ","); printf "%d ", $1
			for (i = 1; i <= n; i++) { split(s[i], f, "/")
				printf "%s%.0f/%d/%.0f", (i > 1 ? "," : ""), f[1], f[2], f[3] }
			print "" }' | sort -n >"$work/seg.dump"
	awk -F'\t' '$2 != "" { n = split($2, h, ","); split($3, l, ","); split($4, o, ",")
			printf "%d ", $1
			for (i = 1; i <= n; i++) printf "%s%.0f/%d/%.0f", (i > 1 ? "," : ""), h[i], l[i], o[i]
			print "" }' "$work/ts.lists" | sort -n >"$work/seg.ts"
	if [ -s "$work/seg.dump" ]; then
		same "$name: every chunk segment (handle, length, offset) as rpcrdma-dump -j" \
			"$work/seg.dump" "$work/seg.ts"
	fi
	# RPC messages rebuilt from chunk data: frame xid chunk length
	jq -r "$names"'select(.type == "rpc_message") | "\(.frame) \(.xid) \(.source | kind) \(.len)"' \
		"$work/dump.json" | sort -n >"$work/rebuilt.dump"
	awk -F'\t' '$10 != "" { printf "%d %.0f %d %d\n", $1, $10, $11, $12 }' \
		"$work/ts.fields" | sort -n >"$work/rebuilt.ts"
	if [ -s "$work/rebuilt.dump" ]; then
		same "$name: RPC messages rebuilt from chunks as rpcrdma-dump -j" \
			"$work/rebuilt.dump" "$work/rebuilt.ts"
	fi
	# the chunk of each RDMA Read or Write packet: frame xid chunk op bytes
	jq -r "$names"'select(.type == "chunk_data") | "\(.frame) \(.xid) \(.chunk | kind) \(.op | op) \(.handle) \(.offset) \(.len)"' \
		"$work/dump.json" | sort -n >"$work/chunks.dump"
	awk -F'\t' '$5 != "" { n = split($5, x, ","); split($6, k, ","); split($7, o, ",")
			split($8, h, ","); split($9, f, ","); split($10, b, ",")
			for (i = 1; i <= n; i++) printf "%d %.0f %d %d %.0f %.0f %d\n", $1, x[i], k[i], o[i], h[i], f[i], b[i] }' \
		"$work/ts.lists" | sort -n >"$work/chunks.ts"
	if [ -s "$work/chunks.dump" ]; then
		same "$name: the chunk each RDMA packet serves, as rpcrdma-dump -j -a" \
			"$work/chunks.dump" "$work/chunks.ts"
	fi
	# the STag each Send With Invalidate invalidated (RFC 8797 §4.1)
	jq -r 'select(.type == "message" and .invalidated_stag != null) | "\(.frame) \(.invalidated_stag)"' \
		"$work/dump.json" | sort -n >"$work/inv.dump"
	awk -F'\t' '$11 != "" { n = split($11, v, ","); for (i = 1; i <= n; i++) print $1, v[i] }' \
		"$work/ts.lists" | sort -n >"$work/inv.ts"
	if [ -s "$work/inv.dump" ]; then
		same "$name: the STag of each Send With Invalidate, as rpcrdma-dump -j" \
			"$work/inv.dump" "$work/inv.ts"
	fi
	# connections refused: each IB CM REJ with its reason named
	jq -r 'select(.type == "cm" and .reject_reason != null) | "\(.frame) \(.reject_reason)"' \
		"$work/dump.json" | sort -n >"$work/rej.dump"
	awk -F'\t' '$12 != "" { print $1, $12 }' "$work/ts.lists" | sort -n >"$work/rej.ts"
	if [ -s "$work/rej.dump" ]; then
		same "$name: CM REJ reasons, as rpcrdma-dump -j" "$work/rej.dump" "$work/rej.ts"
		check "$name: CM REJ reason named in the Info column" \
			eval "ts -r '$capture' -Y rpcrdma.cm_reject_reason 2>/dev/null | grep -q 'rejected: invalid service ID'"
	fi
	# calls resent after a reconnect, each naming the frame of the first
	jq -r 'select(.type == "message" and .resent_of != null) | "\(.frame) \(.resent_of)"' \
		"$work/dump.json" | sort -n >"$work/resent.dump"
	awk -F'\t' '$13 != "" { print $1, $13 }' "$work/ts.lists" | sort -n >"$work/resent.ts"
	if [ -s "$work/resent.dump" ]; then
		same "$name: calls resent after a reconnect and their first frames, as rpcrdma-dump -j" \
			"$work/resent.dump" "$work/resent.ts"
	fi
	# RC retransmissions: each a line of rpcrdma-dump -j, each the frame
	# it repeats (IBA vol. 1 §9.7.5.1.2)
	jq -r 'select(.type == "retransmission") | "\(.frame) \(.original_frame)"' \
		"$work/dump.json" | sort -n >"$work/retx.dump"
	awk -F'\t' '$14 != "" { print $1, ($15 == "" ? "null" : $15) }' "$work/ts.lists" |
		sort -n >"$work/retx.ts"
	if [ -s "$work/retx.dump" ]; then
		same "$name: RC retransmissions and the frames they repeat, as rpcrdma-dump -j" \
			"$work/retx.dump" "$work/retx.ts"
	fi
	# each RPC message once, in one pass: the inline ones that are whole
	# (not reduced by read chunks past position zero or by data a reply
	# wrote to its write chunks, RFC 8166 §3.5) and the rebuilt ones, and
	# again where an RC retransmission of a SEND ONLY carries it (as
	# Wireshark's RPC dissector shows a duplicate); clean captures give no
	# malformed packet
	want=$(jq -rs '[.[] | select((.type == "message" or
				      (.type == "retransmission" and (.opcode | startswith("RC SEND ONLY")))) and
				     .rpc != null) |
		select(((.reads | length) > 0 and all(.reads[]; .position != 0)) or
		       ((.dir | endswith("reply")) and any(.writes[][]; .length > 0)) | not)] | length' "$work/dump.json")
	want=$((want + $(jq -r 'select(.type == "rpc_message") | .frame' "$work/dump.json" | grep -c .)))
	# a reply whose written data never all arrived (a Write its
	# receiver refused) is rebuilt by neither: Wireshark shows it as sent
	want=$((want + $(jq -rs '[.[] | select(.type == "rpc_message") | "\(.conn) \(.xid) \(.dir)"] as $rebuilt |
		[.[] | select(.type == "message" and .rpc != null and (.dir | endswith("reply")) and
			any(.writes[][]; .length > 0)) |
		 select(("\(.conn) \(.xid) \(.dir)") as $k | $rebuilt | index([$k]) | not)] | length' "$work/dump.json")))
	# (RPC over RDMA only: the lab's captures also hold the MOUNT and
	# portmap calls that go over plain TCP and UDP)
	got=$(ts -r "$capture" -Y 'rpcrdma || infiniband || iwarp_ddp_rdmap' \
		-T fields -e rpc.xid -E occurrence=a -E aggregator=, 2>/dev/null |
		tr ',' '\n' | grep -c .)
	check "$name: each RPC message once, in one pass ($got, rpcrdma-dump $want)" test "$got" -eq "$want"
	case $name in *fault*) ;; *)
		check "$name: no malformed packet in one pass" \
			eval "test \"\$(ts -r '$capture' -Y _ws.malformed 2>/dev/null | grep -c .)\" -eq 0" ;;
	esac
	# findings (end-of-capture ones too, hence two passes)
	"$dump" --findings -r "$capture" 2>/dev/null |
		sed -n 's/.*! [a-z_.]* ([a-z]*): //p' | sort | uniq -c |
		awk '{ n = $1; $1 = ""; print n "\t" substr($0, 2) }' >"$work/find.dump"
	# and one expert item per RC retransmission
	retx=$(jq -s '[.[] | select(.type == "retransmission")] | length' "$work/dump.json")
	if [ "$retx" -gt 0 ]; then
		printf '%s\tRC request packet retransmitted\n' "$retx" >>"$work/find.dump"
	fi
	# and one per problem of the diagnosis whose events' frames are kept,
	# at the first of them (a second look: the file read whole)
	"$dump" -q --stats=json -r "$capture" 2>/dev/null >"$work/stats.json"
	jq -r '.diagnosis[] | select(.first_frame != null) |
		"1\t\(.severity) \(.problem): \(.evidence); frames \(.first_frame) to \(.last_frame) on conn \(.worst_conn) [\(.reference)]"' \
		"$work/stats.json" >>"$work/find.dump"
	sort -o "$work/find.dump" "$work/find.dump"
	# the taps, from one two-pass run: expert items, the plugin's
	# statistics, the RPC programs' answered calls
	ts -2 -r "$capture" -q -z expert,note -z rpcrdma,stat -z rpc,programs \
		2>/dev/null >"$work/taps"
	awk '$3 == "RPCRDMA" { n = $1; $1 = $2 = $3 = ""; sub(/^ +/, ""); print n "\t" $0 }' "$work/taps" |
		sort >"$work/find.ts"
	if [ -s "$work/find.dump" ]; then
		same "$name: tshark -z expert lists rpcrdma-dump's findings" \
			"$work/find.dump" "$work/find.ts"
	else
		check "$name: no finding, no rpcrdma expert item" test ! -s "$work/find.ts"
	fi
	graded_as_diagnosed "$name" "$work/stats.json" "$work/taps"
	for problem in $(jq -r '.diagnosis[] | select(.first_frame != null) | .problem' "$work/stats.json"); do
		want=$(jq --arg p "$problem" '.diagnosis[] | select(.problem == $p) | .first_frame' "$work/stats.json")
		got=$(ts -2 -r "$capture" -Y "rpcrdma.diagnosis.$problem" -T fields -e frame.number 2>/dev/null | paste -sd, -)
		check "$name: the expert item rpcrdma.diagnosis.$problem in frame $want, the first of its events" \
			test "$got" = "$want"
	done
	# statistics
	jq -r '
		(.connections[] | . as $c | "conn \(.conn) calls \(.calls)",
		 "conn \(.conn) replies \(.replies)", "conn \(.conn) unanswered \(.unanswered)",
		 (if .credits.granted != null then
			"conn \(.conn) credits granted \(.credits.granted)" else empty end),
		 "conn \(.conn) calls in flight max \(.credits.in_flight_max)",
		 (if .credits.backward_granted != null then
			"conn \(.conn) backward credits granted \(.credits.backward_granted)" else empty end),
		 (.chunks | to_entries[] | "conn \($c.conn) chunks \(.key) \(.value)"),
		 "conn \(.conn) bytes send \(.bytes.send)",
		 "conn \(.conn) bytes RDMA read \(.bytes.rdma_read)",
		 "conn \(.conn) bytes RDMA write \(.bytes.rdma_write)",
		 "conn \(.conn) findings \(.findings)"),
		(.procedures[] | "\(.program) v\(.version) \(.procedure) \(.calls)"),
		((.nfs4_operations // {}) | to_entries[] | "NFS v4 COMPOUND \(.key) \(.value)"),
		((.nfs_errors // [])[] | "NFS errors \(.operation // .procedure) \(.status) \(.count)"),
		(.procedures[] | . as $p | (.replies // {}) | to_entries[] | select(.key != "SUCCESS") |
		 "\($p.program) v\($p.version) \($p.procedure) replies \(.key) \(.value)"),
		((.cm_rejects // {}) | to_entries[] | select(.value > 0) | "CM REJ \(.key) \(.value)"),
		((.clients // [])[] | "client \(.address // "other") calls \(.calls)",
		 "client \(.address // "other") answered \(.replies)",
		 "client \(.address // "other") errors \(.errors)",
		 "client \(.address // "other") bytes RDMA write \(.bytes.rdma_write)"),
		((.busiest_files // [])[] | "fh \(.fh_hash) calls \(.calls)"),
		(.findings | to_entries[] | select(.value > 0) | "\(.key) \(.value)"),
		(.diagnosis[] | "diagnosis \(.problem) \(.severity) \(.events)"),
		"frames \(.frames.total)", "frames truncated \(.frames.truncated)",
		"frames malformed \(.frames.malformed)", "IB PSN gaps \(.frames.ib_psn_gaps)",
		"IB retransmissions \(.frames.ib_retransmissions)",
		"iWARP stream gaps \(.frames.iwarp_stream_gaps)",
		"frames dropped \(.frames.dropped)", "TCP resets (iWARP) \(.tcp_resets)",
		"TCP connections refused on other ports \(.tcp_refused_other)",
		"RDMA connections of other upper layers \(.other_upper_layer.connections)",
		"reconnects \(.reconnects)", "calls resent after a reconnect \(.calls_resent)",
		"connections evicted \(.evicted.connections)", "calls evicted \(.evicted.calls)",
		"reassembly slots exhausted \(.evicted.reassembly)"' "$work/stats.json" |
		perl -pe 's/^fh (\d+)/sprintf("fh 0x%08x", $1)/e' | sort >"$work/stat.dump"
	awk -F'|' 'NF >= 3 { gsub(/^ +| +$/, "", $1); gsub(/ /, "", $2); print $1 " " $2 }' \
		"$work/taps" | sort >"$work/stat.all"
	grep -Fxf "$work/stat.dump" "$work/stat.all" >"$work/stat.ts"
	same "$name: tshark -z rpcrdma,stat has rpcrdma-dump --stats' numbers" \
		"$work/stat.dump" "$work/stat.ts"
	# NFS replies matched to their calls: -z rpc,programs counts, per
	# program and version, the calls whose RPC reply it saw (inline or
	# rebuilt from chunks; forward, or backward as RFC 8167's callbacks)
	# and accepted with SUCCESS: Wireshark's rpc tap takes no other (the
	# lab's SETACL GARBAGE_ARGS and GETACL SYSTEM_ERR answers)
	# (a reply an RC retransmission carries again counts again, as
	# Wireshark's tap counts a duplicate)
	{
		jq -rs '. as $doc | [.[] | select(.type == "message" or .type == "rpc_message")] as $all |
			[$all[] | select(.rpc.msg_type == "CALL") |
			 {key: "\(.conn) \(.xid)", value: "\(.rpc.prog_name) \(.rpc.vers)"}] | from_entries as $calls |
			[$doc[] | select(.type == "retransmission" and .rpc.msg_type == "REPLY" and
				       .rpc.accept_stat == "SUCCESS" and (.opcode | startswith("RC SEND ONLY")))] as $again |
			([$all[] | select(.rpc.msg_type == "REPLY" and .rpc.accept_stat == "SUCCESS")] |
			 unique_by("\(.conn) \(.xid)")) + $again |
			map($calls["\(.conn) \(.xid)"] | select(. != null and startswith("NFS"))) |
			group_by(.)[] | "\(.[0]) \(length)"' "$work/dump.json"
	} | sort >"$work/rpc.dump"
	# (RPC over RDMA only: the tap also counts what went over plain TCP,
	# as nfsd's callbacks to an NFSv4.0 mount, whose callback netid is
	# tcp; those replies are taken off its counts)
	ts -r "$capture" -Y 'rpc.msgtyp == 1 && rpc.replystat == 0 && rpc.state_accept == 0 &&
			      !(rpcrdma || infiniband || iwarp_ddp_rdmap)' \
		-T fields -E occurrence=f -e rpc.program -e rpc.programversion 2>/dev/null >"$work/rpc.tcp"
	awk 'FILENAME == ARGV[1] { tcp[$1 " " $2]++; next }
	     $1 ~ /^NFS\(100003\)$/ { p = 100003; name = "NFS"; v = $2; n = $3 }
	     $1 ~ /^NFSACL\(100227\)$/ { p = 100227; name = "NFS_ACL"; v = $2; n = $3 }
	     $1 == "NFS" && $2 == "CB(1073741824)" { p = 1073741824; name = "NFS4_CB"; v = $3; n = $4 }
	     p { n -= tcp[p " " v]; if (n > 0) print name " " v " " n; p = 0 }' \
		"$work/rpc.tcp" "$work/taps" | sort >"$work/rpc.ts"
	if [ -s "$work/rpc.dump" ]; then
		same "$name: tshark -z rpc,programs counts the answered NFS calls" \
			"$work/rpc.dump" "$work/rpc.ts"
	fi
done

# A REJ the capture cut before its reason: said so, no reason 0 shown
linux_nfs3=$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap
if [ -f "$linux_nfs3" ] && mine; then
	editcap -s 90 "$linux_nfs3" "$work/cm-cut.pcap" >/dev/null 2>&1
	ts -r "$work/cm-cut.pcap" 2>/dev/null | grep 'ConnectReject\|CM_REJ\|rejected' >"$work/rej-cut.txt"
	check "a CM REJ cut before its reason: '[rejected: reason not captured]', no reason named ($(grep -c 'reason not captured' "$work/rej-cut.txt") frames)" \
		eval "grep -q 'reason not captured' '$work/rej-cut.txt' && ! grep -qi 'unknown reason\|Unknown (0)' '$work/rej-cut.txt' &&
		      test -z \"\$(ts -r '$work/cm-cut.pcap' -Y rpcrdma.cm_reject_reason 2>/dev/null)\""
fi

# Every NFS call and reply Wireshark's built-in RPC-over-RDMA dissector
# shows (xid and message type), the plugin shows too: NFSv4 READ replies
# whose data came by a write chunk included, on the lab's captures of
# Linux (soft-iWARP's too)
mkdir -p "$work/nohome"
chmod a+rx "$work/nohome"
builtin_ts() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			env HOME="$work/nohome" tshark "$@"
	else
		HOME="$work/nohome" tshark "$@"
	fi
}
# frame, first rpc.xid and rpc.msgtyp, and whether the frame holds
# RPC-over-RDMA (the built-in's rpcordma.xid or the plugin's rpcrdma.xid)
# and NFS, from one run of the given tshark
frame_fields() { # the RPC-over-RDMA field, tshark and its options
	local field=$1
	shift
	"$@" -T fields -E occurrence=f -e frame.number -e rpc.xid -e rpc.msgtyp \
		-e "$field" -e nfs 2>/dev/null
}
nfs_messages() { # from frame_fields: the xid and type of each NFS frame
	awk -F'\t' '$5 != "" { print $2 "\t" $3 }' "$1" | sort -u
}
# the lab's storm (10 % loss on Linux's real link): its problems graded
# above their lists' severities where the capture shows it (over Soft-RoCE
# packet_loss an error, reconnects a warning), each expert item so too
for capture in "$src"/tests/linux/*-faults/client/fault-storm.pcap; do
	[ -f "$capture" ] && [ -z "${PLUGIN_CAPTURES:-}" ] || continue
	mine || continue
	name=$(basename "$(dirname "$(dirname "$capture")")")-storm
	"$dump" -q --stats=json -r "$capture" 2>/dev/null >"$work/stats.json"
	ts -2 -r "$capture" -q -z expert,note 2>/dev/null >"$work/taps"
	graded_as_diagnosed "$name" "$work/stats.json" "$work/taps"
done
for capture in ${PLUGIN_CAPTURES:-"$src"/tests/linux/*/client/capture.pcap}; do
	mine || continue
	name=$(basename "$(dirname "$(dirname "$capture")")")
	frame_fields rpcordma.xid builtin_ts -r "$capture" >"$work/fields.builtin"
	frame_fields rpcrdma.xid ts -2 -r "$capture" >"$work/fields.plugin"
	nfs_messages "$work/fields.builtin" >"$work/nfs.builtin"
	nfs_messages "$work/fields.plugin" >"$work/nfs.plugin"
	comm -12 "$work/nfs.builtin" "$work/nfs.plugin" >"$work/nfs.both"
	same "$name: every NFS call and reply the built-in dissector shows, the plugin shows" \
		"$work/nfs.builtin" "$work/nfs.both"
	# frame by frame: an RC retransmission's header and RPC message too
	for field in 4:rpcordma.xid:rpcrdma.xid 5:nfs:nfs; do
		column=${field%%:*}
		field=${field#*:}
		awk -F'\t' -v c="$column" '$c != "" { print $1 }' "$work/fields.builtin" |
			sort >"$work/frames.builtin"
		awk -F'\t' -v c="$column" '$c != "" { print $1 }' "$work/fields.plugin" |
			sort >"$work/frames.plugin"
		comm -12 "$work/frames.builtin" "$work/frames.plugin" >"$work/frames.both"
		same "$name: every frame the built-in dissector shows ${field%%:*} in, the plugin shows ${field##*:} in" \
			"$work/frames.builtin" "$work/frames.both"
	done
	# Wireshark's own response times of RPC-over-RDMA measure from the
	# call's SEND, as rpcrdma-dump does: a WRITE's too, whose call the
	# plugin hands on only once its read chunk was read.  An RC
	# retransmission of a reply is an RPC duplicate to Wireshark, timed
	# and counted again as over TCP; rpcrdma-dump counts it once.
	rdma_only='rpcrdma && !rpcrdma.retransmission_psn'
	"$dump" -j -r "$capture" 2>/dev/null |
		jq -r 'select(.type == "message" and .completed) | "\(.frame) \(.completed.latency_ns)"' |
		sort >"$work/latency.dump"
	ts -r "$capture" -Y "rpc.time && $rdma_only" -T fields -E occurrence=a -E aggregator=' ' \
		-e frame.number -e rpc.time 2>/dev/null |
		perl -ane '$f = shift @F; printf "%s %d\n", $f, $1 * 1e9 + $2 while ($_ = shift @F) && /^(\d+)\.(\d{9})$/' |
		sort >"$work/latency.ts"
	same "$name: rpc.time of every reply is rpcrdma-dump's latency of its call" \
		"$work/latency.dump" "$work/latency.ts"
	read_calls=$("$dump" -j -r "$capture" 2>/dev/null |
		jq -s '[.[] | select(.type == "rpc_message" and .dir == "call" and .source == "read")] | length')
	# -z rpc,srt: calls and total time of each NFS procedure (the
	# captures' time stamps are whole microseconds, as tshark prints)
	# (the NFS version most of the capture's replies answer)
	vers=$("$dump" -j -r "$capture" 2>/dev/null |
		jq -r 'select(.type == "message" and .dir == "reply" and .completed.prog == 100003) | .completed.vers' |
		sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
	"$dump" -j -r "$capture" 2>/dev/null |
		jq -r --argjson v "$vers" 'select(.type == "message" and .dir == "reply" and .completed.prog == 100003 and .completed.vers == $v)
			| .completed | "\(.proc) \(.latency_ns)"' |
		awk '{ n[$1]++; s[$1] += $2 } END { for (p in n) printf "%d %d %d.%06d\n", p, n[p], int(s[p] / 1e9), int((s[p] % 1e9) / 1e3) }' |
		sort -n >"$work/srt.dump"
	ts -q -r "$capture" -z "rpc,srt,100003,$vers,$rdma_only" 2>/dev/null |
		awk '$1 ~ /^[0-9]+$/ && NF == 7 && $3 > 0 { print $1, $3, $7 }' | sort -n >"$work/srt.ts"
	same "$name: -z rpc,srt,100003,$vers counts each procedure's calls and time as rpcrdma-dump ($read_calls calls rebuilt from read chunks)" \
		"$work/srt.dump" "$work/srt.ts"
	case $name in *nfs41*)
		check "$name: NFSv4 READ replies with their data ($(grep -c . "$work/nfs.plugin") NFS messages)" \
			eval "test \"\$(ts -2 -r '$capture' -Y 'rpc.msgtyp == 1 && nfs.opcode == 25' 2>/dev/null | grep -c .)\" = \
			      \"\$(ts -2 -r '$capture' -Y 'rpc.msgtyp == 0 && nfs.opcode == 25' 2>/dev/null | grep -c .)\""
		# not rebuilt (the analysis off): each reply whose data went by
		# RDMA Write is dissected as far as its SEND carries it, marked so
		written=$("$dump" -j -r "$capture" 2>/dev/null |
			jq -s '[.[] | select(.type == "message" and .dir == "reply" and any(.writes[][]; .length > 0))] | length')
		check "$name: without the analysis, the $written replies with write chunk data shown in part, marked" \
			eval "test \"\$(ts -2 -o rpcrdma.analyze:FALSE -r '$capture' \
				-Y 'rpc.msgtyp == 1 && nfs && rpcrdma.fragment' 2>/dev/null | grep -c .)\" = '$written' && test '$written' -gt 0"
	esac
done

# RFC 8797 private data in every CM REQ/REP and MPA Request/Reply frame:
# the same version, R bit and sizes as rpcrdma-dump reads, frame by frame
if mine; then
cm_bad=0
cm_frames=0
for capture in "$src"/samples/*.pcap; do
	"$dump" -j -r "$capture" 2>/dev/null |
		jq -r 'select(.type == "cm" or .type == "mpa") | select(.private_data.status == "complete")
			| "\(.frame) \(.private_data.version) \(.private_data.rinval) \(.private_data.send_size) \(.private_data.recv_size)"' |
		sed 's/ true / 1 /; s/ false / 0 /' >"$work/cm.dump"
	tsf -r "$capture" -Y rpcrdma.cm -T fields -e frame.number -e rpcrdma.cm.version \
		-e rpcrdma.cm.rinval -e rpcrdma.cm.send_size -e rpcrdma.cm.recv_size \
		2>/dev/null | tr '\t' ' ' | sed 's/ True / 1 /; s/ False / 0 /' >"$work/cm.ts"
	cm_frames=$((cm_frames + $(wc -l <"$work/cm.dump")))
	cmp -s "$work/cm.dump" "$work/cm.ts" || {
		echo "# $(basename "$capture"): private data differs"
		diff "$work/cm.dump" "$work/cm.ts" | head -4 | sed 's/^/#   /'
		cm_bad=$((cm_bad + 1))
	}
done
check "RFC 8797 private data: $cm_frames CM and MPA frames, as rpcrdma-dump reads them" \
	eval "test $cm_bad -eq 0 && test $cm_frames -gt 0"
check "RFC 8797 private data in MPA frames is among them" \
	eval "ts -r '$src/samples/iwarp-mixed.pcap' -Y 'rpcrdma.cm && iwarp_mpa' 2>/dev/null | grep -q MPA"
fi

# a capture that starts after the connection setup (the CM exchange, or
# TCP's and MPA's, where Wireshark's own MPA dissector then sees only TCP):
# the analyzer links the two directions from the traffic, and replies find
# their calls
for cut in rocev2-mixed:1-3 iwarp-mixed:1-7; do
	mine || continue
	capture=${cut%%:*}
	editcap "$src/samples/$capture.pcap" "$work/midway.pcap" "${cut#*:}" 2>/dev/null
	chmod a+r "$work/midway.pcap"
	want=$("$dump" -j -r "$work/midway.pcap" 2>/dev/null |
		jq -r 'select(.type == "message" and .completed) | .frame' | grep -c .)
	got=$(ts -r "$work/midway.pcap" -Y rpcrdma.call_in 2>/dev/null | grep -c .)
	check "$capture without its setup frames: $got replies linked to their calls, as rpcrdma-dump ($want)" \
		eval "test '$want' -gt 0 && test '$got' -eq '$want'"
	got_nfs=$(ts -r "$work/midway.pcap" -Y 'nfs && rpc.msgtyp == 1 && rpc.repframe' 2>/dev/null | grep -c .)
	check "... and NFS replies decode against their calls ($got_nfs)" test "$got_nfs" -gt 0
	# what the setup said is unknown, not RFC 8166's defaults
	unknown=$(ts -r "$work/midway.pcap" -Y rpcrdma.threshold.unknown 2>/dev/null | grep -c .)
	shown=$(ts -r "$work/midway.pcap" -Y 'rpcrdma.threshold.call || rpcrdma.threshold.rinval' \
		2>/dev/null | grep -c .)
	check "... and its messages say the thresholds are unknown ($unknown), never show them ($shown)" \
		eval "test '$unknown' -gt 0 && test '$shown' -eq 0"
	messages=$(ts -r "$work/midway.pcap" -Y rpcrdma.dir 2>/dev/null | grep -c .)
	granted=$(ts -r "$work/midway.pcap" -Y rpcrdma.credits.granted 2>/dev/null | grep -c .)
	check "... and the grant is shown from the first reply on only ($granted of $messages messages)" \
		eval "test '$granted' -gt 0 && test '$granted' -lt '$messages'"
done

# preferences (Edit > Preferences > Protocols > RPCRDMA; tshark -o)
if mine; then
for pref in analyze roce_udp_port iwarp_tcp_port rebuilt_memory builtin_heuristics_off; do
	check "preference rpcrdma.$pref is offered" \
		eval "ts -G defaultprefs 2>/dev/null | grep -q '^#rpcrdma\\.$pref: '"
done
linux_rxe=$(ls "$src"/tests/linux/*-rxe-nfs3/client/capture.pcap | head -n 1)
# the built-in's heuristics are off while the plugin is loaded: with ours
# disabled too nothing is rpcordma, and with the preference cleared the
# built-in decodes the same traffic again
got=$(ts -r "$linux_rxe" --disable-heuristic rpcrdma_tools_infiniband -Y rpcordma 2>/dev/null | grep -c .)
check "the built-in rpcordma heuristics are off by default ($got rpcordma frames)" test "$got" -eq 0
got=$(ts -r "$linux_rxe" -o rpcrdma.builtin_heuristics_off:FALSE \
	--disable-heuristic rpcrdma_tools_infiniband -Y rpcordma 2>/dev/null | grep -c .)
check "... and back on with rpcrdma.builtin_heuristics_off:FALSE ($got rpcordma frames)" test "$got" -gt 0
# analysis off: every header still decoded, nothing of the analyzer
headers=$(ts -r "$src/samples/rocev2-mixed.pcap" -o rpcrdma.analyze:FALSE -Y rpcrdma.xid 2>/dev/null | grep -c .)
analysed=$(ts -r "$src/samples/rocev2-mixed.pcap" -o rpcrdma.analyze:FALSE -Y 'rpcrdma.dir || rpcrdma.chunk || rpcrdma.rebuilt' 2>/dev/null | grep -c .)
check "rpcrdma.analyze:FALSE: $headers headers decoded, $analysed analysed" \
	eval "test $headers -gt 0 && test $analysed -eq 0"
# the analyzer's RoCEv2 port: moved away from 4791, Wireshark's IB
# dissector still hands payloads over (headers) but the analyzer sees none
headers=$(ts -r "$src/samples/rocev2-mixed.pcap" -o rpcrdma.roce_udp_port:4792 -Y rpcrdma.xid 2>/dev/null | grep -c .)
analysed=$(ts -r "$src/samples/rocev2-mixed.pcap" -o rpcrdma.roce_udp_port:4792 -Y rpcrdma.dir 2>/dev/null | grep -c .)
check "rpcrdma.roce_udp_port:4792: $headers headers decoded, $analysed analysed on 4791" \
	eval "test $headers -gt 0 && test $analysed -eq 0"
# the memory for rebuilt messages: none kept, a second look cannot show them
got=$(ts -2 -r "$src/samples/rocev2-mixed.pcap" -o rpcrdma.rebuilt_memory:0 -V 2>/dev/null |
	grep -c 'not kept for a second look')
check "rpcrdma.rebuilt_memory:0: a second look says the rebuilt messages were not kept ($got)" \
	test "$got" -gt 0
fi

for capture in "$src"/tests/captures/*.pcap*; do
	mine || continue
	[ -f "$capture" ] || continue
	got=$(ts -r "$capture" -Y rpcrdma 2>/dev/null | wc -l)
	check "$(basename "$capture"): no rpcrdma packet in another upper layer's traffic" \
		test "$got" -eq 0
done

# randomly corrupted captures: no crash, no dissector bug.  tshark reads
# them FUZZ_BATCH (10) to a run, one after the other (mergecap -a), as its
# start costs more than its reading; a run that fails is read again a
# capture at a time, to name the one that breaks it.
mkdir -p "$work/fuzz"
chmod 777 "$work/fuzz"
samples=("$src"/samples/*.pcap)
fuzz_batch=${FUZZ_BATCH:-10}
fuzz_make() { # run number: its corrupted capture
	local in=${samples[$(($1 % ${#samples[@]}))]} cut=()
	# every third capture also cut to 96 bytes a frame
	[ $(($1 % 3)) -eq 0 ] && cut=(-s 96)
	editcap -E 0.02 "${cut[@]}" "$in" "$work/fuzz/$1.pcap" 2>"$work/fuzz/$1.err" && return 0
	echo "# corrupted capture $1: editcap failed: $(head -1 "$work/fuzz/$1.err")"
	return 1
}
fuzz_read() { # what it is, capture: tshark -V survives it
	local rc
	chmod a+r "$2"
	ts -r "$2" -V >"$2.out" 2>"$2.err"
	rc=$?
	if [ $rc -ge 128 ] || grep -qi 'dissector bug' "$2.out" ||
	   grep -qi 'dissector bug\|assertion\|critical' "$2.err"; then
		echo "# $1: status $rc, kept as $2"
		head -3 "$2.err" | sed 's/^/#   /'
		return 1
	fi
	rm -f "$2.out" "$2.err"
}
fuzz_batch_read() { # worker, run numbers: failures
	local worker=$1 run bad=0 joined=true merged=$work/fuzz/from-$2.pcapng files=()
	shift
	for run; do files+=("$work/fuzz/$run.pcap"); done
	if mergecap -a -w "$merged" "${files[@]}" 2>"$merged.err"; then
		if fuzz_read "corrupted captures $*, read together" "$merged"; then
			rm -f "$merged" "$merged.err" "${files[@]}"
			printf '%s\n' "$@" >>"$work/fuzz/ran.$worker"
			return 0
		fi
	else
		joined=false
	fi
	for run; do
		fuzz_read "corrupted capture $run (from $(basename "${samples[$((run % ${#samples[@]}))]}"))" \
			"$work/fuzz/$run.pcap" || bad=$((bad + 1))
		echo "$run" >>"$work/fuzz/ran.$worker"
	done
	if [ $bad -eq 0 ] && $joined; then
		echo "# corrupted captures $* fail only when read together"
		bad=1
	fi
	return $bad
}
fuzz_worker() { # first run: every (2 x parts)-th run from it
	local run fails=0 batch=()
	for ((run = $1; run <= corrupted_runs; run += 2 * parts)); do
		if fuzz_make "$run"; then
			batch+=("$run")
		else
			fails=$((fails + 1))
		fi
		if [ ${#batch[@]} -ge "$fuzz_batch" ] ||
		   { [ $((run + 2 * parts)) -gt "$corrupted_runs" ] && [ ${#batch[@]} -gt 0 ]; }; then
			fuzz_batch_read "$1" "${batch[@]}" || fails=$((fails + $?))
			batch=()
		fi
	done
	echo "$fails" >"$work/fuzz/failed.$1"
}
# this part's runs: from the part's index, every parts-th, in two workers
fuzz_worker "$part_index" &
fuzz_worker $((part_index + parts)) &
wait
fuzz_failed=$(($(cat "$work/fuzz/failed.$part_index") + $(cat "$work/fuzz/failed.$((part_index + parts))")))
fuzz_ran=$(cat "$work/fuzz"/ran.* 2>/dev/null | grep -c .)
fuzz_asked=$(( corrupted_runs >= part_index ? (corrupted_runs - part_index) / parts + 1 : 0 ))
check "tshark with the plugin survives $fuzz_ran randomly corrupted captures (editcap -E 0.02, read $fuzz_batch to a tshark run; this part's $fuzz_asked of $corrupted_runs)" \
	eval "test $fuzz_failed -eq 0 && test $fuzz_ran -eq $fuzz_asked"
tap_end
