#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rpcrdma-exporter pushing its metrics as OTLP/HTTP (--otlp.endpoint) to a
# real receiver: VictoriaMetrics' OpenTelemetry endpoint (1.92 and later:
# Debian 13's; Debian's Prometheus builds have no OTLP receiver), reading
# them back through its Prometheus query API.  On a capture of Linux's
# NFS/RDMA client: every series /metrics serves (but the exporter's own,
# which move between a scrape and a push) arrives with its labels and its
# value (an RPC's program, procedure and version under OpenTelemetry's
# onc_rpc.* names), histograms bucket by bucket; the same gzip-compressed; over HTTPS
# with the receiver's CA given, and refused without it; a receiver that
# answers an error, or none, is named with its reason on stderr and counted
# in rpcrdma_exporter_otlp_pushes_total{result="failed"} while /metrics is
# served on; the command line refuses what it cannot push.
# usage: exporter-otlp-test.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
exporter=$build/cli/rpcrdma-exporter
for tool in victoria-metrics curl certtool python3; do
	command -v "$tool" >/dev/null || {
		echo "SKIP: $tool is not installed (scripts/install-deps.sh installs it on Debian 13 and later)"
		exit 77
	}
done
# OTLP with Prometheus' names (_total, _bucket) from its flag, 1.97 on
# (Debian 12's 1.79 takes no OTLP)
if ! victoria-metrics -help 2>&1 | grep -q -- '-opentelemetry.usePrometheusNaming'; then
	echo "SKIP: this VictoriaMetrics ($(dpkg-query -W -f='${Version}' victoria-metrics 2>/dev/null)) takes no OTLP with Prometheus' names (1.97 and later do)"
	exit 77
fi
"$exporter" --help 2>&1 | grep -q -- '--otlp.endpoint' || { echo "no --otlp.endpoint in this build"; exit 1; }
. "$src/tests/tap.sh"
. "$src/tests/exporter-lib.sh"
capture=$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap
sample=$src/samples/rocev2-mixed.pcap
cd "$work" || exit 1

# the receiver, over HTTP and over HTTPS (its certificate from a CA made here)
printf 'cn = "rpcrdma-tools test CA"\nca\ncert_signing_key\nexpiration_days = 2\n' >ca.tmpl
printf 'cn = "localhost"\ndns_name = "localhost"\nip_address = "127.0.0.1"\ntls_www_server\nexpiration_days = 2\n' >server.tmpl
for k in ca server; do certtool --generate-privkey --key-type=ecdsa --outfile $k.key 2>/dev/null; done
certtool --generate-self-signed --load-privkey ca.key --template ca.tmpl --outfile ca.crt 2>/dev/null
certtool --generate-certificate --load-privkey server.key --load-ca-certificate ca.crt \
	--load-ca-privkey ca.key --template server.tmpl --outfile server.crt 2>/dev/null
start_vm() {
	# the points are searchable at once (no latency offset, no cache)
	victoria-metrics -httpListenAddr "127.0.0.1:$port" -storageDataPath "$work/vm-$port" \
		-opentelemetry.usePrometheusNaming -search.latencyOffset=0s -search.disableCache \
		-retentionPeriod=1d $vm_tls >"$work/vm-$port.log" 2>&1 &
}
vm_tls=""
serve_on_free_port start_vm
vm=$port
pids+=("$server_pid")
vm_tls="-tls -tlsCertFile=$work/server.crt -tlsKeyFile=$work/server.key"
serve_on_free_port start_vm
vms=$port
pids+=("$server_pid")
check "VictoriaMetrics answers over HTTP and HTTPS" \
	eval "wait_http http://127.0.0.1:$vm/health && curl -s --cacert ca.crt -o /dev/null https://127.0.0.1:$vms/health"

query() { # VM's port, PromQL: the first result's value
	local scheme=http
	[ "$1" != "$vms" ] || scheme=https
	curl -s --cacert "$work/ca.crt" "$scheme://127.0.0.1:$1/api/v1/query" --data-urlencode "query=$2" |
		jq -r '.data.result[0].value[1] // empty'
}
until_value() { # VM, PromQL, value: up to 30 s
	for _ in $(seq 300); do
		[ "$(query "$1" "$2")" = "$3" ] && return 0
		sleep 0.1
	done
	return 1
}

