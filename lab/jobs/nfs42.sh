# The default mount: no vers= option, so the client and nfsd agree on
# NFSv4.2, as on every current distribution.  The files workload, then
# the operations NFSv4.2 adds (RFC 7862) on a file of the server's tmpfs:
#   fallocate -l           -> ALLOCATE (§15.1)
#   fallocate -p           -> DEALLOCATE (§15.4), a hole punched
#   lseek SEEK_DATA/HOLE   -> SEEK (§15.11)
#   cp (copy_file_range)   -> COPY (§15.2), a server-side copy
#   cp --reflink=always    -> CLONE (§15.13), which tmpfs cannot do: the
#                             server answers NFS4ERR_NOTSUPP
# and NFS errors on purpose (RFC 8881 §15.1), each the server's answer:
#   mkdir of a name the server made since the client looked it up
#                          -> CREATE NFS4ERR_EXIST
#   rmdir of a folder with a file in it -> REMOVE NFS4ERR_NOTEMPTY
#   a file made by uid 1000 in root's 0755 folder (Linux's client leaves a
#   folder's write check to the server) -> OPEN NFS4ERR_ACCESS
. "$lab/jobs/workload.sh"

server_job() {
	(
		# the name the client looked up and found missing, made behind it
		wait_for "$peer_out/exist-looked-up" 900 || exit 1
		mkdir /export/made-by-server
		touch "$out/exist-made"
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

# workload_errors DIR: the steps whose NFS errors are on purpose; each
# records whether the client saw the error the server gave.
workload_errors() {
	ls "$1/made-by-server" >/dev/null 2>&1
	touch "$out/exist-looked-up"
	wait_for "$peer_out/exist-made" 120 || return 1
	# the negative lookup is trusted while the folder's attributes are
	# (acdirmin, 30 s): the client asks the server to create it
	if mkdir "$1/made-by-server" 2>"$out/exist.log"; then
		record exist_refused no
	else
		record exist_refused "$(grep -c 'File exists' "$out/exist.log")"
	fi
	mkdir "$1/full" && : >"$1/full/inside"
	if rmdir "$1/full" 2>"$out/notempty.log"; then
		record notempty_refused no
	else
		record notempty_refused "$(grep -c 'not empty' "$out/notempty.log")"
	fi
	mkdir "$1/rootonly" && chmod 0755 "$1/rootonly"
	if setpriv --reuid=1000 --regid=1000 --clear-groups sh -c ": >'$1/rootonly/mine'" \
		2>"$out/access.log"; then
		record access_refused no
	else
		record access_refused "$(grep -c 'Permission denied' "$out/access.log")"
	fi
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
	cp /mnt/data /mnt/data-copy && cmp /mnt/data /mnt/data-copy && record copied yes
	if cp --reflink=always /mnt/data /mnt/data-clone 2>"$out/clone.log"; then
		record cloned yes
	else
		record cloned failed
	fi
	workload_errors /mnt
	cat /proc/self/mountstats >"$out/mountstats"
	umount /mnt || return 1
	workload_refused 4.2
}
