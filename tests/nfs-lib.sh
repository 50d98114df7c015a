# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash disable=SC2154
# (SC2154: src is set by the test that sources this)
# What the NFS tests share, which compare rpcrdma-dump with tshark's NFS
# dissector on the lab's captures.  Sourced after tap.sh, with $dump (the
# rpcrdma-dump to run) and $src (the source tree) set; sets $work, a
# folder removed on exit.
for tool in tshark jq editcap capinfos; do
	command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
work=$(mktemp -d)
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT

# awk: hex("0x...") as a decimal string (mawk has no strtonum), for
# tshark's rpc.xid against rpcrdma-dump -j's numbers
# shellcheck disable=SC2034 # used by the tests that source this
awk_hex='function hex(x,   v, i) {
	v = 0
	for (i = 3; i <= length(x); i++)
		v = v * 16 + index("0123456789abcdef", tolower(substr(x, i, 1))) - 1
	return sprintf("%.0f", v)
}'

# "number name" lines of one of libdissect's X-macro lists: RR_OP_ (NFSv4
# operations, nfs4.h), RR_NFS3 or RR_NFS4 (statuses, nfs.h), RR_NFS[34]
# (both)
x_list() { # prefix header
	sed -n "s/.*X($1[A-Z0-9_]*, \([0-9]*\), \"\([A-Z0-9_]*\)\").*/\1 \2/p" \
		"$src/libdissect/include/rpcrdma/$2"
}

# A tshark display filter for prefix that leaves out the RC retransmissions
# rpcrdma-dump -j found (dump.json): the receiver drops them, tshark reads
# them again.
without_retransmissions() { # filter dump.json
	local again
	again=$(jq -r 'select(.type == "retransmission") | .frame' "$2" | paste -sd, -)
	if [ -n "$again" ]; then
		echo "$1 && !(frame.number in {$again})"
	else
		echo "$1"
	fi
}

# The lab's NFS captures (the client's side of each NFSv3, NFSv4.1 and
# NFSv4.2 run)
nfs_captures() {
	local c
	for c in "$src"/tests/linux/*-nfs3/client/capture.pcap \
		 "$src"/tests/linux/*-nfs41/client/capture.pcap \
		 "$src"/tests/linux/*-nfs42/client/capture.pcap; do
		[ -f "$c" ] && echo "$c"
	done
}

# The lab's name of a fixture's capture: tests/linux/NAME/client/capture.pcap
run_name() { # capture
	basename "$(dirname "$(dirname "$1")")"
}

# The capture from a third of the way in to its end, as a capture started
# on a connection already open
cut_third() { # capture output
	local frames
	frames=$(capinfos -c -M "$1" | awk '/Number of packets/ { print $NF }')
	editcap -r "$1" "$2" "$((frames / 3))-$frames" 2>/dev/null
}
