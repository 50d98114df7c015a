#!/bin/sh
# Builds a guest image for the NFS/RDMA lab from Debian's archive alone:
# a debootstrap (minbase) root of release SUITE with its stock kernel, the
# NFS server and client, a Kerberos KDC (the krb5 job's), rdma-core,
# perftest, tcpdump, tmux (a terminal for rpcrdma-top's screen), the libraries the
# project's binaries load, and soft-iWARP (siw.ko) built out of tree from
# the linux-source package of the guest's own kernel version (Debian's
# configurations leave CONFIG_RDMA_SIW unset).
#
# usage: lab/mkimage.sh SUITE OUTDIR
# OUTDIR receives rootfs.img (ext4, used read-only through -snapshot),
# vmlinuz, initrd.img and kernel-version.
set -eu
suite=$1
out=$2
mirror=${LAB_MIRROR:-http://deb.debian.org/debian}

# Package names that differ between releases.
case "$suite" in
bullseye) libs="libpcap0.8 libjson-c5 libbpf0 libmicrohttpd12 libncursesw6 libelf1 libyaml-0-2 libcap-ng0" ;;
bookworm) libs="libpcap0.8 libjson-c5 libbpf1 libmicrohttpd12 libncursesw6 libelf1 libtraceevent1 libyaml-0-2 libcap-ng0" ;;
*) libs="libpcap0.8t64 libjson-c5 libbpf1 libmicrohttpd12t64 libncursesw6 libelf1t64 libtraceevent1 libyaml-0-2 libcap-ng0" ;;
esac
# Releases newer than this debootstrap knows are made with its sid script.
script=$suite
[ -e "/usr/share/debootstrap/scripts/$suite" ] || script=sid

work=$(mktemp -d "${TMPDIR:-/var/tmp}/rpcrdma-lab-root.XXXXXX")
root=$work/root
cleanup() {
	for m in proc sys dev/pts dev; do
		umount "$root/$m" 2>/dev/null || true
	done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

echo "mkimage: debootstrap $suite"
debootstrap --variant=minbase --components=main \
	--include=ca-certificates "$suite" "$root" "$mirror" "/usr/share/debootstrap/scripts/$script" \
	>"$work/debootstrap.log" 2>&1 || { tail -n 30 "$work/debootstrap.log"; exit 1; }

mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --bind /dev "$root/dev"
mount -t devpts devpts "$root/dev/pts"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }

# No daemon may start inside the chroot while packages install.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
# The initramfs must find the root disk on virtio without udev rules.
mkdir -p "$root/etc/initramfs-tools/conf.d"
echo "MODULES=most" >"$root/etc/initramfs-tools/conf.d/lab"

echo "mkimage: packages"
in_root apt-get -o Acquire::Check-Valid-Until=false update -qq >"$work/apt.log" 2>&1 ||
	{ tail -n 30 "$work/apt.log"; exit 1; }
in_root apt-get install -y -qq --no-install-recommends \
	linux-image-amd64 initramfs-tools kmod iproute2 procps psmisc acl \
	nfs-kernel-server nfs-common rpcbind krb5-kdc krb5-admin-server \
	rdma-core ibverbs-providers rdmacm-utils perftest tcpdump tmux \
	libibverbs1 librdmacm1 zlib1g $libs \
	gcc make libc6-dev linux-headers-amd64 linux-source xz-utils \
	>>"$work/apt.log" 2>&1 || { tail -n 30 "$work/apt.log"; exit 1; }

kver=$(ls "$root/lib/modules" | sort -V | tail -n 1)
echo "mkimage: kernel $kver; siw.ko from linux-source"
src=$(ls "$root"/usr/src/linux-source-*.tar.xz | head -n 1)
mkdir -p "$root/usr/src/siw"
tar -xJf "$src" -C "$root/usr/src/siw" --strip-components=5 --wildcards '*/drivers/infiniband/sw/siw/*'
in_root make -C "/lib/modules/$kver/build" M=/usr/src/siw CONFIG_RDMA_SIW=m modules \
	>"$work/siw.log" 2>&1 || { tail -n 40 "$work/siw.log"; exit 1; }
mkdir -p "$root/lib/modules/$kver/extra"
cp "$root/usr/src/siw/siw.ko" "$root/lib/modules/$kver/extra/"
in_root depmod "$kver"
# The sources and compilers served only to build siw.ko.
rm -rf "$root/usr/src/siw" "$root"/usr/src/linux-source-*.tar.xz
in_root apt-get purge -y -qq linux-source-* >/dev/null 2>&1 || true
in_root apt-get clean

# The guest runs one job and powers off, without an init system: PID 1
# mounts the checkout the host shares, at the host's path, and hands over to
# its lab/guest/init (so that changing a job needs no new image).
cat >"$root/sbin/lab-init" <<'INIT'
#!/bin/sh
PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc
for word in $(cat /proc/cmdline); do
	case "$word" in lab.src=*) LAB_SRC=${word#lab.src=} ;; esac
done
modprobe 9pnet_virtio && modprobe 9p && mkdir -p "$LAB_SRC" &&
	mount -t 9p -o trans=virtio,version=9p2000.L,ro src "$LAB_SRC" &&
	exec /bin/sh "$LAB_SRC/lab/guest/init"
echo "lab-init: the checkout is not shared at '$LAB_SRC'"
echo o >/proc/sysrq-trigger
INIT
chmod 755 "$root/sbin/lab-init"
echo "lab" >"$root/etc/hostname"
: >"$root/etc/fstab"
mkdir -p "$root/run-lab" "$root/export"
rm -f "$root/usr/sbin/policy-rc.d"

for m in proc sys dev/pts dev; do umount "$root/$m"; done
mkdir -p "$out"
cp "$root/boot/vmlinuz-$kver" "$out/vmlinuz"
cp "$root/boot/initrd.img-$kver" "$out/initrd.img"
echo "$kver" >"$out/kernel-version"
rm -rf "$root/boot"/*
echo "mkimage: rootfs.img"
size=$(du -sm "$root" | cut -f1)
mkfs.ext4 -q -F -L labroot -d "$root" "$out/rootfs.img.tmp" "$((size + 512))M"
mv "$out/rootfs.img.tmp" "$out/rootfs.img"
echo "mkimage: done ($suite, kernel $kver)"
