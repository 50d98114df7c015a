# Checks of the lab, one line each, as TAP: "ok N - what" or "not ok N - what".
# shellcheck shell=sh disable=SC2154
# (SC2154: lab, work, port, server_pid and t are set by lab/run, which sources this)
# The results of a whole lab/run accumulate in $LAB_RESULTS.
: "${LAB_RESULTS:=$(mktemp "${TMPDIR:-/tmp}/lab-results.XXXXXX")}"
export LAB_RESULTS
. "$lab/../tests/ports.sh"

check_line() { # STATUS WHAT [DETAIL]
	n=$(( $(wc -l <"$LAB_RESULTS") + 1 ))
	echo "$1" >>"$LAB_RESULTS"
	if [ "$1" = ok ]; then echo "ok $n - $2"
	else echo "not ok $n - $2${3:+: $3}"; fi
}
check_fail() { check_line fail "$1" "${2:-}"; }
check_ok() { check_line ok "$1"; }
# check_eq WHAT EXPECTED ACTUAL
check_eq() {
	if [ -n "$3" ] && [ "$2" = "$3" ]; then check_line ok "$1 ($3)"
	else check_line fail "$1" "expected '$2', got '$3'"; fi
}
# check_ge WHAT MINIMUM ACTUAL
check_ge() {
	if [ -n "$3" ] && [ "$3" -ge "$2" ] 2>/dev/null; then check_line ok "$1 ($3)"
	else check_line fail "$1" "expected at least $2, got '$3'"; fi
}
# check_counted WHAT TRUTH COUNT MISSED: a count the kernel's events add up
# to, against the truth, where the kernel said it skipped MISSED events
# (events_missed: a BPF program does not run while another runs on that
# CPU): equal when none was skipped, else short by no more than that.
check_counted() {
	if [ "${4:-0}" -eq 0 ]; then check_eq "$1" "$2" "$3"; return; fi
	if [ -n "$3" ] && [ "$3" -le "$2" ] && [ $(($3 + $4)) -ge "$2" ] 2>/dev/null; then
		check_line ok "$1 ($3, and $4 events the kernel skipped: $2)"
	else check_line fail "$1" "expected '$2' (less at most the $4 events the kernel skipped), got '$3'"; fi
}
# check_counted_ge WHAT MINIMUM COUNT MISSED: the same for a count that
# may exceed its truth (a call marshalled again after a reconnect).
check_counted_ge() {
	check_ge "$1$([ "${4:-0}" -eq 0 ] || echo " (with the $4 events the kernel skipped)")" "$2" $(($3 + ${4:-0}))
}
# check_decoded PREFIX CAPTURE JSON: CAPTURE decoded, its statistics in
# JSON, no frame truncated or malformed.
check_decoded() {
	"$LAB_DUMP" -q --stats=json -r "$2" >"$3" 2>"$3.err" ||
		check_fail "$1: rpcrdma-dump decodes the capture" "$(cat "$3.err")"
	check_eq "$1: truncated or malformed frames" "0 0" \
		"$(sed -n 's/.* \([0-9]*\) truncated, \([0-9]*\) malformed.*/\1 \2/p' "$3.err")"
}
# check_stream_whole PREFIX JSON: tcpdump -s 0 keeps every segment, so
# the analyzer must follow every iWARP stream whole
check_stream_whole() {
	check_eq "$1: iWARP stream gaps" 0 "$(jq .frames.iwarp_stream_gaps "$2")"
}
# check_linux_findings PREFIX CAPTURE FINDINGS: Linux's server clears R in
# its private data and still answers with Send With Invalidate when the
# client set R: RFC 8797 §4.1 forbids that, but the client asked for it,
# so it is a warning (invalidate_own_r_cleared); any other finding is not
# expected.  The findings are left in FINDINGS.
check_linux_findings() {
	"$LAB_DUMP" --findings -r "$2" >"$3" 2>/dev/null
	check_eq "$1: findings other than invalidate_own_r_cleared" 0 \
		"$(grep -c -v -e invalidate_own_r_cleared -e '^$' "$3")"
}
# The client's capture decoded whole, every call answered: check_capture_clean
# PREFIX leaves its statistics in $work/stats.json.
check_capture_clean() {
	check_decoded "$1" client/capture.pcap "$work/stats.json"
	check_eq "$1: unanswered calls" 0 "$(jq .total.unanswered "$work/stats.json")"
	check_stream_whole "$1" "$work/stats.json"
	# a healthy run: the diagnosis holds nothing above a note (a busy
	# machine's virtual link may resend a little, below packet_loss's bar)
	check_eq "$1: the diagnosis: nothing above a note" none \
		"$(jq -r '[.diagnosis[] | select(.severity != "note") | "\(.problem) (\(.evidence))"] |
			if length == 0 then "none" else join("; ") end' "$work/stats.json")"
}

check_summary() {
	failed=$(grep -c fail "$LAB_RESULTS" || true)
	passed=$(grep -c '^ok' "$LAB_RESULTS" || true)
	echo "lab: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

# What a guest's workload recorded: workload_value ROLE KEY
workload_value() { awk -v k="$2" '$1 == k { print $2 }' "$1/workload" 2>/dev/null; }
# The address the client mounted (a job may mount over IPv6), and
# "ADDRESS:PORT" as debugfs and the tools write it ([ADDRESS]:PORT in IPv6).
server_ip() { v=$(workload_value client server_ip); echo "${v:-192.0.2.1}"; }
server_endpoint() {
	ip=$(server_ip)
	case $ip in *:*) echo "[$ip]:$1" ;; *) echo "$ip:$1" ;; esac
}

# The per-op counts of an NFS mount's /proc/self/mountstats, as
# "PROC transmissions" lines.
mountstats_ops() {
	awk '/per-op statistics/ { on = 1; next }
	     on && /^[ \t]*[A-Z_0-9]+:/ { sub(":", "", $1); if ($3 > 0) print $1, $3 }' "$1"
}
# The same, as "PROC ops" (RPC tasks, not transmissions).
mountstats_op_counts() {
	awk '/per-op statistics/ { on = 1; next }
	     on && /^[ \t]*[A-Z_0-9]+:/ { sub(":", "", $1); if ($2 > 0) print $1, $2 }' "$1"
}
# The same, as "PROC ops queue rtt execute errors": the sums of the three
# times in ms, and the tasks that ended on an error ("" where the kernel
# does not count them).
mountstats_op_times() {
	awk '/per-op statistics/ { on = 1; next }
	     on && /^[ \t]*[A-Z_0-9]+:/ { sub(":", "", $1); if ($2 > 0) print $1, $2, $7, $8, $9, $10 }' "$1"
}
# The numbers of the "xprt: rdma" lines, one a line, summed field by field
# over the mount's transports (nconnect makes several; a count is then the
# mount's, as the exporter sums it).
mountstats_xprt() {
	awk '$1 == "xprt:" && $2 == "rdma" { for (i = 3; i <= NF; i++) v[i] += $i; n = NF }
	     END { for (i = 3; i <= n; i++) print v[i] }' "$1"
}

# Lines read joined by commas, "none" when there are none.
list_or_none() {
	awk '{ printf "%s%s", (NR > 1 ? "," : ""), $0 } END { if (NR == 0) printf "none" }'
}

