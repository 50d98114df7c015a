# Linux's NFSv3 client on the reference peer's server: rpcrdma-peer server
# -t verbs answers NFS on port 20050 of the server guest, whose own mountd
# gives the export's handle (any handle but the file's is the peer's
# directory).  The client mounts it, reads data.bin and checks it against
# the peer's image, writes the same bytes back with direct I/O (the peer
# answers NFS3ERR_IO to any other), unmounts.
. "$lab/jobs/workload.sh"

server_job() {
	ulimit -l unlimited
	# NFSv3 has no backward direction: no callbacks
	timeout 240 "$bin/rpcrdma-peer" server -t verbs -l 192.0.2.1 -p 20050 \
		--no-backchannel --timeout 200 >"$out/peer-server.out" 2>&1 &
	peer_pid=$!
	# listening once its CM id is bound (rdma_listen)
	n=0
	until rdma resource show cm_id 2>/dev/null | grep -q 'src-addr 192.0.2.1:20050'; do
		n=$((n + 1)); [ "$n" -gt 60 ] && { echo "peer server not listening"; break; }
		sleep 1
	done
	rdma resource show cm_id
}
server_finish() {
	# Linux keeps the idle transport after the unmount: the peer is
	# stopped (SIGTERM, which timeout passes on) and prints its summary
	kill -TERM "$peer_pid" 2>/dev/null
	wait "$peer_pid"
	record peer_server "$?"
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
	dd if=/tmp/image of=/mnt/data.bin bs=65536 conv=notrunc oflag=direct status=none
	record written_back "$?"
	df -k /mnt >/dev/null
	record statfs "$?"
	cat /proc/self/mountstats >"$out/mountstats"
	umount /mnt
	record unmounted "$?"
}
