#!/bin/sh
# Makes (once) and prints the path of a bare Debian chroot of release SUITE:
# debootstrap's minbase and nothing else, as a fresh machine has it, for
# installing the project's packages into (scripts/package-test.sh, which
# uses it through an overlay and leaves it as it is).  Cached in
# $RPCRDMA_CHROOT_CACHE (default /var/cache/rpcrdma-chroot), keyed by the
# hash of this script.  Needs root.
# usage: scripts/bare-chroot.sh SUITE
set -eu
suite=$1
top=$(cd "$(dirname "$0")/.." && pwd)
mirror=${RPCRDMA_MIRROR:-http://deb.debian.org/debian}
cache=${RPCRDMA_CHROOT_CACHE:-/var/cache/rpcrdma-chroot}
key=$(sha256sum <"$top/scripts/bare-chroot.sh" | cut -c1-12)
root=$cache/bare-$suite-$key
[ "$(id -u)" -eq 0 ] || { echo "bare-chroot.sh: needs root (debootstrap)" >&2; exit 1; }
if [ -e "$root/.ready" ]; then
	echo "$root"
	exit 0
fi
command -v debootstrap >/dev/null ||
	{ echo "bare-chroot.sh: debootstrap is not installed (scripts/install-deps.sh debootstrap)" >&2; exit 1; }
script=$suite
[ -e "/usr/share/debootstrap/scripts/$suite" ] || script=sid
mkdir -p "$cache"
work=$cache/.bare-$suite-$key.$$
trap 'rm -rf --one-file-system "$work" "$work.log"' EXIT INT TERM
echo "bare-chroot.sh: debootstrap $suite (minbase) into $root" >&2
debootstrap --variant=minbase --components=main "$suite" "$work" "$mirror" \
	"/usr/share/debootstrap/scripts/$script" >"$work.log" 2>&1 ||
	{ tail -n 30 "$work.log" >&2; exit 1; }
# no daemon may start inside while packages install
printf '#!/bin/sh\nexit 101\n' >"$work/usr/sbin/policy-rc.d"
chmod 755 "$work/usr/sbin/policy-rc.d"
echo 'Acquire::Check-Valid-Until "false";' >"$work/etc/apt/apt.conf.d/99rpcrdma"
# minbase leaves man pages out (dpkg's path-exclude): a user's machine has them
rm -f "$work/etc/dpkg/dpkg.cfg.d/excludes"
touch "$work/.ready"
mv "$work" "$root"
rm -f "$work.log"
trap - EXIT INT TERM
for old in "$cache/bare-$suite"-*; do
	[ "$old" = "$root" ] || rm -rf --one-file-system "$old"
done
echo "$root"
