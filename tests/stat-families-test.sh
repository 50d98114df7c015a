#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The statistics' family list (rpcrdma/stat-families.h) is what Prometheus
# serves and what the README's metric table names: a real exporter replays
# a Linux NFSv4.1 capture and its /metrics has each family of the list with
# the list's type and label names, and no analyzer family outside the list
# but the per-connection, exporter and process ones; the README's table
# names each family (in full, or as a "_suffix" after a name of its row)
# with each of its labels in backquotes in the same row.
# usage: stat-families-test.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
command -v curl >/dev/null || { echo "SKIP: curl is not installed"; exit 77; }
. "$(dirname "$0")/exporter-lib.sh"
. "$(dirname "$0")/tap.sh"
"$build/tests/stat-families" prom >"$work/list" || exit 1

capture=$src/tests/linux/bookworm-rxe-nfs41/client/capture.pcap
port=$(free_port)
"$build/cli/rpcrdma-exporter" -r "$capture" -l "127.0.0.1:$port" >/dev/null 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$port/metrics"
check "the exporter replayed the capture" \
	wait_replay_done "$work/metrics" "http://127.0.0.1:$port/metrics"

# FAMILY TYPE for each "# TYPE"; each sample's family and label names
awk '$1 == "#" && $2 == "TYPE" { print $3, $4 }' "$work/metrics" | sort >"$work/types"
sample_labels() { # family: its samples' label names, "le" aside, one set a line
	grep -E "^$1(_bucket|_sum|_count)?[{ ]" "$work/metrics" |
		sed -n 's/^[^{ ]*{\([^}]*\)}.*/\1/p; t; s/.*/-/p' |
		sed 's/="\([^"\\]\|\\.\)*"//g; s/,le$//; s/^le$/-/' | sort -u
}
missing="" wrong_labels=""
while read -r name type labels when; do
	if ! grep -qx "$name $type" "$work/types"; then
		[ "$when" = rebuilding ] || missing="$missing $name"
		continue
	fi
	got=$(sample_labels "$name")
	[ -z "$got" ] || [ "$got" = "$labels" ] || wrong_labels="$wrong_labels $name{$got}"
done <"$work/list"
check "every family of the list is served with its type ($(wc -l <"$work/list") in the list)" \
	test -z "$missing"
[ -z "$missing" ] || echo "# missing:$missing"
check "each family's samples carry the list's labels" test -z "$wrong_labels"
[ -z "$wrong_labels" ] || echo "# labels differ:$wrong_labels"
# what the list does not hold yet: per connection, the exporter's own
outside=$(awk '{ print $1 }' "$work/types" | while read -r f; do
	grep -q "^$f " "$work/list" && continue
	case $f in
	rpcrdma_connection_* | rpcrdma_exporter_* | process_* | rpcrdma_other_upper_layer_* | \
		rpcrdma_calls_in_flight | rpcrdma_connections_open | rpcrdma_credits_granted) ;;
	*) echo "$f" ;;
	esac
done)
check "no analyzer family is served outside the list" test -z "$outside"
[ -z "$outside" ] || echo "# outside the list: $outside"

# the README's metric table: its rows, and the names and labels they quote
sed -n '/^## Watching a fleet/,/^## /p' "$src/README.md" | grep '^| `rpcrdma_' >"$work/rows"
check "the README has a metric table" test -s "$work/rows"
names_of_row() { # a row: every family name it quotes, "_suffix" ones expanded
	tokens=$(printf '%s\n' "$1" | grep -o '`[a-z_][a-z0-9_]*\({[a-z_,]*}\)\{0,1\}`' |
		tr -d '`' | sed 's/{.*//')
	for t in $tokens; do
		case $t in rpcrdma_*) echo "$t" ;; esac
	done
	for t in $tokens; do
		case $t in _*) ;; *) continue ;; esac
		for full in $tokens; do
			case $full in rpcrdma_*) ;; *) continue ;; esac
			stem=$full
			while [ "${stem%_*}" != "$stem" ]; do
				stem=${stem%_*}
				echo "$stem$t"
			done
		done
	done
}
unnamed="" unlabelled=""
while read -r name type labels when; do
	found=""
	while IFS= read -r row; do
		names_of_row "$row" | grep -qx "$name" || continue
		found=yes
		[ "$labels" = - ] && break
		for l in ${labels//,/ }; do
			printf '%s\n' "$row" | grep -qF "\`$l\`" ||
				printf '%s\n' "$row" | grep -qF "{$l}" ||
				unlabelled="$unlabelled $name:$l"
		done
		break
	done <"$work/rows"
	[ -n "$found" ] || unnamed="$unnamed $name"
done <"$work/list"
check "the README's metric table names every family of the list" test -z "$unnamed"
[ -z "$unnamed" ] || echo "# not in the README:$unnamed"
check "and quotes each family's labels in its row" test -z "$unlabelled"
[ -z "$unlabelled" ] || echo "# labels not quoted:$unlabelled"
tap_end
