# NFSv3 over RDMA: every kind of chunk the Linux client makes, an NFSACL
# shellcheck shell=sh disable=SC2154
# (SC2154: lab, out, bin and peer_out are set by lab/guest/job.sh, which sources this)
# Long Call, a server restart the client rides out by reconnecting, and a
# mount refused because nothing listens on its port.
#   WRITE of 64 KiB      -> read chunk          READ of 64 KiB -> write chunk
#   READDIRPLUS (300)    -> reply chunk         SYMLINK of 4000 bytes -> read chunk
#   GETACL of 400 users  -> reply chunk         SETACL of 400 users -> Long Call
. "$lab/jobs/workload.sh"

server_job() {
	workload_server_files
	workload_server_restart
}
server_finish() { wait "$restarter"; }

client_job() {
	mount -t nfs -o vers=3,proto=rdma,port=20049,nolock 192.0.2.1:/export /mnt || return 1
	grep ' /mnt ' /proc/mounts
	workload_files /mnt
	workload_restart /mnt
	workload_acl /mnt
	cat /proc/self/mountstats >"$out/mountstats"
	umount /mnt || return 1
	workload_refused 3
}
