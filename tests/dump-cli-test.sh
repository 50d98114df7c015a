#!/bin/sh
# rpcrdma-dump's command line: a bad option or argument gets the usage and
# exit status 1, an input it cannot read gets a clear message and 2.
# usage: dump-cli-test.sh RPCRDMA_DUMP SOURCE_DIR
set -u
dump=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
expect() { # description, status, text the error output must hold, args...
	d=$1 want=$2 text=$3
	shift 3
	"$dump" "$@" >"$work/out" 2>"$work/err"
	got=$?
	if [ "$got" = "$want" ] && grep -qF -- "$text" "$work/err"; then
		pass=$((pass + 1))
		echo "ok - $d"
	else
		fail=$((fail + 1))
		echo "not ok - $d: status $got (want $want), stderr:"
		sed 's/^/#   /' "$work/err" | head -5
	fi
}
sample=$src/samples/rocev2-mixed.pcap
expect "an unknown option" 1 "usage: rpcrdma-dump" -Z -r "$sample"
expect "no input named" 1 "usage: rpcrdma-dump"
expect "a count of zero" 1 "invalid count '0'" -c 0 -r "$sample"
expect "a count that is not a number" 1 "invalid count 'ten'" -c ten -r "$sample"
expect "a buffer size of zero" 1 "invalid buffer size '0'" -B 0 -i lo
expect "a missing file" 2 "rpcrdma-dump: $work/absent.pcap" -r "$work/absent.pcap"
printf 'not a capture\n' >"$work/text.pcap"
expect "a file that is no capture" 2 "rpcrdma-dump: " -r "$work/text.pcap"
expect "a filter that does not compile" 2 "filter 'udp port x'" -r "$sample" udp port x
expect "an interface that does not exist" 2 "rpcrdma-dump: rr-no-such0" -i rr-no-such0
expect "two sources" 1 "give one of" -r "$sample" -i lo
if ! ls /sys/class/infiniband/* >/dev/null 2>&1; then
	# no RDMA device here: both say so clearly
	expect "--list-devices with no device" 2 "no RDMA device" --list-devices
	expect "--rdma with no device" 2 "no RDMA device on this machine" --rdma mlx5_0
fi
# -w writes what it read, through libpcap: a file source comes out whole
if "$dump" -r "$sample" -w "$work/copy.pcap" 2>/dev/null && cmp -s "$sample" "$work/copy.pcap"; then
	pass=$((pass + 1))
	echo "ok - -w writes the frames read, byte for byte"
else
	fail=$((fail + 1))
	echo "not ok - -w writes the frames read, byte for byte"
fi
if "$dump" -h >"$work/out" 2>&1 && grep -q "^usage: rpcrdma-dump" "$work/out"; then
	pass=$((pass + 1))
	echo "ok - -h prints the usage, status 0"
else
	fail=$((fail + 1))
	echo "not ok - -h prints the usage, status 0"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
