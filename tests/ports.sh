# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh
# free_port: a loopback TCP port for a test's server to listen on.  No
# socket holds it, listening or not, and it lies below the kernel's
# ephemeral range (net.ipv4.ip_local_port_range): a client's socket (curl's,
# Prometheus' kept-alive scrapes) holds its ephemeral port without
# SO_REUSEADDR, so a server could not bind to one of those even though
# nothing listens on it.  Another test may still take the port before the
# server binds it: serve_on_free_port starts the server again on another.
# POSIX sh, sourced, not run.
free_port() {
	free_port_low=32768
	read -r free_port_low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || free_port_low=32768
	[ "$free_port_low" -gt 12000 ] || free_port_low=32768
	while :; do
		free_port_p=$((10000 + $(od -An -N2 -tu2 /dev/urandom) % (free_port_low - 10000)))
		[ -n "$(ss -Htan "sport = :$free_port_p")" ] || { echo "$free_port_p"; return 0; }
	done
}

# serve_on_free_port START: calls the function START, which starts a server
# in the background listening on 127.0.0.1:$port, with $port a free_port;
# a server that ends before anything listens there (another test took the
# port between the look and its bind) is started again on another, up to
# 20 times.  Leaves $port and the server's pid in $server_pid; fails when
# no server stayed up.
serve_on_free_port() {
	serve_tries=0
	while [ "$serve_tries" -lt 20 ]; do
		serve_tries=$((serve_tries + 1))
		port=$(free_port)
		"$1"
		server_pid=$!
		# up to 30 s to listen: a server may read its input first
		serve_waits=0
		while kill -0 "$server_pid" 2>/dev/null; do
			# its own socket, not one another test bound there first
			case $(ss -Htlnp "sport = :$port") in *"pid=$server_pid,"*) return 0 ;; esac
			serve_waits=$((serve_waits + 1))
			[ "$serve_waits" -le 300 ] || return 0
			sleep 0.1
		done
		wait "$server_pid" 2>/dev/null || true
	done
	return 1
}
