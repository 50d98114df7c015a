#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The sample alert rules on real metrics: the exporter replays each capture
# of Linux's own NFS/RDMA client and server (the lab's) and the fault
# samples, its /metrics findings become a promtool rule test, and
# RpcRdmaConformanceErrors fires on none of the stock Linux runs and on each
# fault sample whose finding is an error, naming that finding;
# RpcRdmaDamagedPackets fires on a Linux capture the test damages, only.
# usage: alerts-real-test.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
exporter=$build/cli/rpcrdma-exporter
for tool in promtool curl; do
	command -v "$tool" >/dev/null || {
		echo "SKIP: $tool is not installed (scripts/install-deps.sh installs it)"
		exit 77
	}
done
. "$src/tests/tap.sh"
. "$src/tests/exporter-lib.sh"

# The findings the exporter serves once it has replayed a capture:
# "id severity count" lines, counts above 0.
findings_of() { # capture
	local port
	port=$(free_port)
	"$exporter" -r "$1" -l "127.0.0.1:$port" --no-collector.mountstats \
		--no-collector.svc_rdma >/dev/null 2>&1 &
	pids+=($!)
	local done=0
	wait_replay_done "$work/metrics" "http://127.0.0.1:$port/metrics" || done=1
	kill "${pids[-1]}"
	wait "${pids[-1]}" 2>/dev/null
	unset 'pids[-1]'
	[ "$done" -eq 0 ] || return 1
	# the diagnosis's series too: "problem severity events" lines
	sed -n 's/^rpcrdma_diagnosis_problem_events{problem="\([a-z_]*\)",severity="\([a-z]*\)"} \([0-9]*\)$/\1 \2 \3/p' \
		"$work/metrics" >"$work/problems.txt"
	sed -n 's/^rpcrdma_findings_total{id="\([^"]*\)",severity="\([a-z]*\)"} \([0-9]*\)$/\1 \2 \3/p' \
		"$work/metrics" | awk '$3 > 0'
}

# Each capture, its instance name, and the error findings it should alert
# on ("" for none).
captures=()
for run in "$src"/tests/linux/*-*-*/; do
	name=$(basename "$run")
	for side in client server; do
		[ -f "$run$side/capture.pcap" ] && captures+=("$run$side/capture.pcap linux-$name-$side")
	done
done
for f in "$src"/samples/rocev2-fault-*.pcap; do
	captures+=("$f $(basename "$f" .pcap)")
