#!/bin/sh
# The committed RoCEv2 samples are what rpcrdma-peer makes today.
# usage: samples-current.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/samples"
cp "$src/samples/remake.sh" "$work/samples/"
# the RoCEv2 part of remake.sh, into the scratch folder
sed '/^live_tcp()/,$d' "$src/samples/remake.sh" >"$work/samples/remake-rocev2.sh"
sh "$work/samples/remake-rocev2.sh" "$build" >/dev/null
pass=0
fail=0
for f in "$src"/samples/rocev2-*.pcap; do
	name=$(basename "$f")
	if cmp -s "$f" "$work/samples/$name"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "stale: samples/$name differs from what the tools make now"
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
