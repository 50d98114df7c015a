# Kerberos (RFC 2203 RPCSEC_GSS with the Kerberos V5 mechanism) over RDMA:
# shellcheck shell=sh disable=SC2154
# (SC2154: lab, out, bin and peer_out are set by lab/guest/job.sh, which sources this)
# a KDC in the server guest, keytabs made by the job, rpc.svcgssd beside
# nfsd and rpc.gssd in the client; the default mount (NFSv4.2) once with
# each security flavour the export offers:
#   sec=krb5   authentication only (rpc_gss_svc_none, RFC 2203 §5.3.1)
#   sec=krb5i  integrity: every body in rpc_gss_integ_data (§5.3.2.2)
#   sec=krb5p  privacy: every body wrapped, encrypted (§5.3.2.3)
# each mount's contexts made by rpc.gssd (RPCSEC_GSS_INIT, over its own
# TCP connection: not in the RDMA traffic), a short files workload in
# RPCSEC_GSS_DATA calls, and the contexts destroyed at unmount
# (RPCSEC_GSS_DESTROY on NULL, over RDMA).
. "$lab/jobs/workload.sh"
realm=LAB.TEST

krb5_conf() {
	cat >/etc/krb5.conf <<CONF
[libdefaults]
	default_realm = $realm
	dns_lookup_kdc = false
	dns_lookup_realm = false
	rdns = false
	ignore_acceptor_hostname = true
[realms]
	$realm = {
		kdc = 192.0.2.1
		admin_server = 192.0.2.1
	}
[domain_realm]
	.lab.test = $realm
	lab.test = $realm
CONF
	cat >>/etc/hosts <<HOSTS
192.0.2.1 server.lab.test server
192.0.2.2 client.lab.test client
HOSTS
	hostname "$LAB_ROLE.lab.test"
	mkdir -p /run/rpc_pipefs
	mount -t rpc_pipefs sunrpc /run/rpc_pipefs
}

server_job() {
	krb5_conf
	mkdir -p /etc/krb5kdc /var/lib/krb5kdc
	kdb5_util create -s -r "$realm" -P lab-master-key >"$out/kdb5_util.log" 2>&1
	for p in nfs/server.lab.test nfs/client.lab.test host/client.lab.test; do
		kadmin.local -q "addprinc -randkey $p" >>"$out/kadmin.log" 2>&1
	done
	kadmin.local -q "ktadd -k /etc/krb5.keytab nfs/server.lab.test" >>"$out/kadmin.log" 2>&1
	kadmin.local -q "ktadd -k $out/client.keytab nfs/client.lab.test host/client.lab.test" >>"$out/kadmin.log" 2>&1
	krb5kdc -P /run/krb5kdc.pid
	rpc.svcgssd -f -vvv >"$out/svcgssd.log" 2>&1 &
	opts="rw,no_root_squash,no_subtree_check,insecure,fsid=0,sec=krb5:krb5i:krb5p"
	echo "/export 192.0.2.0/24($opts)" >/etc/exports
	exportfs -ra
	touch "$out/kdc-ready"
}
server_finish() { :; }

client_job() {
	krb5_conf
	wait_for "$peer_out/kdc-ready" 300 || return 1
	cp "$peer_out/client.keytab" /etc/krb5.keytab
	rpc.gssd -f -vvv >"$out/gssd.log" 2>&1 &
	sleep 2
	for sec in krb5 krb5i krb5p; do
		mkdir -p "/mnt/$sec"
		if mount -t nfs -o "sec=$sec,proto=rdma,port=20049" server.lab.test:/ "/mnt/$sec" 2>"$out/mount-$sec.log"; then
			record "mounted_$sec" yes
			dd if=/dev/urandom of=/tmp/data bs=64k count=4 2>/dev/null
			dd if=/tmp/data of="/mnt/$sec/data-$sec" bs=64k oflag=direct 2>/dev/null &&
				dd if="/mnt/$sec/data-$sec" of=/tmp/back bs=64k iflag=direct 2>/dev/null &&
				cmp /tmp/data /tmp/back && record "read_back_$sec" 262144
			mkdir "/mnt/$sec/dir-$sec"
			for i in $(seq 1 20); do : >"/mnt/$sec/dir-$sec/f$i"; done
			ls "/mnt/$sec/missing-$sec" 2>/dev/null
			# shellcheck disable=SC2010 # the names are the job's own
			record "files_listed_$sec" "$(ls "/mnt/$sec/dir-$sec" | grep -c '^f')"
			umount "/mnt/$sec"
		else
			record "mounted_$sec" failed
		fi
	done
}
