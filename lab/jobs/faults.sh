# Faults made on real kernels, one after another on NFSv3 mounts, each
# shellcheck shell=sh disable=SC2154
# (SC2154: lab, out, bin and peer_out are set by lab/guest/job.sh, which sources this)
# with a capture of its own (fault-NAME.pcap) for the diagnosis to name:
#   credit  the server grants 4 credits (svc_rdma/max_requests) to eight
#           readers at once                              -> credit_bound
#   loss    the server's link loses 1 % of what it sends (tc netem; 2 %
#           over soft-iWARP), the client writes and reads back 1 MiB
#                                                        -> packet_loss
#   storm   10 %, which RC's retries do not carry: the client reads the
#           file for 45 s on a soft mount, reconnecting  -> packet_loss,
#           an error where the connections are made again
#   inline  the client's inline thresholds at their least (1024 bytes,
#           rdma_max_inline_read and _write): directory listings, ACLs
#           read and set                                 -> inline_pressure
# The server sets its side of a fault when the client asks (fault-NAME
# files in the shared folders) and answers when it is set.
. "$lab/jobs/workload.sh"
# shellcheck disable=SC2034 # read by lab/guest/job.sh
job_watchers=no

fault_credits=4
# a rate each transport carries: RC's go-back-N resends many packets for
# each one lost, TCP one segment: soft-iWARP at 2 % resends as often
fault_loss=1%
[ "$LAB_TRANSPORT" = siw ] && fault_loss=2%
fault_storm_loss=10%

server_job() {
	max_requests_default=$(cat /proc/sys/sunrpc/svc_rdma/max_requests)
	# a file of 100 ACL entries: its GETACL reply (about 1.3 KB) and the
	# SETACL that adds one are past 1024 bytes, inline at 4096
	: >/export/acl-medium
	setfacl -m "$(seq -f 'u:%g:r' 3000 3099 | paste -sd, -)" /export/acl-medium
	chmod 666 /export/acl-medium
	# the credit fault's file, made here: only its reads cross the link
	dd if=/dev/urandom of=/export/credit bs=64k count=8 2>/dev/null
	# read by svcrdma when it accepts a connection
	echo "$fault_credits" >/proc/sys/sunrpc/svc_rdma/max_requests
	record max_requests "$(cat /proc/sys/sunrpc/svc_rdma/max_requests)"
	(
		wait_for "$peer_out/fault-loss" 900 || exit 1
		echo "$max_requests_default" >/proc/sys/sunrpc/svc_rdma/max_requests
		modprobe sch_netem
		tc qdisc add dev eth0 root netem loss "$fault_loss" &&
			record netem_loss "$(tc qdisc show dev eth0 | grep -o 'loss [0-9.%]*' | cut -d' ' -f2)"
		touch "$out/fault-loss-set"
		wait_for "$peer_out/fault-loss-done" 900
		tc qdisc change dev eth0 root netem loss "$fault_storm_loss" &&
			record netem_storm_loss "$(tc qdisc show dev eth0 | grep -o 'loss [0-9.%]*' | cut -d' ' -f2)"
		touch "$out/fault-storm-set"
		wait_for "$peer_out/fault-storm-done" 900
		tc qdisc del dev eth0 root
		touch "$out/fault-loss-cleared"
	) &
	# shellcheck disable=SC2034 # waited for by server_finish
	fault_server=$!
}
server_finish() { wait "$fault_server"; }

# fault_capture NAME: the client's interface for one fault
fault_capture() { capture_start "fault-$1.pcap" "fault-$1.tcpdump"; }
fault_capture_stop() { capture_stop >/dev/null; }
# fault_mount [OPTIONS]: the NFSv3 mount, with OPTIONS added
fault_mount() {
	mount -t nfs -o "vers=3,proto=rdma,port=20049,nolock${1:+,$1}" 192.0.2.1:/export /mnt
}

