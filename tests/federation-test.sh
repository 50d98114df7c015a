#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The fleet pattern of samples/monitoring, with real servers: two exporters
# (on 127.0.0.1 and 127.0.0.2, as two hosts) replaying a capture of Linux's
# NFS/RDMA client, a site Prometheus started from the sample prometheus.yml
# (its relabelling names each host, its rules record per host) and a central
# Prometheus started from prometheus-central.yml federating the site's
# per-host series and nothing raw.
# usage: federation-test.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
exporter=$build/cli/rpcrdma-exporter
for tool in prometheus curl; do
	command -v "$tool" >/dev/null || {
		echo "SKIP: $tool is not installed (scripts/install-deps.sh installs it)"
		exit 77
	}
done
. "$src/tests/tap.sh"
. "$src/tests/exporter-lib.sh"
monitoring=$src/samples/monitoring
capture=$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap

# two hosts' exporters
targets=()
for host in 127.0.0.1 127.0.0.2; do
	port=$(free_port)
	"$exporter" -r "$capture" -l "$host:$port" >/dev/null 2>>"$work/exporters.log" &
	pids+=($!)
	targets+=("$host:$port")
done
for _ in $(seq 100); do
	[ "$(grep -c '^rpcrdma-exporter: serving' "$work/exporters.log")" -eq 2 ] && break
	sleep 0.1
done
calls=$(curl -s "http://${targets[0]}/metrics" |
	awk '/^rpcrdma_rpc_calls_total\{/ { s += $2 } END { print s + 0 }')

# the site: the sample configuration, its targets and pace this test's
site_port=$(free_port)
sed -e "s|          - nfs-client-1.example.net:10186|          - ${targets[0]}|" \
	-e "s|          - nfs-server-1.example.net:10186|          - ${targets[1]}|" \
	-e 's|: 15s$|: 1s|' -e "s|  - rpcrdma-rules.yml|  - $monitoring/rpcrdma-rules.yml|" \
	"$monitoring/prometheus.yml" >"$work/site.yml"
check "the site's configuration is the sample's with this test's targets" \
	eval "grep -q '${targets[1]}' '$work/site.yml' && grep -q 'relabel_configs' '$work/site.yml'"
prometheus --config.file="$work/site.yml" --storage.tsdb.path="$work/site-tsdb" \
	--web.listen-address="127.0.0.1:$site_port" >"$work/site.log" 2>&1 &
pids+=($!)

# the centre: the sample configuration, federating this site
central_port=$(free_port)
sed -e "s|          - prometheus.site-1.example.net:9090|          - 127.0.0.1:$site_port|" \
	-e 's|: 30s$|: 1s|' "$monitoring/prometheus-central.yml" >"$work/central.yml"
prometheus --config.file="$work/central.yml" --storage.tsdb.path="$work/central-tsdb" \
	--web.listen-address="127.0.0.1:$central_port" >"$work/central.log" 2>&1 &
pids+=($!)

query() { # server port, PromQL: the values, one a line, sorted
	curl -s -G "http://127.0.0.1:$1/api/v1/query" --data-urlencode "query=$2" |
		jq -r '.data.result[]? | "\(.metric | del(.__name__) | to_entries | map("\(.key)=\(.value)") | join(","))=\(.value[1])"' |
		sort
}
wait_for() { # port, PromQL, wanted output: up to 60 s
	for _ in $(seq 300); do
		[ "$(query "$1" "$2")" = "$3" ] && return 0
		sleep 0.2
	done
	return 1
}
check "the site scrapes both exporters, each named by its host (relabelling)" \
	wait_for "$site_port" 'up{job="rpcrdma"}' \
	"$(printf 'host=127.0.0.1,instance=%s,job=rpcrdma=1\nhost=127.0.0.2,instance=%s,job=rpcrdma=1' \
		"${targets[0]}" "${targets[1]}")"
check "the site records calls per host ($calls calls each, so a rate for both hosts)" \
	wait_for "$site_port" 'count(host:rpcrdma_rpc_calls:rate5m)' "=2"
check "the centre holds the site's per-host calls, marked with the site" \
	wait_for "$central_port" 'count by (site, host) (host:rpcrdma_rpc_calls:rate5m)' \
	"$(printf 'host=127.0.0.1,site=site-1=1\nhost=127.0.0.2,site=site-1=1')"
check "the centre holds the per-procedure and per-host severity series and the exporters' up" \
	eval "test -n \"\$(query $central_port 'program_version_procedure:rpcrdma_rpc_calls:rate5m')\" &&
	      test -n \"\$(query $central_port 'host_severity:rpcrdma_findings:increase10m')\" &&
	      test \"\$(query $central_port 'count(up{job=\"rpcrdma\",site=\"site-1\"})')\" = '=2'"
check "the centre holds no raw series (rpcrdma_rpc_calls_total stays at the site)" \
	eval "test -z \"\$(query $central_port 'rpcrdma_rpc_calls_total')\" &&
	      test -n \"\$(query $site_port 'rpcrdma_rpc_calls_total')\""
tap_end