# -- a replay of the Linux capture, pushed every second ------------------------
start_exporter() {
	"$exporter" -r "$capture" -l "127.0.0.1:$port" --otlp.endpoint \
		"http://127.0.0.1:$vm/opentelemetry/v1/metrics" --otlp.interval 1 \
		--otlp.header X-Scope-OrgID=rpcrdma-tools 2>"$work/exporter.err" &
}
serve_on_free_port start_exporter
pids+=("$server_pid")
exp=$port
wait_replay_done "$work/scrape.txt" -s "http://127.0.0.1:$exp/metrics"
check "the exporter says where it pushes" grep -q "pushing OTLP/HTTP to http://127.0.0.1:$vm/opentelemetry/v1/metrics every 1 s" "$work/exporter.err"
calls=$(awk '/^rpcrdma_rpc_calls_total[{]/ { n += $NF } END { print n + 0 }' "$work/scrape.txt")
check "the capture's calls reach the receiver ($calls)" \
	until_value "$vm" 'sum(rpcrdma_rpc_calls_total{service_name="rpcrdma-exporter"})' "$calls"
sleep 1.5 # one more push, after the scrape below's counters are taken
curl -s "http://127.0.0.1:$exp/metrics" >"$work/scrape.txt"
sleep 2.5
curl -s "http://127.0.0.1:$vm/api/v1/export" -d 'match[]={__name__=~"rpcrdma_.*|process_.*"}' >"$work/export.jsonl"
# series by name and labels (the resource's attributes aside) and their last
# value: those of the scrape, those the receiver holds
cat >"$work/series.py" <<'EOF'
import json, re, sys
resource = {"service_name", "service_version", "service_instance_id", "host_name"}
def key(name, labels):
    # a label of no value is no label (as Prometheus takes one); a bound a
    # number, however it is spelt (1e-05, 0.00001)
    labels = {k: (repr(float(v)) if k == "le" else v) for k, v in labels.items() if v != ""}
    return name + "{" + ",".join("%s=%s" % kv for kv in sorted(labels.items())) + "}"
# an RPC's labels under OpenTelemetry's names (onc_rpc.*), as the receiver
# spells them
onc_rpc = {"program": "onc_rpc_program_name", "procedure": "onc_rpc_procedure_name",
           "version": "onc_rpc_version"}
