#!/bin/sh
# Makes (once) and prints the path of a Debian chroot of release SUITE with
# everything rpcrdma-tools builds and tests with (scripts/install-deps.sh run
# inside it): the tests run there against that release's Wireshark, compilers
# and libraries (scripts/chroot-run.sh).  Chroots are cached in
# $RPCRDMA_CHROOT_CACHE (default /var/cache/rpcrdma-chroot), keyed by the
# hash of this script and of install-deps.sh, so that changing either makes
# a new one.  Needs root.
#
# usage: scripts/chroot.sh SUITE
set -eu
suite=$1
top=$(cd "$(dirname "$0")/.." && pwd)
mirror=${RPCRDMA_MIRROR:-http://deb.debian.org/debian}
cache=${RPCRDMA_CHROOT_CACHE:-/var/cache/rpcrdma-chroot}
key=$(cat "$top/scripts/chroot.sh" "$top/scripts/install-deps.sh" | sha256sum | cut -c1-12)
root=$cache/$suite-$key

[ "$(id -u)" -eq 0 ] || { echo "chroot.sh: needs root (debootstrap, chroot)" >&2; exit 1; }
if [ -e "$root/.ready" ]; then
	echo "$root"
	exit 0
fi

command -v debootstrap >/dev/null ||
	{ echo "chroot.sh: debootstrap is not installed (scripts/install-deps.sh debootstrap)" >&2; exit 1; }
# releases newer than this debootstrap knows are made with its sid script
script=$suite
[ -e "/usr/share/debootstrap/scripts/$suite" ] || script=sid
mkdir -p "$cache"
work=$cache/.$suite-$key.$$
cleanup() {
	for m in proc sys dev; do umount -l "$work/$m" 2>/dev/null || true; done
	rm -rf --one-file-system "$work" "$work.log"
}
trap cleanup EXIT INT TERM
echo "chroot.sh: debootstrap $suite into $root" >&2
debootstrap --variant=minbase --components=main --include=ca-certificates \
	"$suite" "$work" "$mirror" "/usr/share/debootstrap/scripts/$script" \
	>"$work.log" 2>&1 || { tail -n 30 "$work.log" >&2; exit 1; }
# no daemon (prometheus, say) may start inside while packages install
printf '#!/bin/sh\nexit 101\n' >"$work/usr/sbin/policy-rc.d"
chmod 755 "$work/usr/sbin/policy-rc.d"
# the mirror's unstable Release file may have expired
echo 'Acquire::Check-Valid-Until "false";' >"$work/etc/apt/apt.conf.d/99rpcrdma"
mount -t proc proc "$work/proc"
mount -t sysfs sys "$work/sys"
mount --bind /dev "$work/dev"
cp "$top/scripts/install-deps.sh" "$work/tmp/install-deps.sh"
echo "chroot.sh: packages (scripts/install-deps.sh) in $suite" >&2
chroot "$work" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 sh -c \
	'sh /tmp/install-deps.sh && apt-get clean && rm /tmp/install-deps.sh' \
	>"$work.log" 2>&1 || { tail -n 30 "$work.log" >&2; exit 1; }
for m in proc sys dev; do umount "$work/$m"; done
touch "$work/.ready"
rm -rf --one-file-system "$root"
mv "$work" "$root"
rm -f "$work.log"
trap - EXIT INT TERM
# chroots of this release made by earlier scripts, unless one is in use (a
# bind mount of the checkout below it would be on the same file system)
for old in "$cache/$suite"-*; do
	[ "$old" = "$root" ] && continue
	if grep -q " $old[/ ]" /proc/self/mounts; then
		echo "chroot.sh: $old is in use: left in place" >&2
	else
		rm -rf --one-file-system "$old"
	fi
done
echo "$root"
