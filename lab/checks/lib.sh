# Checks of the lab, one line each, as TAP: "ok N - what" or "not ok N - what".
# The results of a whole lab/run accumulate in $LAB_RESULTS.
: "${LAB_RESULTS:=$(mktemp "${TMPDIR:-/tmp}/lab-results.XXXXXX")}"
export LAB_RESULTS

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
check_summary() {
	failed=$(grep -c fail "$LAB_RESULTS" || true)
	passed=$(grep -c '^ok' "$LAB_RESULTS" || true)
	echo "lab: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

# What a guest's workload recorded: workload_value ROLE KEY
workload_value() { awk -v k="$2" '$1 == k { print $2 }' "$1/workload" 2>/dev/null; }

# The per-op counts of an NFS mount's /proc/self/mountstats, as
# "PROC transmissions" lines.
mountstats_ops() {
	awk '/per-op statistics/ { on = 1; next }
	     on && /^[ \t]*[A-Z_0-9]+:/ { sub(":", "", $1); if ($3 > 0) print $1, $3 }' "$1"
}
# The numbers of the first "xprt: rdma" line, one a line.
mountstats_xprt() {
	awk '$1 == "xprt:" && $2 == "rdma" { for (i = 3; i <= NF; i++) print $i; exit }' "$1"
}

# check_watchers JOB: the live sources that ran in the client beside tcpdump
# (lab/guest/job.sh watch_start) against the capture's decode in
# $work/stats.json.
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
	if [ "$t" = siw ]; then
		# Not compared yet: a TCP segment the stack sends whole (GSO)
		# holds many FPDUs, the program hands over its first --snaplen
		# bytes, and the analyzer does not find its way back into a
		# stream cut that way.  Shown here, to be made equal.
		echo "# $1/$t: rpcrdma-dump -e eth0 saw calls $(jq .total.calls "$w-ebpf.json" 2>/dev/null) of $truth_calls," \
			"replies $(jq .total.replies "$w-ebpf.json" 2>/dev/null) of $truth_replies," \
			"stream gaps $(jq .frames.iwarp_stream_gaps "$w-ebpf.json" 2>/dev/null)"
	else
		check_eq "$1/$t: rpcrdma-dump -e eth0: calls" "$truth_calls" "$(jq .total.calls "$w-ebpf.json" 2>/dev/null)"
		check_eq "$1/$t: rpcrdma-dump -e eth0: replies" "$truth_replies" "$(jq .total.replies "$w-ebpf.json" 2>/dev/null)"
	fi
	# the kernel's tracepoints: xprtrdma_reply for every reply; a call for
	# every marshal, so also for the resends that a broken connection
	# kept off the wire
	last=$(tail -n 1 "$w-trace.jsonl")
	check_eq "$1/$t: rpcrdma-top -t: replies" "$truth_replies" "$(echo "$last" | jq .client.replies)"
	check_ge "$1/$t: rpcrdma-top -t: calls marshalled" "$truth_calls" "$(echo "$last" | jq .client.calls)"
}
