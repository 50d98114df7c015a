#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# -V / --version of every tool: the project's version on the first line,
# librpcrdma-dissect's and libpcap's after it, status 0; the exporter's
# rpcrdma_exporter_build_info carries the same version.
# usage: version-test.sh BUILD_DIR PROJECT_VERSION SOURCE_DIR
set -u
build=$1
version=$2
src=$3
. "$(dirname "$0")/tap.sh"
for tool in rpcrdma-dump rpcrdma-top rpcrdma-exporter rpcrdma-peer; do
	bin=$build/cli/$tool
	[ -x "$bin" ] || continue
	for opt in -V --version; do
		# shellcheck disable=SC2034 # read by the eval below
		out=$("$bin" "$opt" 2>&1)
		rc=$?
		check "$tool $opt: '$tool $version' first, the library and libpcap after, status 0" \
			eval "test $rc -eq 0 &&
				test \"\$(echo \"\$out\" | sed -n 1p)\" = '$tool $version' &&
				echo \"\$out\" | grep -qx 'librpcrdma-dissect $version' &&
				echo \"\$out\" | grep -q '^libpcap version '"
	done
done
exporter=$build/cli/rpcrdma-exporter
if [ -x "$exporter" ] && command -v curl >/dev/null; then
	. "$src/tests/ports.sh"
	start_exporter() {
		"$exporter" -r "$src/samples/rocev2-null.pcap" -l "127.0.0.1:$port" 2>/dev/null &
	}
	got=""
	if serve_on_free_port start_exporter; then
		for _ in $(seq 100); do
			got=$(curl -s --max-time 10 "http://127.0.0.1:$port/metrics" | grep '^rpcrdma_exporter_build_info')
			[ -n "$got" ] && break
			sleep 0.1
		done
		kill "$server_pid" 2>/dev/null
		wait "$server_pid" 2>/dev/null
	fi
	check "rpcrdma_exporter_build_info names version $version ($got)" \
		test "$got" = "rpcrdma_exporter_build_info{version=\"$version\",libdissect=\"$version\"} 1"
fi
tap_end