def prom(path):
    out = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        m = re.match(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$', line.strip())
        labels = dict(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', m.group(3) or ""))
        if "program" in labels and "procedure" in labels:
            labels = {onc_rpc.get(k, k): v for k, v in labels.items()}
        out[key(m.group(1), labels)] = float(m.group(4))
    return out
def vm(path):
    out = {}
    for line in open(path):
        j = json.loads(line)
        labels = {k: v for k, v in j["metric"].items() if k != "__name__" and k not in resource}
        out[key(j["metric"]["__name__"], labels)] = float(j["values"][-1])
    return out
a, b = prom(sys.argv[1]), vm(sys.argv[2])
# the exporter's own move between the scrape and the push
moving = re.compile(r'^(process_|rpcrdma_exporter_scrapes_total|rpcrdma_exporter_otlp_pushes_total)')
a = {k: v for k, v in a.items() if not moving.match(k)}
b = {k: v for k, v in b.items() if not moving.match(k)}
missing = sorted(set(a) - set(b)); extra = sorted(set(b) - set(a))
differ = sorted(k for k in set(a) & set(b) if abs(a[k] - b[k]) > 1e-9 * max(1, abs(a[k])))
for k in missing[:5]: print("# missing", k)
for k in extra[:5]: print("# only pushed", k)
for k in differ[:5]: print("# differs", k, a[k], b[k])
print(len(a), len(missing), len(extra), len(differ))
EOF
python3 "$work/series.py" "$work/scrape.txt" "$work/export.jsonl" >"$work/compare.txt"
grep '^#' "$work/compare.txt"
set -- $(tail -n 1 "$work/compare.txt")
check "every series /metrics serves arrives, with its labels and value (${1:-0} series; missing, only pushed, different)" \
	test "${1:-0}" -gt 100 -a "${2:-x} ${3:-x} ${4:-x}" = "0 0 0"
check "histograms arrive bucket by bucket, an RPC's labels as onc_rpc.* (rpcrdma_rpc_latency_seconds_bucket)" \
	test "$(grep -c '^rpcrdma_rpc_latency_seconds_bucket' "$work/scrape.txt")" -gt 10 -a \
	"$(query "$vm" 'count(rpcrdma_rpc_latency_seconds_bucket{onc_rpc_program_name="NFS",onc_rpc_version="3",onc_rpc_procedure_name!=""})')" = \
	"$(grep -c '^rpcrdma_rpc_latency_seconds_bucket{program="NFS",version="3",procedure="[A-Z]' "$work/scrape.txt")"
check "the resource names the exporter and what it reads (service.instance.id)" \
	test "$(query "$vm" "count(rpcrdma_exporter_build_info{service_name=\"rpcrdma-exporter\",service_instance_id=\"$(hostname):$capture\"})")" = 1
check "pushes counted as taken, none failed" \
	eval "curl -s http://127.0.0.1:$exp/metrics | grep -q '^rpcrdma_exporter_otlp_pushes_total{result=\"failed\"} 0$'"
# a last push as it stops
kill "$server_pid"
wait "$server_pid" 2>/dev/null

# -- gzip, and HTTPS with the receiver's CA ------------------------------------
mixed_calls=$("$build/cli/rpcrdma-dump" -q --stats=json -r "$sample" 2>/dev/null | jq '.total.calls')
"$exporter" -r "$sample" -l "127.0.0.1:$(free_port)" --otlp.endpoint \
	"http://127.0.0.1:$vm/opentelemetry/v1/metrics" --otlp.interval 0.5 --otlp.compression gzip \
	2>"$work/gzip.err" &
gz=$!
pids+=("$gz")
check "gzip-compressed, the sample's calls arrive ($mixed_calls)" \
	until_value "$vm" "sum(rpcrdma_rpc_calls_total{service_instance_id=\"$(hostname):$sample\"})" "$mixed_calls"
kill "$gz"
wait "$gz" 2>/dev/null
"$exporter" -r "$sample" -l "127.0.0.1:$(free_port)" --otlp.endpoint \
	"https://127.0.0.1:$vms/opentelemetry/v1/metrics" --otlp.interval 0.5 \
	--otlp.tls.ca-file "$work/ca.crt" 2>"$work/https.err" &
tls=$!
pids+=("$tls")
check "over HTTPS with --otlp.tls.ca-file, the sample's calls arrive" \
	until_value "$vms" "sum(rpcrdma_rpc_calls_total)" "$mixed_calls"
kill "$tls"
wait "$tls" 2>/dev/null

# -- receivers that refuse ------------------------------------------------------
refused() { # endpoint, extra options...: its stderr and its failed pushes
	local ep=$1
	shift
	local p
	p=$(free_port)
	"$exporter" -r "$sample" -l "127.0.0.1:$p" --otlp.endpoint "$ep" --otlp.interval 0.3 "$@" \
		2>"$work/refused.err" &
	local pid=$!
	pids+=("$pid")
	wait_replay_done "$work/refused.txt" -s "http://127.0.0.1:$p/metrics" >/dev/null
	for _ in $(seq 100); do
		curl -s "http://127.0.0.1:$p/metrics" >"$work/refused.txt"
		grep -q '^rpcrdma_exporter_otlp_pushes_total{result="failed"} [1-9]' "$work/refused.txt" && break
		sleep 0.1
	done
	kill "$pid"
	wait "$pid" 2>/dev/null
}
refused "https://127.0.0.1:$vms/opentelemetry/v1/metrics"
check "HTTPS without the receiver's CA: refused, the reason named" \
	eval "grep -q 'OTLP push to https://127.0.0.1:$vms/opentelemetry/v1/metrics: .*[Cc]ertificate' '$work/refused.err' &&
	      grep -q '^rpcrdma_exporter_otlp_pushes_total{result=\"failed\"} [1-9]' '$work/refused.txt'"
refused "http://127.0.0.1:$vm/opentelemetry/v1/nothing"
check "a receiver's error: its HTTP status named, /metrics served on" \
	eval "grep -q 'OTLP push to http://127.0.0.1:$vm/opentelemetry/v1/nothing: HTTP 4[0-9][0-9]' '$work/refused.err' &&
	      grep -q '^rpcrdma_rpc_calls_total' '$work/refused.txt'"
closed=$(free_port)
refused "http://127.0.0.1:$closed/v1/metrics"
check "no receiver: said once, counted" \
	eval "test \"\$(grep -c 'OTLP push to http://127.0.0.1:$closed/v1/metrics: ' '$work/refused.err')\" = 1 &&
	      grep -q '^rpcrdma_exporter_otlp_pushes_total{result=\"failed\"} [1-9]' '$work/refused.txt'"

# -- the command line ---------------------------------------------------------
usage_error() { # arguments...: status 1 and a message naming the option
	"$exporter" -r "$sample" "$@" >/dev/null 2>"$work/usage.err"
	[ $? -eq 1 ] && grep -q -- "--otlp" "$work/usage.err"
}
check "--otlp.interval without --otlp.endpoint: refused" usage_error --otlp.interval 5
check "--otlp.endpoint ftp://...: refused" usage_error --otlp.endpoint ftp://127.0.0.1/
check "--otlp.header without '=': refused" usage_error --otlp.endpoint http://127.0.0.1:1/ --otlp.header Authorization
check "--otlp.compression zstd: refused" usage_error --otlp.endpoint http://127.0.0.1:1/ --otlp.compression zstd
check "--otlp.tls.cert-file without its key: refused" usage_error --otlp.endpoint https://127.0.0.1:1/ --otlp.tls.cert-file x
tap_end