# metric_sum FILE NAME: the samples of metric NAME in a scrape, summed
# over their labels.
metric_sum() {
	awk -v m="$2" '$1 ~ "^" m "({|$)" { s += $2 } END { printf "%d", s }' "$1"
}

# check_restart JOB: nfsd restarted between two of the client's steps (a
# forced disconnect, lab/jobs/workload.sh): the client reconnected and read
# the file again; every connection it made is on the wire, each later one
# naming the one before.
check_restart() {
	rj=$1
	check_eq "$rj/$t: nfsd stopped (no thread left)" 0 "$(workload_value server nfsd_stopped)"
	check_eq "$rj/$t: nfsd restarted" 0 "$(workload_value client nfsd_restarted)"
	check_eq "$rj/$t: the file read again after the restart" 262144 \
		"$(workload_value client read_after_restart_bytes)"
	set -- $(mountstats_xprt client/mountstats)
	check_ge "$rj/$t: connections the client made (mountstats connect_count)" 2 "${3:-}"
	check_eq "$rj/$t: connections with calls on the wire as mountstats connect_count" "${3:-}" \
		"$(jq '[.connections[] | select(.calls > 0)] | length' "$work/stats.json")"
	check_eq "$rj/$t: reconnects: each later connection with calls names the one before" \
		"$(jq '[.connections[] | select(.calls > 0)] | length - 1' "$work/stats.json")" \
		"$(jq '.reconnects' "$work/stats.json")"
}

# check_screen JOB: rpcrdma-top -t's screen in the client (tmux, 100x16),
# kept after each key typed at the end of the workload.
check_screen() {
	sc=client/screen
	line() { sed -n "$2p" "$sc-$1.txt"; }
	check_eq "$1/$t: rpcrdma-top -t's screen: BPF programs add the events up" 1 \
		"$(grep -c 'through BPF programs' "$sc.err")"
	check_eq "$1/$t: rpcrdma-top -t's screen: the title, the client table, its server, the keys" "1 1 1 1" \
		"$(for re in '^rpcrdma-top  kernel tracepoints' '^CLIENT ' " $(server_endpoint 20049 | sed 's/[].[]/\\&/g') " \
			'^h help  space pause  q quit  \[down: more\]'; do
			grep -q -e "$re" "$sc-first.txt" && echo 1 || echo 0; done | paste -sd' ' -)"
	check_eq "$1/$t: rpcrdma-top -t's screen: End scrolls the tables to their end, the totals stay" \
		"yes" "$(if [ "$(line end 1)" = "$(line first 1)" ] && [ "$(line end 5)" != "$(line first 5)" ] &&
			grep -q '\[up: more\]' "$sc-end.txt"; then echo yes; else echo no; fi)"
	check_eq "$1/$t: rpcrdma-top -t's screen: Home shows the tables' first line again" \
		"$(line first 5)" "$(line home 5)"
	check_eq "$1/$t: rpcrdma-top -t's screen: Down scrolls one line" "$(line home 6)" "$(line down 5)"
	check_eq "$1/$t: rpcrdma-top -t's screen: space pauses it (said in the foot, the screen held)" \
		"yes" "$(if grep -q 'PAUSED' "$sc-paused.txt" && cmp -s "$sc-paused.txt" "$sc-paused-later.txt"; then
			echo yes; else echo no; fi)"
	check_eq "$1/$t: rpcrdma-top -t's screen: h shows the help, any key goes back" "1 0" \
		"$(grep -c 'this help' "$sc-help.txt") $(grep -c 'this help' "$sc-back.txt")"
	check_eq "$1/$t: rpcrdma-top -t's screen: q quits" 1 "$(grep -c TOP-EXITED "$sc-quit.txt")"
}

