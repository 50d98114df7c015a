#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The README's examples cannot go stale: each one that reads files of the
# tree is run and its output compared with what the README shows.
#
# An example is a fenced block's "$ COMMAND" line and the lines after it
# (up to the next "$ " line or the fence's end), or a whole fenced block
# just after a "<!-- output of: COMMAND -->" line.  The lines shown must
# appear in the output in that order and next to each other; a line that
# is only "..." stands for lines left out.  Runs of blanks count as one
# (tshark's tables pad their columns differently from one release to the
# next), leading and trailing ones not at all.
# A command's "# rpcrdma-exporter ARGS" comment names the exporter it asks
# (started here on a free port, which replaces 10186); "# with the plugin"
# runs tshark with the Wireshark plugin.  The commands run from the
# source folder with the build's tools first in PATH.
# usage: readme-test.sh BUILD_DIR SOURCE_DIR
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
command -v jq >/dev/null || { echo "SKIP: jq is not installed"; exit 77; }
command -v curl >/dev/null || { echo "SKIP: curl is not installed"; exit 77; }
. "$(dirname "$0")/exporter-lib.sh"
. "$(dirname "$0")/tap.sh"
chmod 755 "$work"

# The build's tools first in PATH; tshark as an unprivileged user whose
# HOME holds the plugin (tshark ignores personal plugins as root).
mkdir -p "$work/bin"
for t in rpcrdma-dump rpcrdma-top rpcrdma-exporter; do
	ln -s "$build/cli/$t" "$work/bin/$t"
done
plugin=$build/wireshark-plugin/rpcrdma.so
have_plugin=no
if command -v tshark >/dev/null && [ -f "$plugin" ]; then
	. "$src/tests/plugin-home.sh"
	plugin_home "$plugin" "$work/home" || exit 1
	chmod -R a+rX "$work"
	real_tshark=$(command -v tshark)
	if [ "$(id -u)" -eq 0 ]; then
		printf '#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=%s %s "$@"\n' \
			"$work/home" "$real_tshark" >"$work/bin/tshark"
	else
		printf '#!/bin/sh\nHOME=%s exec %s "$@"\n' "$work/home" "$real_tshark" >"$work/bin/tshark"
	fi
	chmod 755 "$work/bin/tshark"
	have_plugin=yes
fi

# Every example as $work/ex/N.cmd (the command) and N.want (the lines shown).
mkdir -p "$work/ex"
awk -v dir="$work/ex" '
	# blank lines count only between shown lines
	function start(cmd) { n++; f = dir "/" n; blanks = 0; print cmd > (f ".cmd"); close(f ".cmd"); printf "" > (f ".want") }
	/^```/ {
		if (!fence) { fence = 1; if (pending != "") { start(pending); pending = "" } else f = "" }
		else { fence = 0; f = "" }
		next
	}
	!fence && /^<!-- output of: .* -->$/ { pending = $0; sub(/^<!-- output of: /, "", pending); sub(/ -->$/, "", pending); next }
	!fence && NF { pending = "" }
	fence && /^\$ / { start(substr($0, 3)); next }
	fence && f != "" && /^[ \t]*$/ { blanks++; next }
	fence && f != "" { sub(/[ \t]+$/, ""); for (; blanks > 0; blanks--) print "" >> (f ".want"); print >> (f ".want") }
' "$src/README.md"
examples=$(ls "$work/ex" | sed -n 's/\.cmd$//p' | sort -n)
check "the README shows examples with their output ($(echo "$examples" | grep -c .))" \
	test "$(echo "$examples" | grep -c .)" -ge 5

# shows WANT GOT: the lines of WANT appear in GOT as the README promises.
shows() {
	awk '
		function squeeze(s) { gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); return s }
		FILENAME == ARGV[1] { got[++g] = squeeze($0); next }
		{ $0 = squeeze($0) }
		/^[ \t]*\.\.\.$/ { if (s > 0) seg[++nseg] = s; s = 0; next }
		{ if (s == 0) first[nseg + 1] = w + 1; want[++w] = $0; s++ }
		END {
			if (s > 0) seg[++nseg] = s
			at = 1
			for (k = 1; k <= nseg; k++) {
				found = 0
				for (i = at; i + seg[k] - 1 <= g && !found; i++) {
					ok = 1
					for (j = 0; j < seg[k] && ok; j++)
						if (got[i + j] != want[first[k] + j]) ok = 0
					if (ok) { found = 1; at = i + seg[k] }
				}
				if (!found) {
					print "#   not in the output (or out of order): " want[first[k]]
					for (i = 1; i <= g && i <= 8; i++) print "#   output line " i ": " got[i]
					exit 1
				}
			}
		}' "$2" "$1"
}

for e in $examples; do
	cmd=$(cat "$work/ex/$e.cmd")
	label=$(echo "$cmd" | cut -c1-90)
	if [ ! -s "$work/ex/$e.want" ]; then
		continue
	fi
	case "$cmd" in
	*"# with the plugin"*)
		if [ "$have_plugin" != yes ]; then
			echo "ok $((n += 1)) - README: $label # SKIP tshark or the plugin is not here"
			continue
		fi ;;
	esac
	run=$cmd
	exporter=$(echo "$cmd" | sed -n 's/.*# rpcrdma-exporter \(.*\)$/\1/p')
	if [ -n "$exporter" ]; then
		port=$(free_port)
		# shellcheck disable=SC2086
		(cd "$src" && exec "$build/cli/rpcrdma-exporter" $exporter -l "127.0.0.1:$port") \
			>"$work/exporter-$e.log" 2>&1 &
		pids+=($!)
		if ! wait_replay_done "$work/metrics-$e" "http://127.0.0.1:$port/metrics"; then
			check "README: $label: the exporter replayed its file" false
			continue
		fi
		run=$(echo "$cmd" | sed "s/localhost:10186/localhost:$port/g")
	fi
	(cd "$src" && PATH="$work/bin:$PATH" bash -o pipefail -c "$run") \
		>"$work/ex/$e.got" 2>"$work/ex/$e.err"
	status=$?
	check "README: $label: runs (status $status)" test "$status" -eq 0
	check "README: $label: prints what the README shows" \
		shows "$work/ex/$e.want" "$work/ex/$e.got"
done
tap_end
