#!/bin/sh
# Two builds' speed on the same input in the same run, for a change that
# must not cost time (a reshaping of the analyzer): rpcrdma-dump -q --stats
# and -j on the lab's Linux NFSv3 and NFSv4.1 captures repeated REPEATS
# times on new QPs (repeat-capture), decode-bench --only analyze (the
# analyzer alone, frames in memory), and conn-flood (a new QP per RPC: the
# eviction path).  The old and new runs alternate; each figure is the best
# of RUNS, and the last column is new against old (above 1: slower).
# Where valgrind is installed, callgrind's instruction counts of the same
# commands follow, on a tenth of the capture: they do not depend on the
# machine's load, which moves a whole tool's wall time by tens of percent
# on a virtual machine (docs/performance.md).
# usage: bench/compare-speed.sh OLD_BUILD NEW_BUILD [REPEATS] [RUNS]
set -eu
[ $# -ge 2 ] || { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
old=$1 new=$2
repeats=${3:-100} runs=${4:-5}
here=$(dirname "$0")
out=$here/out
mkdir -p "$out"
file=$out/compare-speed.pcap
linux=$here/../tests/linux
"$new/bench/repeat-capture" -n "$repeats" -o "$file" \
	"$linux/bookworm-rxe-nfs3/client/capture.pcap" \
	"$linux/bookworm-rxe-nfs41/client/capture.pcap"
now() { date +%s.%N; }
elapsed() { # command...: its seconds
	t0=$(now)
	"$@" >/dev/null 2>&1
	t1=$(now)
	awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}
best() { awk -v m="$1" -v d="$2" 'BEGIN { print (m == "" || d < m) ? d : m }'; }
compare() { # label, then the command with BUILD where the build goes
	label=$1
	shift
	bo='' bn=''
	for _ in $(seq "$runs"); do
		bo=$(best "$bo" "$(elapsed $(echo "$@" | sed "s|BUILD|$old|g"))")
		bn=$(best "$bn" "$(elapsed $(echo "$@" | sed "s|BUILD|$new|g"))")
	done
	awk -v l="$label" -v o="$bo" -v n="$bn" 'BEGIN {
		printf "%-34s old %7.3f s  new %7.3f s  new/old %5.3f\n", l, o, n, n / o }'
}
echo "== $(du -h "$file" | cut -f1) capture, best of $runs alternating runs"
compare "rpcrdma-dump -q --stats" BUILD/cli/rpcrdma-dump -q --stats -r "$file"
compare "rpcrdma-dump -j" BUILD/cli/rpcrdma-dump -j -r "$file"
# the analyzer alone, as rpcrdma-dump -q --stats drives it
analyze() { # build: frames per second
	"$1/bench/decode-bench" --seconds 2 --only analyze "$file" |
		sed -n 's/^analyze: \([0-9]*\).*/\1/p'
}
ao='' an=''
for _ in $(seq "$runs"); do
	ao=$(awk -v m="$ao" -v d="$(analyze "$old")" 'BEGIN { print (m == "" || d > m) ? d : m }')
	an=$(awk -v m="$an" -v d="$(analyze "$new")" 'BEGIN { print (m == "" || d > m) ? d : m }')
done
awk -v o="$ao" -v n="$an" 'BEGIN {
	printf "%-34s old %7.2f M/s new %7.2f M/s new/old %5.3f (time)\n",
	       "decode-bench --only analyze", o / 1e6, n / 1e6, o / n }'
# conn-flood prints its own per-frame costs: the best of the runs
flood() { "$1/bench/conn-flood" | sed -n 's/^a new QP for every RPC: *\([0-9.]*\) ns.*/\1/p'; }
fo='' fn=''
for _ in $(seq "$runs"); do
	fo=$(best "$fo" "$(flood "$old")")
	fn=$(best "$fn" "$(flood "$new")")
done
awk -v o="$fo" -v n="$fn" 'BEGIN {
	printf "%-34s old %7.1f ns new %7.1f ns  new/old %5.3f\n",
	       "conn-flood, a new QP per RPC", o, n, n / o }'
if command -v valgrind >/dev/null; then
	small=$out/compare-speed-small.pcap
	"$new/bench/repeat-capture" -n $(((repeats + 9) / 10)) -o "$small" \
		"$linux/bookworm-rxe-nfs3/client/capture.pcap" \
		"$linux/bookworm-rxe-nfs41/client/capture.pcap" >/dev/null
	instructions() { # command...: instructions it ran
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
			sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,
	}
	counted() { # label, then the command with BUILD where the build goes
		label=$1
		shift
		io=$(instructions $(echo "$@" | sed "s|BUILD|$old|g"))
		in=$(instructions $(echo "$@" | sed "s|BUILD|$new|g"))
		awk -v l="$label" -v o="$io" -v n="$in" 'BEGIN {
			printf "%-34s old %9.2f M  new %9.2f M  new/old %6.4f (instructions)\n",
			       l, o / 1e6, n / 1e6, n / o }'
	}
	counted "rpcrdma-dump -q --stats" BUILD/cli/rpcrdma-dump -q --stats -r "$small"
	counted "rpcrdma-dump -j" BUILD/cli/rpcrdma-dump -j -r "$small"
	counted "conn-flood 20000" BUILD/bench/conn-flood 20000
	rm -f "$small"
fi
rm -f "$file"
