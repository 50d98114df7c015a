#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# A fleet of exporters and one Prometheus, as a site runs them.
#
# N exporters, each on an address of its own (127.0.x.y, one port: N hosts),
# each replaying the lab's captures of Linux NFS/RDMA at the pace they were
# recorded (bench/repeat-capture, rpcrdma-exporter -r --realtime), and one
# real Prometheus scraping all of them every INTERVAL seconds for DURATION
# seconds.  One more exporter, fed alike and not scraped, is the control:
# the CPU a scrape costs is what a scraped exporter used beyond it.
# Prints every target up or not, failed scrapes, scrape duration p50, p99
# and max over every scrape, samples per target, the exporters' CPU per
# scrape and RSS, and Prometheus's own CPU and RSS.
#
# Then churn: one exporter reads CHURN repetitions of the captures from a
# pipe, each repetition between hosts of its own (new QPs, connections,
# clients, reconnects), scraped every 2 s while it reads: the series it
# serves stay bounded (--max-connection-series, the 64 clients kept) while
# the connections it followed grow; RSS beside them.
#
# usage: bench/fleet.sh BUILD_DIR [N] [INTERVAL] [DURATION] [CHURN]
#        (defaults: 100 exporters, 5 s, 180 s, 3000 repetitions)
set -u
build=$(cd "${1:?usage: bench/fleet.sh BUILD_DIR [N] [INTERVAL] [DURATION] [CHURN]}" && pwd)
n=${2:-100}
interval=${3:-5}
duration=${4:-180}
churn=${5:-3000}
src=$(cd "$(dirname "$0")/.." && pwd)
exporter=$build/cli/rpcrdma-exporter
repeat=$build/bench/repeat-capture
for tool in prometheus curl python3; do
	command -v "$tool" >/dev/null || {
		echo "fleet: $tool is not installed (scripts/install-deps.sh installs it)"
		exit 1
	}
done
case "$n$interval$duration$churn" in
*[!0-9]*) echo "usage: bench/fleet.sh BUILD_DIR [N] [INTERVAL] [DURATION] [CHURN]" >&2; exit 2 ;;
esac
[ "$n" -ge 1 ] && [ "$n" -le 60000 ] && [ "$interval" -ge 1 ] || {
	echo "fleet: N from 1 to 60000, INTERVAL at least 1 s" >&2
	exit 2
}
. "$src/tests/exporter-lib.sh"
inputs=("$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap"
	"$src/tests/linux/bookworm-rxe-nfs41/client/capture.pcap")

# A feed that outlasts the run: one repetition of both captures is about
# two minutes of recorded time.
"$repeat" -n $(((duration + 60) / 120 + 2)) -o "$work/feed.pcap" "${inputs[@]}" || exit 1

host() { # exporter number (0: the control): an address of its own
	echo "127.0.$((($1 + 1) / 250)).$((($1 + 1) % 250 + 1))"
}
port=$(free_port)
. "$src/bench/proc-usage.sh"

exporters=()
for i in $(seq 0 "$n"); do
	"$exporter" -r "$work/feed.pcap" --realtime -l "$(host "$i"):$port" \
		>/dev/null 2>>"$work/exporters.log" &
	exporters+=($!)
	pids+=($!)
done
for _ in $(seq 600); do
	[ "$(grep -c '^rpcrdma-exporter: serving' "$work/exporters.log")" -eq $((n + 1)) ] && break
	sleep 0.1
done
serving=$(grep -c '^rpcrdma-exporter: serving' "$work/exporters.log")
[ "$serving" -eq $((n + 1)) ] || {
	echo "fleet: $serving of $((n + 1)) exporters serving"
	grep -v serving "$work/exporters.log" | sort | uniq -c | head
	exit 1
}

{
	echo "global:"
	echo "  scrape_interval: ${interval}s"
	echo "  scrape_timeout: ${interval}s"
	echo "scrape_configs:"
	echo "  - job_name: rpcrdma"
	echo "    static_configs:"
	echo "      - targets:"
	for i in $(seq 1 "$n"); do echo "          - $(host "$i"):$port"; done
} >"$work/prometheus.yml"
prom_port=$(free_port)
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
	--web.listen-address="127.0.0.1:$prom_port" >"$work/prometheus.log" 2>&1 &
prom=$!
pids+=("$prom")
wait_http "http://127.0.0.1:$prom_port/-/ready" || { echo "fleet: Prometheus did not start"; exit 1; }

query() { # PromQL: the instant vector's values, one a line
	curl -s --get "http://127.0.0.1:$prom_port/api/v1/query" --data-urlencode "query=$1" |
		python3 -c 'import json,sys
for r in json.load(sys.stdin)["data"]["result"]:
    v = r["value"] if "value" in r else None
    if v: print(v[1])
    else:
        for t, x in r["values"]: print(x)'
}

# The measured window starts once every target has been scraped.
for _ in $(seq 600); do
	[ "$(query 'count(up)')" = "$n" ] && break
	sleep 0.5
