# The default mount: no vers= option, so the client and nfsd agree on
# shellcheck shell=sh disable=SC2154
# (SC2154: lab, out, bin and peer_out are set by lab/guest/job.sh, which sources this)
# NFSv4.2, as on every current distribution.  The files workload, then
# the operations NFSv4.2 adds (RFC 7862) on a file of the server's tmpfs:
#   fallocate -l           -> ALLOCATE (§15.1)
#   fallocate -p           -> DEALLOCATE (§15.4), a hole punched
#   lseek SEEK_DATA/HOLE   -> SEEK (§15.11)
#   copy_file_range(2)     -> COPY (§15.2), a server-side copy
#   cp --reflink=always    -> CLONE (§15.13), which tmpfs cannot do: the
#                             server answers NFS4ERR_NOTSUPP
# and NFS errors on purpose (RFC 8881 §15.1), each the server's answer:
#   mkdir of a name the server made since the client looked it up
#                          -> CREATE NFS4ERR_EXIST
#   rmdir of a folder with a file in it -> REMOVE NFS4ERR_NOTEMPTY
#   a file made by uid 1000 in root's 0755 folder (Linux's client leaves a
#   folder's write check to the server) -> OPEN NFS4ERR_ACCESS
#   a file made in a read-only export -> OPEN NFS4ERR_ROFS
#   a file made while nfsd's grace period runs after a restart
#                          -> OPEN NFS4ERR_GRACE (RFC 8881 §15.1.9.2)
# and the same over NFSv3 (RFC 1813 §2.6) on a second mount: MKDIR
# NFS3ERR_EXIST, RMDIR NFS3ERR_NOTEMPTY, CREATE NFS3ERR_ACCES, CREATE
# NFS3ERR_ROFS, a file the server removed while the client held it
# open -> GETATTR NFS3ERR_STALE, and a write to a file the NFSv4 mount
# holds a delegation of -> WRITE NFS3ERR_JUKEBOX, CB_RECALL; and a file
# the NFSv4.2 mount holds a delegation of opened for writing by an NFSv4.0
# mount (a second client to nfsd: its client ID string is not the
# NFSv4.1+ one) -> OPEN NFS4ERR_DELAY (RFC 8881 §15.1.1.3), CB_RECALL.
. "$lab/jobs/workload.sh"

server_job() {
	# a read-only export: a tmpfs of its own, so that NFSv4 crosses into it
	mkdir -p /export/ro /export/v3/ro
	mount -t tmpfs -o size=1m,mode=0777 ro /export/ro
	echo "/export/ro 192.0.2.0/24(ro,no_root_squash,no_subtree_check,insecure,fsid=1)" >>/etc/exports
	exportfs -ra
	: >/export/v3/removed-by-server
	echo hello >/export/v3/recalled
	echo hello >/export/v3/delegated
	(
		# the name the client looked up and found missing, made behind
		# it; over NFSv4, then over NFSv3
		wait_for "$peer_out/exist-looked-up" 900 || exit 1
		mkdir /export/made-by-server
		touch "$out/exist-made"
		# nfsd started again, its grace period (10 s) left to run
		wait_for "$peer_out/restart-nfsd" 900 || exit 1
		# nfs-utils' nfsdcltrack, the kernel's upcall for its client
		# records (Debian 11 and 12), ends the period as soon as every
		# client it knew has reclaimed, before or after the client's
		# open: kept in a folder instead (legacy), the period runs its
		# length
		if [ -w /sys/module/nfsd/parameters/cltrack_prog ]; then
			echo /nonexistent >/sys/module/nfsd/parameters/cltrack_prog
			mkdir -p /var/lib/nfs/v4recovery
		fi
		rpc.nfsd 0
		restarted=$(cut -d' ' -f1 /proc/uptime)
		rpc.nfsd 4
		echo "rdma 20049" >/proc/fs/nfsd/portlist
		cat /proc/fs/nfsd/nfsv4gracetime >"$out/grace-time"
		touch "$out/nfsd-restarted"
		# when the period ended, in seconds from the restart: v4_end_grace's
		# first Y while the client makes its file.  Its length, or less
		# where nfsd ended it early (once every client it knew had
		# reclaimed; Linux 5.10 also otherwise).
		while [ ! -e "$peer_out/made-in-grace" ]; do
			if [ "$(cat /proc/fs/nfsd/v4_end_grace)" = Y ]; then
				awk -v from="$restarted" '{ printf "%.1f\n", $1 - from }' /proc/uptime \
					>"$out/grace-ended-after"
				break
			fi
			sleep 0.2
		done
		wait_for "$peer_out/exist-looked-up_v3" 900 || exit 1
		mkdir /export/v3/made-by-server
		touch "$out/exist-made_v3"
		# the file the client holds open, removed behind it
		wait_for "$peer_out/stale-opened" 900 || exit 1
		rm /export/v3/removed-by-server
		touch "$out/stale-removed"
	) &
}
server_finish() { wait; }

