#!/bin/sh
# bench/plugin-bench.sh for each Wireshark version the plugin is built for:
# this machine's (4.0 on Debian 12) with BUILD_DIR, then Debian 13's (4.4)
# and unstable's (4.6) in the chroots scripts/chroot.sh makes, each with
# the plugin built there (build-SUITE, as scripts/test.sh leaves it).
# usage: bench/plugin-bench-versions.sh [BUILD_DIR] [CALLS] [RUNS]  (root)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build-release}
calls=${2:-210000}
runs=${3:-3}
"$top/bench/plugin-bench.sh" "$build" "$calls" "$runs"
for suite in ${RPCRDMA_CHROOTS-trixie sid}; do
	[ -f "$top/build-$suite/wireshark-plugin/rpcrdma.so" ] || {
		echo "plugin-bench-versions: build-$suite has no plugin (run scripts/test.sh)" >&2
		exit 2
	}
	"$top/scripts/chroot-run.sh" "$suite" \
		"$top/bench/plugin-bench.sh" "$top/build-$suite" "$calls" "$runs"
done
