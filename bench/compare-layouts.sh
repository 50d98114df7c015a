#!/bin/sh
# Two commits' rpcrdma-dump -q --stats time on the same input, each commit
# built in several link orders.  Where the linker puts libdissect's
# functions moves the tool's time by a few percent with its instructions
# unchanged (docs/performance.md), so one build of each commit compares
# two layouts as much as two versions.  Each commit is built (Release)
# with libdissect's sources in LAYOUTS orders: the first as listed, the
# others shuffled, the shuffle numbered so that both commits get the same
# kind of spread.  All builds run in turn, RUNS rounds, on the lab's NFSv3
# and NFSv4.1 captures repeated REPEATS times (repeat-capture): a build's
# figure is its fastest run, a commit's the mean of its layouts'.  With
# CACHESIM=1, each build runs once under cachegrind's cache simulation
# instead, RUNS unused: its instructions and its first-level instruction
# cache misses, which show whether a layout's time is its code's size.
# usage: [CACHESIM=1] bench/compare-layouts.sh OLD_COMMIT NEW_COMMIT [LAYOUTS] [RUNS] [REPEATS]
set -eu
[ $# -ge 2 ] || { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
old=$1 new=$2
layouts=${3:-4} runs=${4:-201} repeats=${5:-10}
here=$(cd "$(dirname "$0")" && pwd)
top=$(git -C "$here" rev-parse --show-toplevel)
out=$here/out/layouts
mkdir -p "$out"

# libdissect/CMakeLists.txt's source list, shuffled by seed (0: as it is)
shuffle() { # seed < CMakeLists.txt > CMakeLists.txt
	awk -v seed="$1" '
	function flush(   i, j, t) {
		if (seed > 0) {
			srand(seed)
			for (i = n; i > 1; i--) {
				j = int(rand() * i) + 1
				t = src[i]; src[i] = src[j]; src[j] = t
			}
		}
		for (i = 1; i < n; i++)
			print "  " src[i]
		print "  " src[n] ")"
	}
	/^set\(RR_DISSECT_SOURCES$/ { print; listing = 1; next }
	listing {
		line = $1
		done = sub(/\)$/, "", line)
		src[++n] = line
		if (done) { flush(); listing = 0 }
		next
	}
	{ print }'
}

build() { # commit, layout: the build folder, built once
	dir=$out/$(git -C "$top" rev-parse --short "$1")-$2
	if [ ! -x "$dir/build/cli/rpcrdma-dump" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		git -C "$top" archive "$1" | tar -x -C "$dir"
		shuffle "$2" < "$dir/libdissect/CMakeLists.txt" > "$dir/list.txt"
		mv "$dir/list.txt" "$dir/libdissect/CMakeLists.txt"
		# an older commit may not build warning-free with today's compiler:
		# -Werror taken out (a -Wno-error in CMAKE_C_FLAGS comes before the
		# project's options, so it would not count)
		sed 's/^add_compile_options(\(.*\) -Werror /add_compile_options(\1 /' \
			"$dir/CMakeLists.txt" > "$dir/top.txt"
		mv "$dir/top.txt" "$dir/CMakeLists.txt"
		cmake -S "$dir" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
		cmake --build "$dir/build" -j"$(nproc)" \
			--target rpcrdma-dump repeat-capture >/dev/null
	fi
	echo "$dir/build"
}

builds=
for c in "$old" "$new"; do
	for l in $(seq 0 $((layouts - 1))); do
		echo "building $c, layout $l" >&2
		builds="$builds $c:$l:$(build "$c" "$l")"
	done
done
file=$out/compare-layouts.pcap
last=${builds##* }
"${last#*:*:}/bench/repeat-capture" -n "$repeats" -o "$file" \
	"$top/tests/linux/bookworm-rxe-nfs3/client/capture.pcap" \
	"$top/tests/linux/bookworm-rxe-nfs41/client/capture.pcap" >/dev/null

if [ -n "${CACHESIM:-}" ]; then
	command -v valgrind >/dev/null || { echo "CACHESIM needs valgrind" >&2; exit 2; }
	for b in $builds; do
		valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
			"${b#*:*:}/cli/rpcrdma-dump" -q --stats -r "$file" 2>&1 >/dev/null |
			awk -v b="${b%:*}" '/ I +refs:/ { i = $4 } / I1 +misses:/ { m = $4 }
				END { gsub(",", "", i); gsub(",", "", m); print b, i, m }'
	done | awk -v old="$old" -v new="$new" -v layouts="$layouts" '
		{ ir[$1] = $2; miss[$1] = $3 }
		END {
			printf "== cachegrind: instructions and I1 misses, millions\n"
			for (i = 0; i < 2; i++) {
				c = i ? new : old
				si = sm = 0
				for (l = 0; l < layouts; l++) {
					k = c ":" l
					printf "%-12s layout %d  %9.2f  %7.3f\n", c, l, ir[k] / 1e6, miss[k] / 1e6
					si += ir[k]; sm += miss[k]
				}
				mi[i] = si / layouts; mm[i] = sm / layouts
				printf "%-12s mean      %9.2f  %7.3f\n", c, mi[i] / 1e6, mm[i] / 1e6
			}
			printf "new/old, the means: instructions %.3f, I1 misses %.2f\n",
			       mi[1] / mi[0], mm[1] / mm[0]
		}'
	rm -f "$file"
	exit 0
fi

# every build once a round; each run's microseconds
for _ in $(seq "$runs"); do
	for b in $builds; do
		t0=$(date +%s%N)
		"${b#*:*:}/cli/rpcrdma-dump" -q --stats -r "$file" >/dev/null 2>&1
		t1=$(date +%s%N)
		echo "${b%:*} $(((t1 - t0) / 1000))"
	done
done | awk -v old="$old" -v new="$new" -v runs="$runs" -v layouts="$layouts" '
	{ if (!($1 in best) || $2 < best[$1]) best[$1] = $2 }
	END {
		printf "== the fastest of %d runs, ms\n", runs
		for (i = 0; i < 2; i++) {
			c = i ? new : old
			sum = 0
			lo = hi = best[c ":0"]
			for (l = 0; l < layouts; l++) {
				t = best[c ":" l]
				printf "%-12s layout %d  %8.2f\n", c, l, t / 1000
				sum += t
				lo = t < lo ? t : lo
				hi = t > hi ? t : hi
			}
			mean[i] = sum / layouts
			printf "%-12s mean      %8.2f  (layouts %.2f to %.2f)\n", c,
			       mean[i] / 1000, lo / 1000, hi / 1000
		}
		printf "new/old, the means: %.3f\n", mean[1] / mean[0]
	}'
rm -f "$file"
