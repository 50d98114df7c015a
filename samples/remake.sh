#!/bin/sh
# Remakes every bundled capture.
#   rocev2-<scenario>.pcap   rpcrdma-peer pcap mode, one per scenario
#   rocev2-fault-<f>.pcap    rpcrdma-peer pcap mode, one per fault
#   iwarp-mixed.pcap, iwarp-markers.pcap
#                            rpcrdma-peer over tcp, captured live on lo
#                            (needs dumpcap and root or capture rights)
# The RoCEv2 files come out the same each time; the iWARP ones carry the
# real timestamps and ports of the run.
# usage: samples/remake.sh BUILD_DIR
set -eu
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
peer=$build/cli/rpcrdma-peer

for s in $("$peer" pcap -o /dev/null -s list | awk '{print $1}'); do
	"$peer" pcap -o "$here/rocev2-$s.pcap" -s "$s" -n 16 --reliable-reply -q
done
# IB CM pads private data to a fixed size, so a cut RFC 8797 block shows
# only over MPA: that fault is captured over tcp below
for f in $("$peer" pcap -o /dev/null --fault list | awk '{print $1}' |
	   grep -v truncated-private-data); do
	opts="--reliable-reply"
	# with a read chunk of its own the responder needs no reply chunk
	[ "$f" = reply-chunk-small ] && opts=""
	case $f in
	write-wrong-stag)
		# the NAK fails the connection and so the run: the calls
		# after it go unanswered, as on a real fabric
		# shellcheck disable=SC2086
		if "$peer" pcap -o "$here/rocev2-fault-$f.pcap" -n 24 --fault "$f" \
			$opts -q 2>/dev/null; then
			echo "remake.sh: $f: the run did not fail" >&2
			exit 1
		fi
		;;
	*)
		# shellcheck disable=SC2086
		"$peer" pcap -o "$here/rocev2-fault-$f.pcap" -n 24 --fault "$f" $opts -q
		;;
	esac
done
# the harmful side of the R bit (RFC 8797 §3.2): a requester that cleared R
# gets a Send With Invalidate all the same
"$peer" pcap -o "$here/rocev2-fault-invalidate-requester-cleared-r.pcap" -n 24 \
	--fault invalidate-without-r --no-rinval --reliable-reply -q

live_tcp() { # file, peer options
	file=$1
	shift
	rm -f "$file"
	dumpcap -q -P -i lo -f "tcp port 20049" -w "$file" >/dev/null 2>&1 &
	cap=$!
	sleep 1
	"$peer" server -t tcp -q "$@" &
	srv=$!
	sleep 0.3
	"$peer" client -t tcp -n 16 -q "$@"
	wait "$srv"
	sleep 0.3
	kill -INT "$cap"
	wait "$cap" || true
	chmod 644 "$file"
}
if command -v dumpcap >/dev/null; then
	live_tcp "$here/iwarp-mixed.pcap" --reliable-reply
	live_tcp "$here/iwarp-markers.pcap" --markers
	live_tcp "$here/iwarp-fault-truncated-private-data.pcap" \
		--fault truncated-private-data
else
	echo "dumpcap not found: iWARP samples left as they were" >&2
fi
ls -la "$here"/*.pcap
