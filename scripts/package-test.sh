#!/bin/sh
# Builds the Debian packages (cpack, cmake/packaging.cmake) and installs
# them with apt into a clean Debian chroot of the host's release
# (scripts/bare-chroot.sh, used through an overlay), as a user would, then
# checks what each package promises: every tool's --version and man page,
# the quick start's decode of the packaged sample, bash completion, the
# exporter's systemd unit (systemd-analyze verify) and defaults file, the
# library through pkg-config and the CMake package, and tshark loading the
# packaged plugin and decoding with it.  Needs root and Debian's archive.
# usage: scripts/package-test.sh [SUITE]   (default: the host's release)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. /etc/os-release
suite=${1:-${VERSION_CODENAME:-bookworm}}
build=$top/build-package
# the library's package is named after its soname (docs/abi.md)
lib=librpcrdma-dissect$(sed -n 's/^set(RR_DISSECT_SOVERSION \([0-9]*\))$/\1/p' "$top/CMakeLists.txt")
jobs=$(nproc 2>/dev/null || echo 2)
. "$top/tests/tap.sh"

echo "=== packages: build (prefix /usr) and cpack"
cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
	-DBUILD_TESTING=OFF -DRR_FUZZ=OFF >/dev/null || exit 1
cmake --build "$build" -j "$jobs" >/dev/null || exit 1
rm -f "$build"/*.deb
(cd "$build" && cpack -G DEB >"$build/cpack.log" 2>&1) || { tail -n 20 "$build/cpack.log"; exit 1; }
ls "$build"/*.deb | sed 's|.*/|# |'
check "cpack made the five packages" test "$(ls "$build"/*.deb | wc -l)" -eq 5