# lseek FILE WHENCE OFFSET: where lseek(2) lands (3 SEEK_DATA, 4 SEEK_HOLE),
# or failed (perl-base is in every image; its sysseek is lseek).
lseek() {
	perl -e 'open(my $f, "<", $ARGV[0]) or exit 1;
		 my $at = sysseek($f, $ARGV[2], $ARGV[1]);
		 print defined $at ? ($at eq "0 but true" ? 0 : $at) : "failed"' "$@"
}

# copy_range FROM TO: FROM copied to TO by copy_file_range(2) (x86-64's
# syscall 326), which the NFSv4.2 client makes a COPY; cp does so only
# from coreutils 9 (bullseye's 8.32 reads and writes).
copy_range() {
	perl -e 'open(my $i, "<", $ARGV[0]) or exit 1; open(my $o, ">", $ARGV[1]) or exit 1;
		 my $left = -s $i;
		 while ($left > 0) {
			 my $n = syscall(326, fileno($i), 0, fileno($o), 0, $left, 0);
			 exit 1 if $n <= 0;
			 $left -= $n;
		 }
		 close($o) or exit 1' "$@"
}

# workload_errors DIR [SUFFIX]: the steps whose NFS errors are on purpose;
# each records (its key, SUFFIX appended) whether the client saw the error
# the server gave.
workload_errors() {
	ls "$1/made-by-server" >/dev/null 2>&1
	touch "$out/exist-looked-up${2:-}"
	wait_for "$peer_out/exist-made${2:-}" 120 || return 1
	# the negative lookup is trusted while the folder's attributes are
	# (acdirmin, 30 s): the client asks the server to create it
	if mkdir "$1/made-by-server" 2>"$out/exist${2:-}.log"; then
		record exist_refused${2:-} no
	else
		record exist_refused${2:-} "$(grep -c 'File exists' "$out/exist${2:-}.log")"
	fi
	mkdir "$1/full" && : >"$1/full/inside"
	if rmdir "$1/full" 2>"$out/notempty${2:-}.log"; then
		record notempty_refused${2:-} no
	else
		record notempty_refused${2:-} "$(grep -c 'not empty' "$out/notempty${2:-}.log")"
	fi
	mkdir "$1/rootonly" && chmod 0755 "$1/rootonly"
	if setpriv --reuid=1000 --regid=1000 --clear-groups sh -c ": >'$1/rootonly/mine'" \
		2>"$out/access${2:-}.log"; then
		record access_refused${2:-} no
	else
		record access_refused${2:-} "$(grep -c 'Permission denied' "$out/access${2:-}.log")"
	fi
	if touch "$1/ro/new" 2>"$out/rofs${2:-}.log"; then
		record rofs_refused${2:-} no
	else
		record rofs_refused${2:-} "$(grep -c 'Read-only file system' "$out/rofs${2:-}.log")"
	fi
}

# workload_grace DIR: a file made while nfsd's grace period runs after a
# restart: the client reclaims its state, and the server refuses a new
# open until the period ends; the client waits and asks again.
workload_grace() {
	touch "$out/restart-nfsd"
	wait_for "$peer_out/nfsd-restarted" 120 || return 1
	touch "$1/made-in-grace" && record made_in_grace yes
	touch "$out/made-in-grace"
}