# check_trace_nfsiostat JOB LAST: what nfsiostat shows, from rpcrdma-top
# -t's last report (LAST): each procedure's errors and its queue, RTT and
# execute times summed as mountstats has them (the mount's version; those
# the unmount added to, after mountstats was copied, are left out), and
# the failed replies by status as the wire has them.  Runs kept from a
# build whose report had none of these are not checked for them.
check_trace_nfsiostat() {
	trace_last=$2
	echo "$trace_last" | jq -e '.procedures | length > 0 and all(has("rtt_us_total"))' >/dev/null 2>&1 ||
		return 0
	if grep -q 'with fstype nfs4' client/mountstats; then v=4; else v=3; fi
	echo "$trace_last" | jq -r --argjson v "$v" '[.procedures[] | select(.program == "nfs" and .version == $v)]
		| group_by(.procedure)[] | [.[0].procedure, (map(.calls) | add), (map(.errors) | add),
		(map(.queue_us_total) | add), (map(.rtt_us_total) | add), (map(.execute_us_total) | add)]
		| @tsv' >"$work/trace-times"
	mountstats_op_times client/mountstats >"$work/mountstats-times"
	# mountstats sums nanoseconds and prints whole ms; the events give
	# each task's times in whole microseconds: at most a microsecond a
	# task less, or up to 1 ms more.  Each run of the programs the kernel
	# skipped (events_missed) may leave one procedure's sums short.
	missed=$(echo "$trace_last" | jq '.events_missed // 0')
	for what in errors:3:6 queue:4:3 RTT:5:4 execute:6:5; do
		set -- "$1" "${what%%:*}" "$(echo "$what" | cut -d: -f2)" "${what##*:}"
		got=$(awk -v tc="$3" -v mc="$4" -v what="$2" '
			NR == FNR { ops[$1] = $2; m[$1] = $mc; next }
			!($1 in ops) || ops[$1] != $2 { next }
			{ n++ }
			what == "errors" { if (m[$1] != "" && m[$1] != $tc) bad = bad " " $1; next }
			{ d = $tc / 1000 - m[$1]; if (d < 0) d = -d
			  if (d > 1 + ops[$1] / 1000) bad = bad " " $1 "(" int($tc / 1000) "/" m[$1] ")" }
			END { printf "%d %s", n, bad == "" ? "none differs" : "differ:" bad }' \
			"$work/mountstats-times" "$work/trace-times")
		differ=$(echo "${got#* }" | sed -n 's/^differ://p' | wc -w)
		if [ "$differ" -gt 0 ] && [ "$differ" -le "$missed" ]; then
			got="${got%% *} none differs but$(echo "${got#* differ:}" | tr -s ' '), within the $missed runs the kernel skipped"
			check_line ok "$1/$t: rpcrdma-top -t: each NFSv$v procedure's $2 as mountstats sums it (${got#* })"
			continue
		fi
		check_eq "$1/$t: rpcrdma-top -t: each NFSv$v procedure's $2 as mountstats sums it (${got%% *} procedures)" \
			"none differs" "${got#* }"
	done
	check_ge "$1/$t: rpcrdma-top -t: NFSv$v procedures whose calls equal mountstats ops" 1 "${got%% *}"
	# every failed NFS reply the client decoded, by version, procedure or
	# NFSv4 operation, and status, as the capture has them (but a COMPOUND
	# refused before any operation, NFS4ERR_MINOR_VERS_MISMATCH with no
	# result, RFC 8881 §16.2.3: the events report an operation's status)
	check_eq "$1/$t: rpcrdma-top -t: NFS errors by procedure or operation and status, as on the wire" \
		"$(jq -r '[.nfs_errors[] | select(.program == "NFS" and .status != "NFS4ERR_MINOR_VERS_MISMATCH")] | group_by([.version, (.operation // .procedure), .status])[]
			| "v\(.[0].version) \(.[0].operation // .[0].procedure) \(.[0].status) \(map(.count) | add)"' "$work/stats.json" | sort | list_or_none)" \
		"$(echo "$trace_last" | jq -r '[.nfs_errors[] | select(.program == "nfs")] | group_by([.version, (if .operation == "" then .procedure else .operation end), .status])[]
			| "v\(.[0].version) \(if .[0].operation == "" then .[0].procedure else .[0].operation end) \(.[0].status) \(map(.replies) | add)"' | sort | list_or_none)"
}

# check_watchers JOB: the live sources that ran in the client beside tcpdump
# (lab/guest/job.sh watch_start), and the server's tracepoint watcher
# (server_trace_start), against the capture's decode in $work/stats.json.
check_watchers() {
	w=client/watch
	[ -e "$w-pcap.json" ] || return 0
	truth_calls=$(jq .total.calls "$work/stats.json")
	truth_replies=$(jq .total.replies "$work/stats.json")
	check_eq "$1/$t: the binaries find every library in the guest" 0 "$(grep -c . client/ldd-missing)"
	# libpcap live, as tcpdump saw the same interface
	check_eq "$1/$t: rpcrdma-dump -i eth0: calls" "$truth_calls" "$(jq .total.calls "$w-pcap.json")"
	check_eq "$1/$t: rpcrdma-dump -i eth0: replies" "$truth_replies" "$(jq .total.replies "$w-pcap.json")"
	check_eq "$1/$t: rpcrdma-dump -i eth0: frames dropped" 0 "$(jq .frames.dropped "$w-pcap.json")"
	# eBPF on the same interface: loads on this kernel, then the same counts
	check_eq "$1/$t: rpcrdma-dump -e eth0 loads its eBPF program" 0 "$(grep -c -i 'load' "$w-ebpf.err")"
	# on soft-iWARP the snapshots cut FPDUs, some of which span segments:
	# the analyzer follows their lengths through the cut bytes
	check_eq "$1/$t: rpcrdma-dump -e eth0: calls" "$truth_calls" "$(jq .total.calls "$w-ebpf.json" 2>/dev/null)"
	check_eq "$1/$t: rpcrdma-dump -e eth0: replies" "$truth_replies" "$(jq .total.replies "$w-ebpf.json" 2>/dev/null)"
	check_eq "$1/$t: rpcrdma-dump -e eth0: iWARP stream gaps" 0 "$(jq .frames.iwarp_stream_gaps "$w-ebpf.json" 2>/dev/null)"
	# the client's tracepoints (xprtrdma): a reply for every forward reply;
	# a call for every marshal, so also for the resends that a broken
	# connection kept off the wire
	fwd_calls=$(jq '.total.messages.call | add' "$work/stats.json")
	fwd_replies=$(jq '.total.messages.reply | add' "$work/stats.json")
	last=$(tail -n 1 "$w-trace.jsonl")
	# the runs of the programs the kernel skipped (runs kept from a build
	# that did not read them: none)
	missed=$(echo "$last" | jq '.events_missed // 0')
	[ "$missed" -eq 0 ] || echo "# $1/$t: rpcrdma-top -t: the kernel skipped $missed runs of the BPF programs (another ran on that CPU)"
	check_counted "$1/$t: rpcrdma-top -t: forward replies" "$fwd_replies" "$(echo "$last" | jq .client.replies)" "$missed"
	check_counted_ge "$1/$t: rpcrdma-top -t: forward calls marshalled" "$fwd_calls" "$(echo "$last" | jq .client.calls)" "$missed"
	# the same events added up in the kernel by BPF programs, per
	# connection and per procedure
	check_eq "$1/$t: rpcrdma-top -t: BPF programs add the events up in the kernel" 1 \
		"$(grep -c 'through BPF programs' "$w-trace.err")"
	check_eq "$1/$t: rpcrdma-top -t: its JSON as docs/schema/rpcrdma-top.schema.json says" valid \
		"$(if echo "$last" | python3 "$lab/../tests/tools/json-validate.py" --require top_tracepoints \
			"$lab/../docs/schema/rpcrdma-top.schema.json" >/dev/null 2>&1; then echo valid; else echo invalid; fi)"
	check_counted "$1/$t: rpcrdma-top -t: the connections' replies add up to the forward replies" \
		"$fwd_replies" "$(echo "$last" | jq '[.connections[].replies] | add')" "$missed"
	# (a client that lived less than a refresh, as the mount's first
	# ping, may go unnamed; no client is named after a non-RDMA one)
	check_eq "$1/$t: rpcrdma-top -t: the busiest connection names its server (debugfs)" \
		"$(server_endpoint 20049)" "$(echo "$last" | jq -r '.connections | max_by(.calls) | .server')"
	# (the kernel reuses ids: the refused mount's RDMA client may take the
	# id of one gone, the mount's, whose row stays, its counts its own)
	check_eq "$1/$t: rpcrdma-top -t: every connection named is named after an RDMA transport of the run" 0 \
		"$(echo "$last" | jq --arg mount "$(server_endpoint 20049)" '[.connections[] | select(.server != "" and .server != $mount and .server != "192.0.2.1:20050")] | length')"
	# RPCs by procedure: the kernel's rpc_stats_latency counts a task where
	# mountstats counts its per-op "ops" (rpc_count_iostats_metrics); the
	# mount's NULL ping is another client's, and the one on the wire
	# (an NFSv4 unmount, after mountstats was copied, sends a few more:
	# DELEGRETURN, GETATTR, DESTROY_SESSION)
	v4=$(grep -c 'with fstype nfs4' client/mountstats || true)
	mountstats_op_counts client/mountstats | grep -v '^NULL ' | while read -r proc ops; do
		got=$(echo "$last" | jq --arg p "$proc" '[.procedures[] | select(.program == "nfs" and .procedure == $p) | .calls] | add // 0')
		if [ "$v4" -gt 0 ]; then
			check_counted_ge "$1/$t: rpcrdma-top -t: NFS $proc RPCs, at least as mountstats counts them" "$ops" "$got" "$missed"
		else
			check_counted "$1/$t: rpcrdma-top -t: NFS $proc RPCs as mountstats counts them" "$ops" "$got" "$missed"
		fi
	done
	check_counted "$1/$t: rpcrdma-top -t: NFS NULL RPCs as the capture has them" \
		"$(jq '[.procedures[] | select(.program == "NFS" and .procedure == "NULL") | .calls] | add // 0' "$work/stats.json")" \
		"$(echo "$last" | jq '[.procedures[] | select(.program == "nfs" and .procedure == "NULL") | .calls] | add // 0')" "$missed"
	check_eq "$1/$t: rpcrdma-top -t: only RPC-over-RDMA programs (nfs, nfsacl)" 0 \
		"$(echo "$last" | jq '[.procedures[] | select(.program != "nfs" and .program != "nfsacl")] | length')"
	check_eq "$1/$t: rpcrdma-top -t: every procedure answered has a round trip" 0 \
		"$(echo "$last" | jq '[.procedures[] | select(.answered > 0 and .latency_max_us == 0)] | length')"
	check_trace_nfsiostat "$1" "$last"
	check_ge "$1/$t: rpcrdma-top -t: connections made to the server (xprtrdma_connect)" 1 \
		"$(echo "$last" | jq --arg ip "$(server_ip)" '[.connection_events[] | select(.address == $ip and .port == "20049") | .connects] | add')"
	check_ge "$1/$t: rpcrdma-top -t: the refused mount's failed connects" 1 \
		"$(echo "$last" | jq '[.connection_events[] | select(.port == "20050") | .connect_failures] | add')"
	check_screen "$1"
	# the server's tracepoints (svcrdma): a decoded request for every
	# message the client sent it, forward calls and backward replies
	srv=server/watch-trace.jsonl
	if [ -e "$srv" ]; then
		srv_last=$(tail -n 1 "$srv")
		srv_missed=$(echo "$srv_last" | jq '.events_missed // 0')
		[ "$srv_missed" -eq 0 ] || echo "# $1/$t: rpcrdma-top -t on the server: the kernel skipped $srv_missed runs of the BPF programs"
		received=$(jq '[.total.messages.call[], .total.messages.backward_reply[]] | add' "$work/stats.json")
		check_counted "$1/$t: rpcrdma-top -t on the server: requests (forward calls and backward replies received)" \
			"$received" "$(echo "$srv_last" | jq .server.requests)" "$srv_missed"
		check_counted "$1/$t: rpcrdma-top -t on the server: requests by connection add up" \
			"$received" "$(echo "$srv_last" | jq '[.server_connections[].requests] | add')" "$srv_missed"
		# the server's own time per call (svc_stats_latency): one for
		# each reply it sent, each under the connection that brought it
		check_counted "$1/$t: rpcrdma-top -t on the server: calls served, one per forward reply on the wire" \
			"$(jq '.total.messages.reply | add' "$work/stats.json")" \
			"$(echo "$srv_last" | jq '[.server_procedures[].calls] | add // 0')" "$srv_missed"
		check_eq "$1/$t: rpcrdma-top -t on the server: its JSON as docs/schema/rpcrdma-top.schema.json says" valid \
			"$(if echo "$srv_last" | python3 "$lab/../tests/tools/json-validate.py" --require top_tracepoints \
				"$lab/../docs/schema/rpcrdma-top.schema.json" >/dev/null 2>&1; then echo valid; else echo invalid; fi)"
		check_eq "$1/$t: rpcrdma-top -t on the server: no connection served more calls than it received" 0 \
			"$(echo "$srv_last" | jq '[.server_connections[] | select(.calls > .requests)] | length')"
		check_ge "$1/$t: rpcrdma-top -t on the server: the server's time for its busiest procedure (p50, us)" 1 \
			"$(echo "$srv_last" | jq '.server_procedures | max_by(.calls) | .latency_p50_us')"
		# the NFSv4 replies nfsd sent that failed (nfsd_compound_status),
		# by operation and status, as the wire has them; nfsd has no such
		# event for NFSv3 (runs kept from a build without it: not checked),
		# nor one for a COMPOUND refused before any operation
		if echo "$srv_last" | jq -e 'has("server_nfs_errors")' >/dev/null; then
			check_eq "$1/$t: rpcrdma-top -t on the server: NFSv4 errors by operation and status, as on the wire" \
				"$(jq -r '[.nfs_errors[] | select(.program == "NFS" and .version == 4 and .status != "NFS4ERR_MINOR_VERS_MISMATCH")] | group_by([.operation, .status])[]
					| "\(.[0].operation) \(.[0].status) \(map(.count) | add)"' "$work/stats.json" | sort | list_or_none)" \
				"$(echo "$srv_last" | jq -r '.server_nfs_errors | group_by([.operation, .status])[]
					| "\(.[0].operation) \(.[0].status) \(map(.replies) | add)"' | sort | list_or_none)"
			check_eq "$1/$t: rpcrdma-top -t on the server: errors by procedure add up to them" \
				"$(echo "$srv_last" | jq '[.server_nfs_errors[].replies] | add // 0')" \
				"$(echo "$srv_last" | jq '[.server_procedures[].errors] | add // 0')"
		fi
		# rpcrdma-exporter -t beside it, scraped just before it stopped
		check_eq "$1/$t: rpcrdma-exporter -t on the server: rpcrdma_trace_server_rpc_calls_total as top's calls served" \
			"$(echo "$srv_last" | jq '[.server_procedures[].calls] | add // 0')" \
			"$(metric_sum server/exporter-trace.metrics rpcrdma_trace_server_rpc_calls_total)"
		check_eq "$1/$t: rpcrdma-exporter -t on the server: rpcrdma_trace_server_rpc_latency_seconds_count as the calls served" \
			"$(metric_sum server/exporter-trace.metrics rpcrdma_trace_server_rpc_calls_total)" \
			"$(metric_sum server/exporter-trace.metrics rpcrdma_trace_server_rpc_latency_seconds_count)"
		if grep -q '^# TYPE rpcrdma_trace_server_nfs_errors_total' server/exporter-trace.metrics; then
			check_eq "$1/$t: rpcrdma-exporter -t on the server: rpcrdma_trace_server_nfs_errors_total as top's" \
				"$(echo "$srv_last" | jq '[.server_nfs_errors[].replies] | add // 0')" \
				"$(metric_sum server/exporter-trace.metrics rpcrdma_trace_server_nfs_errors_total)"
		fi
	fi
	# rpcrdma-exporter -t, scraped at the end of the workload: the same
	# replies, and no metric of the packet path (absent, not zero)
	m=client/exporter-trace.metrics
	[ -e "$m" ] || return 0
	# the kernel skips every program of an event at once: the exporter's
	# and top's alike
	check_eq "$1/$t: rpcrdma-exporter -t: rpcrdma_trace_events_missed_total, at most top's (it scraped first)" yes \
		"$(v=$(sed -n 's/^rpcrdma_trace_events_missed_total //p' "$m"); [ "${v:-0}" -le "$missed" ] && echo yes || echo "no: ${v:-0} > $missed")"
	check_counted "$1/$t: rpcrdma-exporter -t: rpcrdma_trace_client_replies_total" "$fwd_replies" \
		"$(sed -n 's/^rpcrdma_trace_client_replies_total //p' "$m")" "$missed"
	check_eq "$1/$t: rpcrdma-exporter -t: no metric only packets give (rpcrdma_frames_total, rpcrdma_messages_total)" 0 \
		"$(grep -c -E '^rpcrdma_(frames_total|messages_total)' "$m")"
	# the packet path's names for what the kernel's events give
	check_counted "$1/$t: rpcrdma-exporter -t: rpcrdma_connection_replies_total, summed" "$fwd_replies" \
		"$(metric_sum "$m" rpcrdma_connection_replies_total)" "$missed"
	check_eq "$1/$t: rpcrdma-exporter -t: rpcrdma_rpc_calls_total as rpcrdma-top -t's procedures" \
		"$(echo "$last" | jq '[.procedures[].calls] | add')" \
		"$(metric_sum "$m" rpcrdma_rpc_calls_total)"
	check_eq "$1/$t: rpcrdma-exporter -t: rpcrdma_rpc_latency_seconds_count as rpcrdma-top -t's answered procedures" \
		"$(echo "$last" | jq '[.procedures[].answered] | add')" \
		"$(metric_sum "$m" rpcrdma_rpc_latency_seconds_count)"
	# nfsiostat's view (runs kept from a build without it have none)
	grep -q '^rpcrdma_rpc_rtt_seconds_total' "$m" || return 0
	check_eq "$1/$t: rpcrdma-exporter -t: rpcrdma_nfs_errors_total as rpcrdma-top -t's failed replies" \
		"$(echo "$last" | jq '[.nfs_errors[].replies] | add // 0')" \
		"$(metric_sum "$m" rpcrdma_nfs_errors_total)"
	check_eq "$1/$t: rpcrdma-exporter -t: rpcrdma_rpc_rtt_seconds_total as rpcrdma-top -t's RTT summed (ms)" \
		"$(echo "$last" | jq '[.procedures[].rtt_us_total] | add / 1000 | floor')" \
		"$(awk '$1 ~ /^rpcrdma_rpc_rtt_seconds_total({|$)/ { s += $2 } END { printf "%d", s * 1000 + 0.5 }' "$m" |
			awk -v top="$(echo "$last" | jq '[.procedures[].rtt_us_total] | add / 1000 | floor')" '{ print ($1 - top <= 1 && top - $1 <= 1) ? top : $1 }')"
}

# LAB_EXPORTER empty: a build without the exporter's libraries, whose
# checks are said not run (the lab's own runs always have it)
exporter_in_build() { [ "${LAB_EXPORTER-unset}" != "" ]; }

# check_exporter JOB: rpcrdma-exporter on the run's capture and the real
# /proc/self/mountstats and /proc/sys/sunrpc/svc_rdma copied from the
# guests: its kernel metrics are the files' numbers, its call count the
# capture's.
check_exporter() {
	if ! exporter_in_build; then
		echo "# $1/$t: rpcrdma-exporter is not in this build: its checks are not run"
		return
	fi
	exporter=${LAB_EXPORTER:-$(dirname "$LAB_DUMP")/rpcrdma-exporter}
	[ -x "$exporter" ] || { check_fail "$1/$t: rpcrdma-exporter built" "$exporter"; return; }
	svc=server/svc_rdma
	[ -d "$svc" ] || svc=$work/no-svc-rdma
	start_exporter() {
		"$exporter" -r client/capture.pcap --mountstats client/mountstats --svc-rdma "$svc" \
			-l "127.0.0.1:$port" 2>"$work/exporter.err" &
	}
	serve_on_free_port start_exporter || true
	exporter_pid=$server_pid
	n=0
	until grep -q 'replayed' "$work/exporter.err"; do
		n=$((n + 1))
		if [ "$n" -gt 300 ] || ! kill -0 "$exporter_pid" 2>/dev/null; then break; fi
		sleep 0.1
	done
	# a scrape that fails is this check's failure, not the end of the others
	curl -s --max-time 30 "http://127.0.0.1:$port/metrics" >"$work/metrics" ||
		check_fail "$1/$t: exporter: answered a scrape" "curl exit $?: $(tr '\n' ' ' <"$work/exporter.err")"
	kill "$exporter_pid" 2>/dev/null || true
	wait "$exporter_pid" 2>/dev/null || true
	metric() { metric_sum "$work/metrics" "$1"; }
	set -- "$1" $(mountstats_xprt client/mountstats)
	check_eq "$1/$t: exporter: rpcrdma_kernel_xprt_sends_total as mountstats" "${7:-}" "$(metric rpcrdma_kernel_xprt_sends_total)"
	check_eq "$1/$t: exporter: rpcrdma_kernel_xprt_read_chunk_count_total as mountstats" "${12:-}" "$(metric rpcrdma_kernel_xprt_read_chunk_count_total)"
	check_eq "$1/$t: exporter: rpcrdma_kernel_xprt_reply_chunk_count_total as mountstats" "${14:-}" "$(metric rpcrdma_kernel_xprt_reply_chunk_count_total)"
	check_eq "$1/$t: exporter: rpcrdma_rpc_calls_total as the capture" \
		"$(jq .total.calls "$work/stats.json")" "$(metric rpcrdma_rpc_calls_total)"
	check_eq "$1/$t: exporter: rpcrdma_connection_calls_total, summed, as the capture" \
		"$(jq .total.calls "$work/stats.json")" "$(metric rpcrdma_connection_calls_total)"
	# replies by status: each status as rpcrdma-dump --stats=json counts it
	# (the exporter, as -q, rebuilds no reply chunk: those are unseen)
	for status in $(jq -r '[.procedures[].replies | keys[]] | unique[]' "$work/stats.json"); do
		check_eq "$1/$t: exporter: rpcrdma_rpc_replies_by_status_total{status=\"$status\"} as the capture" \
			"$(jq --arg s "$status" '[.procedures[].replies[$s] // 0] | add' "$work/stats.json")" \
			"$(awk -v s="status=\"$status\"" '$1 ~ /^rpcrdma_rpc_replies_by_status_total[{]/ && index($1, s) { n += $2 } END { printf "%d", n }' "$work/metrics")"
	done
	# the latency histogram's buckets: at each bound, as many calls as the
	# replies' latencies in -j at most that long (exact, not estimated)
	buckets=$(awk '$1 ~ /^rpcrdma_rpc_latency_seconds_bucket[{]/ {
			match($1, /le="[^"]*"/); le = substr($1, RSTART + 4, RLENGTH - 5)
			if (le != "+Inf") n[le] += $2 }
		END { for (le in n) print le, n[le] }' "$work/metrics" | sort -g |
		while read -r le n; do
			want=$(awk -v b="$le" '$4 <= b * 1e9 + 0.5 { c++ } END { printf "%d", c }' "$work/latencies")
			[ "$n" = "$want" ] && echo ok || echo "bad le=$le: $n, -j has $want"
		done)
	check_eq "$1/$t: exporter: rpcrdma_rpc_latency_seconds_bucket at each of the 19 bounds as the capture's latencies" \
		19 "$(echo "$buckets" | grep -c '^ok')"
	echo "$buckets" | grep '^bad' | head -3 >&2
	# connections refused: the CM REJs of the refused mount, by reason
	if [ "$t" = rxe ]; then
		check_eq "$1/$t: exporter: rpcrdma_cm_rejects_total{reason=\"invalid service ID\"} as the REJ lines" \
			"$(grep -c 'ConnectReject (REJ) .* reason 8 (invalid service ID)' "$work/dump.txt")" \
			"$(awk '/^rpcrdma_cm_rejects_total[{]/ && index($0, "reason=\"invalid service ID\"") { n += $NF } END { printf "%d", n }' "$work/metrics")"
		check_eq "$1/$t: --stats=json cm_rejects as the REJ lines" \
			"$(grep -c 'ConnectReject (REJ)' "$work/dump.txt")" \
			"$(jq '[.cm_rejects[]] | add' "$work/stats.json")"
	fi
	if [ -d server/svc_rdma ]; then
		for f in server/svc_rdma/rdma_stat_recv server/svc_rdma/max_requests; do
			name=$(basename "$f")
			case $name in rdma_stat_*) m=rpcrdma_kernel_svc_${name#rdma_stat_}_total ;;
			*) m=rpcrdma_kernel_svc_$name ;; esac
			check_eq "$1/$t: exporter: $m as the server's $name" "$(cat "$f")" "$(metric "$m")"
		done
	fi
}

