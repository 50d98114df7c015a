# Checks of the bench-overhead job: it ran every round, and each monitor saw
# shellcheck shell=sh disable=SC2154
# (SC2154: transport and work are set by lab/run, which sources this)
# the workload (its last snapshot counts the RPCs of its round).  The times
# are bench/trace-overhead.sh's to report, not checked here.
t=$transport
check_eq "bench-overhead/$t: client job exit status" 0 "$(cat client/job.status 2>/dev/null)"
rounds=$(awk '$1 == "none"' client/bench-times 2>/dev/null | wc -l)
check_ge "bench-overhead/$t: rounds timed" 1 "$rounds"
for mode in trace ebpf; do
	check_eq "bench-overhead/$t: $mode timed every round" "$rounds" \
		"$(awk -v m="$mode" '$1 == m' client/bench-times | wc -l)"
done
# a round: at least 128 + 128 data RPCs and 200 creates
check_ge "bench-overhead/$t: rpcrdma-top -t saw a round's RPCs" 456 \
	"$(tail -n 1 client/bench-trace-1.jsonl | jq .client.replies)"
check_ge "bench-overhead/$t: rpcrdma-top -e eth0 saw a round's calls" 456 \
	"$(tail -n 1 client/bench-ebpf-1.jsonl | jq .totals.calls)"
