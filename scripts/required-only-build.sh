#!/bin/sh
# Builds rpcrdma-tools as a packager or a Wireshark user without the
# optional libraries would: pkg-config is shown only the required ones
# (libpcap, json-c, Wireshark's epan) and what they require themselves, so
# libbpf, rdma-core, libtraceevent, ncurses, libmicrohttpd and the
# exporter's libraries are left out as on a machine that lacks them (the
# configure step says so for each); then runs the tests that build has.
# zlib is found by CMake, not pkg-config, and stays.
# usage: scripts/required-only-build.sh BUILD_DIR [ctest arguments...]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$1
shift
pcdir=$build/pkgconfig-required
rm -rf "$pcdir"
mkdir -p "$pcdir"
# each module and what it requires, as far as the chain goes
closure() {
	seen=
	while [ $# -gt 0 ]; do
		m=$1
		shift
		case " $seen " in *" $m "*) continue ;; esac
		seen="$seen $m"
		pc=$(pkg-config --path "$m") ||
			{ echo "required-only-build: $m has no pkg-config file" >&2; exit 1; }
		ln -sf "$pc" "$pcdir/"
		set -- "$@" $(pkg-config --print-requires --print-requires-private "$m" | awk '{ print $1 }')
	done
}
closure libpcap json-c wireshark
echo "=== required-only build: pkg-config sees$seen"
PKG_CONFIG_LIBDIR=$pcdir cmake -S "$top" -B "$build" -DCMAKE_C_COMPILER=gcc \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/configure.log"
# what the configure step says it left out
grep -E 'not found|not built|cannot' "$build/configure.log" | sed 's/^-- /    /' || true
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
echo "=== required-only build: tests"
cd "$build"
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "$@"
