# The monitors' cost to the NFS client (bench/trace-overhead.sh): the same
# shellcheck shell=sh disable=SC2154
# (SC2154: lab, out, bin and peer_out are set by lab/guest/job.sh, which sources this)
# NFSv3 workload timed alone and beside each of rpcrdma-top -t (BPF on the
# tracepoints) and rpcrdma-top -e eth0 (the TC program), in rounds that
# alternate the three so that a drift of the machine falls on each alike.
# Not one of the default jobs: it measures, lab/checks/bench-overhead.sh
# only checks that each monitor ran and saw the workload.
. "$lab/jobs/workload.sh"
# shellcheck disable=SC2034 # read by lab/guest/job.sh
job_watchers=no

server_job() { :; }
server_finish() { :; }

# bench_round DIR: 8 MiB written and read in 64 KiB direct I/O, then 200
# files created and listed: RDMA data and many small RPCs.
bench_round() {
	dd if=/tmp/bench-data of="$1/bench" bs=64k oflag=direct 2>/dev/null || return 1
	dd if="$1/bench" of=/dev/null bs=64k iflag=direct 2>/dev/null || return 1
	mkdir "$1/d.$$" || return 1
	i=0
	while [ "$i" -lt 200 ]; do : >"$1/d.$$/f-$i" || return 1; i=$((i + 1)); done
	ls -l "$1/d.$$" >/dev/null
	rm -rf "$1/d.$$" "$1/bench"
}

client_job() {
	mount -t nfs -o vers=3,proto=rdma,port=20049,nolock 192.0.2.1:/export /mnt || return 1
	dd if=/dev/urandom of=/tmp/bench-data bs=64k count=128 2>/dev/null
	bench_round /mnt || return 1 # warms the caches and the connection
	# the host's LAB_BENCH_ROUNDS (lab/run writes it beside the roles' folders)
	rounds=$(sed -n 's/^LAB_BENCH_ROUNDS=\([0-9][0-9]*\)$/\1/p' "$out/../job.env" 2>/dev/null)
	rounds=${rounds:-5}
	r=1
	while [ "$r" -le "$rounds" ]; do
		for mode in none trace ebpf; do
			pid=""
			case $mode in
			trace) "$bin/rpcrdma-top" -t -b -j -d 1 >"$out/bench-$mode-$r.jsonl" 2>"$out/bench-$mode.err" & pid=$! ;;
			ebpf) "$bin/rpcrdma-top" -e eth0 -b -j -d 1 >"$out/bench-$mode-$r.jsonl" 2>"$out/bench-$mode.err" & pid=$! ;;
			esac
			# the monitor has started (its first line) or given up
			n=0
			while [ -n "$pid" ] && [ ! -s "$out/bench-$mode-$r.jsonl" ] && kill -0 "$pid" 2>/dev/null; do
				n=$((n + 1)); [ "$n" -gt 600 ] && break; sleep 0.1
			done
			start=$(date +%s.%N)
			bench_round /mnt || return 1
			end=$(date +%s.%N)
			[ -z "$pid" ] || { sleep 1.5; kill -INT "$pid"; wait "$pid"; }
			awk -v m="$mode" -v r="$r" -v a="$start" -v b="$end" \
				'BEGIN { printf "%s %d %.3f\n", m, r, b - a }' >>"$out/bench-times"
		done
		r=$((r + 1))
	done
	umount /mnt
}
