#!/bin/sh
# Seeds for fuzz_analyzer: runs of consecutive frames from the samples,
# in its input format (selector, 16-bit length, bytes).
# usage: mkcorpus-analyzer.sh MKCORPUS_DIR_OF_FRAME_SEEDS OUTDIR
set -eu
in=$1
out=$2
mkdir -p "$out"
n=0
set -- "$in"/seed-*
while [ $# -gt 0 ]; do
	file=$out/run-$n
	: >"$file"
	for _ in 1 2 3 4 5 6 7 8; do
		[ $# -gt 0 ] || break
		sel=$(od -An -tu1 -N1 "$1" | tr -d ' ')
		len=$(($(stat -c %s "$1") - 2))
		printf "$(printf '\\%03o\\%03o\\%03o' "$sel" $((len >> 8)) $((len & 255)))" >>"$file"
		tail -c +3 "$1" >>"$file"
		shift
	done
	n=$((n + 1))
done
