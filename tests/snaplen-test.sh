#!/bin/sh
# Every sample cut to snap lengths 64, 96 and 128 (editcap -s) decodes
# without a crash or an error exit, and reports truncation.
# usage: snaplen-test.sh RPCRDMA_DUMP SOURCE_DIR
set -u
dump=$1
src=$2
command -v editcap >/dev/null || { echo "SKIP: editcap is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
for f in "$src"/samples/*.pcap; do
	for snap in 64 96 128; do
		editcap -s "$snap" "$f" "$work/cut.pcap" >/dev/null 2>&1
		summary=$("$dump" -r "$work/cut.pcap" 2>&1 >/dev/null)
		rc=$?
		line=$(printf '%s\n' "$summary" | tail -1)
		truncated=$(printf '%s\n' "$line" | sed -n 's/.* \([0-9]*\) truncated.*/\1/p')
		if [ "$rc" = 0 ] && [ "${truncated:-0}" -gt 0 ]; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			echo "not ok - $(basename "$f") at $snap bytes: exit $rc: $line"
		fi
	done
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
