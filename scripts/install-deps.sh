#!/bin/sh
# Installs the Debian 12 packages rpcrdma-tools builds and tests with, and
# any further ones named as arguments (lab/run adds QEMU's and debootstrap).
# Safe to run again: apt-get skips what is already installed.
set -eu

packages="build-essential cmake pkg-config clang llvm libclang-rt-14-dev
libpcap-dev tshark wireshark-dev libibverbs-dev librdmacm-dev libjson-c-dev bc
libmicrohttpd-dev prometheus curl jq
bpftool libbpf-dev libelf-dev zlib1g-dev libncurses-dev tmux iproute2 util-linux
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
# tshark asks whether non-root users may capture; answer no without a prompt.
echo "wireshark-common wireshark-common/install-setuid boolean false" |
	$SUDO debconf-set-selections
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
