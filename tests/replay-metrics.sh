# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh
# replay_metrics EXPORTER CAPTURE OUT: the metrics rpcrdma-exporter serves
# once it has replayed CAPTURE (-r), scraped into OUT; the exporter is
# stopped after.  Fails when it never listened or never ended the replay
# (30 s).  POSIX sh, sourced, not run, after ports.sh: $port and
# $server_pid are serve_on_free_port's.
# shellcheck disable=SC2154
replay_start() {
	"$replay_exporter" -r "$replay_capture" -l "127.0.0.1:$port" >/dev/null 2>&1 &
}

# shellcheck disable=SC2154
replay_metrics() {
	replay_exporter=$1
	replay_capture=$2
	replay_out=$3
	serve_on_free_port replay_start || return 1
	replay_done=1
	for _ in $(seq 300); do
		curl -s "http://127.0.0.1:$port/metrics" >"$replay_out" 2>/dev/null &&
			grep -q '^rpcrdma_exporter_replay_done 1' "$replay_out" && { replay_done=0; break; }
		sleep 0.1
	done
	kill "$server_pid" 2>/dev/null
	wait "$server_pid" 2>/dev/null
	return "$replay_done"
}
