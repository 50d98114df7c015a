#!/bin/sh
# Installs into a temporary prefix and builds a program against the shared
# library through pkg-config and through the CMake package, as a user of
# the library would.
# usage: install-test.sh BUILD_DIR
set -eu
build=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
# the Wireshark plugin goes below the prefix too, never into the system's
if [ -f "$build/wireshark-plugin/rpcrdma.so" ] &&
	! find "$prefix" -path '*/wireshark/plugins/*/epan/rpcrdma.so' | grep -q .; then
	echo "FAIL: the Wireshark plugin was not installed below the prefix"
	exit 1
fi
# the user's documents and the monitoring samples under share/
for f in share/doc/rpcrdma-tools/LICENSE share/doc/rpcrdma-tools/json-schema.md \
	share/rpcrdma-tools/monitoring/rpcrdma-rules.yml share/rpcrdma-tools/monitoring/grafana-dashboard.json; do
	[ -f "$prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
pc=$(find "$prefix" -name rpcrdma-dissect.pc)
[ -n "$pc" ] || { echo "FAIL: no rpcrdma-dissect.pc installed"; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
cat >"$prefix/use.c" <<'C'
#include <rpcrdma/dissect.h>
#include <rpcrdma/encode.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
	uint8_t b[8];
	struct rr_cm_private p;
	rr_cm_private_encode(b, 1, true, 4096, 4096);
	if (!rr_cm_private_find(b, 0, 8, 8, &p) || p.send_size != 4096)
		return 1;
	puts(rr_rdma_proc_str(RR_RDMA_NOMSG));
	return strcmp(rr_rdma_proc_str(RR_RDMA_NOMSG), "RDMA_NOMSG") != 0;
}
C
# the same compiler and sanitizers as the library was built with
"${CC:-cc}" -std=c11 -Wall -Werror ${EXTRA_CFLAGS:-} -o "$prefix/use" \
	"$prefix/use.c" $(pkg-config --cflags --libs rpcrdma-dissect)
libdir=$(pkg-config --variable=libdir rpcrdma-dissect)
LD_LIBRARY_PATH=$libdir "$prefix/use" >/dev/null
# the CMake package gives the same, found below the prefix
mkdir -p "$prefix/cm"
cp "$prefix/use.c" "$prefix/cm/use.c"
cat >"$prefix/cm/CMakeLists.txt" <<'C'
cmake_minimum_required(VERSION 3.18)
project(use C)
find_package(rpcrdma-dissect 0.1 CONFIG REQUIRED)
add_executable(use use.c)
target_link_libraries(use PRIVATE rpcrdma::dissect)
add_executable(use-static use.c)
target_link_libraries(use-static PRIVATE rpcrdma::dissect_static)
C
CC="${CC:-cc}" CFLAGS="${EXTRA_CFLAGS:-}" LDFLAGS="${EXTRA_CFLAGS:-}" \
	cmake -S "$prefix/cm" -B "$prefix/cm/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null &&
	cmake --build "$prefix/cm/build" >/dev/null || {
	echo "FAIL: find_package(rpcrdma-dissect CONFIG) does not build a program"
	exit 1
}
"$prefix/cm/build/use" >/dev/null && "$prefix/cm/build/use-static" >/dev/null || {
	echo "FAIL: the programs built through the CMake package do not run"
	exit 1
}
# Only the rr_ API is exported from the shared library.
if nm -D --defined-only "$libdir/librpcrdma-dissect.so" | awk '{print $3}' |
	grep -v '^rr_' | grep -v '^RPCRDMA_DISSECT' | grep -q .; then
	echo "FAIL: symbols outside rr_ are exported"
	exit 1
fi
echo "PASS: installed library, headers, pkg-config file and CMake package build a program"