done
declare -A cpu0
for p in "${exporters[@]}"; do cpu0[$p]=$(cpu_ns "$p"); done
prom_cpu0=$(cpu_ns "$prom")
echo "fleet: $n exporters on 127.0.x.y:$port, one Prometheus scraping every ${interval}s for ${duration}s"
sleep "$duration"
window=${duration}s

control=${exporters[0]}
control_cpu=$(($(cpu_ns "$control") - ${cpu0[$control]}))
scraped_cpu=0
rss=()
for p in "${exporters[@]:1}"; do
	scraped_cpu=$((scraped_cpu + $(cpu_ns "$p") - ${cpu0[$p]}))
	rss+=("$(rss_kib "$p"):$(anon_kib "$p")")
done
prom_cpu=$(($(cpu_ns "$prom") - prom_cpu0))

up=$(query 'count(up == 1)')
scrapes=$(query "sum(count_over_time(up[$window]))")
failed=$(query "sum(count_over_time(up[$window])) - sum(sum_over_time(up[$window]))")
samples=$(query 'avg(scrape_samples_scraped)')
samples_max=$(query 'max(scrape_samples_scraped)')
query "scrape_duration_seconds[$window]" >"$work/durations"

python3 - "$work/durations" "$n" "$scrapes" "$scraped_cpu" "$control_cpu" \
	"$duration" "$prom_cpu" "$(rss_kib "$prom")" "$up" "$failed" "$samples" "$samples_max" \
	"${rss[@]}" <<'EOF'
import sys
(path, n, scrapes, scraped_cpu, control_cpu, duration, prom_cpu, prom_rss,
 up, failed, samples, samples_max) = sys.argv[1:13]
rss = sorted(int(x.split(":")[0]) for x in sys.argv[13:])
anon = sorted(int(x.split(":")[1]) for x in sys.argv[13:])
d = sorted(float(x) for x in open(path) if x.strip())
n, scrapes, duration = int(n), float(scrapes or 0), int(duration)
ns = 1e9  # the CPU times are in ns
def pct(v, p):
    return v[min(len(v) - 1, int(p * len(v)))] if v else float("nan")
per_target = scrapes / n if n else 0
extra = (int(scraped_cpu) / n - int(control_cpu)) / ns
print(f"targets up: {up} of {n}; scrapes: {int(scrapes)} ({per_target:.1f} a target); failed: {failed}")
print(f"scrape duration: p50 {pct(d, .5) * 1e3:.2f} ms, p99 {pct(d, .99) * 1e3:.2f} ms, "
      f"max {d[-1] * 1e3 if d else float('nan'):.2f} ms ({len(d)} scrapes)")
print(f"samples a target: {float(samples):.0f} (max {samples_max})")
print(f"exporter CPU: {int(scraped_cpu) / n / ns / duration * 100:.3f} % of a core scraped, "
      f"{int(control_cpu) / ns / duration * 100:.3f} % the control; "
      f"a scrape: {extra / per_target * 1e3 if per_target else float('nan'):.2f} ms")
print(f"exporter RSS: median {pct(rss, .5) / 1024:.1f} MiB, max {rss[-1] / 1024:.1f} MiB; "
      f"of its own (RssAnon): median {pct(anon, .5) / 1024:.1f} MiB, max {anon[-1] / 1024:.1f} MiB, "
      f"all {sum(anon) / 1048576:.2f} GiB")
print(f"Prometheus: {int(prom_cpu) / ns / duration * 100:.1f} % of a core, RSS {int(prom_rss) / 1024:.0f} MiB")
EOF

# The fleet stops; churn on one exporter.
for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
wait 2>/dev/null
pids=()
[ "$churn" -gt 0 ] || exit 0
churn_port=$(free_port)
"$repeat" -n "$churn" -o - "${inputs[@]}" |
	"$exporter" -r - -l "127.0.0.1:$churn_port" >/dev/null 2>"$work/churn.log" &
exporter_pid=$! # a pipeline's last command
pids+=("$exporter_pid")
wait_http "http://127.0.0.1:$churn_port/metrics" || { echo "fleet: the churn exporter did not start"; exit 1; }
echo "churn: $churn repetitions of the captures, each between hosts of its own, through a pipe"
printf '%8s %12s %12s %10s %8s %8s %8s %9s\n' seconds frames connections folded clients series families RSS_MiB
t=0
while :; do
	curl -s "http://127.0.0.1:$churn_port/metrics" >"$work/m" || break
	done_now=$(awk '/^rpcrdma_exporter_replay_done / { print $2 }' "$work/m")
	awk -v t="$t" -v rss="$(rss_kib "$exporter_pid")" '
		/^#/ { next }
		{ series++ }
		/^rpcrdma_frames_total / { frames = $2 }
		/^rpcrdma_connections_total / { conns = $2 }
		/^rpcrdma_connection_series_folded / { folded = $2 }
		/^rpcrdma_client_calls_total\{/ { clients++ }
		{ sub(/[{ ].*/, ""); fam[$0] = 1 }
		END { for (f in fam) families++
		      printf "%8d %12d %12d %10d %8d %8d %8d %9.1f\n", t, frames, conns, folded, clients, series, families, rss / 1024 }
	' "$work/m"
	[ "$done_now" = 1 ] && break
	sleep 2
	t=$((t + 2))
done
