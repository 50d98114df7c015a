#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rpcrdma-exporter for real: it captures the reference peer's live traffic
# on lo, promtool accepts its /metrics, a real Prometheus server started
# here scrapes it and answers a query with the peer's own call count, 100
# concurrent clients and malformed or stalled HTTP requests leave it
# serving, /stats.json validates against its JSON Schema, the kernel's
# counters come from the files given, and SIGTERM stops it.
# usage: exporter-test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
exporter=$build/cli/rpcrdma-exporter
dump=$build/cli/rpcrdma-dump
peer=$build/cli/rpcrdma-peer
json_validate="/usr/bin/python3 $src/tests/tools/json-validate.py"
for tool in prometheus promtool curl jq capinfos editcap; do
	command -v "$tool" >/dev/null || {
		echo "SKIP: $tool is not installed (scripts/install-deps.sh installs it)"
		exit 77
	}
done
[ "$(id -u)" -eq 0 ] || {
	echo "SKIP: live capture on lo needs root (CAP_NET_RAW)"
	exit 77
}
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/exporter-lib.sh"

# -- command line ----------------------------------------------------------
"$exporter" >/dev/null 2>"$work/e1"
check "no source: usage and status 1" test $? -eq 1
check "no source: says what is missing" grep -q "give one source" "$work/e1"
"$exporter" -r "$src/samples/rocev2-mixed.pcap" -l nowhere:port >/dev/null 2>"$work/e2"
check "a bad -l: status 1" test $? -eq 1
# node_exporter's spelling and its :PORT (every address)
port=$(free_port)
"$exporter" -r "$src/samples/rocev2-mixed.pcap" --web.listen-address ":$port" >/dev/null 2>&1 &
pids+=($!)
check "--web.listen-address :PORT serves on every address (127.0.0.1 among them)" \
	wait_http "http://127.0.0.1:$port/metrics"
kill "${pids[-1]}" 2>/dev/null
# a host name, as node_exporter takes it: localhost's IPv4 address
port=$(free_port)
"$exporter" -r "$src/samples/rocev2-mixed.pcap" -l "localhost:$port" >/dev/null 2>&1 &
pids+=($!)
check "-l localhost:PORT serves on 127.0.0.1" wait_http "http://127.0.0.1:$port/metrics"
kill "${pids[-1]}" 2>/dev/null
# the source options every tool takes alike: the RoCEv2 port names the
# traffic for the decoder, so a sample on 4791 read as 4792 holds no message
port=$(free_port)
"$exporter" -r "$src/samples/rocev2-mixed.pcap" --roce-port 4792 -l "127.0.0.1:$port" \
	>/dev/null 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$port/metrics"
wait_replay_done "$work/m-4792" "http://127.0.0.1:$port/metrics"
check "--roce-port 4792: no RPC-over-RDMA message in a capture on 4791" \
	eval "grep -q '^rpcrdma_exporter_replay_done 1' '$work/m-4792' &&
	      grep -q '^rpcrdma_messages_total{' '$work/m-4792' &&
	      ! grep '^rpcrdma_messages_total{' '$work/m-4792' | grep -vq ' 0\$'"
kill "${pids[-1]}" 2>/dev/null
"$exporter" -r "$work/absent.pcap" 2>"$work/e3"
check "a missing file: status 2 and its name" \
	eval "test $? -eq 2 && grep -q absent.pcap '$work/e3'"

