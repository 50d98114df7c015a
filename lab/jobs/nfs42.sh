# The default mount: no vers= option, so the client and nfsd agree on
# NFSv4.2, as on every current distribution.  The files workload, then
# the operations NFSv4.2 adds (RFC 7862) on a file of the server's tmpfs:
#   fallocate -l           -> ALLOCATE (§15.1)
#   fallocate -p           -> DEALLOCATE (§15.4), a hole punched
#   lseek SEEK_DATA/HOLE   -> SEEK (§15.11)
#   cp (copy_file_range)   -> COPY (§15.2), a server-side copy
#   cp --reflink=always    -> CLONE (§15.13), which tmpfs cannot do: the
#                             server answers NFS4ERR_NOTSUPP
. "$lab/jobs/workload.sh"

server_job() { :; }
server_finish() { :; }

# lseek FILE WHENCE OFFSET: where lseek(2) lands (3 SEEK_DATA, 4 SEEK_HOLE),
# or failed (perl-base is in every image; its sysseek is lseek).
lseek() {
	perl -e 'open(my $f, "<", $ARGV[0]) or exit 1;
		 my $at = sysseek($f, $ARGV[2], $ARGV[1]);
		 print defined $at ? ($at eq "0 but true" ? 0 : $at) : "failed"' "$@"
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
	cat /proc/self/mountstats >"$out/mountstats"
	umount /mnt || return 1
	workload_refused 4.2
}
