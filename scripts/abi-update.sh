#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Writes libdissect/abi/librpcrdma-dissect.abi, the library's ABI as the
# abi test compares it (abidw, libabigail), from a build with debug
# information (RelWithDebInfo, the default).  Refuses an incompatible change
# (a function removed or changed, a public struct grown or reordered) that
# keeps the soname: raise RR_DISSECT_SOVERSION in CMakeLists.txt first.
# docs/abi.md says when to run it.  usage: abi-update.sh [BUILD]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build-release}" && pwd)
lib=$build/libdissect/librpcrdma-dissect.so
baseline=$top/libdissect/abi/librpcrdma-dissect.abi
command -v abidw >/dev/null || { echo "abi-update: abidw not found (apt-get install abigail-tools)" >&2; exit 2; }
[ -e "$lib" ] || { echo "abi-update: no $lib: build first" >&2; exit 2; }
readelf -S "$lib" | grep -q '\.debug_info' ||
	{ echo "abi-update: $lib has no debug information (build with RelWithDebInfo)" >&2; exit 2; }

soname() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }
headers="--headers-dir $top/libdissect/include --headers-dir $build/libdissect/include"
if [ -e "$baseline" ] &&
	! abidiff --no-added-syms --headers-dir2 "$top/libdissect/include" \
		--headers-dir2 "$build/libdissect/include" "$baseline" "$lib" >/dev/null &&
	[ "$(sed -n "s/.*soname='\([^']*\)'.*/\1/p;q" "$baseline")" = "$(soname "$lib")" ]; then
	echo "abi-update: an incompatible change keeps the soname $(soname "$lib"):" >&2
	echo "raise RR_DISSECT_SOVERSION in CMakeLists.txt, build, and run this again" >&2
	exit 1
fi
# file names without folders, so that the file is the same from any checkout
tmp=$baseline.$$
# shellcheck disable=SC2086 # $headers is a list of options
abidw $headers --short-locs --type-id-style hash --no-corpus-path \
	--no-comp-dir-path --no-elf-needed "$lib" |
	sed "s|path='$top/|path='|" >"$tmp"
mv "$tmp" "$baseline"
echo "abi-update: wrote $baseline ($(soname "$lib"))"
