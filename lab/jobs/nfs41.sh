# NFSv4.1 over RDMA: the same files workload in COMPOUNDs, a server restart
# shellcheck shell=sh disable=SC2154
# (SC2154: lab, out, bin and peer_out are set by lab/guest/job.sh, which sources this)
# the client rides out (reconnecting, and establishing its client ID and
# session again), and a delegation recalled by the server (CB_RECALL on
# the backchannel, RFC 8167) when a process on the server writes a file
# the client holds open for reading.
. "$lab/jobs/workload.sh"

server_job() {
	workload_server_restart
	(
		wait_for "$peer_out/deleg-open" 600 || exit 1
		# nfsd's own view of the client: callback state, delegations
		for d in /proc/fs/nfsd/clients/*; do
			cat "$d/info" "$d/states"
		done >"$out/nfsd-clients" 2>&1
		# Blocks until the client returns the delegation (or the lease
		# break time passes).
		echo more >>/export/deleg
		touch "$out/recalled"
	) &
}
server_finish() { wait; }

client_job() {
	mount -t nfs -o vers=4.1,proto=rdma,port=20049 192.0.2.1:/ /mnt || return 1
	grep ' /mnt ' /proc/mounts
	workload_files /mnt
	workload_restart /mnt
	echo hello >/mnt/deleg
	# nfsd grants no read delegation while a writer has the file open, and
	# its file cache keeps the client's write open a moment after CLOSE
	sleep 5
	exec 3</mnt/deleg
	cat <&3 >/dev/null
	touch "$out/deleg-open"
	wait_for "$peer_out/recalled" 120 && record delegation_recalled yes
	exec 3<&-
	cat /proc/self/mountstats >"$out/mountstats"
	record delegations_returned "$(awk '$1 == "DELEGRETURN:" { print $2 }' "$out/mountstats")"
	umount /mnt || return 1
	workload_refused 4.1
}
