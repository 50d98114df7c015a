#!/bin/sh
# Runs a command as root in the Debian chroot of release SUITE
# (scripts/chroot.sh makes it if missing), with /proc, /sys and /dev, and
# with the checkout (and ../shared, when it exists) mounted at their own
# paths, so that build folders below the checkout serve inside and out.
# usage: scripts/chroot-run.sh SUITE COMMAND [ARG...]
set -eu
suite=$1
shift
top=$(cd "$(dirname "$0")/.." && pwd)
root=$("$top/scripts/chroot.sh" "$suite")

mounted=""
unmount_all() {
	# what the command mounted below the root too (ip netns, say), deepest first
	for m in $(awk -v r="$root/" 'index($2, r) == 1 { print $2 }' /proc/self/mounts | sort -r); do
		umount -l "$m" 2>/dev/null || true
	done
	for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
}
trap unmount_all EXIT INT TERM
bind() { # host path, path in the chroot
	mkdir -p "$2"
	mount --rbind "$1" "$2"
	mount --make-rslave "$2"
	mounted="$2 $mounted"
}
# the root a mount point of its own, as "ip netns" needs "/" to be
mount --bind "$root" "$root"
mount --make-private "$root"
mounted="$root"
mount -t proc proc "$root/proc"
mounted="$root/proc $mounted"
bind /sys "$root/sys"
bind /dev "$root/dev"
bind "$top" "$root/$top"
if [ -d "$top/../shared" ]; then
	shared=$(cd "$top/../shared" && pwd)
	bind "$shared" "$root/$shared"
fi
status=0
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	LC_ALL=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}" "$@" || status=$?
exit "$status"
