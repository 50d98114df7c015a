#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# The man pages and the bash completion, as installed: each tool's page
# renders with groff (as man(1) does) and groff gives no warning; every option the tool's
# --help names is in its page, with the exit statuses and examples; and the
# completion, loaded by bash-completion, offers the options, the arguments
# that name something, and nothing for a number.
# usage: man-test.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
command -v groff >/dev/null || { echo "SKIP: groff is not installed"; exit 77; }
[ -f /usr/share/bash-completion/bash_completion ] ||
	{ echo "SKIP: bash-completion is not installed"; exit 77; }
[ -f "$build/docs/man/rpcrdma-dump.1" ] ||
	{ echo "SKIP: the man pages were not built (scdoc)"; exit 77; }
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
. "$(dirname "$0")/tap.sh"
cmake --install "$build" --prefix "$prefix" >/dev/null
export PATH=$build/cli:$PATH
# a tool this build left out (its optional libraries missing) has no
# --help to hold its page against
built() { [ -x "$build/cli/$1" ]; }
for tool in rpcrdma-dump rpcrdma-top rpcrdma-exporter rpcrdma-peer; do
	built "$tool" || { echo "# $tool is not in this build: its page is not checked"; continue; }
	page=$prefix/share/man/man1/$tool.1
	check "$tool.1 installed under share/man/man1" test -f "$page"
	check "$tool.1: groff warns of nothing" \
		eval "test -z \"\$(groff -man -Tutf8 -ww -z '$page' 2>&1)\""
	# wide lines, no hyphenation, no overstrikes: each option on one line
	groff -man -Tascii -rLL=200n -rHY=0 -P-cbou "$page" 2>/dev/null >"$prefix/$tool.txt"
	missing=
	for opt in $(. "$src/docs/completion/rpcrdma-tools.bash"; _rpcrdma_options "$tool"); do
		opt=${opt%=}
		grep -qE -- "(^|[^A-Za-z0-9-])$opt([^A-Za-z0-9-]|$)" "$prefix/$tool.txt" ||
			missing="$missing $opt"
	done
	check "$tool.1 names every option of its --help${missing:+ (missing:$missing)}" test -z "$missing"
	check "$tool.1 has NAME, SYNOPSIS, OPTIONS, EXIT STATUS, EXAMPLES, SEE ALSO" \
		eval "for s in NAME SYNOPSIS OPTIONS 'EXIT STATUS' EXAMPLES 'SEE ALSO'; do
			grep -q \"^\$s\" '$prefix/$tool.txt' || exit 1; done"
	check "bash completion installed as $tool" \
		test -f "$prefix/share/bash-completion/completions/$tool"
done
# the completion as bash-completion loads it
comp() { # expected word, command words...
	local want=$1
	shift
	bash -c '
		. /usr/share/bash-completion/bash_completion
		. "$0"
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_rpcrdma_tools "$1" "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
		printf "%s\n" "${COMPREPLY[@]}"' \
		"$prefix/share/bash-completion/completions/$1" "$@" >"$prefix/comp.txt"
	if [ -z "$want" ]; then
		! grep -q . "$prefix/comp.txt"
	else
		grep -qx -- "$want" "$prefix/comp.txt"
	fi
}
check "completion: rpcrdma-dump --sta offers --stats" comp --stats rpcrdma-dump --sta
built rpcrdma-exporter &&
	check "completion: rpcrdma-exporter --web offers --web.listen-address" \
		comp --web.listen-address rpcrdma-exporter --web
check "completion: rpcrdma-dump -i offers the interfaces (lo)" comp lo rpcrdma-dump -i l
check "completion: rpcrdma-dump -r offers files" \
	comp "$src/samples/rocev2-mixed.pcap" rpcrdma-dump -r "$src/samples/rocev2-mi"
built rpcrdma-top &&
	check "completion: rpcrdma-top -s offers the sort keys" comp p99 rpcrdma-top -s p
check "completion: rpcrdma-peer offers its modes, then its faults" \
	eval "comp client rpcrdma-peer cl && comp over-credit rpcrdma-peer pcap --fault over"
check "completion: nothing for a number (rpcrdma-dump -c), but options after" \
	eval "comp \"\" rpcrdma-dump -c \"\" && ! comp \"\" rpcrdma-dump -c 5 -"
tap_end
