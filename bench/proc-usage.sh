# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh
# What a process has used, from /proc, for the benchmarks that run
# exporters and watchers.  Sourced, not run.

# cpu_ns PID: CPU time of the process's threads, in ns (schedstat: the
# clock ticks of /proc/PID/stat are too coarse for a short run)
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%.0f\n", s }'; }
# rss_kib PID: resident memory, shared pages (a mapped capture, libraries) included
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
# anon_kib PID: the resident memory of its own
anon_kib() { awk '/^RssAnon:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
