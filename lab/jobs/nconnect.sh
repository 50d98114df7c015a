# nconnect=4: one mount whose RPCs the client spreads over four RDMA
# shellcheck shell=sh disable=SC2154
# (SC2154: lab, out, bin and peer_out are set by lab/guest/job.sh, which sources this)
# connections (one RPC client, four transports), mounted as distributions
# mount (NFSv4.2), over IPv6 where the guests have it (RoCEv2 in IPv6/UDP,
# iWARP in IPv6/TCP).  The files workload, then a mount to a port where
# no one listens.
. "$lab/jobs/workload.sh"

server_job() { :; }
server_finish() { :; }

client_job() {
	server=192.0.2.1 host=192.0.2.1 proto=rdma
	[ -n "$LAB_IP6" ] && server=2001:db8::1 host="[2001:db8::1]" proto=rdma6
	record server_ip "$server"
	mount -t nfs -o "proto=$proto,port=20049,nconnect=4" "$host:/" /mnt || return 1
	grep ' /mnt ' /proc/mounts
	record nconnect "$(awk '$2 == "/mnt" { n = split($4, o, ","); for (i = 1; i <= n; i++) if (o[i] ~ /^nconnect=/) print substr(o[i], 10) }' /proc/mounts)"
	workload_files /mnt
	cat /proc/self/mountstats >"$out/mountstats"
	umount /mnt || return 1
	workload_refused 4.2
}
