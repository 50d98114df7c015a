# SPDX-License-Identifier: BSD-2-Clause
# free_port: a loopback TCP port for a test's server to listen on.  No
# socket holds it, listening or not, and it lies below the kernel's
# ephemeral range (net.ipv4.ip_local_port_range): a client's socket (curl's,
# Prometheus' kept-alive scrapes) holds its ephemeral port without
# SO_REUSEADDR, so a server could not bind to one of those even though
# nothing listens on it.  Another test may still take the port before the
# server binds it: a server that says it cannot listen is started again on
# another.  POSIX sh, sourced, not run.
free_port() {
	free_port_low=32768
	read -r free_port_low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || free_port_low=32768
	[ "$free_port_low" -gt 12000 ] || free_port_low=32768
	while :; do
		free_port_p=$((10000 + $(od -An -N2 -tu2 /dev/urandom) % (free_port_low - 10000)))
		[ -n "$(ss -Htan "sport = :$free_port_p")" ] || { echo "$free_port_p"; return 0; }
	done
}