done
# the faults the lab made on real kernels (lab/jobs/faults.sh)
for f in "$src"/tests/linux/*-faults/client/fault-*.pcap; do
	[ -f "$f" ] || continue
	run=$(basename "$(dirname "$(dirname "$f")")")
	captures+=("$f kernel-$run-$(basename "$f" .pcap)")
done
# a Linux RoCE capture with one packet damaged on the wire: the last byte
# of its first RoCEv2 frame (the ICRC's) changed
linux_roce=$(ls "$src"/tests/linux/*-rxe-nfs3/client/capture.pcap | head -n 1)
perl -e 'local $/; my $d = <STDIN>; my $o = 24;
	while ($o + 16 <= length $d) {
		my ($caplen, $len) = unpack "V V", substr($d, $o + 8, 8);
		my $f = $o + 16;
		if ($caplen == $len && $caplen > 42 && unpack("n", substr($d, $f + 12, 2)) == 0x0800 &&
		    ord(substr($d, $f + 23, 1)) == 17 && unpack("n", substr($d, $f + 36, 2)) == 4791) {
			substr($d, $f + $caplen - 1, 1) ^= "\x5a";
			last;
		}
		$o = $f + $caplen;
	}
	print $d' <"$linux_roce" >"$work/damaged.pcap"
captures+=("$work/damaged.pcap linux-damaged-icrc")

# The promtool expectation at 5 minutes: ALERT fires on INSTANCE for each
# value of IDS for the label LABEL (none: it stays quiet), its summary and
# description with %s for the value.
expect_alerts() { # alert, instance, ids, summary, description[, label]
	echo "      - eval_time: 5m"
	echo "        alertname: $1"
	if [ -z "$3" ]; then
		echo "        exp_alerts: []"
		return
	fi
	echo "        exp_alerts:"
	for id in $3; do
		echo "          - exp_labels:"
		echo "              severity: warning"
		echo "              instance: $2"
		echo "              ${6:-id}: $id"
		echo "            exp_annotations:"
		printf "              summary: \"$4\"\n" "$id"
		printf "              description: \"$5\"\n" "$id"
	done
}

test_file=$work/alerts.test.yml
{
	echo "rule_files:"
	echo "  - $src/samples/monitoring/rpcrdma-rules.yml"
	echo "evaluation_interval: 1m"
	echo "tests:"
} >"$test_file"
linux_errors=0 linux_runs=0 fault_alerts=0 damaged_alerts="" linux_problems="" fault_problems=0
for entry in "${captures[@]}"; do
	capture=${entry% *} instance=${entry##* }
	if ! findings_of "$capture" >"$work/f.txt"; then
		check "$instance: the exporter replayed it" false
		continue
	fi
	errors=$(awk '$2 == "error" && $1 != "rpcrdma.crc32c" { print $1 }' "$work/f.txt" | sort -u)
	damaged=$(awk '$1 == "rpcrdma.icrc" || $1 == "rpcrdma.crc32c" { print $1 }' "$work/f.txt" | sort -u)
	# the diagnosis's problems above a note, as rpcrdma-dump ranks them
	problems=$(awk '$2 != "note" && $3 > 0 { print $1 }' "$work/problems.txt" | sort -u)
	want=$("$build/cli/rpcrdma-dump" -q --stats=json -r "$capture" 2>/dev/null |
		jq -r '.diagnosis[] | select(.severity != "note") | .problem' | sort -u)
	check "$instance: the exporter's diagnosis is rpcrdma-dump's (${problems:-none})" \
		test "$problems" = "$want" -a "$(grep -c . "$work/problems.txt")" -gt 0
	case "$instance" in
	linux-*)
		linux_runs=$((linux_runs + 1))
		[ -n "$errors" ] && linux_errors=$((linux_errors + 1))
		check "$instance: no error finding ($(awk '{ printf "%s%s %s %s", sep, $1, $2, $3; sep = ", " }' "$work/f.txt"))" \
			test -z "$errors"
		[ -n "$problems" ] && linux_problems="$linux_problems $instance"
		;;
	*)
		[ -n "$errors" ] && fault_alerts=$((fault_alerts + 1))
		[ -n "$problems" ] && fault_problems=$((fault_problems + 1))
		;;
	esac
	# the counts as Prometheus would have scraped them: 0, then the
	# replay's totals for a quarter of an hour
	echo "  - interval: 1m" >>"$test_file"
	echo "    input_series:" >>"$test_file"
	if [ -s "$work/f.txt" ]; then
		while read -r id severity count; do
			echo "      - series: 'rpcrdma_findings_total{instance=\"$instance\", id=\"$id\", severity=\"$severity\"}'"
			echo "        values: '0 ${count}x14'"
		done <"$work/f.txt" >>"$test_file"
	else
		echo "      - series: 'rpcrdma_frames_total{instance=\"$instance\"}'" >>"$test_file"
		echo "        values: '0x14'" >>"$test_file"
	fi
	while read -r problem severity events; do
		echo "      - series: 'rpcrdma_diagnosis_problem_events{instance=\"$instance\", problem=\"$problem\", severity=\"$severity\"}'"
		echo "        values: '0 ${events}x14'"
	done <"$work/problems.txt" >>"$test_file"
	echo "    alert_rule_test:" >>"$test_file"
	expect_alerts RpcRdmaConformanceErrors "$instance" "$errors" \
		"$instance sees RPC-over-RDMA finding %s" \
		"A peer breaks RFC 8166 or RFC 8167: see the finding %s in docs/findings.md." >>"$test_file"
	expect_alerts RpcRdmaDamagedPackets "$instance" "$damaged" \
		"$instance sees packets damaged on the wire (%s)" \
		"Packets failed their checksum in the last 10 minutes: check the link (cables, optics, port error counters); see %s in docs/findings.md." >>"$test_file"
	expect_alerts RpcRdmaProblem "$instance" "$problems" \
		"$instance: RPC-over-RDMA %s" \
		"The diagnosis names %s: rpcrdma-dump --stats shows its evidence, docs/diagnosis.md what to do." \
		problem >>"$test_file"
	[ -n "$damaged" ] && damaged_alerts="$damaged_alerts $instance"
done
check "a damaged packet is only that: RpcRdmaDamagedPackets on the Linux capture with one ICRC changed, and only there (${damaged_alerts# })" \
	test "$damaged_alerts" = " linux-damaged-icrc"
check "the Linux runs: $linux_runs replayed, none with an error finding" \
	test "$linux_runs" -gt 0 -a "$linux_errors" -eq 0
check "the Linux runs: no problem above a note in the diagnosis (${linux_problems# })" \
	test -z "$linux_problems"
check "the fault samples with a problem ($fault_problems) include the RNR storm and the Write to a wrong STag" \
	eval "test $fault_problems -gt 0 &&
	      grep -A12 'alertname: RpcRdmaProblem' '$test_file' | grep -q 'problem: receiver_not_ready' &&
	      grep -A12 'alertname: RpcRdmaProblem' '$test_file' | grep -q 'problem: failed_on_nak'"
kernel_problem() { # problem: RpcRdmaProblem expected for it on a kernel fault
	awk -v p="problem: $1" '/alertname: RpcRdmaProblem/ { a = 1 } a && /instance: kernel-/ { k = 1 }
		a && k && index($0, p) { found = 1 } /- eval_time/ { a = 0; k = 0 } END { exit !found }' "$test_file"
}
check "the faults made on real kernels: RpcRdmaProblem names credit_bound and packet_loss" \
	eval "kernel_problem credit_bound && kernel_problem packet_loss"
check "the fault samples whose finding is an error ($fault_alerts) include the requester that cleared R" \
	eval "test $fault_alerts -gt 0 &&
	      grep -q 'instance: rocev2-fault-invalidate-requester-cleared-r' '$test_file'"
promtool test rules "$test_file" >"$work/promtool.out" 2>&1
status=$?
check "promtool: RpcRdmaConformanceErrors fires on each of those and on no Linux run, RpcRdmaProblem on each problem above a note and on no Linux run, RpcRdmaDamagedPackets on the damaged one only (${#captures[@]} captures)" \
	eval "test $status -eq 0 || { cat '$work/promtool.out'; false; }"
tap_end
