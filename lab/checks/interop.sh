# Checks of the interop job: each scenario of the peer's verbs client ran
# shellcheck shell=sh disable=SC2154
# (SC2154: transport and work are set by lab/run, which sources this)
# against nfsd, and the capture of both directions decodes clean.
t=$transport
check_eq "interop/$t: server job exit status" 0 "$(cat server/job.status 2>/dev/null)"
check_eq "interop/$t: client job exit status" 0 "$(cat client/job.status 2>/dev/null)"
# Every call is answered (the summary's first line) and every answer is
# what the peer checks: NFS3_OK on the handles mountd and LOOKUP gave, READ
# data equal to data.bin's, WRITE counts, the Long Call's SYMLINK made.
for s in null inline read write long-call reply-chunk mixed; do
	check_eq "interop/$t: rpcrdma-peer client -t verbs -s $s: every call answered" \
		"calls 8  replies 8" "$(sed -n 's/^\(calls [0-9]*  replies [0-9]*\) .*/\1/p' "client/peer-$s.out")"
	check_eq "interop/$t: -s $s: every reply NFS3_OK and as checked (exit status 0)" 0 \
		"$(workload_value client "peer_$s")"
	# a scenario that failed: what the peer said, for the log
	[ "$(workload_value client "peer_$s")" = 0 ] ||
		sed "s/^/# rpcrdma-peer -s $s: /" "client/peer-$s.out" 2>/dev/null || true
done
check_eq "interop/$t: data.bin written from the peer's image" 0 "$(workload_value server image_written)"
check_eq "interop/$t: data.bin as it began after the peer's WRITEs" 0 "$(workload_value server data_intact)"
# long-call: 8 SYMLINKs; mixed: one in each 8 calls
check_eq "interop/$t: symlinks the Long Calls made" 9 "$(workload_value server symlinks_made)"
check_capture_clean "interop/$t"
check_ge "interop/$t: calls on the wire (8 per scenario)" 56 "$(jq .total.calls "$work/stats.json")"
# R=0 from the peer: nfsd answers with plain Send
check_ge "interop/$t: connections whose requester (the peer) sent private data" 7 \
	"$("$LAB_DUMP" -q --stats -r client/capture.pcap 2>/dev/null | grep -c 'requester private data: v1 R=0')"
check_eq "interop/$t: the peer advertises R=0 over verbs" 0 \
	"$("$LAB_DUMP" -q --stats -r client/capture.pcap 2>/dev/null | grep -c 'requester private data: v1 R=1')"
check_eq "interop/$t: no finding between the peer and nfsd" 0 \
	"$("$LAB_DUMP" --findings -r client/capture.pcap 2>/dev/null | grep -c .)"
if [ -e client.console ]; then
	check_eq "interop/$t: no kernel WARNING or BUG in the guests' consoles" 0 \
		"$(cat client.console server.console | grep -c -E 'WARNING:|BUG:')"
fi
