#!/bin/sh
# Golden tests in tcpdump's manner: each TESTLIST line names a capture,
# rpcrdma-dump options ('_' stands for a space, '-' for none) and the
# expected output (stdout, then the summary line from stderr).
# usage: run-golden.sh RPCRDMA_DUMP SOURCE_DIR [--update]
set -u
# time stamps in UTC whatever the machine's zone (rpcrdma-dump prints local time)
export TZ=UTC
dump=$1
src=$2
update=${3:-}
dir=$src/tests/golden
pass=0
fail=0
# json-c before 0.17 prints an empty array of a pretty document over two
# lines ("[" then "]"), later ones as "[]" (Debian 12 and 13): both read as
# "[]", every other byte compared as printed
empty_arrays() {
	awk '{
		if (held != "") {
			if ($0 ~ /^ *\],?$/) { t = $0; sub(/^ */, "", t); print held t; held = ""; next }
			print held; held = ""
		}
		if ($0 ~ /\[$/) { held = $0; next }
		print
	} END { if (held != "") print held }'
}
while read -r name capture opts expected; do
	case "$name" in ''|'#'*) continue ;; esac
	[ "$opts" = "-" ] && opts="" || opts=$(echo "$opts" | tr '_' ' ')
	# shellcheck disable=SC2086
	out=$("$dump" $opts -r "$src/$capture" 2>&1)
	if [ "$update" = "--update" ]; then
		printf '%s\n' "$out" | empty_arrays >"$dir/$expected"
		echo "updated $expected: read its diff before committing"
		continue
	fi
	if printf '%s\n' "$out" | empty_arrays |
		diff -u "$dir/$expected" - >/tmp/golden.$$; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL $name:"
		cat /tmp/golden.$$
	fi
	rm -f /tmp/golden.$$
done <"$dir/TESTLIST"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
