#!/bin/sh
# Prints the accelerator the lab's guests can use: kvm when a guest really
# boots with it (a /dev/kvm may exist and still fail to boot a stock
# kernel), tcg otherwise.  usage: lab/accel.sh IMAGE
set -u
image=$1
lab=$(cd "$(dirname "$0")" && pwd)
if [ ! -w /dev/kvm ]; then echo tcg; exit 0; fi
probe=$(mktemp -d "${TMPDIR:-/tmp}/lab-probe.XXXXXX")
timeout -s KILL 120 qemu-system-x86_64 -nodefaults -no-reboot -display none \
	-machine q35,accel=kvm -cpu host -m 512 \
	-kernel "$image/vmlinuz" -initrd "$image/initrd.img" \
	-append "root=/dev/vda ro console=ttyS0 panic=-1 init=/sbin/lab-init lab.src=$(dirname "$lab") lab.job=probe lab.role=probe" \
	-drive file="$image/rootfs.img",if=virtio,format=raw,snapshot=on \
	-virtfs local,path="$(dirname "$lab")",mount_tag=src,security_model=none,readonly=on \
	-virtfs local,path="$probe",mount_tag=run,security_model=none \
	-serial null >/dev/null 2>&1
if [ -e "$probe/probe/booted" ]; then echo kvm; else echo tcg; fi
rm -rf "$probe"
