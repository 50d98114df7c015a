#!/bin/sh
# A lab job inside a guest: LAB_ROLE is server or client, LAB_JOB names the
# workload (lab/jobs/NAME.sh), LAB_TRANSPORT is rxe or siw.  Every wait is
# bounded; the host reads what lands in /run-lab/$LAB_ROLE.
set -u
out=/run-lab/$LAB_ROLE
peer_out=/run-lab/$( [ "$LAB_ROLE" = server ] && echo client || echo server)
lab=$(cd "$(dirname "$0")/.." && pwd)

say() { echo "$(date +%T) $*"; }
# wait_for FILE SECONDS: the other guest's signal, or give up.
wait_for() {
	n=0
	while [ ! -e "$1" ]; do
		n=$((n + 1))
		[ "$n" -gt "$2" ] && { say "gave up waiting for $1"; return 1; }
		sleep 1
	done
}

say "kernel $(uname -r), $LAB_ROLE $LAB_IP, transport $LAB_TRANSPORT, job $LAB_JOB"
ip link set lo up
ip link set eth0 up
ip addr add "$LAB_IP/24" dev eth0
# and from the IPv6 documentation prefix, where the kernel has IPv6
# (no duplicate detection: the link has two guests of fixed addresses)
LAB_IP6=2001:db8::${LAB_IP##*.}
if [ -e /proc/net/if_inet6 ]; then
	ip -6 addr add "$LAB_IP6/64" dev eth0 nodad
else
	LAB_IP6=""
fi
case "$LAB_TRANSPORT" in
rxe) modprobe rdma_rxe && rdma link add rxe0 type rxe netdev eth0 ;;
siw) modprobe siw && rdma link add siw0 type siw netdev eth0 ;;
esac || { say "no $LAB_TRANSPORT device"; exit 1; }
modprobe rpcrdma
rdma link show
uname -r >"$out/kernel"
# The kernel's own tracepoint layouts and BTF, for the trace source's tests
# (they change between kernel generations).
[ -d /sys/kernel/tracing/events ] || mount -t tracefs nodev /sys/kernel/tracing
# debugfs names each RPC client's server (sunrpc/rpc_clnt/*/xprt/info)
[ -d /sys/kernel/debug/sunrpc ] || mount -t debugfs nodev /sys/kernel/debug
mkdir -p "$out/tracepoints"
for d in /sys/kernel/tracing/events/rpcrdma/* /sys/kernel/tracing/events/sunrpc/*; do
	[ -f "$d/format" ] && cat "$d/format" >"$out/tracepoints/$(basename "$d")"
done
ls /sys/kernel/btf >"$out/btf" 2>/dev/null
cat /proc/sys/kernel/osrelease >/dev/null

# Server: an NFS server exporting a tmpfs over RDMA on port 20049.
server_start() {
	mount -t tmpfs -o size=256m,mode=0777 export /export
	opts="rw,no_root_squash,no_subtree_check,insecure,fsid=0"
	echo "/export 192.0.2.0/24($opts) 2001:db8::/64($opts)" >/etc/exports
	mount -t nfsd nfsd /proc/fs/nfsd
	# lockd's grace period (50 s by default) also holds back delegations
	modprobe lockd
	echo 10 >/proc/sys/fs/nfs/nlm_grace_period
	# A short NFSv4 grace period: the guests start together.
	echo 10 >/proc/fs/nfsd/nfsv4leasetime
	echo 10 >/proc/fs/nfsd/nfsv4gracetime
	rpcbind -w
	exportfs -ra
	rpc.mountd
	rpc.nfsd 4
	# no client has state to reclaim: no grace period, in which nfsd
	# grants no delegation
	echo Y >/proc/fs/nfsd/v4_end_grace
	echo "rdma 20049" >/proc/fs/nfsd/portlist
	cat /proc/fs/nfsd/portlist
}

# Client: capture the interface whole, as the truth of the run (or of a
# part of it: capture_start FILE LOG, in $out).
# shellcheck disable=SC2120 # the faults job names its files (lab/jobs/faults.sh)
capture_start() {
	capture_log=$out/${2:-tcpdump.log}
	tcpdump -i eth0 -s 0 -U -w "$out/${1:-capture.pcap}" 2>"$capture_log" &
	capture_pid=$!
	n=0
	until grep -q listening "$capture_log" 2>/dev/null; do
		n=$((n + 1)); [ "$n" -gt 60 ] && break; sleep 1
	done
}
capture_stop() {
	sleep 1
	kill -INT "$capture_pid"
	wait "$capture_pid"
	cat "$capture_log"
}

# The project's live sources beside tcpdump, on the same traffic: eBPF and
# libpcap on the interface, the kernel's tracepoints.  Each writes its
# statistics as JSON when interrupted.
# The project's binaries: as built, or, when one of them does not start in
# the guest (its C library older than the host's they were built against,
# as bullseye's, or a library the image lacks, as the exporter's libcurl),
# through the host's own loader and libraries, which lab/run puts in
# lab-runtime.
runs_here() {
	for t in rpcrdma-dump rpcrdma-top rpcrdma-exporter rpcrdma-peer; do
		[ ! -e "$LAB_BUILD/cli/$t" ] || "$LAB_BUILD/cli/$t" --version >/dev/null 2>&1 || return 1
	done
}
tools() {
	runtime=$LAB_BUILD/lab-runtime
	if runs_here; then
		bin=$LAB_BUILD/cli
		echo native >"$out/runtime"
		ldd "$bin/rpcrdma-dump" | grep 'not found' >"$out/ldd-missing"
		return
	fi
	bin=/run/lab-bin
	mkdir -p "$bin"
	cp "$runtime"/libibverbs/* /usr/lib/x86_64-linux-gnu/libibverbs/
	for t in rpcrdma-dump rpcrdma-top rpcrdma-exporter rpcrdma-peer; do
		printf '#!/bin/sh\nexec %s/ld-linux-x86-64.so.2 --library-path %s %s "$@"\n' \
			"$runtime" "$runtime" "$LAB_BUILD/cli/$t" >"$bin/$t"
		chmod 755 "$bin/$t"
	done
	echo host >"$out/runtime"
	"$runtime/ld-linux-x86-64.so.2" --library-path "$runtime" --list \
		"$LAB_BUILD/cli/rpcrdma-dump" | grep 'not found' >"$out/ldd-missing"
}

watch_start() {
	"$bin/rpcrdma-dump" -e eth0 -q --stats=json >"$out/watch-ebpf.json" 2>"$out/watch-ebpf.err" &
	watch_pids=$!
	"$bin/rpcrdma-dump" -i eth0 -q --stats=json >"$out/watch-pcap.json" 2>"$out/watch-pcap.err" &
	watch_pids="$watch_pids $!"
	"$bin/rpcrdma-top" -t -b -j -d 1 >"$out/watch-trace.jsonl" 2>"$out/watch-trace.err" &
	watch_pids="$watch_pids $!"
	# the exporter on the same tracepoints, scraped before it stops
	"$bin/rpcrdma-exporter" -t -l 127.0.0.1:10186 >/dev/null 2>"$out/exporter-trace.err" &
	exporter_pid=$!
	# the workload starts when each has started or given up (bounded)
	n=0
	until { grep -q listening "$out/watch-ebpf.err" || ! kill -0 "${watch_pids%% *}"; } &&
		grep -q listening "$out/watch-pcap.err" &&
		{ [ -s "$out/watch-trace.jsonl" ] || ! kill -0 "${watch_pids##* }"; }; do
		n=$((n + 1)); [ "$n" -gt 120 ] && { say "watchers not ready"; break; }
		sleep 1
	done 2>/dev/null
}
# rpcrdma-top -t on a terminal (tmux's, 100x16: short enough that the
# tables run past it on every kernel and job) for the whole workload; at
# its end the keys are typed and each screen kept (screen-NAME.txt).
screen_start() {
	if ! command -v tmux >/dev/null; then
		say "no tmux in the guest: rpcrdma-top -t's screen is not tried"
		return
	fi
	TERM=xterm tmux new-session -d -s top -x 100 -y 16 \
		"$bin/rpcrdma-top -t -d 1 2>$out/screen.err; echo TOP-EXITED; sleep 300"
}
screen_keys() { # NAME [KEY...]: the screen once the keys are typed
	name=$1
	shift
	[ $# -eq 0 ] || tmux send-keys -t top "$@"
	sleep 2
	tmux capture-pane -p -t top >"$out/screen-$name.txt"
}
screen_stop() {
	command -v tmux >/dev/null || return 0
	screen_keys first
	screen_keys end End
	screen_keys home Home
	screen_keys down Down
	screen_keys paused Home Space
	screen_keys paused-later
	screen_keys help h
	screen_keys back x
	screen_keys quit q
	tmux kill-server
}
# The rdma-core sniffer on the guest's RDMA device: it works, or says why
# not and what to use instead.
sniff_try() {
	"$bin/rpcrdma-dump" --list-devices >"$out/list-devices" 2>&1
	timeout 60 "$bin/rpcrdma-dump" --rdma "${LAB_TRANSPORT}0" -c 1 >"$out/sniff.out" 2>"$out/sniff.err"
	echo $? >"$out/sniff.status"
}
# scrape PORT FILE: the exporter's metrics (minbase has bash, not curl)
scrape() {
	bash -c 'exec 3<>/dev/tcp/127.0.0.1/'"$1"' &&
		printf "GET /metrics HTTP/1.0\r\nHost: lab\r\n\r\n" >&3 && cat <&3' >"$2" 2>&1
}
watch_stop() {
	sleep 1
	scrape 10186 "$out/exporter-trace.metrics"
	kill -TERM "$exporter_pid" 2>/dev/null
	wait "$exporter_pid"
	echo "exporter -t exit $?"
	for p in $watch_pids; do kill -INT "$p" 2>/dev/null; done
	for p in $watch_pids; do wait "$p"; echo "watcher $p exit $?"; done
}

# shellcheck source=/dev/null # the job named: lab/jobs/*.sh
. "$lab/jobs/$LAB_JOB.sh"
# The server's own view through its tracepoints (svcrdma), for the whole
# run; its statistics as JSON lines, the last one written when interrupted.
server_trace_start() {
	"$bin/rpcrdma-top" -t -b -j -d 1 >"$out/watch-trace.jsonl" 2>"$out/watch-trace.err" &
	trace_pid=$!
	"$bin/rpcrdma-exporter" -t -l 127.0.0.1:10187 >/dev/null 2>"$out/exporter-trace.err" &
	server_exporter_pid=$!
	n=0
	until [ -s "$out/watch-trace.jsonl" ] || ! kill -0 "$trace_pid" 2>/dev/null; do
		n=$((n + 1)); [ "$n" -gt 120 ] && { say "tracepoint watcher not ready"; break; }
		sleep 1
	done
}
server_trace_stop() {
	sleep 1
	scrape 10187 "$out/exporter-trace.metrics"
	kill -TERM "$server_exporter_pid" 2>/dev/null
	wait "$server_exporter_pid"
	echo "server exporter -t exit $?"
	kill -INT "$trace_pid" 2>/dev/null
	wait "$trace_pid"
	echo "server tracepoint watcher exit $?"
}

if [ "$LAB_ROLE" = server ]; then
	server_start || exit 1
	tools
	# nfsd's statuses (its module loaded by now)
	d=/sys/kernel/tracing/events/nfsd/nfsd_compound_status
	[ -f "$d/format" ] && cat "$d/format" >"$out/tracepoints/nfsd_compound_status"
	server_trace_start
	server_job
	touch "$out/ready"
	wait_for "$peer_out/done" 900
	# before server_finish, which may wait for every child
	server_trace_stop
	server_finish
	cat /proc/net/rpc/nfsd >"$out/nfsd"
	mkdir -p "$out/svc_rdma"
	for f in /proc/sys/sunrpc/svc_rdma/*; do
		cat "$f" >"$out/svc_rdma/$(basename "$f")"
	done
else
	wait_for "$peer_out/ready" 900 || exit 1
	tools
	# the NFS client's modules, and with them their tracepoints (the
	# statuses its replies carried: nfs_xdr_status, nfs4_xdr_status), as
	# on a machine whose mounts were made at boot before a monitor starts
	modprobe -a nfs nfsv3 nfsv4 || say "no NFS client modules"
	for d in /sys/kernel/tracing/events/nfs/nfs_xdr_status \
		/sys/kernel/tracing/events/nfs4/nfs4_xdr_status; do
		[ -f "$d/format" ] && cat "$d/format" >"$out/tracepoints/$(basename "$d")"
	done
	# a job that measures runs alone (job_watchers=no)
	if [ "${job_watchers:-yes}" = yes ]; then
		capture_start
		watch_start
		screen_start
	fi
	client_job
	status=$?
	if [ "${job_watchers:-yes}" = yes ]; then
		screen_stop
		watch_stop
		capture_stop
		sniff_try
	fi
	touch "$out/done"
	exit "$status"
fi
