#!/bin/sh
# Runs the frame fuzzer for a bounded time from seeds cut out of the
# committed captures.  A crash is kept under tests/fuzz/ as crash-* (add it
# to the unit vectors once understood).
# usage: run-fuzz.sh FUZZ_FRAME MKCORPUS SOURCE_DIR SECONDS [FUZZ_ANALYZER]
set -eu
fuzz=$1
mkcorpus=$2
src=$3
seconds=$4
fuzz_analyzer=${5:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
# Inputs that once crashed the decoder must keep passing.
"$fuzz" -timeout=10 "$src"/tests/fuzz/regressions/* >"$work/regressions.log" 2>&1 || {
	cat "$work/regressions.log"
	echo "FAIL: a saved regression input crashes the decoder again"
	exit 1
}
mkdir "$work/runs"
"$mkcorpus" --runs "$work/runs" "$work/corpus" "$src"/samples/*.pcap "$src"/tests/captures/*.pcap
"$fuzz" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
	-artifact_prefix="$src/tests/fuzz/crash-" -print_final_stats=1 \
	"$work/corpus" 2>&1 | grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss|==[0-9]+==|SUMMARY|INFO: Running with|Done)" || true
# libFuzzer exits non-zero on a finding; the pipe above hides that, so
# look for an artifact instead.
if [ -n "$fuzz_analyzer" ]; then
	"$fuzz_analyzer" -timeout=10 "$src"/tests/fuzz/regressions-analyzer/* \
		>"$work/regressions-analyzer.log" 2>&1 || {
		cat "$work/regressions-analyzer.log"
		echo "FAIL: a saved regression input breaks the analyzer again"
		exit 1
	}
	# the stateful analyzer, on runs of consecutive frames
	"$fuzz_analyzer" -max_total_time="$seconds" -max_len=16384 -timeout=10 \
		-artifact_prefix="$src/tests/fuzz/crash-analyzer-" \
		-print_final_stats=1 "$work/runs" 2>&1 |
		grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|==[0-9]+==|SUMMARY|Done)" || true
fi
if ls "$src"/tests/fuzz/crash-* >/dev/null 2>&1; then
	echo "FAIL: the fuzzer found an input that crashes the decoder"
	exit 1
fi
echo "PASS: no crash in ${seconds}s of fuzzing (each target)"
