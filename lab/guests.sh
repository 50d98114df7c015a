#!/bin/sh
# Boots the server and the client guest of one lab job and waits for both
# to power off (bounded).  The guests share RUN (read-write) and the
# checkout (read-only, at the same path as here, so that the build's
# binaries run as they are); their link is a QEMU socket on 127.0.0.1 with
# addresses from TEST-NET-1 (and 2001:db8::/64, lab/guest/job.sh).
# usage: lab/guests.sh IMAGE ACCEL RUN JOB TRANSPORT
set -eu
image=$1 accel=$2 run=$3 job=$4 transport=$5
lab=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$lab")
limit=${LAB_JOB_SECONDS:-1200}

# A free TCP port on 127.0.0.1 for the link.
. "$top/tests/ports.sh"
port=$(free_port)

# Linux 5.x's soft-iWARP cannot listen on the IPv6 wildcard beside the IPv4
# one (both bind the IPv4 address: EADDRINUSE), and nfsd then drops its RDMA
# listener altogether: those guests run without IPv6.
extra=""
case "$transport:$(cat "$image/kernel-version")" in
siw:5.*) extra="ipv6.disable=1" ;;
esac

guest() { # ROLE IP MAC NETDEV
	cpu=""
	[ "$accel" = kvm ] && cpu="-cpu host"
	timeout -s KILL "$limit" qemu-system-x86_64 -nodefaults -no-reboot -display none \
		-machine q35,accel="$accel" $cpu -m 1024 -smp 1 \
		-kernel "$image/vmlinuz" -initrd "$image/initrd.img" \
		-append "root=/dev/vda rw console=ttyS0 panic=-1 net.ifnames=0 init=/sbin/lab-init lab.src=$top lab.job=$job lab.role=$1 lab.ip=$2 lab.transport=$transport lab.build=$LAB_BUILD $extra" \
		-drive file="$image/rootfs.img",if=virtio,format=raw,snapshot=on \
		-netdev "socket,id=link,$4" -device virtio-net-pci,netdev=link,mac="$3" \
		-virtfs local,path="$top",mount_tag=src,security_model=none,readonly=on \
		-virtfs local,path="$run",mount_tag=run,security_model=none \
		-serial file:"$run/$1.console" -device virtio-rng-pci \
		>"$run/$1.qemu.log" 2>&1
}

guest server 192.0.2.1 52:54:00:00:02:01 "listen=127.0.0.1:$port" &
server=$!
sleep 1
guest client 192.0.2.2 52:54:00:00:02:02 "connect=127.0.0.1:$port" &
client=$!
status=0
wait "$client" || status=$?
wait "$server" || status=$?
exit "$status"
