#!/bin/sh
# Rebuilds the bundled sample capture with the project's encoder.
# usage: samples/remake.sh BUILD_DIR
set -eu
build=${1:-build}
here=$(dirname "$0")
"$build/samples/rpcrdma-mksample" "$here/rpcrdma-sample.pcap"
echo "wrote $here/rpcrdma-sample.pcap"
