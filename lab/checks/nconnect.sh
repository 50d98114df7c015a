# Checks of the nconnect job, run in its run folder: the mount's
# shellcheck shell=sh disable=SC2154
# (SC2154: transport and work are set by lab/run, which sources this)
# transports are as many connections on the wire, told apart in every
# front end, and add up to what mountstats counts over all of them.
# Linux honours nconnect over RDMA only from the release whose
# nfs4_set_client takes XPRT_TRANSPORT_RDMA with TCP (6.1 makes one
# transport and shows no nconnect= in /proc/mounts): the checks then
# expect the one connection the kernel made, and say so.
t=$transport
check_run nconnect
asked=$(workload_value client nconnect)
want=${asked:-1}
[ -n "$asked" ] ||
	echo "# nconnect/$t: kernel $(cat client/kernel) ignores nconnect over RDMA: one transport"
# mountstats: an "xprt: rdma" line per transport (sends: its 8th field)
xprts=$(awk '$1 == "xprt:" && $2 == "rdma"' client/mountstats | wc -l)
sends=$(awk '$1 == "xprt:" && $2 == "rdma" { s += $8 } END { printf "%d", s }' client/mountstats)
check_eq "nconnect/$t: mountstats lists the mount's RDMA transports" "$want" "$xprts"
check_eq "nconnect/$t: connections carrying calls, as many as the transports" "$xprts" \
	"$(jq '[.connections[] | select(.calls > 0)] | length' "$work/stats.json")"
check_ge "nconnect/$t: calls on the wire, at least the transports' sends summed (mountstats)" \
	"$sends" "$(jq '[.connections[].calls] | add' "$work/stats.json")"
# each connection's requester is the client, with a QP of its own
check_eq "nconnect/$t: the connections carrying calls have distinct requester QPs (TCP ports on iWARP)" "$xprts" \
	"$(jq '[.connections[] | select(.calls > 0) | .requester_id] | unique | length' "$work/stats.json")"
# transports opened beside each other, none after another closed: no
# reconnect, and none named as one (the job restarts nothing)
check_eq "nconnect/$t: the transports side by side, none a reconnect" "0 0" \
	"$(jq -r '"\(.reconnects) \([.connections[] | select(.previous != null)] | length)"' "$work/stats.json")"
check_live nconnect
check_nfs4_ops nconnect
# the kernel's view: the connections the mount's calls went out on, told
# apart by their send completion queues (xprtrdma_post_send's cq_id), as
# many as its transports, their sends adding up to at least mountstats'
# (the unmount sends more after mountstats was copied)
last=$(tail -n 1 client/watch-trace.jsonl)
if echo "$last" | jq -e '[.connections[] | has("transports")] | any' >/dev/null 2>&1; then
	check_eq "nconnect/$t: rpcrdma-top -t: the connections the calls went out on (send CQs), one per transport" "$xprts" \
		"$(echo "$last" | jq '[.connections[] | .transports[]? | select(.sends > 0) | .cq_id] | unique | length')"
	check_counted_ge "nconnect/$t: rpcrdma-top -t: their sends, at least the transports' as mountstats sums them" "$sends" \
		"$(echo "$last" | jq '[.connections[] | .transports[]? | .sends] | add // 0')" \
		"$(echo "$last" | jq '.events_missed // 0')"
	[ ! -e client/exporter-trace.metrics ] ||
	check_eq "nconnect/$t: rpcrdma-exporter -t: a rpcrdma_trace_transport_sends_total series per transport" "$xprts" \
		"$(awk '/^rpcrdma_trace_transport_sends_total[{]/ && $NF > 0 { split($0, l, "cq_id=\""); split(l[2], q, "\""); cq[q[1]] }
			END { n = 0; for (k in cq) n++; printf "%d", n }' client/exporter-trace.metrics)"
else
	echo "# nconnect/$t: rpcrdma-top -t names no connections of a client (kernel $(cat client/kernel); not followed: $(grep -o 'rpcrdma:xprtrdma_post_send[^,]*' client/watch-trace.err 2>/dev/null || echo '?'))"
fi
# the exporter: a series per connection, summed as the capture
exporter_in_build &&
	check_eq "nconnect/$t: exporter: rpcrdma_connection_calls_total series with calls, one per transport" "$xprts" \
		"$(awk '/^rpcrdma_connection_calls_total[{]/ && $NF > 0 { n++ } END { printf "%d", n }' "$work/metrics")"
# over IPv6: every call the analyzer counted is an RPC-over-RDMA message
# from the client's IPv6 address to the server's, as the decode prints them
# (but an RC retransmission, printed and not counted again: the receiver
# drops it as a duplicate)
if [ "$(server_ip)" = 2001:db8::1 ]; then
	check_eq "nconnect/$t: every call on the wire went from 2001:db8::2 to 2001:db8::1 (IPv6)" \
		"$(jq .total.calls "$work/stats.json")" \
		"$(grep -E '^[0-9:.]+ 2001:db8::2(\.[0-9]+)? > 2001:db8::1(\.20049)? .* RDMA_(MSG|NOMSG|MSGP) xid .* CALL ' "$work/dump.txt" |
			grep -c -v ' retransmission of frame ')"
	# each transport's connection request: the CM REQ's rdma-cm header
	# (RoCE) or the MPA request (iWARP) between the IPv6 addresses,
	# carrying the client's RPC-over-RDMA private data (RFC 8797)
	check_eq "nconnect/$t: connection requests over IPv6 with RPC-over-RDMA private data, one per transport" "$xprts" \
		"$(grep -c -E '(rdma-cm 2001:db8::2\.[0-9]+ > 2001:db8::1\.20049|^[0-9:.]+ 2001:db8::2\.[0-9]+ > 2001:db8::1\.20049 iWARP MPA Req) .*rpcrdma-private v1 R=1 ' "$work/dump.txt")"
fi
