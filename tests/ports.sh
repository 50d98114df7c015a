# SPDX-License-Identifier: BSD-2-Clause
# free_port: a loopback TCP port for a test's server to listen on.  Nothing
# listens there, and it lies below the kernel's ephemeral range
# (net.ipv4.ip_local_port_range): a client's socket (curl's, Prometheus'
# kept-alive scrapes) holds its ephemeral port without SO_REUSEADDR, so a
# server could not bind to one of those even though nothing listens on it.
# Sourced, not run.
free_port() {
	local low=32768 p
	read -r low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || low=32768
	[ "$low" -gt 12000 ] || low=32768
	while :; do
		p=$((10000 + RANDOM % (low - 10000)))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
	done
}
