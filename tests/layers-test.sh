#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# The analyzer's modules are one-way layers: a module calls only the
# functions (rra_*) of modules in layers below its own, never one beside
# or above it.  Read from the built objects (nm), so that what is checked
# is what the compiler made of the code.  Usage: layers-test.sh OBJECT...
#
# layers-test.sh --trace SRCDIR OBJECT...: the same of the kernel's view
# (trace/ over ebpf/'s loaders), every function one file defines for
# another, and the tools (cli/, exporters/ under SRCDIR) including trace/'s
# one header only.
#
# layers-test.sh --plugin OBJECT...: the same of the Wireshark plugin's
# files (their rr_ws_ functions): the tree's maker over the analysis tree,
# the diagnosis' expert items and the statistics, over the kept report.
#
# The layers from the bottom; modules of one layer (separated by ":")
# do not call each other.  docs/design.md draws the same list.
layers="report conn calls clients:files:resends rpc_stats rebuild flow reassembly:chunk_io ib_flow:iwarp_flow analyzer"
prefix=rra_
srcdir=
if [ "$1" = --trace ]; then
	layers="trace-format bpf-messages rpcrdma_trace:rpcrdma_capture trace-bpf trace"
	prefix=rr_
	srcdir=$2
	shift 2
elif [ "$1" = --plugin ]; then
	layers="prefs analysis diagnosis-expert analysis-tree:stat packet-rpcrdma"
	prefix=rr_ws_
	shift
fi
. "$(dirname "$0")/tap.sh"

rank_of() { # module -> its layer's number, or nothing
	i=0
	for layer in $layers; do
		case ":$layer:" in *":$1:"*) echo $i; return ;; esac
		i=$((i + 1))
	done
}
module_of() { basename "$1" | sed 's/\.c\.o$//; s/\.o$//'; }

defs=$(mktemp)
trap 'rm -f "$defs"' EXIT
for o in "$@"; do
	nm --defined-only "$o" | awk -v m="$(module_of "$o")" \
		-v p="$prefix" '$2 == "T" && index($3, p) == 1 { print $3, m }'
done >"$defs"
[ -s "$defs" ] || { echo "no module of the layers among the objects given" >&2; exit 1; }

# every module that defines rra_ functions has its place in the layers
for m in $(awk '{ print $2 }' "$defs" | sort -u); do
	check "$m has a layer" test -n "$(rank_of "$m")"
done

calls_down() { # object: every rra_ function it uses is defined below it
	m=$(module_of "$1")
	r=$(rank_of "$m")
	[ -n "$r" ] || return 0
	ok=0
	for sym in $(nm -u "$1" | awk -v p="$prefix" 'index($2, p) == 1 { print $2 }'); do
		# a function of none of the objects (the library's): not a layer's
		[ -n "$srcdir" ] && ! grep -q "^$sym " "$defs" && continue
		d=$(awk -v s="$sym" '$1 == s { print $2 }' "$defs")
		dr=$(rank_of "$d")
		if [ -z "$d" ] || [ -z "$dr" ] || [ "$dr" -ge "$r" ]; then
			echo "# $m calls $sym of ${d:-nowhere} (layer ${dr:-none}, its own $r)"
			ok=1
		fi
	done
	return $ok
}
for o in "$@"; do
	m=$(module_of "$o")
	[ -n "$(rank_of "$m")" ] || continue
	check "$m calls only layers below it" calls_down "$o"
done

if [ -n "$srcdir" ]; then
	# the tools see the kernel's view through trace.h (and the view's
	# types), never the readers' own headers
	private_includes() {
		grep -rn '#include "\(trace-format\|trace-bpf\)\.h"' "$srcdir/cli" "$srcdir/exporters"
	}
	check "cli/ and exporters/ include trace/'s trace.h, not its readers' headers" \
		test -z "$(private_includes)"
	tap_end
	exit
fi

[ "$prefix" = rr_ws_ ] && { tap_end; exit; }

# The shared header defines no inline function that calls a module's: a
# call hidden there would be made from whichever module inlines it.
header="$(dirname "$0")/../libdissect/src/analyzer/analyzer-int.h"
inline_calls() { # the rra_ functions the header's inline bodies call, but its own
	awk '/^static inline/ { inl = 1 }
	     inl { print }
	     inl && /^}/ { inl = 0 }' "$header" >"$defs.inline"
	own=$(sed -n 's/^static inline [^(]*[ *]\(rra_[a-z0-9_]*\)(.*/\1/p' "$header" | sort -u)
	grep -o 'rra_[a-z0-9_]*(' "$defs.inline" | tr -d '(' | sort -u |
		while read -r f; do
			echo "$own" | grep -qx "$f" || echo "# analyzer-int.h: an inline function calls $f"
		done
}
check "analyzer-int.h's inline functions call no module's" test -z "$(inline_calls)"
rm -f "$defs.inline"
tap_end
