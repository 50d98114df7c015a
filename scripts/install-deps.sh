#!/bin/sh
# Installs the Debian packages rpcrdma-tools builds and tests with (Debian 12
# and later: names that differ between releases are chosen by release), and
# any further ones named as arguments (lab/run adds QEMU's and debootstrap).
# Safe to run again: apt-get skips what is already installed.
set -eu

# clang's sanitizer and libFuzzer runtimes are packaged per LLVM version
. /etc/os-release
case "${VERSION_CODENAME:-}" in
bookworm) llvm=14 ;;
trixie) llvm=19 ;;
*) llvm=$(apt-cache depends clang 2>/dev/null | sed -n 's/.*Depends: clang-\([0-9]*\)$/\1/p' | head -n 1) ;;
esac
packages="build-essential cmake pkg-config clang llvm ${llvm:+libclang-rt-$llvm-dev}
libpcap-dev tshark wireshark-dev libibverbs-dev librdmacm-dev libjson-c-dev bc
libmicrohttpd-dev prometheus curl jq
bpftool libbpf-dev libelf-dev zlib1g-dev libncurses-dev tmux iproute2 util-linux
wireshark xvfb x11-utils x11-apps netpbm
$*"

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps: installing:$missing"
$SUDO apt-get update -qq
if [ -z "$llvm" ]; then # a release this script has no name for: ask apt
	llvm=$(apt-cache depends clang | sed -n 's/.*Depends: clang-\([0-9]*\)$/\1/p' | head -n 1)
	[ -n "$llvm" ] || { echo "install-deps: no clang-N package found" >&2; exit 1; }
	missing="$missing libclang-rt-$llvm-dev"
fi
# tshark asks whether non-root users may capture; answer no without a prompt.
echo "wireshark-common wireshark-common/install-setuid boolean false" |
	$SUDO debconf-set-selections
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
