#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The exporter under a flood of idle connections (a slowloris client: each
# sends half a request and waits): from one address it may hold only
# RR_EXPORTER_CONNECTIONS_PER_ADDRESS connections, the rest closed at once,
# so that a scrape from another address, and a real Prometheus scraping
# beside the flood, answer as they do without it.  The flood comes from
# 127.0.0.2 (loopback), the scrapes from 127.0.0.1; it is bounded in count
# and time and stops by itself.
# usage: exporter-flood-test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
exporter=$build/cli/rpcrdma-exporter
for tool in curl python3; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
. "$(dirname "$0")/exporter-lib.sh"
. "$(dirname "$0")/tap.sh"

start_exporter() {
	"$exporter" -r "$src/samples/rocev2-mixed.pcap" -l "127.0.0.1:$port" \
		2>"$work/exporter.err" &
}
serve_on_free_port start_exporter
pids+=("$server_pid")
wait_replay_done "$work/before" "http://127.0.0.1:$port/metrics"
check "the exporter serves before the flood" grep -q '^rpcrdma_exporter_replay_done 1' "$work/before"

# 641 connections from 127.0.0.2, each with half a request line, held for
# up to 60 s or until told to stop; how many the exporter kept open after
# 3 s is written to $work/held
cat >"$work/flood.py" <<'PY'
import os, socket, sys, time
port, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
socks = []
for _ in range(count):
    s = socket.socket()
    s.bind(("127.0.0.2", 0))
    s.settimeout(5)
    try:
        s.connect(("127.0.0.1", port))
        s.send(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        socks.append(s)
    except OSError:
        s.close()
time.sleep(3)
held = 0
for s in socks:
    s.setblocking(False)
    try:
        held += s.recv(1) != b""   # b"": closed by the exporter
    except BlockingIOError:
        held += 1                  # still open, nothing said
    except OSError:
        pass
with open(out + ".tmp", "w") as f:
    f.write("%d %d\n" % (len(socks), held))
os.rename(out + ".tmp", out)
deadline = time.time() + 60
while time.time() < deadline and not os.path.exists(out + ".stop"):
    time.sleep(0.2)
PY
python3 "$work/flood.py" "$port" 641 "$work/held" &
flood=$!
pids+=("$flood")
for _ in $(seq 200); do [ -s "$work/held" ] && break; sleep 0.1; done
read -r opened held <"$work/held"
check "the flood opened its connections ($opened of 641)" [ "${opened:-0}" -gt 0 ]
check "... the exporter holds no more than 64 of one address ($held held)" \
	[ "${held:-999}" -le 64 ]
# a scrape from another address while the flood holds: in its usual time
# (a few milliseconds here; the flood held it 4 s without the limit)
start=$(date +%s%N)
curl -s --max-time 2 -o "$work/during" "http://127.0.0.1:$port/metrics"
status=$?
took=$((($(date +%s%N) - start) / 1000000))
check "a scrape from 127.0.0.1 during the flood answers (curl status $status, $took ms)" \
	eval "[ $status = 0 ] && grep -q '^rpcrdma_exporter_replay_done 1' '$work/during'"

# a real Prometheus beside the flood: its scrapes all succeed
if command -v prometheus >/dev/null; then
	pport=$(free_port)
	cat >"$work/prometheus.yml" <<YML
global: { scrape_interval: 1s, scrape_timeout: 1s }
scrape_configs:
  - job_name: rpcrdma
    static_configs: [ { targets: ["127.0.0.1:$port"] } ]
YML
	prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
		--web.listen-address="127.0.0.1:$pport" >"$work/prometheus.log" 2>&1 &
	pids+=($!)
	query() {
		curl -s "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" |
			python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")'
	}
	# five scrapes at 1 s, each with a 1 s timeout, while the flood holds
	for _ in $(seq 300); do
		scrapes=$(query 'count_over_time(up{job="rpcrdma"}[1m])' 2>/dev/null)
		[ "${scrapes:-0}" -ge 5 ] 2>/dev/null && break
		sleep 0.1
	done
	check "Prometheus beside the flood: $scrapes scrapes, every one up (1 s timeout)" \
		eval "[ '${scrapes:-0}' -ge 5 ] && [ \"\$(query 'min_over_time(up{job=\"rpcrdma\"}[1m])')\" = 1 ]"
else
	echo "# prometheus is not installed: its scrapes beside the flood are not checked"
fi
touch "$work/held.stop"
wait "$flood" 2>/dev/null
tap_end
