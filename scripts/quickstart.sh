#!/bin/sh
# Sets up a fresh Debian 12 machine, builds rpcrdma-tools and decodes the
# bundled sample capture.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh" --build
cmake -S "$top" -B "$top/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$top/build" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
echo "=== rpcrdma-dump -v --stats -r samples/rocev2-mixed.pcap"
"$top/build/cli/rpcrdma-dump" -v --stats -r "$top/samples/rocev2-mixed.pcap"
