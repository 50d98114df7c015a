# The reference peer against Linux: rpcrdma-peer's verbs client, on the
# guest's own RDMA device, runs each of its scenarios against nfsd, whose
# answers the capture and the peer's summary show.  The peer advertises R=0
# over verbs (its chunks are plain MRs, which no peer can invalidate).
. "$lab/jobs/workload.sh"

server_job() { :; }
server_finish() { :; }

client_job() {
	# soft-iWARP registers every receive buffer: more than the 8 MiB a
	# process may lock by default
	ulimit -l unlimited
	for s in null inline read write long-call reply-chunk mixed; do
		timeout 120 "$bin/rpcrdma-peer" client -t verbs -l 192.0.2.2 -a 192.0.2.1 \
			-p 20049 -s "$s" -n 8 --timeout 30 >"$out/peer-$s.out" 2>&1
		record "peer_$s" "$?"
	done
	record refused_mount skipped
}
