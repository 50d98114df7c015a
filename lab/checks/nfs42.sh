# Checks of the nfs42 job, run in its run folder: the default mount is
# shellcheck shell=sh disable=SC2154
# (SC2154: transport and work are set by lab/run, which sources this)
# NFSv4.2, and the operations RFC 7862 adds are on the wire, decoded and
# counted as the client's mountstats and tshark's NFS dissector count them.
t=$transport
check_run nfs42
check_eq "nfs42/$t: the mount without vers= is NFSv4.2" 4.2 "$(workload_value client mounted_version)"
check_eq "nfs42/$t: 1 MiB allocated (fallocate)" 1048576 "$(workload_value client allocated_bytes)"
check_eq "nfs42/$t: a hole punched (fallocate -p)" yes "$(workload_value client hole_punched)"
check_eq "nfs42/$t: a file copied by copy_file_range and read back" yes "$(workload_value client copied)"
check_eq "nfs42/$t: a clone refused (tmpfs has no reflink)" failed "$(workload_value client cloned)"

set -- $(mountstats_xprt client/mountstats)
check_ge "nfs42/$t: calls sent (at least mountstats sends)" "${6:-}" \
	"$(jq '[.procedures[] | select(.program == "NFS" and .version == 4) | .calls] | add // 0' "$work/stats.json")"
check_live nfs42
check_nfs4_ops nfs42

# Each of the new operations: in as many COMPOUNDs as mountstats counts
# (RPC tasks: a COMPOUND holds one of them), and at least once.
mountstats_op_counts client/mountstats >"$work/mountstats-ops"
for op in ALLOCATE DEALLOCATE SEEK COPY CLONE; do
	sent=$(awk -v op="$op" '$1 == op { print $2 }' "$work/mountstats-ops")
	check_ge "nfs42/$t: $op sent (mountstats)" 1 "${sent:-0}"
	check_eq "nfs42/$t: $op operations decoded, as mountstats counts them" "${sent:-0}" \
		"$(jq --arg op "$op" '.nfs4_operations[$op] // 0' "$work/stats.json")"
done
# wire_errors NAME STATUS: the replies --stats=json counts failed with
# STATUS in NAME, an NFSv4 operation or an NFSv3 procedure
wire_errors() {
	jq --arg n "$1" --arg st "$2" \
		'[(.nfs_errors // [])[] | select((.operation // .procedure) == $n and .status == $st) | .count] | add // 0' \
		"$work/stats.json"
}
# The clone's refusal is the server's NFS status, named with its operation
check_ge "nfs42/$t: CLONE answered NFS4ERR_NOTSUPP, named" 1 "$(wire_errors CLONE NFS4ERR_NOTSUPP)"
# The errors made on purpose: the client saw each, and the wire has each
# as the server's status, named with its operation
check_eq "nfs42/$t: mkdir of the name the server made refused (EEXIST)" 1 "$(workload_value client exist_refused)"
check_eq "nfs42/$t: rmdir of a folder with a file refused (ENOTEMPTY)" 1 "$(workload_value client notempty_refused)"
check_eq "nfs42/$t: uid 1000's file in root's folder refused (EACCES)" 1 "$(workload_value client access_refused)"
check_eq "nfs42/$t: a file made in the read-only export refused (EROFS)" 1 "$(workload_value client rofs_refused)"
check_eq "nfs42/$t: a file made in nfsd's grace period, once it ended" yes "$(workload_value client made_in_grace)"
for want in "CREATE NFS4ERR_EXIST" "REMOVE NFS4ERR_NOTEMPTY" "OPEN NFS4ERR_ACCESS" "OPEN NFS4ERR_ROFS"; do
	check_ge "nfs42/$t: $want on the wire" 1 "$(wire_errors $want)"
done
# nfsd refuses new opens in its grace period (RFC 8881 §15.1.9.2), which
# runs its length from the restart unless nfsd ends it early; the client
# makes its file a few seconds in.  Where the server saw it end more than
# a second short of its length, the open may have come after the end:
# said, not checked.
grace_time=$(cat server/grace-time 2>/dev/null || echo 10)
grace_ended=$(cat server/grace-ended-after 2>/dev/null || echo "$grace_time")
if awk -v e="$grace_ended" -v l="$grace_time" 'BEGIN { exit !(e < l - 1) }'; then
	echo "# nfs42/$t: nfsd ended its $grace_time s grace period $grace_ended s after the restart; OPEN NFS4ERR_GRACE on the wire: $(wire_errors OPEN NFS4ERR_GRACE)"
else
	check_ge "nfs42/$t: OPEN NFS4ERR_GRACE on the wire (nfsd's grace period ended ${grace_ended} s after the restart)" 1 \
		"$(wire_errors OPEN NFS4ERR_GRACE)"
fi
# The same over NFSv3, and a handle used after the server removed its file
check_eq "nfs42/$t: NFSv3: mkdir of the name the server made refused (EEXIST)" 1 "$(workload_value client exist_refused_v3)"
check_eq "nfs42/$t: NFSv3: rmdir of a folder with a file refused (ENOTEMPTY)" 1 "$(workload_value client notempty_refused_v3)"
check_eq "nfs42/$t: NFSv3: uid 1000's file in root's folder refused (EACCES)" 1 "$(workload_value client access_refused_v3)"
check_eq "nfs42/$t: NFSv3: a file made in the read-only export refused (EROFS)" 1 "$(workload_value client rofs_refused_v3)"
check_eq "nfs42/$t: NFSv3: the attributes of a file the server removed refused (ESTALE)" 1 "$(workload_value client stale_refused)"
check_eq "nfs42/$t: NFSv3: a write to a file delegated to the NFSv4 mount, once recalled" yes \
	"$(workload_value client written_while_delegated)"
# A file delegated to the NFSv4.2 mount opened for writing by another
# client, the NFSv4.0 mount (runs kept from before the job had the step
# recalled one delegation, not two; a kernel without NFSv4.0 refuses the
# mount, and the step is said skipped)
recalls=1
v40=$(workload_value client mounted_v40)
case $v40 in refused*)
	echo "# nfs42/$t: the NFSv4.0 mount was refused ($(tr '\n' ' ' <client/mount40.log 2>/dev/null)); no other client opened the delegated file"
	check_eq "nfs42/$t: NFSv4.0 refused: no OPEN NFS4ERR_DELAY on the wire" 0 "$(wire_errors OPEN NFS4ERR_DELAY)" ;;
esac
if [ -n "$(workload_value client opened_while_delegated)" ] || [ "$v40" = yes ]; then
	recalls=2
	check_eq "nfs42/$t: NFSv4.0: a file delegated to the NFSv4.2 mount opened for writing, once recalled" yes \
		"$(workload_value client opened_while_delegated)"
	check_ge "nfs42/$t: OPEN NFS4ERR_DELAY on the wire (the other client's delegation recalled)" 1 \
		"$(wire_errors OPEN NFS4ERR_DELAY)"
fi
check_ge "nfs42/$t: the delegations recalled ($recalls: NFS4_CB CB_COMPOUND)" "$recalls" \
	"$(jq '[.procedures[] | select(.program == "NFS4_CB" and .procedure == "CB_COMPOUND") | .calls] | add // 0' "$work/stats.json")"
for want in "WRITE NFS3ERR_JUKEBOX" "MKDIR NFS3ERR_EXIST" "RMDIR NFS3ERR_NOTEMPTY" "CREATE NFS3ERR_ACCES" "CREATE NFS3ERR_ROFS" "GETATTR NFS3ERR_STALE"; do
	check_ge "nfs42/$t: $want on the wire" 1 "$(wire_errors $want)"
done