# check_sniffer JOB: --list-devices names the guest's device for what it
# is, and --rdma on it (soft devices have no raw packet QP) fails with the
# reason and the way to capture instead.
check_sniffer() {
	[ -e client/sniff.status ] || return 0
	case $t in rxe) kind=RoCE ;; siw) kind=iWARP ;; esac
	check_eq "$1/$t: --list-devices: ${t}0 port 1 is $kind" 1 \
		"$(grep -c "^${t}0 .*port 1 $kind" client/list-devices)"
	check_eq "$1/$t: --rdma ${t}0: exit status 2 (input)" 2 "$(cat client/sniff.status)"
	check_eq "$1/$t: --rdma ${t}0: says to capture the netdev with -i or -e" 1 \
		"$(grep -c 'with -i or -e' client/sniff.err)"
}

# check_run JOB: what every NFS job checks first: both guests finished, the
# files workload (lab/jobs/workload.sh) saw what it did, a mount to a port
# without listener failed, and the capture decodes whole, every call
# answered, with no finding but the one Linux earns (below).  Leaves the
# decode in $work/stats.json, dump.txt and findings.txt.
check_run() {
	check_eq "$1/$t: server job exit status" 0 "$(cat server/job.status 2>/dev/null)"
	# the guests' kernels warned of nothing (a BPF program a verifier
	# accepts with a WARNING taints the kernel): the consoles of a run
	if [ -e client.console ]; then
		check_eq "$1/$t: no kernel WARNING or BUG in the guests' consoles" 0 \
			"$(cat client.console server.console | grep -c -E 'WARNING:|BUG:')"
	fi
	check_eq "$1/$t: client job exit status" 0 "$(cat client/job.status 2>/dev/null)"
	check_eq "$1/$t: 300 files listed" 300 "$(workload_value client files_listed)"
	check_eq "$1/$t: 4000-byte symlink read back" 4000 "$(workload_value client symlink_target_bytes)"
	check_eq "$1/$t: 256 KiB read back as written" 262144 "$(workload_value client read_back_bytes)"
	check_eq "$1/$t: mount to a port without listener refused" failed "$(workload_value client refused_mount)"
	check_capture_clean "$1/$t"
	"$LAB_DUMP" -v -r client/capture.pcap >"$work/dump.txt" 2>&1 || true
	# and no error at all on a healthy stock Linux capture
	check_linux_findings "$1/$t" client/capture.pcap "$work/findings.txt"
	check_eq "$1/$t: no error finding" 0 "$(grep -c '(error)' "$work/findings.txt")"
	# replies by status, whether the messages are rebuilt or not (-q): a
	# reply sent in its reply chunk has its RPC header at the chunk's head
	"$LAB_DUMP" --stats=json -r client/capture.pcap >"$work/stats-rebuilt.json" 2>/dev/null
	check_eq "$1/$t: replies by procedure and status under -q, as when rebuilt (none unseen)" \
		"$(jq -c '[.procedures[] | {program, procedure, replies}]' "$work/stats-rebuilt.json")" \
		"$(jq -c '[.procedures[] | {program, procedure, replies}]' "$work/stats.json")"
	# the mount to a port without listener: on RoCE the server's CM
	# rejects the REQ, its reason named (IBA table 112)
	if [ "$t" = rxe ]; then
		check_ge "$1/$t: CM REJ of the refused mount, reason named (invalid service ID)" 1 \
			"$(grep -c 'ConnectReject (REJ) .* reason 8 (invalid service ID)' "$work/dump.txt")"
	fi
	# each Send With Invalidate names the STag it invalidated, and that
	# STag is a handle of its own call's chunks (RFC 8797 §4.1)
	"$LAB_DUMP" -j -r client/capture.pcap >"$work/dump.json" 2>/dev/null
	swi=$(jq -rs '
		[.[] | select(.type == "message")] as $m |
		([$m[] | select(.dir == "call") | {key: "\(.conn) \(.xid)",
		  value: [(.reads[], .writes[][], (.reply // [])[]) | .handle]}] | from_entries) as $h |
		[$m[] | select(.invalidated_stag != null)] |
		"\(length) \(map(. as $r | select(($h["\($r.conn) \($r.xid)"] // []) | index($r.invalidated_stag))) | length)"' "$work/dump.json")
	check_eq "$1/$t: Send With Invalidate frames, as many as invalidate_own_r_cleared findings" \
		"$(grep -c invalidate_own_r_cleared "$work/findings.txt")" "${swi% *}"
	check_eq "$1/$t: each invalidated STag is a handle of its call's chunks" "${swi% *}" "${swi#* }"
	# RC retransmissions (a request PSN seen again): a line each, counted
	# per connection, each naming the frame that carried its PSN first,
	# which tshark shows with the same destination QP and PSN
	check_eq "$1/$t: retransmission lines, as many as counted per connection" \
		"$(jq '[.connections[].retransmissions] | add' "$work/stats.json")" \
		"$(jq -s '[.[] | select(.type == "retransmission")] | length' "$work/dump.json")"
	if command -v tshark >/dev/null && [ "$t" = rxe ]; then
		tshark -r client/capture.pcap -T fields -e frame.number -e infiniband.bth.destqp \
			-e infiniband.bth.psn 2>/dev/null >"$work/psn"
		check_eq "$1/$t: each retransmission naming its original frame repeats its QP and PSN (tshark)" \
			"$(jq -s '[.[] | select(.type == "retransmission" and .original_frame != null)] | length' "$work/dump.json")" \
			"$(jq -r 'select(.type == "retransmission") | "\(.frame) \(.original_frame)"' "$work/dump.json" |
				awk 'NR == FNR { qp[$1] = $2; psn[$1] = $3; next }
				     $2 != "null" && qp[$1] == qp[$2] && psn[$1] == psn[$2] && $2 < $1 { n++ }
				     END { printf "%d", n }' "$work/psn" -)"
	fi
	# the fabric counters of each side's stream: its RC packets as tshark
	# counts them by sender (QP1's CM MADs apart), and on a healthy run no
	# NAK of an error (invalid request, remote access or operational: the
	# connection fails), congestion mark or CNP; a frame lost on a busy
	# machine's virtual link may draw a PSN sequence NAK or an RNR NAK
	if command -v tshark >/dev/null && [ "$t" = rxe ]; then
		srv=$(server_ip)
		tshark -r client/capture.pcap -Y 'infiniband.bth.destqp != 1' -T fields \
			-e ip.src -e ipv6.src 2>/dev/null >"$work/senders"
		check_eq "$1/$t: the responder's stream: its packets, as tshark counts those the server sent" \
			"$(grep -c -w -F "$srv" "$work/senders")" \
			"$(jq .total.fabric.responder.packets "$work/stats.json")"
		check_eq "$1/$t: the requester's stream: its packets, as tshark counts those the client sent" \
			"$(grep -c -v -w -F "$srv" "$work/senders")" \
			"$(jq .total.fabric.requester.packets "$work/stats.json")"
		check_eq "$1/$t: no error NAK, congestion mark or CNP on a healthy run" 0 \
			"$(jq '[.total.fabric[] | del(.packets, .retransmissions, .timeouts, .psn_gaps,
				.nak_psn_sequence, .rnr_naks)[]] | add' "$work/stats.json")"
	fi
	# iWARP: a connection ends with its TCP FIN (or RST), as tshark sees
	# the TCP streams of the NFS/RDMA port end; the refused mount's RSTs
	# (from the port without listener) count when that port is named
	if command -v tshark >/dev/null && [ "$t" = siw ]; then
		check_eq "$1/$t: iWARP connections closed, as many as TCP streams with a FIN (tshark)" \
			"$(tshark -r client/capture.pcap -Y 'tcp.port == 20049 && tcp.flags.fin == 1' \
				-T fields -e tcp.stream 2>/dev/null | sort -u | grep -c .)" \
			"$(jq -s '[.[] | select(.type == "close")] | length' "$work/dump.json")"
		check_eq "$1/$t: TCP RSTs of the refused mount's port (--iwarp-port 20050), as tshark counts" \
			"$(tshark -r client/capture.pcap -Y 'tcp.port == 20050 && tcp.flags.reset == 1' 2>/dev/null | grep -c .)" \
			"$("$LAB_DUMP" --iwarp-port 20050 -q --stats=json -r client/capture.pcap 2>/dev/null | jq .tcp_resets)"
	fi
	# latency percentiles: each procedure's p50, p90, p99 in --stats=json
	# within 1/64 (the histogram's resolution) of the exact latency of that
	# rank (ceil(q*n)) among its replies' latencies in -j
	jq -rs '
		def key: "\(.conn) \(.xid) \(.dir | startswith("backward"))";
		([.[] | select((.type == "message" or .type == "rpc_message") and
			       (.dir == "call" or .dir == "backward_call") and .rpc != null)
		  | {key: key, value: "\(.rpc.prog_name) \(.rpc.vers) \(.rpc.proc_name)"}]
		 | from_entries) as $proc |
		.[] | select(.type == "message" and .completed != null)
		| "\($proc[key] // "?") \(.completed.latency_ns)"' "$work/dump.json" >"$work/latencies"
	jq -r '.procedures[] | select(.latency.count > 0) | "\(.program) \(.version) \(.procedure) \(.latency.count) \(.latency.p50_ns) \(.latency.p90_ns) \(.latency.p99_ns)"' "$work/stats.json" |
		while read -r prog vers proc n p50 p90 p99; do
			sort -n -k4 "$work/latencies" | awk -v k="$prog $vers $proc" \
				-v n="$n" -v p50="$p50" -v p90="$p90" -v p99="$p99" '
				$1 " " $2 " " $3 == k { v[++m] = $4 }
				function at(q,  r) { r = int(q * m); if (r < q * m) r++; return v[r < 1 ? 1 : r] }
				function off(got, want,  d) { d = got - want; if (d < 0) d = -d; return d > want / 64 + 32 }
				END { if (m != n) print "bad " k ": " m " replies, counted " n
				      else if (off(p50, at(0.5)) || off(p90, at(0.9)) || off(p99, at(0.99)))
					print "bad " k ": p50 " p50 " p90 " p90 " p99 " p99 " against " at(0.5) " " at(0.9) " " at(0.99)
				      else print "ok" }'
		done >"$work/latency-check"
	check_eq "$1/$t: latency p50, p90, p99 within 1/64 of the exact ones, procedures" \
		"$(jq '[.procedures[] | select(.latency.count > 0)] | length' "$work/stats.json")" \
		"$(grep -c '^ok' "$work/latency-check")"
	grep '^bad' "$work/latency-check" | head -3 >&2
	# every CM message and MPA Request/Reply names its connection: as many
	# connections among them as the statistics count
	setup=$(jq -rs '
		[.[] | select(.type == "cm" or .type == "mpa")] |
		"\(map(select(.conn == null)) | length) \(map(.conn) | unique | length)"' "$work/dump.json")
	check_eq "$1/$t: CM and MPA frames without a connection" 0 "${setup% *}"
	check_eq "$1/$t: connections named by CM and MPA frames" \
		"$(jq '.connections | length' "$work/stats.json")" "${setup#* }"
}

# check_live JOB: the live sources, the exporter and the sniffer.
check_live() {
	check_watchers "$1"
	check_exporter "$1"
	check_sniffer "$1"
}

# The NFSv4 operations by number, "NUMBER NAME" a line, as nfs4.h lists
# them: to name the numbers tshark's nfs.opcode gives.
nfs4_op_names() {
	sed -n 's/.*X(RR_OP_[A-Z0-9_]*, \([0-9]*\), "\([A-Z0-9_]*\)").*/\1 \2/p' \
		"$lab/../libdissect/include/rpcrdma/nfs4.h"
}

# The callback operations' numbers and names (RR_NFS4_CB_OP_LIST).
nfs4_cb_op_names() {
	sed -n 's/.*X(RR_CB_OP_[A-Z0-9_]*, \([0-9]*\), "\([A-Z0-9_]*\)").*/\1 \2/p' \
		"$lab/../libdissect/include/rpcrdma/nfs4.h"
}

# but_retransmissions FILTER: tshark's display FILTER without the frames
# this decode names RC retransmissions, which the receiver drops as
# duplicates (IBA vol. 1 §9.7.5.1.2) and tshark takes as calls again.
but_retransmissions() {
	again=$(jq -r 'select(.type == "retransmission") | .frame' "$work/dump.json" | paste -sd, -)
	if [ -z "$again" ]; then echo "$1"; else echo "($1) && !(frame.number in {$again})"; fi
}

# tshark_nfs4_calls FILTER: the NFSv4 COMPOUND calls tshark's NFS
# dissector reads in the frames FILTER keeps, "XID OPERATIONS" a line in
# $work/calls-tshark, and in $work/calls-tshark-lost the xids of those it
# lost its way in (its errors, each checked against the RFC here):
# - an operation number below 3, or fewer operations than the COMPOUND
#   counts: no NFSv4 operation is numbered below OP_ACCESS (3, RFC 8881
#   §16.2.3).  Wireshark 4.0 does so with two arguments Linux 7.2 sends:
#   an OPEN with claim CLAIM_DELEG_CUR_FH (5, RFC 8881 §18.16.1), whose
#   stateid it does not read, and GET_DIR_DELEGATION (RFC 8881 §18.39),
#   where it stops.  Such a call is not compared; this decode must still
#   read it.
# - more operations than the COMPOUND counts, in an EXCHANGE_ID that asks
#   for SP4_MACH_CRED: tshark lists in nfs.opcode the operations its
#   bitmaps name (spo_must_enforce, spo_must_allow: RFC 8881 §18.35.1)
#   after the COMPOUND's own.  Where the COMPOUND counts one operation
#   (numops, §16.2.3) and that is EXCHANGE_ID (42), only it is compared;
#   such calls' xids go to $work/sp4-mach-cred.
tshark_nfs4_calls() {
	op_names=$(nfs4_op_names)
	: >"$work/calls-tshark-lost"
	: >"$work/sp4-mach-cred"
	tshark -r client/capture.pcap -Y "$1" -T fields -E separator=';' -e rpc.xid -e nfs.opcode \
		-e nfs.ops.count -e nfs.exchange_id.state_protect 2>/dev/null |
		perl -pe 's/\b0x([0-9a-fA-F]+)\b/hex($1)/ge' |
		awk -F';' -v names="$op_names" -v lost="$work/calls-tshark-lost" -v bitmaps="$work/sp4-mach-cred" '
			BEGIN { n = split(names, w, /[ \n]/); for (i = 1; i < n; i += 2) name[w[i]] = w[i + 1] }
			$2 != "" { split($1, x, ","); m = split($2, o, ","); split($3, c, ",")
				   if ($4 + 0 == 1 && c[1] + 0 == 1 && o[1] + 0 == 42 && m > 1) {
					   print x[1] >bitmaps; m = 1 }
				   astray = m < c[1] + 0; s = ""
				   for (i = 1; i <= m; i++) {
					   s = s (i > 1 ? "," : "") (o[i] in name ? name[o[i]] : "other")
					   astray += o[i] + 0 < 3
				   }
				   if (astray) print x[1] >lost
				   else print x[1], s }' | sort >"$work/calls-tshark"
	sort -o "$work/calls-tshark-lost" "$work/calls-tshark-lost"
}

# split_lost_calls JOB: this decode's calls ($work/calls-ours-all, "XID
# OPERATIONS [FRAME]") split by tshark_nfs4_calls' verdict: those tshark
# read go to $work/calls-ours-framed, and as "XID OPERATIONS" to
# $work/calls-ours; each one it lost its way in must be decoded here.
split_lost_calls() {
	: >"$work/calls-lost-ours"
	awk -v lost_ours="$work/calls-lost-ours" '
		FILENAME == ARGV[1] { lost[$1]; next }
		$1 in lost { print $2 >lost_ours; next }
		{ print }' "$work/calls-tshark-lost" "$work/calls-ours-all" >"$work/calls-ours-framed"
	cut -d' ' -f1,2 "$work/calls-ours-framed" >"$work/calls-ours"
	[ -s "$work/calls-tshark-lost" ] || return 0
	check_eq "$1/$t: the calls tshark's NFS dissector lost its way in ($(wc -l <"$work/calls-tshark-lost"): an operation number below 3, or fewer than counted), each decoded here (missing)" \
		0 "$(cut -d' ' -f1 "$work/calls-ours-all" | sort -u | comm -13 - "$work/calls-tshark-lost" | wc -l)"
	echo "# $1/$t: tshark's NFS dissector lost its way in $(wc -l <"$work/calls-tshark-lost") calls, this decode read them as: $(sort "$work/calls-lost-ours" | uniq -c | awk '{ printf "%s (%s) ", $2, $1 }')"
}

# check_nfs4_ops JOB: the operations of every NFSv4 COMPOUND call, named and
# counted as tshark's NFS dissector reads them, and the exporter's the same.
check_nfs4_ops() {
	# NFSv4 operations: those of every COMPOUND call, by number, as tshark's
	# NFS dissector lists them (nfs.opcode); the exporter's the same.
	ours=$(jq -r '(.nfs4_operations // {}) | to_entries[] | "\(.key) \(.value)"' "$work/stats.json" | sort)
	check_ge "$1/$t: NFSv4 operations counted (SEQUENCE among them)" 1 \
		"$(echo "$ours" | awk '$1 == "SEQUENCE" { print $2 }')"
	if command -v tshark >/dev/null; then
		# Call by call (xid and operations)
		filter=$(but_retransmissions 'rpc.msgtyp == 0 && nfs')
		tshark_nfs4_calls "$filter"
		jq -r 'select(.type == "message" and .dir == "call" and .rpc.ops) |
			"\(.rpc.xid) \(.rpc.ops | join(",")) \(.frame)"' "$work/dump.json" |
			sort >"$work/calls-ours-all"
		split_lost_calls "$1"
		check_eq "$1/$t: each call tshark's NFS dissector reads (xid, nfs.opcode), decoded with the same operations ($(wc -l <"$work/calls-tshark") calls; missing or different)" \
			0 "$(comm -23 "$work/calls-tshark" "$work/calls-ours" | wc -l)"
		# The calls only this decode reads must be on TCP connections where
		# tshark reads no NFS call at all (its MPA framing lost the stream):
		# never one it reads in part.
		comm -13 "$work/calls-tshark" "$work/calls-ours" >"$work/calls-only-ours"
		tshark -r client/capture.pcap -T fields -e frame.number -e tcp.stream 2>/dev/null >"$work/streams"
		tshark -r client/capture.pcap -Y "$filter" -T fields -e tcp.stream 2>/dev/null | sort -u >"$work/streams-read"
		awk 'FILENAME == ARGV[1] { want[$1 " " $2]++; next }
		     FILENAME == ARGV[2] { stream[$1] = $2; next }
		     ($1 " " $2) in want && want[$1 " " $2]-- > 0 { print stream[$3] }' \
			"$work/calls-only-ours" "$work/streams" "$work/calls-ours-framed" | sort -u >"$work/streams-only-ours"
		check_eq "$1/$t: the calls only this decode reads ($(wc -l <"$work/calls-only-ours")) lie on TCP connections tshark reads no NFS call on ($(paste -sd' ' "$work/streams-only-ours"); partly read)" \
			0 "$(comm -12 "$work/streams-only-ours" "$work/streams-read" | wc -l)"
		[ -s "$work/calls-only-ours" ] &&
			echo "# $1/$t: tshark reads no NFS call on TCP streams $(paste -sd' ' "$work/streams-only-ours"): $(cut -d' ' -f2 "$work/calls-only-ours" | tr ',' '\n' | sort | uniq -c | awk '{ printf "%s %s ", $2, $1 }')"
		# The server's callbacks (RFC 8881 §19.2), call by call, as
		# tshark reads their operations (nfs.cb.operation)
		tshark -r client/capture.pcap -Y "$(but_retransmissions 'rpc.msgtyp == 0 && nfs.cb.operation')" \
			-T fields -e rpc.xid -e nfs.cb.operation 2>/dev/null |
			perl -pe 's/\b0x([0-9a-fA-F]+)\b/hex($1)/ge' |
			awk -v names="$(nfs4_cb_op_names)" '
				BEGIN { n = split(names, w, /[ \n]/); for (i = 1; i < n; i += 2) name[w[i]] = w[i + 1] }
				{ m = split($2, o, ","); s = ""
				  for (i = 1; i <= m; i++) s = s (i > 1 ? "," : "") (o[i] in name ? name[o[i]] : "other")
				  print $1, s }' | sort >"$work/callbacks-tshark"
		jq -r 'select(.type == "message" and .dir == "backward_call" and .rpc.ops) |
			"\(.rpc.xid) \(.rpc.ops | join(","))"' "$work/dump.json" | sort >"$work/callbacks-ours"
		check_eq "$1/$t: callbacks' CB_COMPOUND operations as tshark reads them ($(wc -l <"$work/callbacks-tshark") calls; missing or different, only here)" \
			"0 0" "$(comm -23 "$work/callbacks-tshark" "$work/callbacks-ours" | wc -l) $(comm -13 "$work/callbacks-tshark" "$work/callbacks-ours" | wc -l)"
	fi
	exporter_in_build &&
		check_eq "$1/$t: exporter: rpcrdma_nfs4_operations_total as --stats=json" \
			"$(jq '[(.nfs4_operations // {})[]] | add // 0' "$work/stats.json")" \
			"$(awk '/^rpcrdma_nfs4_operations_total[{]/ { n += $NF } END { printf "%d", n }' "$work/metrics")"
	return 0
}