fault_credit() {
	record slot_table_entries "$(cat /proc/sys/sunrpc/rdma_slot_table_entries)"
	fault_capture credit
	if fault_mount; then
		# eight readers of 1 KiB at once: eight calls against four credits
		i=0 readers=""
		while [ "$i" -lt 8 ]; do
			dd if=/mnt/credit of=/dev/null bs=1k count=64 skip=$((i * 64)) \
				iflag=direct 2>/dev/null &
			readers="$readers $!"
			i=$((i + 1))
		done
		fails=0
		for p in $readers; do wait "$p" || fails=$((fails + 1)); done
		record credit_readers_failed "$fails"
		umount /mnt
	else
		record credit_mount failed
	fi
	fault_capture_stop
}

fault_loss() {
	touch "$out/fault-loss"
	wait_for "$peer_out/fault-loss-set" 300 || return 1
	fault_capture loss
	if fault_mount; then
		dd if=/dev/urandom of=/tmp/loss bs=64k count=16 2>/dev/null
		dd if=/tmp/loss of=/mnt/loss bs=64k oflag=direct 2>/dev/null &&
			dd if=/mnt/loss of=/tmp/loss-back bs=64k iflag=direct 2>/dev/null &&
			cmp /tmp/loss /tmp/loss-back && record loss_read_back_bytes 1048576
		umount /mnt
	else
		record loss_mount failed
	fi
	fault_capture_stop
	touch "$out/fault-loss-done"
}

# storm: a loss RC's retries do not carry; the mount soft, so that the
# read gives up rather than waits for ever
fault_storm() {
	wait_for "$peer_out/fault-storm-set" 300 || return 1
	fault_capture storm
	if fault_mount soft,timeo=100,retrans=2; then
		start=$(date +%s)
		if timeout 45 dd if=/mnt/loss of=/tmp/storm-back bs=64k iflag=direct 2>/dev/null &&
			cmp /tmp/loss /tmp/storm-back; then
			record storm_read ok
		else
			record storm_read failed
		fi
		record storm_seconds $(($(date +%s) - start))
		touch "$out/fault-storm-done"
		wait_for "$peer_out/fault-loss-cleared" 300
		umount -f /mnt || umount -l /mnt
	else
		record storm_mount failed
		touch "$out/fault-storm-done"
		wait_for "$peer_out/fault-loss-cleared" 300
	fi
	fault_capture_stop
	dmesg | grep -i -e rpcrdma -e 'not responding' -e 'nfs:' >"$out/storm-dmesg" || true
}

fault_inline() {
	read_default=$(cat /proc/sys/sunrpc/rdma_max_inline_read)
	write_default=$(cat /proc/sys/sunrpc/rdma_max_inline_write)
	# read by xprtrdma when it sets up a connection
	echo 1024 >/proc/sys/sunrpc/rdma_max_inline_read
	echo 1024 >/proc/sys/sunrpc/rdma_max_inline_write
	record inline_thresholds "$(cat /proc/sys/sunrpc/rdma_max_inline_write),$(cat /proc/sys/sunrpc/rdma_max_inline_read)"
	fault_capture inline
	if fault_mount; then
		mkdir -p /mnt/small
		for i in $(seq 1 16); do : >"/mnt/small/a-file-with-a-name-of-some-length-$i"; done
		i=0
		while [ "$i" -lt 12 ]; do
			echo 3 >/proc/sys/vm/drop_caches
			ls -l /mnt/small >/dev/null
			getfacl -n /mnt/acl-medium >/dev/null 2>&1
			setfacl -m "u:$((4000 + i)):r" /mnt/acl-medium 2>/dev/null && ok=$((${ok:-0} + 1))
			i=$((i + 1))
		done
		record inline_acls_set "${ok:-0}"
		umount /mnt
	else
		record inline_mount failed
	fi
	fault_capture_stop
	echo "$read_default" >/proc/sys/sunrpc/rdma_max_inline_read
	echo "$write_default" >/proc/sys/sunrpc/rdma_max_inline_write
}

client_job() {
	fault_credit
	fault_loss
	fault_storm
	fault_inline
}
