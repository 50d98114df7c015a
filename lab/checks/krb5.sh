# Checks of the krb5 job, run in its run folder: each Kerberos flavour
# mounted and used, every call counted by procedure and answered, and no
# NFS status or operation read from a body RPCSEC_GSS wraps (integrity,
# privacy: RFC 2203 §5.3.2), where it would be invented.
t=$transport
check_eq "krb5/$t: server job exit status" 0 "$(cat server/job.status 2>/dev/null)"
check_eq "krb5/$t: client job exit status" 0 "$(cat client/job.status 2>/dev/null)"
for sec in krb5 krb5i krb5p; do
	check_eq "krb5/$t: sec=$sec: mounted, 256 KiB read back, 20 files listed" "yes 262144 20" \
		"$(workload_value client "mounted_$sec") $(workload_value client "read_back_$sec") $(workload_value client "files_listed_$sec")"
done
check_capture_clean "krb5/$t"
"$LAB_DUMP" --findings -r client/capture.pcap >"$work/findings.txt" 2>/dev/null
check_eq "krb5/$t: findings other than invalidate_own_r_cleared" 0 \
	"$(grep -c -v -e invalidate_own_r_cleared -e '^$' "$work/findings.txt")"
check_eq "krb5/$t: every call answered" "0 $(jq .total.calls "$work/stats.json")" \
	"$(jq -r '"\(.total.unanswered) \(.total.replies)"' "$work/stats.json")"
check_ge "krb5/$t: NFSv4 COMPOUND calls counted by procedure, wrapped or not" 100 \
	"$(jq '[.procedures[] | select(.program == "NFS" and .procedure == "COMPOUND") | .calls] | add // 0' "$work/stats.json")"
# The failed replies: only the sec=krb5 mount's LOOKUP of a missing name,
# whose results are plain; under krb5i and krb5p the same LOOKUP's status
# is inside the wrapped body, and none is read from there
check_eq "krb5/$t: NFS errors: the plain mount's LOOKUP NFS4ERR_NOENT alone" "LOOKUP NFS4ERR_NOENT 1" \
	"$(jq -r '[.nfs_errors[] | "\(.operation // .procedure) \(.status) \(.count)"] | join(",")' "$work/stats.json")"
check_eq "krb5/$t: the client's errors, that one alone" 1 \
	"$(jq '[.clients[].errors] | add' "$work/stats.json")"
# every call tshark reads over RoCE, RPCSEC_GSS ones among them
if command -v tshark >/dev/null && [ "$t" = rxe ]; then
	tshark -r client/capture.pcap -Y 'rpc.msgtyp == 0 && infiniband' -T fields \
		-e rpc.auth.flavor -E occurrence=f 2>/dev/null >"$work/flavors"
	check_eq "krb5/$t: calls as tshark reads them over RoCE" "$(grep -c . "$work/flavors")" \
		"$(jq .total.calls "$work/stats.json")"
	check_ge "krb5/$t: calls with an RPCSEC_GSS credential (tshark)" 100 "$(grep -c '^6$' "$work/flavors")"
fi