# a damaged file: what was read is served, marked, and said as rpcrdma-dump
# says it; once stopped, status 2
linux_nfs3=$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap
head -c $(($(wc -c <"$linux_nfs3") * 2 / 3)) "$linux_nfs3" >"$work/cut.pcap"
port=$(free_port)
"$exporter" -r "$work/cut.pcap" -l "127.0.0.1:$port" >/dev/null 2>"$work/cut.err" &
cut_pid=$!
pids+=("$cut_pid")
wait_http "http://127.0.0.1:$port/metrics"
wait_replay_done "$work/m-cut" "http://127.0.0.1:$port/metrics"
cut_said=$("$dump" -q -r "$work/cut.pcap" 2>&1 >/dev/null | sed -n 's/^rpcrdma-dump: //p')
cut_frames=$("$dump" -q --stats=json -r "$work/cut.pcap" 2>/dev/null | jq .frames.total)
check "a file cut at two thirds: rpcrdma_exporter_replay_failed 1, the $cut_frames frames read served" \
	eval "grep -q '^rpcrdma_exporter_replay_failed 1' '$work/m-cut' &&
	      grep -q '^rpcrdma_frames_total $cut_frames\$' '$work/m-cut'"
check "... the error said as rpcrdma-dump says it" grep -qF "rpcrdma-exporter: $cut_said" "$work/cut.err"
kill "$cut_pid"
wait "$cut_pid"
check "... and once stopped, status 2" test $? -eq 2
check "a whole file: rpcrdma_exporter_replay_failed 0" \
	grep -q '^rpcrdma_exporter_replay_failed 0' "$work/m-4792"

# a capture that starts mid-connection, as live capture of existing mounts
# does: a connection's grant is served once a reply carried it, never the
# RFC's initial 1 in its place
frames=$(capinfos -c -M "$linux_nfs3" 2>/dev/null | awk '/Number of packets/ { print $NF }')
editcap -r "$linux_nfs3" "$work/late.pcap" "$((frames / 3))-$frames" 2>/dev/null
port=$(free_port)
"$exporter" -r "$work/late.pcap" -l "127.0.0.1:$port" >/dev/null 2>&1 &
pids+=($!)
wait_replay_done "$work/m-late" "http://127.0.0.1:$port/metrics"
known=$("$dump" -q --stats=json -r "$work/late.pcap" 2>/dev/null |
	jq '[.connections[] | select(.credits.granted != null)] | length')
all=$("$dump" -q --stats=json -r "$work/late.pcap" 2>/dev/null | jq '.connections | length')
served=$(grep -c '^rpcrdma_connection_credits_granted{' "$work/m-late")
check "a capture cut mid-connection: a grant series for the $known of $all connections a reply gave one ($served)" \
	eval "test '$known' -gt 0 && test '$known' -lt '$all' && test '$served' -eq '$known'"
nfs_errors=$("$dump" -q --stats=json -r "$work/late.pcap" 2>/dev/null | jq '[(.nfs_errors // [])[].count] | add // 0')
check "... and rpcrdma_nfs_errors_total as --stats=json's nfs_errors ($nfs_errors)" \
	eval "test '$nfs_errors' -gt 0 && test \"\$(awk '/^rpcrdma_nfs_errors_total[{]/ { n += \$NF } END { printf \"%d\", n }' '$work/m-late')\" = '$nfs_errors' &&
	      grep -q '^rpcrdma_nfs_errors_total{program=\"NFS\",version=\"3\",procedure=\"LOOKUP\",operation=\"\",status=\"NFS3ERR_NOENT\"} ' '$work/m-late'"
# it rebuilds no message (it counts only): no series says it rebuilt none
check "no rpcrdma_messages_rebuilt_total nor _not_rebuilt_total (no message rebuilt, as -q)" \
	eval "grep -q '^rpcrdma_exporter_replay_done 1' '$work/m-late' &&
	      ! grep -q '^rpcrdma_messages_\(not_\)\?rebuilt_total' '$work/m-late'"
# who is calling: each client's series as --stats=json's clients
want=$("$dump" -q --stats=json -r "$work/late.pcap" 2>/dev/null |
	jq -r '.clients[] | "\(.address) \(.calls) \(.errors) \(.bytes.rdma_write) \(.latency.count)"' | sort)