bare=$("$top/scripts/bare-chroot.sh" "$suite") || exit 1
work=$(mktemp -d)
root=$work/root
mkdir -p "$root" "$work/upper" "$work/work"
cleanup() {
	for m in $(awk -v r="$root" 'index($2, r) == 1 { print $2 }' /proc/self/mounts | sort -r); do
		umount -l "$m" 2>/dev/null
	done
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT INT TERM
mount -t overlay overlay -o "lowerdir=$bare,upperdir=$work/upper,workdir=$work/work" "$root" || exit 1
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
mkdir -p "$root/tmp/debs"
cp "$build"/*.deb "$root/tmp/debs/"
in_root() { # command...: run in the chroot, as root, with a clean environment
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
echo "=== packages: apt-get install in a clean $suite chroot"
# what a user adds: man to read the pages, tshark for the plugin, systemd
# for the unit, pkg-config, gcc and cmake to build against the library
in_root sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends \
	/tmp/debs/*.deb man-db tshark systemd pkg-config gcc libc6-dev cmake make' \
	>"$work/apt.log" 2>&1
check "apt-get installs the five packages and their dependencies from the archive" \
	eval "test $? -eq 0 || { tail -n 20 '$work/apt.log'; false; }"
for p in rpcrdma-tools rpcrdma-exporter "$lib" librpcrdma-dissect-dev \
	wireshark-plugin-rpcrdma; do
	check "$p is installed" \
		eval "in_root dpkg-query -W -f='\${Status}' $p | grep -q 'install ok installed'"
done
version=$(sed -n 's/.*RR_VERSION_STRING "\(.*\)"/\1/p' "$build/libdissect/include/rpcrdma/version.h")
for tool in rpcrdma-dump rpcrdma-top rpcrdma-exporter rpcrdma-peer; do
	check "$tool --version: $tool $version" \
		eval "in_root $tool --version | head -n 1 | grep -q '^$tool $version'"
	check "man $tool shows its page" \
		eval "in_root man -P cat $tool 2>/dev/null | grep -q '^NAME'"
	check "bash completion for $tool" \
		test -f "$root/usr/share/bash-completion/completions/$tool"
done
in_root rpcrdma-dump -v --stats -r /usr/share/rpcrdma-tools/samples/rocev2-mixed.pcap \
	>"$work/quick.txt" 2>&1
check "the quick start's decode of the packaged sample: 18 calls, 18 replies" \
	grep -q 'calls 18 replies 18 unanswered 0' "$work/quick.txt"
in_root systemd-analyze verify /usr/lib/systemd/system/rpcrdma-exporter.service \
	>"$work/verify.txt" 2>&1
check "systemd-analyze verify accepts rpcrdma-exporter.service" \
	eval "test $? -eq 0 || { cat '$work/verify.txt'; false; }"
check "the unit: its own user, only capture capabilities, 127.0.0.1 unless told" \
	eval "grep -q '^DynamicUser=yes' '$root/usr/lib/systemd/system/rpcrdma-exporter.service' &&
	      grep -q '^CapabilityBoundingSet=CAP_BPF CAP_PERFMON CAP_NET_ADMIN CAP_NET_RAW$' \
		'$root/usr/lib/systemd/system/rpcrdma-exporter.service' &&
	      ! grep -q '^ARGS=.*listen' '$root/etc/default/rpcrdma-exporter'"
in_root systemd-analyze verify /usr/lib/systemd/system/rpcrdma-exporter.socket \
	>"$work/verify-socket.txt" 2>&1
check "systemd-analyze verify accepts rpcrdma-exporter.socket (socket activation)" \
	eval "test $? -eq 0 || { cat '$work/verify-socket.txt'; false; }"
in_root systemd-analyze security --offline=true \
	/usr/lib/systemd/system/rpcrdma-exporter.service >"$work/security.txt" 2>&1
exposure=$(sed -n 's/.*Overall exposure level for rpcrdma-exporter.service: \([0-9.]*\) \([A-Z]*\).*/\1 \2/p' \
	"$work/security.txt")
check "systemd-analyze security rates the unit OK or better (${exposure:-no rating})" \
	eval "case '${exposure#* }' in OK|SAFE|PERFECT) true ;; *) cat '$work/security.txt'; false ;; esac"
check "/etc/default/rpcrdma-exporter is a conffile" \
	eval "in_root dpkg-query -W -f='\${Conffiles}' rpcrdma-exporter | grep -q /etc/default/rpcrdma-exporter"
check "the unit is installed, not enabled" \
	test ! -e "$root/etc/systemd/system/multi-user.target.wants/rpcrdma-exporter.service"
# the library, as a program using it builds
cat >"$root/tmp/use.c" <<'C'
#include <rpcrdma/dissect.h>
#include <rpcrdma/version.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
	printf("%s %s\n", rr_version(), rr_rdma_proc_str(RR_RDMA_NOMSG));
	return strcmp(rr_version(), RR_VERSION_STRING) != 0;
}
C
cat >"$root/tmp/CMakeLists.txt" <<'C'
cmake_minimum_required(VERSION 3.18)
project(use C)
find_package(rpcrdma-dissect 0.1 CONFIG REQUIRED)
add_executable(use use.c)
target_link_libraries(use PRIVATE rpcrdma::dissect)
C
check "pkg-config --libs rpcrdma-dissect builds a program that runs with $lib" \
	eval "in_root sh -c 'gcc -o /tmp/use-pc /tmp/use.c \$(pkg-config --cflags --libs rpcrdma-dissect) && /tmp/use-pc' >'$work/pc.txt' 2>&1 ||
	      { cat '$work/pc.txt'; false; }"
check "find_package(rpcrdma-dissect CONFIG) builds the same program" \
	eval "in_root sh -c 'cmake -S /tmp -B /tmp/b >/dev/null && cmake --build /tmp/b >/dev/null && /tmp/b/use' >'$work/cmake.txt' 2>&1 ||
	      { cat '$work/cmake.txt'; false; }"
# the plugin, where tshark looks (the system's folder: root may use it)
in_root tshark -G plugins >"$work/plugins.txt" 2>&1
check "tshark lists the packaged plugin" grep -q 'rpcrdma.so' "$work/plugins.txt"
calls=$(in_root tshark -r /usr/share/rpcrdma-tools/samples/rocev2-mixed.pcap \
	-Y rpcrdma.xid -T fields -e frame.number 2>/dev/null | wc -l)
check "tshark with the plugin decodes the sample: $calls RPC-over-RDMA frames" \
	test "$calls" -gt 0
check "apt-get remove takes them away again" \
	eval "in_root apt-get remove -y -qq rpcrdma-tools rpcrdma-exporter wireshark-plugin-rpcrdma \
		librpcrdma-dissect-dev $lib >/dev/null 2>&1 &&
	      test ! -e '$root/usr/bin/rpcrdma-dump'"
tap_end
