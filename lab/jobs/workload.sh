# The client's workload, shared by the NFS jobs.  Each step records what it
# shellcheck shell=sh disable=SC2154
# (SC2154: lab, out, bin and peer_out are set by lab/guest/job.sh, which sources this)
# saw in $out/workload (key value), which the host's checks compare with the
# capture's decode; a step that fails records so and the job goes on, since
# how a real kernel fails is what the capture must show.
record() { echo "$1 $2" >>"$out/workload"; }

# The server's side: a file with an ACL of one named user, and one of 400
# whose GETACL reply (about 5 KiB) exceeds the 4 KiB inline threshold.
workload_server_files() {
	: >/export/acl-small
	setfacl -m u:3000:r /export/acl-small
	: >/export/acl-large
	setfacl -m "$(seq -f 'u:%g:r' 3000 3399 | paste -sd, -)" /export/acl-large
}

# workload_files DIR: writes and reads back 256 KiB in 64 KiB direct I/O,
# lists a folder of 300 files, makes and reads a 4000-byte symlink.
workload_files() {
	dd if=/dev/urandom of=/tmp/data bs=64k count=4 2>/dev/null
	dd if=/tmp/data of="$1/data" bs=64k oflag=direct 2>/dev/null &&
		record write_bytes 262144
	dd if="$1/data" of=/tmp/back bs=64k iflag=direct 2>/dev/null &&
		cmp /tmp/data /tmp/back && record read_back_bytes 262144
	mkdir "$1/dir"
	i=0
	while [ "$i" -lt 300 ]; do
		: >"$1/dir/file-$i" || break
		i=$((i + 1))
	done
	record files_created "$i"
	echo 3 >/proc/sys/vm/drop_caches
	# shellcheck disable=SC2010 # the names are the job's own
	record files_listed "$(ls -l "$1/dir" | grep -c file-)"
	target=$(head -c 4000 /dev/zero | tr '\0' a)
	ln -s "$target" "$1/long-link"
	echo 3 >/proc/sys/vm/drop_caches
	record symlink_target_bytes "$(readlink "$1/long-link" | tr -d '\n' | wc -c)"
}

# workload_acl DIR: reads the server's ACLs (NFSACL GETACL, reply chunks),
# then sets one of 400 entries (SETACL, a Long Call).  Linux 6.1 fails the
# last two: its client offers GETACL a 256-byte reply chunk, and its server
# answers the SETACL Long Call with GARBAGE_ARGS (over TCP too: nfsd takes
# no ACL over about 4 KiB, README "Real kernels").
workload_acl() {
	record acl_small_users_read "$(getfacl -n "$1/acl-small" | grep -c '^user:[0-9]')"
	if getfacl -n "$1/acl-large" >/tmp/acl-large 2>"$out/getfacl.log"; then
		record acl_large_read "$(grep -c '^user:[0-9]' /tmp/acl-large)"
	else
		record acl_large_read failed
	fi
	if setfacl -m "$(seq -f 'u:%g:r' 2000 2399 | paste -sd, -)" "$1/data" 2>"$out/setfacl.log"; then
		record acl_set ok
	else
		record acl_set failed
	fi
}

# workload_refused VERS: a mount to a port where no one listens.
workload_refused() {
	if timeout 120 mount -t nfs -o "vers=$1,proto=rdma,port=20050,nolock,retry=0,soft,timeo=50,retrans=1" \
		192.0.2.1:/export /mnt 2>"$out/refused.log"; then
		umount /mnt
		record refused_mount succeeded
	else
		record refused_mount failed
	fi
}

# A forced disconnect: nfsd stopped (its transports closed, its NFSv4
# state gone) and started again between two of the client's steps.  The
# server's side waits in the background for the client's word.
workload_server_restart() {
	(
		wait_for "$peer_out/restart-nfsd" 900 || exit 1
		rpc.nfsd 0
		record nfsd_stopped "$(cat /proc/fs/nfsd/threads)"
		rpc.nfsd 4
		# as at the start: no grace period to wait out
		echo Y >/proc/fs/nfsd/v4_end_grace
		echo "rdma 20049" >/proc/fs/nfsd/portlist
		cat /proc/fs/nfsd/portlist
		# lockd started again with nfsd: its grace period, which also
		# holds back NFSv4 delegations, passes first
		sleep $(($(cat /proc/sys/fs/nfs/nlm_grace_period) + 1))
		touch "$out/nfsd-restarted"
	) &
	# shellcheck disable=SC2034 # waited for by the job (server_finish)
	restarter=$!
}
# workload_restart DIR: the client's side; the next call finds the
# transport closed, and the client reconnects to read the file again.
workload_restart() {
	touch "$out/restart-nfsd"
	wait_for "$peer_out/nfsd-restarted" 300
	record nfsd_restarted "$?"
	dd if="$1/data" of=/tmp/again bs=64k iflag=direct 2>/dev/null &&
		cmp /tmp/data /tmp/again && record read_after_restart_bytes 262144
}
