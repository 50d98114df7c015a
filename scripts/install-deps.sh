#!/bin/sh
# Installs the Debian packages rpcrdma-tools builds and tests with (Debian 12
# and later: names that differ between releases are chosen by release), and
# any further ones named as arguments (lab/run adds QEMU's and debootstrap).
# --build: only what building every tool, the plugin and the eBPF program
# needs (the quick start); without it, what the tests run too.
# Safe to run again: apt-get skips what is already installed.
# usage: install-deps.sh [--build] [PACKAGE...]
set -eu
tests=yes
if [ "${1:-}" = --build ]; then
	tests=
	shift
fi

# clang's sanitizer and libFuzzer runtimes are packaged per LLVM version
. /etc/os-release
case "${VERSION_CODENAME:-}" in
bookworm) llvm=14 ;;
trixie) llvm=19 ;;
*) llvm=$(apt-cache depends clang 2>/dev/null | sed -n 's/.*Depends: clang-\([0-9]*\)$/\1/p' | head -n 1) ;;
esac
# A receiver of the exporter's OTLP push for its test: VictoriaMetrics takes
# OTLP from 1.92 (Debian 13's is 1.112, Debian 12's 1.79 takes none; Debian's
# Prometheus is built without its OTLP receiver)
otlp_receiver=victoria-metrics
[ "${VERSION_CODENAME:-}" != bookworm ] || otlp_receiver=

packages="build-essential cmake pkg-config clang llvm
libpcap-dev wireshark-dev libibverbs-dev librdmacm-dev libjson-c-dev
libmicrohttpd-dev bpftool libbpf-dev libelf-dev zlib1g-dev libncurses-dev scdoc
libtraceevent-dev libyaml-dev libgnutls28-dev libcrypt-dev libsystemd-dev libcap-ng-dev
libcurl4-gnutls-dev libprotobuf-c-dev protobuf-c-compiler
$*"
# sanitizer and fuzzer runtimes, tshark and Wireshark, Prometheus, and the
# tools the test scripts call
[ -z "$tests" ] || packages="$packages ${llvm:+libclang-rt-$llvm-dev}
tshark wireshark xvfb x11-utils x11-apps netpbm prometheus curl jq bc
tmux iproute2 tcpreplay util-linux python3 python3-jsonschema groff-base bash-completion
gnutls-bin systemd${otlp_receiver:+ $otlp_receiver}"

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
if [ -n "$tests" ] && [ -z "$llvm" ]; then # a release this script has no name for: ask apt
	llvm=$(apt-cache depends clang | sed -n 's/.*Depends: clang-\([0-9]*\)$/\1/p' | head -n 1)
	[ -n "$llvm" ] || { echo "install-deps: no clang-N package found" >&2; exit 1; }
	missing="$missing libclang-rt-$llvm-dev"
fi
# tshark asks whether non-root users may capture; answer no without a prompt.
echo "wireshark-common wireshark-common/install-setuid boolean false" |
	$SUDO debconf-set-selections
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
# The tests start their own Prometheus server on a free port; Debian's
# package enables and starts a system-wide one on :9090, which nothing here
# wants left running.
if printf '%s\n' $missing | grep -qx prometheus && [ -d /run/systemd/system ]; then
	$SUDO systemctl disable --now prometheus.service >/dev/null 2>&1 || true
fi
if printf '%s\n' $missing | grep -qx victoria-metrics && [ -d /run/systemd/system ]; then
	$SUDO systemctl disable --now victoria-metrics.service >/dev/null 2>&1 || true
fi
