# Linux's NFSv3 client on the reference peer's server: rpcrdma-peer server
# shellcheck shell=sh disable=SC2154,SC3045
# (SC2154: lab, out, bin and peer_out are set by lab/guest/job.sh, which sources this)
# (SC3045: dash, the guests' sh, has ulimit -l)
# -t verbs answers NFS on port 20050 of the server guest, whose own mountd
# gives the export's handle (any handle but the file's is the peer's
# directory).  The client mounts it and reads data.bin against the peer's
# image; the server then restarts the peer, a forced disconnect the client
# rides out by reconnecting to the new one, to which it writes the same
# bytes back with direct I/O (the peer answers NFS3ERR_IO to any other);
# df, unmount.
. "$lab/jobs/workload.sh"

# peer_start N: the peer's server, its summary in peer-server-N.out, once
# it listens (its CM id bound by rdma_listen)
peer_start() {
	# NFSv3 has no backward direction: no callbacks
	timeout 240 "$bin/rpcrdma-peer" server -t verbs -l 192.0.2.1 -p 20050 \
		--no-backchannel --timeout 200 >"$out/peer-server-$1.out" 2>&1 &
	echo $! >"$out/peer.pid"
	n=0
	until rdma resource show cm_id 2>/dev/null | grep -q 'src-addr 192.0.2.1:20050'; do
		n=$((n + 1)); [ "$n" -gt 60 ] && { echo "peer server $1 not listening"; break; }
		sleep 1
	done
}

server_job() {
	ulimit -l unlimited
	peer_start 1
	first=$(cat "$out/peer.pid")
	(
		wait_for "$peer_out/read-done" 600 || exit 1
		kill -TERM "$first"
		n=0
		while kill -0 "$first" 2>/dev/null; do
			n=$((n + 1)); [ "$n" -gt 100 ] && break
			sleep 0.2
		done
		peer_start 2
		touch "$out/peer-restarted"
		wait
	) &
	restarter=$!
}
server_finish() {
	# Linux keeps the idle transport after the unmount: the peer is
	# stopped (SIGTERM, which timeout passes on) and prints its summary
	kill -TERM "$(cat "$out/peer.pid")" 2>/dev/null
	wait "$first"
	record peer_server_1 "$?"
	wait "$restarter"
	record peer_server_2 "$?"
}

client_job() {
	"$bin/rpcrdma-peer" image -o /tmp/image
	mount -t nfs -o vers=3,proto=rdma,port=20050,mountproto=tcp,nolock,noacl,rsize=65536,wsize=65536 \
		192.0.2.1:/export /mnt
	record mounted "$?"
	grep ' /mnt ' /proc/mounts
	record file_size "$(stat -c %s /mnt/data.bin 2>/dev/null)"
	cmp /tmp/image /mnt/data.bin
	record read_equal "$?"
	touch "$out/read-done"
	wait_for "$peer_out/peer-restarted" 120
	record peer_restarted "$?"
	dd if=/tmp/image of=/mnt/data.bin bs=65536 conv=notrunc oflag=direct status=none
	record written_back "$?"
	df -k /mnt >/dev/null
	record statfs "$?"
	cat /proc/self/mountstats >"$out/mountstats"
	umount /mnt
	record unmounted "$?"
}
