#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# No two files of a program call each other in a loop: from the built
# objects (nm), an edge from each object to every object defining a
# function it calls, and no object that reaches itself through them.
# Usage: circles-test.sh NAME OBJECT...  (NAME: what the objects make up)
. "$(dirname "$0")/tap.sh"
name=$1
shift
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for o in "$@"; do
	nm --defined-only "$o" | awk -v f="$(basename "$o" .o)" '$2 == "T" { print "D", $3, f }'
	nm -u "$o" | awk -v f="$(basename "$o" .o)" '$1 == "U" { print "U", $2, f }'
done | awk '$1 == "D" { def[$2] = $3; next }
	    { use[NR] = $3 " " $2 }
	    END { for (i in use) { split(use[i], u, " "); if (u[2] in def && def[u[2]] != u[1]) print u[1], def[u[2]] } }' |
	sort -u >"$edges"
# the objects that reach themselves (a closure over the edges), and one
# loop named for each
loops=$(awk '{ n[$1]; n[$2]; e[$1 SUBSEP $2] = 1 }
	END {
		for (k in n) for (i in n) if ((i SUBSEP k) in e) for (j in n)
			if ((k SUBSEP j) in e) e[i SUBSEP j] = 1
		for (i in n) if ((i SUBSEP i) in e) print i
	}' "$edges" | sort)
for f in $loops; do
	echo "# $name: $f is in a loop; it calls $(awk -v f="$f" '$1 == f { printf "%s ", $2 }' "$edges")"
done
check "$name: no file calls another that calls it back ($(wc -l <"$edges") calls between files)" \
	test -z "$loops"
tap_end
