# Checks of the peer-server job: Linux's NFSv3 client mounted the reference
# shellcheck shell=sh disable=SC2154
# (SC2154: transport and work are set by lab/run, which sources this)
# peer's server over RDMA, read and wrote its file, and the capture of the
# run decodes clean.
t=$transport
check_eq "peer-server/$t: server job exit status" 0 "$(cat server/job.status 2>/dev/null)"
check_eq "peer-server/$t: client job exit status" 0 "$(cat client/job.status 2>/dev/null)"
check_eq "peer-server/$t: the kernel mounted the peer's export" 0 "$(workload_value client mounted)"
check_eq "peer-server/$t: data.bin's size from the peer's GETATTR" 1048576 "$(workload_value client file_size)"
check_eq "peer-server/$t: data.bin read through the mount equals the peer's image" 0 \
	"$(workload_value client read_equal)"
check_eq "peer-server/$t: the image written back (the peer checks every WRITE)" 0 \
	"$(workload_value client written_back)"
check_eq "peer-server/$t: statfs (FSSTAT) answered" 0 "$(workload_value client statfs)"
check_eq "peer-server/$t: unmounted" 0 "$(workload_value client unmounted)"
check_eq "peer-server/$t: the peer's server restarted between the read and the write" 0 \
	"$(workload_value client peer_restarted)"
# each run of the peer's server answered every call it took and ended
# cleanly (the first when restarted, the second after the unmount)
peer_calls=0
for peer_run in 1 2; do
	check_eq "peer-server/$t: peer server $peer_run stopped cleanly" 0 \
		"$(workload_value server "peer_server_$peer_run")"
	summary=$(sed -n 's/^calls \([0-9]*\)  replies \([0-9]*\) .*/\1 \2/p' \
		"server/peer-server-$peer_run.out" 2>/dev/null)
	check_ge "peer-server/$t: calls peer server $peer_run took" 1 "${summary% *}"
	check_eq "peer-server/$t: peer server $peer_run answered every call" "${summary% *}" "${summary#* }"
	check_eq "peer-server/$t: peer server $peer_run reported no failure" 0 \
		"$(grep -c 'FAILED' "server/peer-server-$peer_run.out" 2>/dev/null)"
	calls=${summary% *}
	peer_calls=$((peer_calls + ${calls:-0}))
done
check_ge "peer-server/$t: calls the two took (a mount, 1 MiB read and written)" 30 "$peer_calls"
# the procedures a Linux mount needs, each answered (mountstats' per-op
# counts: transmissions without errors)
for op in NULL GETATTR LOOKUP ACCESS READ WRITE FSSTAT FSINFO PATHCONF; do
	check_ge "peer-server/$t: $op sent by the kernel" 1 \
		"$(mountstats_ops client/mountstats | awk -v o="$op" '$1 == o { print $2 }')"
done
check_capture_clean "peer-server/$t"
# the forced disconnect: Linux's client connected again, and the analyzer
# names the connection the new one replaced
check_ge "peer-server/$t: connections in the capture (before and after the restart)" 2 \
	"$(jq '.connections | length' "$work/stats.json")"
check_ge "peer-server/$t: reconnects the analyzer saw" 1 "$(jq .reconnects "$work/stats.json")"
# 1 MiB read: the peer pushed it by RDMA Write into the client's write
# chunks; 1 MiB written: the peer pulled it by RDMA Read from read chunks
check_ge "peer-server/$t: calls with write chunks (READs of 64 KiB)" 16 "$(jq .total.chunks.write "$work/stats.json")"
check_ge "peer-server/$t: RDMA Write bytes (the peer's READ data)" 1048576 "$(jq .total.bytes.rdma_write "$work/stats.json")"
check_ge "peer-server/$t: RDMA Read bytes (the client's WRITE data)" 1048576 "$(jq .total.bytes.rdma_read "$work/stats.json")"
check_eq "peer-server/$t: findings between Linux and the peer" 0 \
	"$("$LAB_DUMP" --findings -r client/capture.pcap 2>/dev/null | grep -c .)"
if [ -e client.console ]; then
	check_eq "peer-server/$t: no kernel WARNING or BUG in the guests' consoles" 0 \
		"$(cat client.console server.console | grep -c -E 'WARNING:|BUG:')"
fi
