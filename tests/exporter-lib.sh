# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
# What the tests that start exporters (and Prometheus) share: a work folder
# ($work) and the processes started ($pids), both gone when the script
# exits; a free loopback port; waiting for a server to answer, for a line in
# its log and for a replay to end.  Sourced, not run.
work=$(mktemp -d)
pids=()
exporter_lib_cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap exporter_lib_cleanup EXIT

. "$(dirname "${BASH_SOURCE[0]}")/ports.sh"

wait_http() { # url: up to 10 s
	for _ in $(seq 100); do
		curl -s -o /dev/null "$1" && return 0
		sleep 0.1
	done
	return 1
}

# A line matching PATTERN in a server's log (up to 10 s): the server may
# answer before it writes the line that says it serves.
wait_line() { # file, grep pattern
	for _ in $(seq 100); do
		grep -q "$2" "$1" && return 0
		sleep 0.1
	done
	return 1
}

# The metrics of an exporter that replays a file, once the replay is done
# (up to 30 s): into FILE; fails when it never ended.
wait_replay_done() { # file, curl arguments (the URL among them)...
	local out=$1
	shift
	for _ in $(seq 300); do
		curl -s "$@" >"$out" 2>/dev/null &&
			grep -q '^rpcrdma_exporter_replay_done 1' "$out" && return 0
		sleep 0.1
	done
	return 1
}
