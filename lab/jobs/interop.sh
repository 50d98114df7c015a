# The reference peer against Linux: rpcrdma-peer's verbs client, on the
# shellcheck shell=sh disable=SC2154,SC3045
# (SC2154: lab, out, bin and peer_out are set by lab/guest/job.sh, which sources this)
# (SC3045: dash, the guests' sh, has ulimit -l)
# guest's own RDMA device, runs each of its scenarios against nfsd on real
# file handles (the export's from mountd, data.bin's from LOOKUP), whose
# answers the capture and the peer's summary show.  The peer advertises R=0
# over verbs (its chunks are plain MRs, which no peer can invalidate).
. "$lab/jobs/workload.sh"

# data.bin holds what the peer's READs expect; its WRITEs put the same
# bytes back, so it ends as it began.
server_job() {
	"$bin/rpcrdma-peer" image -o /export/data.bin && chmod 666 /export/data.bin
	record image_written "$?"
}
server_finish() {
	"$bin/rpcrdma-peer" image -o /tmp/image && cmp -s /tmp/image /export/data.bin
	record data_intact "$?"
	record symlinks_made "$(find /export -maxdepth 1 -name 'link-*' -type l | wc -l)"
}

client_job() {
	# soft-iWARP registers every receive buffer: more than the 8 MiB a
	# process may lock by default
	ulimit -l unlimited
	for s in null inline read write long-call reply-chunk mixed; do
		timeout 120 "$bin/rpcrdma-peer" client -t verbs -l 192.0.2.2 -a 192.0.2.1 \
			-p 20049 --mount /export -s "$s" -n 8 --timeout 30 \
			>"$out/peer-$s.out" 2>&1
		record "peer_$s" "$?"
	done
	record refused_mount skipped
}
