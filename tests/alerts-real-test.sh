#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The sample alert rules on real metrics: the exporter replays each capture
# of Linux's own NFS/RDMA client and server (the lab's) and the fault
# samples, its /metrics findings become a promtool rule test, and
# RpcRdmaConformanceErrors fires on none of the stock Linux runs and on each
# fault sample whose finding is an error, naming that finding.
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

test_file=$work/alerts.test.yml
{
	echo "rule_files:"
	echo "  - $src/samples/monitoring/rpcrdma-rules.yml"
	echo "evaluation_interval: 1m"
	echo "tests:"
} >"$test_file"
linux_errors=0 linux_runs=0 fault_alerts=0
for entry in "${captures[@]}"; do
	capture=${entry% *} instance=${entry##* }
	if ! findings_of "$capture" >"$work/f.txt"; then
		check "$instance: the exporter replayed it" false
		continue
	fi
	errors=$(awk '$2 == "error" { print $1 }' "$work/f.txt" | sort -u)
	case "$instance" in
	linux-*)
		linux_runs=$((linux_runs + 1))
		[ -n "$errors" ] && linux_errors=$((linux_errors + 1))
		check "$instance: no error finding ($(awk '{ printf "%s%s %s %s", sep, $1, $2, $3; sep = ", " }' "$work/f.txt"))" \
			test -z "$errors"
		;;
	*)
		[ -n "$errors" ] && fault_alerts=$((fault_alerts + 1))
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
	echo "    alert_rule_test:" >>"$test_file"
	echo "      - eval_time: 5m" >>"$test_file"
	echo "        alertname: RpcRdmaConformanceErrors" >>"$test_file"
	if [ -z "$errors" ]; then
		echo "        exp_alerts: []" >>"$test_file"
	else
		echo "        exp_alerts:" >>"$test_file"
		for id in $errors; do
			cat >>"$test_file" <<YAML
          - exp_labels:
              severity: warning
              instance: $instance
              id: $id
            exp_annotations:
              summary: "$instance sees RPC-over-RDMA finding $id"
              description: "A peer breaks RFC 8166 or RFC 8167: see the finding $id in docs/findings.md."
YAML
		done
	fi
done
check "the Linux runs: $linux_runs replayed, none with an error finding" \
	test "$linux_runs" -gt 0 -a "$linux_errors" -eq 0
check "the fault samples whose finding is an error ($fault_alerts) include the requester that cleared R" \
	eval "test $fault_alerts -gt 0 &&
	      grep -q 'instance: rocev2-fault-invalidate-requester-cleared-r' '$test_file'"
promtool test rules "$test_file" >"$work/promtool.out" 2>&1
status=$?
check "promtool: RpcRdmaConformanceErrors fires on each of those and on no Linux run (${#captures[@]} captures)" \
	eval "test $status -eq 0 || { cat '$work/promtool.out'; false; }"
tap_end