got=$(awk -F'[{}" ]+' '
	/^rpcrdma_client_calls_total[{]/ { calls[$3] = $NF }
	/^rpcrdma_client_errors_total[{]/ { errors[$3] = $NF }
	/^rpcrdma_client_bytes_total[{].*kind="rdma_write"/ { bytes[$3] = $NF }
	/^rpcrdma_client_latency_seconds_count[{]/ { n[$3] = $NF }
	END { for (c in calls) print c, calls[c], errors[c], bytes[c], n[c] }' "$work/m-late" | sort)
check "... and per client: calls, errors, bytes read, latency count as --stats=json's ($want)" \
	eval "test -n '$want' && test '$want' = '$got'"
kill "${pids[-1]}" 2>/dev/null

# -- node_exporter's flags --------------------------------------------------
linux_capture=$src/tests/linux/bookworm-rxe-nfs41/client/capture.pcap
start() { # exporter arguments: sets $port once it serves /
	port=$(free_port)
	"$exporter" -l "127.0.0.1:$port" "$@" >/dev/null 2>>"$work/flags.log" &
	pids+=($!)
	wait_http "http://127.0.0.1:$port/"
}
check "--no-collector.packets: no source needed, the kernel's files served" \
	eval "start --no-collector.packets --mountstats '$src/tests/kernel/mountstats-27.txt' &&
	      curl -s http://127.0.0.1:\$port/metrics >'$work/m-kernel' &&
	      grep -q '^rpcrdma_kernel_xprt_' '$work/m-kernel' &&
	      ! grep -q '^rpcrdma_frames_total' '$work/m-kernel' &&
	      wait_line '$work/flags.log' 'from the kernel.s files only'"
kill "${pids[-1]}" 2>/dev/null
"$exporter" --no-collector.packets -r "$src/samples/rocev2-mixed.pcap" 2>"$work/e4"
check "--no-collector.packets with a frame source: status 1, said" \
	eval "test $? -eq 1 && grep -q 'reads no frames' '$work/e4'"
check "--web.telemetry-path /prom, --web.disable-exporter-metrics, --no-collector.mountstats" \
	eval "start -r '$src/samples/rocev2-mixed.pcap' --web.telemetry-path /prom \
		--web.disable-exporter-metrics --no-collector.mountstats \
		--mountstats '$src/tests/kernel/mountstats-27.txt' &&
	      curl -s http://127.0.0.1:\$port/prom >'$work/m-prom' &&
	      grep -q '^rpcrdma_frames_total' '$work/m-prom' &&
	      ! grep -q '^process_\|^rpcrdma_exporter_scrapes_total\|^rpcrdma_kernel_' '$work/m-prom' &&
	      test \"\$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:\$port/metrics)\" = 404 &&
	      curl -s http://127.0.0.1:\$port/ | grep -q 'href=\"/prom\"'"
kill "${pids[-1]}" 2>/dev/null
# --web.max-requests: 40 requests at once from one curl, one page at a time
start -r "$linux_capture" --web.max-requests 1
forty() { # curl's arguments for 40 requests of this exporter's metrics
	for _ in $(seq 40); do printf '%s\n' -o /dev/null "http://127.0.0.1:$port/metrics"; done
}
mapfile -t urls < <(forty)
# pages take a millisecond: rounds until two overlap (each round almost
# always has some), every answer 200 or 503
: >"$work/codes-1.txt"
for _ in $(seq 20); do
	curl -s -Z --parallel-max 40 -H 'Accept-Encoding: gzip' -w '%{http_code}\n' \
		"${urls[@]}" >>"$work/codes-1.txt"
	grep -q '^503$' "$work/codes-1.txt" && break
done
check "--web.max-requests 1: 40 at once, some get 503, the others 200 ($(sort "$work/codes-1.txt" | uniq -c | tr '\n' ' '))" \
	eval "test \$(grep -c '^503$' '$work/codes-1.txt') -gt 0 &&
	      test \$(grep -c '^200$' '$work/codes-1.txt') -gt 0 &&
	      test \$(grep -cv '^200$\|^503$' '$work/codes-1.txt') -eq 0"
kill "${pids[-1]}" 2>/dev/null
start -r "$linux_capture" --web.max-requests 0
mapfile -t urls < <(forty)
curl -s -Z --parallel-max 40 -H 'Accept-Encoding: gzip' -w '%{http_code}\n' \
	"${urls[@]}" >"$work/codes-0.txt"
check "--web.max-requests 0: no limit, 40 at once all get 200" \
	test "$(grep -c '^200$' "$work/codes-0.txt")" -eq 40
kill "${pids[-1]}" 2>/dev/null
# --web.systemd-socket: socket activation as systemd does it (its own tool)
if command -v systemd-socket-activate >/dev/null; then
	port=$(free_port) failed_before=$fail
	systemd-socket-activate -l "127.0.0.1:$port" "$exporter" --web.systemd-socket \
		-r "$src/samples/rocev2-mixed.pcap" >/dev/null 2>"$work/activate.log" &
	pids+=($!)
	for _ in $(seq 300); do
		grep -q "Listening on" "$work/activate.log" && break
		sleep 0.1
	done
	check "--web.systemd-socket: started by the first connection on systemd's socket, it answers it" \
		eval "curl -s --max-time 20 http://127.0.0.1:$port/metrics | grep -q '^rpcrdma_frames_total' &&
		      wait_line '$work/activate.log' 'serving http on systemd.s socket'"
	[ "$fail" -eq "$failed_before" ] || sed 's/^/# activate.log: /' "$work/activate.log"
	kill "${pids[-1]}" 2>/dev/null
	# as rpcrdma-exporter.socket starts rpcrdma-exporter.service: no flag
	port=$(free_port) failed_before=$fail
	systemd-socket-activate -l "127.0.0.1:$port" "$exporter" \
		-r "$src/samples/rocev2-mixed.pcap" >/dev/null 2>"$work/activate2.log" &
	pids+=($!)
	for _ in $(seq 300); do
		grep -q "Listening on" "$work/activate2.log" && break
		sleep 0.1
	done
	check "a socket systemd passes is taken without the flag too (the .socket unit)" \
		eval "curl -s --max-time 20 http://127.0.0.1:$port/metrics | grep -q '^rpcrdma_frames_total' &&
		      wait_line '$work/activate2.log' 'serving http on systemd.s socket'"
	[ "$fail" -eq "$failed_before" ] || sed 's/^/# activate2.log: /' "$work/activate2.log"
	kill "${pids[-1]}" 2>/dev/null
fi
"$exporter" --web.systemd-socket -r "$src/samples/rocev2-mixed.pcap" 2>"$work/e5"
check "--web.systemd-socket without systemd: status 1, said" \
	eval "test $? -eq 1 && grep -q 'systemd passed no socket' '$work/e5'"

# -- live capture of the peer on lo ----------------------------------------
port=$(free_port)
test_start=$(date +%s)
"$exporter" -i lo -l "127.0.0.1:$port" --mountstats "$src/tests/kernel/mountstats-27.txt" \
	--svc-rdma "$src/tests/kernel/svc_rdma" udp port 4791 2>"$work/exporter.log" &
exporter_pid=$!
pids+=("$exporter_pid")
check "the exporter serves /" wait_http "http://127.0.0.1:$port/"
check "its capture open, it holds no capability (CapEff, CapPrm, CapBnd all 0)" \
	eval "grep -q '^CapEff:[[:space:]]*0*$' /proc/$exporter_pid/status &&
	      grep -q '^CapPrm:[[:space:]]*0*$' /proc/$exporter_pid/status &&
	      grep -q '^CapBnd:[[:space:]]*0*$' /proc/$exporter_pid/status"
sleep 0.5 # the capture is open once HTTP is
"$peer" server >"$work/server.out" 2>&1 &
pids+=($!)
sleep 0.3
"$peer" client -n 400 >"$work/client.out" 2>&1
calls=$(sed -n 's/^calls \([0-9]*\)  replies.*/\1/p' "$work/client.out")
check "the peer's client completed its calls" test "${calls:-0}" -eq 400
# the exporter sees every call once the capture has drained
metric_sum() { # metric name
	curl -s "http://127.0.0.1:$port/metrics" |
		awk -v m="$1" '$1 ~ "^"m"({|$)" { s += $2 } END { print s + 0 }'
}
# the client's calls; the server's callbacks count under program NFS4_CB
forward_calls() {
	curl -s "http://127.0.0.1:$port/metrics" |
		awk '$1 ~ /^rpcrdma_rpc_calls_total[{]/ && $1 !~ /program="NFS4_CB"/ { s += $2 }
		     END { print s + 0 }'
}
seen=0
for _ in $(seq 50); do
	seen=$(forward_calls)
	[ "$seen" = "$calls" ] && break
	sleep 0.1
done
check "rpcrdma_rpc_calls_total but NFS4_CB's equals the peer client's call count ($seen of $calls)" \
	test "$seen" = "$calls"
curl -s "http://127.0.0.1:$port/metrics" >"$work/metrics.txt"
check "promtool check metrics accepts /metrics" \
	promtool check metrics <"$work/metrics.txt"
check "per-connection series name the local end and the QP" \
	grep -q 'rpcrdma_connection_calls_total{transport="RoCEv2",local="127.0.0.1",remote="127.0.0.2",qpn="0x' "$work/metrics.txt"
check "no finding on clean traffic" \
	eval "! grep -E '^rpcrdma_findings_total.* [1-9]' '$work/metrics.txt'"
check "the kernel's rdma transports, by position, one series each" \
	grep -q 'rpcrdma_kernel_xprt_sends_total{device="192.168.122.10:/export",mountpoint="/mnt/rdma",xprt="1"} 1002' "$work/metrics.txt"
check "svc_rdma counters and settings" \
	eval "grep -q '^rpcrdma_kernel_svc_sq_starve_total 3$' '$work/metrics.txt' &&
	      grep -q '^rpcrdma_kernel_svc_max_requests 64$' '$work/metrics.txt'"
curl -s -D "$work/om.headers" -H 'Accept: application/openmetrics-text; version=1.0.0' \
	"http://127.0.0.1:$port/metrics" >"$work/om.txt"
check "OpenMetrics when asked: its content type" \
	grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$work/om.headers"
check "OpenMetrics: counter families without _total, samples with, # EOF last" \
	eval "grep -q '^# TYPE rpcrdma_rpc_calls counter' '$work/om.txt' &&
	      grep -q '^rpcrdma_rpc_calls_total{' '$work/om.txt' &&
	      test \"\$(tail -n 1 '$work/om.txt')\" = '# EOF'"
curl -s -D "$work/gz.headers" -H 'Accept-Encoding: gzip' \
	"http://127.0.0.1:$port/metrics" >"$work/metrics.gz"
check "gzip when asked (Content-Encoding and Vary), a gzip stream promtool accepts" \
	eval "grep -qi '^content-encoding: gzip' '$work/gz.headers' &&
	      grep -qi '^vary: accept-encoding' '$work/gz.headers' &&
	      gzip -dc '$work/metrics.gz' | promtool check metrics"
check "the same families gzipped as plain" \
	eval "test \"\$(gzip -dc '$work/metrics.gz' | grep '^# TYPE' | md5sum)\" = \"\$(grep '^# TYPE' '$work/metrics.txt' | md5sum)\""
curl -s -D "$work/nogz.headers" -H 'Accept-Encoding: gzip;q=0, identity' -o /dev/null \
	"http://127.0.0.1:$port/metrics"
check "gzip;q=0 refuses gzip: plain text" \
	eval "! grep -qi '^content-encoding' '$work/nogz.headers'"
now=$(date +%s)
started=$(sed -n 's/^process_start_time_seconds //p' "$work/metrics.txt")
rss=$(sed -n 's/^process_resident_memory_bytes //p' "$work/metrics.txt")
fds=$(sed -n 's/^process_open_fds //p' "$work/metrics.txt")
real_fds=$(($(ls "/proc/$exporter_pid/fd" | wc -l)))
check "process_* metrics: started $((now - ${started:-0})) s ago (the test started $((now - test_start)) s ago), resident ${rss:-?} bytes, $fds open files (/proc says $real_fds)" \
	eval "test '${started:-0}' -ge $((test_start - 2)) && test '${started:-0}' -le $now &&
	      test '${rss:-0}' -gt 1000000 && test '${fds:-0}' -gt 3 &&
	      grep -q '^process_cpu_seconds_total ' '$work/metrics.txt' &&
	      grep -q '^process_max_fds ' '$work/metrics.txt'"
curl -s "http://127.0.0.1:$port/stats.json" >"$work/stats.json"
check "/stats.json validates against docs/schema/rpcrdma-dump.schema.json" \
	eval "$json_validate --document --require stats $src/docs/schema/rpcrdma-dump.schema.json <$work/stats.json"
check "unknown paths: 404; other methods: 405" \
	eval "test \"\$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$port/nope)\" = 404 &&
	      test \"\$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x=1 http://127.0.0.1:$port/metrics)\" = 405"

# -- a real Prometheus server scrapes it -----------------------------------
pport=$(free_port)
cp "$src/samples/monitoring/rpcrdma-rules.yml" "$work/"
cat >"$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - rpcrdma-rules.yml
scrape_configs:
  - job_name: rpcrdma
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
	--web.listen-address="127.0.0.1:$pport" >"$work/prometheus.log" 2>&1 &
pids+=($!)
query() { # PromQL: the first value, or nothing
	curl -s -G "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" |
		sed -n 's/.*"value":\[[^,]*,"\([^"]*\)"\].*/\1/p' 
}
got=
for _ in $(seq 150); do
	got=$(query 'sum(rpcrdma_rpc_calls_total{job="rpcrdma",program!="NFS4_CB"})')
	[ "$got" = "$calls" ] && break
	sleep 0.2
done
check "Prometheus scraped it: sum(rpcrdma_rpc_calls_total{program!=\"NFS4_CB\"}) = $calls (got ${got:-nothing})" \
	test "$got" = "$calls"
check "Prometheus: the target is up and its latency histograms are stored" \
	eval "test \"\$(query 'up{job=\"rpcrdma\"}')\" = 1 &&
	      test -n \"\$(query 'rpcrdma_rpc_latency_seconds_count')\""

# the bundled dashboard's queries run, and name metrics the exporter has
dashboard=$src/samples/monitoring/grafana-dashboard.json
grep -o '"expr": "\([^"\\]\|\\.\)*"' "$dashboard" |
	sed 's/^"expr": "//; s/"$//; s/\\"/"/g; s/\$instance/.*/g; s/\$__rate_interval/1m/g' \
	>"$work/exprs.txt"
bad_exprs=0
while IFS= read -r expr; do
	status=$(curl -s -G "http://127.0.0.1:$pport/api/v1/query" \
		--data-urlencode "query=$expr" | sed -n 's/^{"status":"\([a-z]*\)".*/\1/p')
	[ "$status" = success ] || { echo "# query fails: $expr"; bad_exprs=$((bad_exprs + 1)); }
	for m in $(echo "$expr" | grep -o 'rpcrdma_[a-z0-9_]*'); do
		grep -q "^$m" "$work/metrics.txt" ||
			{ echo "# no such metric: $m"; bad_exprs=$((bad_exprs + 1)); }
	done
done <"$work/exprs.txt"
check "every query of samples/monitoring/grafana-dashboard.json ($(wc -l <"$work/exprs.txt")) runs on real metrics" \
	eval "test $bad_exprs -eq 0 && test -s '$work/exprs.txt'"
check "samples/monitoring/prometheus.yml and its rules pass promtool" \
	promtool check config "$src/samples/monitoring/prometheus.yml"
check "the rules' unit tests pass (promtool test rules)" \
	promtool test rules "$src/samples/monitoring/rpcrdma-rules.test.yml"
rules=$src/samples/monitoring/rpcrdma-rules.yml
untested=0
for a in $(sed -n 's/^ *- alert: //p' "$rules"); do
	grep -q "alertname: $a\$" "$src/samples/monitoring/rpcrdma-rules.test.yml" ||
		{ echo "# alert without a unit test: $a"; untested=$((untested + 1)); }
done
check "every alert has a unit test, a for: and a severity label" \
	eval "test $untested -eq 0 &&
	      test \$(grep -c '^ *- alert:' '$rules') -eq \$(grep -c '^ *for: ' '$rules') &&
	      test \$(grep -c '^ *- alert:' '$rules') -eq \$(grep -c '^ *severity: ' '$rules')"
# the server started above evaluates the rules on the exporter's metrics
recorded=
for _ in $(seq 150); do
	recorded=$(query 'count(program_version_procedure:rpcrdma_rpc_calls:rate5m)')
	[ -n "$recorded" ] && break
	sleep 0.2
done
check "the recording rules record from the exporter's series (${recorded:-no} procedures)" \
	test "${recorded:-0}" -gt 0
curl -s "http://127.0.0.1:$pport/api/v1/rules" >"$work/rules.json"
check "Prometheus loaded every rule and evaluates them without error" \
	eval "test \$(jq '[.data.groups[].rules[]] | length' '$work/rules.json') -eq \$(grep -c '^ *- \(record\|alert\):' '$rules') &&
	      test \$(jq '[.data.groups[].rules[] | select(.health != \"ok\")] | length' '$work/rules.json') -eq 0"

# -- many clients, and bad ones --------------------------------------------
seq 100 | xargs -P 100 -I{} curl -s -o /dev/null -w '%{http_code}\n' \
	"http://127.0.0.1:$port/metrics" >"$work/codes.txt"
check "100 concurrent clients all get 200" \
	test "$(grep -c '^200$' "$work/codes.txt")" -eq 100
# stalled connections (never finish their request), garbage, a huge
# header, a request split and abandoned
for _ in $(seq 30); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$port"
	printf 'GET /metrics HTTP/1.1\r\nHost: x\r\n' >&"$fd"
	stalled+=("$fd")
done
printf 'NOT HTTP AT ALL\r\n\r\n' | timeout 5 bash -c "cat > /dev/tcp/127.0.0.1/$port" 2>/dev/null
head -c 200000 /dev/zero | tr '\0' 'A' | sed 's/^/GET \/metrics HTTP\/1.1\r\nX-Big: /' |
	timeout 5 bash -c "cat > /dev/tcp/127.0.0.1/$port" 2>/dev/null
printf 'GET /%s HTTP/1.1\r\n\r\n' "$(head -c 20000 /dev/zero | tr '\0' 'a')" |
	timeout 5 bash -c "cat > /dev/tcp/127.0.0.1/$port" 2>/dev/null
printf '\x00\xff\x16\x03\x01\x02\x00' | timeout 5 bash -c "cat > /dev/tcp/127.0.0.1/$port" 2>/dev/null
t0=$(date +%s%N)
code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/metrics")
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
check "with 30 stalled and 4 malformed requests it still answers at once (${ms} ms)" \
	eval "test '$code' = 200 && test $ms -lt 1000"
for fd in "${stalled[@]}"; do exec {fd}>&-; done
check "the exporter is still running" kill -0 "$exporter_pid"

# -- stopping --------------------------------------------------------------
kill -TERM "$exporter_pid"
for _ in $(seq 50); do
	kill -0 "$exporter_pid" 2>/dev/null || break
	sleep 0.1
done
check "SIGTERM stops it within 5 s" eval "! kill -0 $exporter_pid 2>/dev/null"
wait "$exporter_pid"
check "and it exits 0" test $? -eq 0

tap_end
