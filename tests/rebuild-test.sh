#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The RPC messages rebuilt from chunk data in every bundled capture hold
# the bytes the peer sent (rebuild-check parses each), and as many are
# rebuilt of each kind as tests/golden/rebuild.txt, read when it changes,
# says.
# usage: rebuild-test.sh REBUILD-CHECK SOURCE-DIR
set -eu
check=$1
src=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$check" "$src"/samples/rocev2-*.pcap "$src"/samples/iwarp-*.pcap > "$out"
diff -u "$src/tests/golden/rebuild.txt" "$out"
echo "rebuilt messages: every byte as sent, counts as expected"
