#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The library's ABI is explicit (docs/abi.md): libdissect.map names every
# exported function, each declared in a public header; the soname is the
# one CMakeLists.txt sets; and the ABI abidiff reads from the built library
# (its functions and every public type they reach) equals the one kept in
# libdissect/abi/, so that a changed struct or a removed function fails
# here until the soname is raised and the file written again
# (scripts/abi-update.sh).  Status 77 (skip) where abidiff is absent.
# usage: abi-test.sh LIBRARY SOURCE_DIR BUILD_DIR SONAME
set -eu
lib=$1 src=$2 build=$3 want_soname=$4
map=$src/libdissect/libdissect.map
baseline=$src/libdissect/abi/librpcrdma-dissect.abi
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the names between "global:" and "local:", one a line
sed -n '/global:/,/local:/{/global:\|local:/d;s/[[:space:];]//g;/./p}' "$map" |
	sort >"$tmp/map"
nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ { sub(/@.*/, "", $3); print $3 }' |
	sort >"$tmp/exported"

check "the map names each function, with no pattern but local's" \
	sh -c '! grep -q "[*?]" "$1"' - "$tmp/map"
check "the library exports the map's $(wc -l <"$tmp/map") functions and no other" \
	cmp -s "$tmp/map" "$tmp/exported"
cmp -s "$tmp/map" "$tmp/exported" || diff "$tmp/map" "$tmp/exported" | sed 's/^/# /'
# the public headers as one line, so that a declaration may span lines
cat "$src"/libdissect/include/rpcrdma/*.h "$build"/libdissect/include/rpcrdma/*.h |
	tr '\n' ' ' >"$tmp/headers"
undeclared=""
for f in $(cat "$tmp/map"); do
	grep -q "RR_API[^;{}]*[^A-Za-z0-9_]$f *(" "$tmp/headers" || undeclared="$undeclared $f"
done
check "every exported function is declared RR_API in a public header" test -z "$undeclared"
[ -z "$undeclared" ] || echo "# not declared:$undeclared"
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
check "the soname is $want_soname ($soname)" test "$soname" = "$want_soname"

if ! command -v abidiff >/dev/null; then
	echo "# abidiff (abigail-tools) absent: the ABI itself is not compared"
	tap_end || exit 1
	exit 77
fi
if ! readelf -S "$lib" | grep -q '\.debug_info'; then
	echo "# the library has no debug information: the ABI itself is not compared"
	tap_end || exit 1
	exit 77
fi
headers="--headers-dir2 $src/libdissect/include --headers-dir2 $build/libdissect/include"
# shellcheck disable=SC2086 # $headers is a list of options
abidiff $headers "$baseline" "$lib" >"$tmp/report" 2>&1 && same=yes || same=""
check "the ABI is libdissect/abi/librpcrdma-dissect.abi's" test -n "$same"
if [ -z "$same" ]; then
	sed 's/^/# /' "$tmp/report"
	# shellcheck disable=SC2086
	if abidiff --no-added-syms $headers "$baseline" "$lib" >/dev/null 2>&1; then
		echo "# functions were added: list them in a new version node of libdissect.map, then run scripts/abi-update.sh"
	else
		echo "# an incompatible change: raise RR_DISSECT_SOVERSION in CMakeLists.txt, then run scripts/abi-update.sh"
	fi
fi
tap_end