# workload_recall V4DIR V3DIR: a file the NFSv4 mount holds open for
# reading (a read delegation) written through the NFSv3 mount: nfsd
# recalls the delegation and, until it is returned, answers the write
# NFS3ERR_JUKEBOX (RFC 1813 §2.6; NFSv4 calls 10008 NFS4ERR_DELAY), which
# the client sends again later.
workload_recall() {
	# lockd's grace period, which holds back delegations, runs its 10 s
	# (job.sh) from the restart; nfsd's ends once the client reclaimed
	sleep 12
	exec 4<"$1/recalled"
	cat <&4 >/dev/null
	echo more >>"$2/recalled" && record written_while_delegated yes
	exec 4<&-
}

# workload_delay V42DIR V40DIR: a file the NFSv4.2 mount holds open for
# reading (a read delegation) opened for writing through the NFSv4.0
# mount, another client to nfsd: nfsd recalls the delegation and, until it
# is returned, answers the OPEN NFS4ERR_DELAY, which the client sends
# again later.  (nfsd calls the NFSv4.0 client back over plain TCP, its
# callback service's: CB_NULL probes in the capture beside the RDMA.)
workload_delay() {
	exec 4<"$1/delegated"
	cat <&4 >/dev/null
	echo more >>"$2/delegated" && record opened_while_delegated yes
	exec 4<&-
}

# workload_stale DIR: a file held open while the server removes it; its
# attributes asked again (acregmax=0 caches none) name a handle the
# server no longer knows.
workload_stale() {
	exec 3<"$1/removed-by-server"
	touch "$out/stale-opened"
	wait_for "$peer_out/stale-removed" 120 || return 1
	if stat -L /proc/self/fd/3 >/dev/null 2>"$out/stale.log"; then
		record stale_refused no
	else
		record stale_refused "$(grep -c 'Stale file handle' "$out/stale.log")"
	fi
	exec 3<&-
}

client_job() {
	mount -t nfs -o proto=rdma,port=20049 192.0.2.1:/ /mnt || return 1
	grep ' /mnt ' /proc/mounts
	record mounted_version "$(awk '$2 == "/mnt" { n = split($4, o, ","); for (i = 1; i <= n; i++) if (o[i] ~ /^vers=/) print substr(o[i], 6) }' /proc/mounts)"
	workload_files /mnt
	# 1 MiB allocated, then 64 KiB at 256 KiB punched out of it
	fallocate -l 1048576 /mnt/space && record allocated_bytes "$(stat -c %s /mnt/space)"
	fallocate -p -o 262144 -l 65536 /mnt/space && record hole_punched yes
	# tmpfs keeps the hole: the data after it starts past it
	record hole_at "$(lseek /mnt/space 4 0)"
	record data_after_hole "$(lseek /mnt/space 3 262144)"
	copy_range /mnt/data /mnt/data-copy && cmp /mnt/data /mnt/data-copy && record copied yes
	if cp --reflink=always /mnt/data /mnt/data-clone 2>"$out/clone.log"; then
		record cloned yes
	else
		record cloned failed
	fi
	workload_errors /mnt
	workload_grace /mnt
	# NFSv3 beside it: the same errors, the read-only export mounted inside
	mkdir -p /mnt3
	mount -t nfs -o vers=3,proto=rdma,port=20049,nolock,acregmin=0,acregmax=0 \
		192.0.2.1:/export /mnt3 || return 1
	mount -t nfs -o vers=3,proto=rdma,port=20049,nolock 192.0.2.1:/export/ro /mnt3/v3/ro || return 1
	workload_recall /mnt/v3 /mnt3/v3
	# (where the NFSv4.0 mount is refused, as by Debian's 7.2, whose nfsd
	# answers NFS4ERR_MINOR_VERS_MISMATCH, the step is said skipped; mount's
	# words in mount40.log)
	mkdir -p /mnt40
	if mount -t nfs -o vers=4.0,proto=rdma,port=20049 192.0.2.1:/ /mnt40 2>"$out/mount40.log"; then
		record mounted_v40 yes
		workload_delay /mnt/v3 /mnt40/v3
		umount /mnt40 || return 1
	else
		record mounted_v40 refused
	fi
	# the mount's own statistics: the read-only export, mounted by the
	# client where it crossed into it, repeats the transport's line
	awk '/^device / { keep = $5 == "/mnt" } keep' /proc/self/mountstats >"$out/mountstats"
	umount /mnt || return 1
	workload_errors /mnt3/v3 _v3
	workload_stale /mnt3/v3
	umount /mnt3/v3/ro /mnt3 || return 1
	workload_refused 4.2
}
