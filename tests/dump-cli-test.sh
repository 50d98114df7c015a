#!/bin/sh
# rpcrdma-dump's command line: a bad option or argument gets the usage and
# exit status 1, an input it cannot read gets a clear message and 2.
# usage: dump-cli-test.sh RPCRDMA_DUMP SOURCE_DIR
set -u
dump=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/tap.sh"
expect() { # description, status, text the error output must hold, args...
	d=$1 want=$2 text=$3
	shift 3
	"$dump" "$@" >"$work/out" 2>"$work/err"
	got=$?
	if [ "$got" = "$want" ] && grep -qF -- "$text" "$work/err"; then
		tap_ok "$d"
	else
		tap_not_ok "$d: status $got (want $want), stderr:"
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
expect "two sources" 1 "give one source" -r "$sample" -i lo
# a file cut short: what it held, then the error and 2 (as tcpdump)
head -c 50000 "$sample" >"$work/cut.pcap"
expect "a file cut short mid-frame" 2 "truncated dump file" -q -r "$work/cut.pcap"
expect "... after the frames it held" 2 "(after 101 frames)" -q -r "$work/cut.pcap"
if ! ls /sys/class/infiniband/* >/dev/null 2>&1; then
	# no RDMA device here: both say so clearly
	expect "--list-devices with no device" 2 "no RDMA device" --list-devices
	if [ "${RR_HAVE_VERBS:-1}" = 0 ]; then
		expect "--rdma in a build without rdma-core" 2 "mlx5_0: built without rdma-core" \
			--rdma mlx5_0
	else
		expect "--rdma with no device" 2 "no RDMA device on this machine" --rdma mlx5_0
	fi
fi
# -w writes what it read, through libpcap: a file source comes out whole
if "$dump" -r "$sample" -w "$work/copy.pcap" 2>/dev/null && cmp -s "$sample" "$work/copy.pcap"; then
	tap_ok "-w writes the frames read, byte for byte"
else
	tap_not_ok "-w writes the frames read, byte for byte"
fi
expect "six -t" 1 "-t at most five times" -tttttt -r "$sample"
expect "a time-stamp precision that is neither micro nor nano" 1 "takes micro or nano" \
	--time-stamp-precision=pico -r "$sample"
# time stamps as tcpdump prints them, against tshark's reading of the file
# shellcheck disable=SC3043 # dash, Debian's sh, has local
stamp_check() { # description, expected, rpcrdma-dump arguments...
	local desc=$1 want=$2 got
	shift 2
	# -a: a line for every frame, the first one first
	got=$("$dump" -a "$@" 2>/dev/null | head -n 1 | cut -d' ' -f1)
	if [ "$got" = "$want" ]; then
		tap_ok "$desc ($got)"
	else
		tap_not_ok "$desc: got '$got', want '$want'"
	fi
}
linux=$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap
first_epoch=$(tshark -r "$linux" -c 1 -T fields -e frame.time_epoch 2>/dev/null)
if [ -n "$first_epoch" ]; then
	secs=${first_epoch%.*} frac=${first_epoch#*.}
	frac9=$(printf '%-9s' "$frac" | tr ' ' 0)
	stamp_check "-tt: seconds since 1970, microseconds" "$secs.$(echo "$frac9" | cut -c1-6)" -tt -r "$linux"
	export TZ=Asia/Tokyo
	stamp_check "default: local time of day (TZ=Asia/Tokyo)" \
		"$(date -d "@$secs" +%H:%M:%S).$(echo "$frac9" | cut -c1-6)" -r "$linux"
	stamp_check "--utc -tttt: date and time in UTC" "$(date -u -d "@$secs" +%Y-%m-%d)" --utc -tttt -r "$linux"
	unset TZ
	# (the first RoCEv2 frame: a capture may open with ARP and TCP)
	stamp_check "-t: no time stamp, the line starts with the source" \
		"$(tshark -r "$linux" -Y 'udp.port == 4791' -T fields -e ip.src 2>/dev/null | head -n 1)" \
		-t -r "$linux" udp port 4791
	# a nanosecond pcap (editcap -F nsecpcap): nine digits unless told
	editcap -F nsecpcap "$linux" "$work/nsec.pcap" 2>/dev/null
	stamp_check "a nanosecond file: nanoseconds" "$secs.$frac9" -tt -r "$work/nsec.pcap"
	stamp_check "... --time-stamp-precision=micro: microseconds" \
		"$secs.$(echo "$frac9" | cut -c1-6)" -tt --time-stamp-precision=micro -r "$work/nsec.pcap"
fi
# tcpdump's habits
ok_if() { # description, command...
	d=$1
	shift
	if "$@"; then
		tap_ok "$d"
	else
		tap_not_ok "$d"
	fi
}
if "$dump" -r "$sample" -U -w "$work/copy-U.pcap" 2>/dev/null; then
	ok_if "-U -w writes the same file" cmp -s "$sample" "$work/copy-U.pcap"
fi
"$dump" --count -r "$sample" >"$work/count" 2>/dev/null
ok_if "--count: only the frames and messages, as many as tshark counts frames ($(cat "$work/count"))" \
	test "$(cat "$work/count")" = "$(tshark -r "$sample" 2>/dev/null | wc -l) frames, $("$dump" -q --stats=json -r "$sample" 2>/dev/null |
		jq '[.total.messages[][]] | add') RPC-over-RDMA messages"
# the source options every tool takes alike (cli/live-source.c)
editcap -t 1.5 "$sample" "$work/later.pcap" 2>/dev/null &&
	mergecap -a -w "$work/paced.pcap" "$sample" "$work/later.pcap" 2>/dev/null
if [ -s "$work/paced.pcap" ]; then
	"$dump" -tt -r "$work/paced.pcap" >"$work/fast" 2>/dev/null
	started=$(date +%s.%N)
	"$dump" -tt --realtime -r "$work/paced.pcap" >"$work/paced" 2>/dev/null
	took=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
	ok_if "--realtime: the same lines as without it ($(wc -l <"$work/paced") lines)" \
		eval "test -s '$work/paced' && cmp -s '$work/fast' '$work/paced'"
	ok_if "--realtime: at the file's pace (1.5 s recorded, ${took} s taken)" \
		awk -v t="$took" 'BEGIN { exit !(t >= 1.4) }'
fi
ok_if "--roce-port 4792: no RoCEv2 message found on 4791 ($("$dump" --count --roce-port 4792 -r "$sample" 2>/dev/null))" \
	eval "\"$dump\" --count --roce-port 4792 -r '$sample' 2>/dev/null | grep -q ', 0 RPC-over-RDMA messages'"
expect "a RoCE port beyond 65535" 1 "invalid RoCE port '65536'" --roce-port 65536 -r "$sample"
expect "-t is a time stamp format, no source" 1 "give one source" -t
expect "-s beyond 262144" 1 "invalid snapshot length" -s 300000 -i lo
expect "-x three times" 1 "at most twice" -xxx -r "$sample"
# -xx: every byte of the frame, as tshark -x shows them; -x from the IP header
hexbytes() { sed -n 's/^\t0x[0-9a-f]*:  //p' | cut -c1-39 | tr -d ' \n'; }
"$dump" -xx -c 1 -r "$sample" 2>/dev/null | hexbytes >"$work/xx"
tshark -r "$sample" -c 1 -x 2>/dev/null | sed -n 's/^[0-9a-f]\{4\}  //p' | cut -c1-48 | tr -d ' \n' >"$work/tshark-x"
ok_if "-xx: the first frame's bytes equal tshark -x's ($(wc -c <"$work/xx") hex digits)" \
	eval "test -s '$work/xx' && cmp -s '$work/xx' '$work/tshark-x'"
"$dump" -x -c 1 -r "$sample" 2>/dev/null | hexbytes >"$work/x"
ok_if "-x: the same bytes after the 14-byte Ethernet header" \
	eval "test \"\$(cat '$work/x')\" = \"\$(cut -c29- '$work/tshark-x')\""
"$dump" -X -c 1 -r "$sample" 2>/dev/null | sed -n 2p >"$work/X"
ok_if "-X: hex and the printable bytes beside, 16 a line ($(cat "$work/X"))" \
	grep -qE '^	0x0000:  ([0-9a-f]{4} ){8} [ -~]{16}$' "$work/X"
# -#: each line starts with its frame's number, tshark's frame.number
linux=$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap
if command -v tshark >/dev/null && [ -f "$linux" ]; then
	"$dump" -# -r "$linux" 2>/dev/null |
		awk '{ for (i = 2; i < NF; i++) if ($i == "xid" && $(i - 1) ~ /^RDMA_/) print $1, $(i + 1) }' |
		sort -u >"$work/numbered"
	tshark -r "$linux" -Y rpcordma -T fields -e frame.number -e rpcordma.xid 2>/dev/null |
		perl -pe 's/\b0x([0-9a-fA-F]+)\b/hex($1)/ge' |
		awk '{ printf "%s 0x%08x\n", $1, $2 }' | sort -u >"$work/tshark-numbered"
	ok_if "-#: each message line's number is the frame tshark shows its xid in ($(wc -l <"$work/numbered") lines, $(comm -23 "$work/numbered" "$work/tshark-numbered" | wc -l) not)" \
		eval "test \$(wc -l <'$work/numbered') -ge 2000 && test -z \"\$(comm -23 '$work/numbered' '$work/tshark-numbered')\""
fi
# -vv: each printed frame's Ethernet, IPv4 and UDP or TCP headers as
# tshark reads them; -a: the frames that are no RDMA by their protocol
siw=$src/tests/linux/bookworm-siw-nfs3/client/capture.pcap
if command -v tshark >/dev/null && [ -f "$linux" ] && [ -f "$siw" ]; then
	for cap in "$linux" "$siw"; do
		name=$(basename "$(dirname "$(dirname "$cap")")")
		"$dump" -# -vv -c 400 -r "$cap" 2>/dev/null | awk '
			/^ *[0-9]+  / { frame = $1; next }
			$1 == "Ethernet" { print frame, "eth", $2, $4 }
			$1 == "IPv4" { print frame, "ip", $5, $9 }
			$1 == "UDP" { print frame, "udp", $2, $4, $6 }
			$1 == "TCP" { print frame, "tcp", $2, $4, $6, $8, $12, $14 }' |
			sort -u >"$work/headers"
		tshark -r "$cap" -c 400 -o tcp.relative_sequence_numbers:FALSE -T fields \
			-e frame.number -e eth.src -e eth.dst -e ip.ttl -e ip.len \
			-e udp.srcport -e udp.dstport -e udp.length -e tcp.srcport -e tcp.dstport \
			-e tcp.seq -e tcp.ack -e tcp.window_size_value -e tcp.len 2>/dev/null |
			awk -F'\t' '{
				print $1, "eth", $2, $3
				if ($4 != "") print $1, "ip", $4, $5
				if ($6 != "") print $1, "udp", $6, $7, $8
				if ($9 != "") print $1, "tcp", $9, $10, $11, $12, $13, $14 }' |
			sort -u >"$work/tshark-headers"
		ok_if "-vv on $name: every header line as tshark reads it ($(wc -l <"$work/headers") lines, $(comm -23 "$work/headers" "$work/tshark-headers" | wc -l) not)" \
			eval "test \$(wc -l <'$work/headers') -ge 100 && test \$(grep -c -e ' tcp ' -e ' udp ' '$work/headers') -ge 30 && test -z \"\$(comm -23 '$work/headers' '$work/tshark-headers')\""
	done
	"$dump" -a -r "$linux" 2>/dev/null >"$work/all"
	ok_if "-a: no frame named 'none' ($(grep -c ' ARP$' "$work/all") ARP, $(grep -c ' TCP \[' "$work/all") TCP)" \
		eval "! grep -q ' none\$' '$work/all' && grep -q ' ARP\$' '$work/all' && grep -q ' TCP \[S\] length 0\$' '$work/all'"
	ok_if "-a: as many ARP lines as tshark shows ARP frames" \
		test "$(grep -c ' ARP$' "$work/all")" -eq "$(tshark -r "$linux" -Y arp 2>/dev/null | wc -l)"
fi
# An RC retransmission of a SEND's first packet shows the header of the
# message it repeats (xid, procedure, direction), counted nowhere but in
# retransmissions
if [ -f "$linux" ]; then
	"$dump" -j -r "$linux" 2>/dev/null >"$work/retx.json"
	jq -r 'select(.type == "message") | "\(.frame) \(.xid) \(.proc) \(.dir)"' "$work/retx.json" |
		sort >"$work/retx.messages"
	jq -r 'select(.type == "retransmission" and .xid != null) |
		"\(.original_frame) \(.xid) \(.proc) \(.dir)"' "$work/retx.json" | sort >"$work/retx.again"
	sends=$(jq -s '[.[] | select(.type == "retransmission" and (.opcode | test("SEND (ONLY|FIRST)")))] | length' "$work/retx.json")
	ok_if "retransmitted SENDs: each shows the xid, procedure and direction of the message of the frame it repeats ($(wc -l <"$work/retx.again") of $sends)" \
		eval "test $sends -gt 0 && test \$(wc -l <'$work/retx.again') -eq $sends && test -z \"\$(comm -23 '$work/retx.again' '$work/retx.messages')\""
	"$dump" -r "$linux" 2>/dev/null | grep ' retransmission of frame ' >"$work/retx.lines"
	ok_if "retransmitted SENDs: their lines show the message's header ($(grep -c 'RDMA_MSG xid 0x' "$work/retx.lines") of $(wc -l <"$work/retx.lines"))" \
		test "$(grep -c 'RDMA_[A-Z]* xid 0x[0-9a-f]* credits [0-9]* ' "$work/retx.lines")" -eq "$sends"
	ok_if "retransmitted SENDs: counted as no call or reply (--stats=json calls and replies as the message lines)" \
		test "$("$dump" -q --stats=json -r "$linux" 2>/dev/null | jq '.total.calls + .total.replies')" -eq \
			"$(jq -s '[.[] | select(.type == "message" and .dir != "unknown")] | length' "$work/retx.json")"
fi
"$dump" -# --findings -r "$src/samples/rocev2-fault-zero-credit.pcap" >"$work/numbered-findings" 2>/dev/null
ok_if "-# --findings: a finding's line starts with the frame it names" \
	eval "test -s '$work/numbered-findings' && awk '{ if (\$1 != \$4) bad = 1 } END { exit bad }' '$work/numbered-findings'"
"$dump" -D >"$work/D" 2>/dev/null
ok_if "-D lists the interfaces, numbered, lo among them" grep -qE '^[0-9]+\.lo ' "$work/D"
if "$dump" -h >"$work/out" 2>&1 && grep -q "^usage: rpcrdma-dump" "$work/out"; then
	tap_ok "-h prints the usage, status 0"
else
	tap_not_ok "-h prints the usage, status 0"
fi
# tcpdump's habits for long captures, on the Linux NFSv3 capture:
# gzip-compressed input, as tshark and tcpdump read it
stats() { "$dump" -q --stats=json -r "$1" 2>/dev/null; }
gzip -c "$linux" >"$work/linux.pcap.gz"
ok_if "a .pcap.gz reads as the capture it compresses (--stats=json the same)" \
	eval "test -n \"\$(stats '$linux')\" && test \"\$(stats '$work/linux.pcap.gz')\" = \"\$(stats '$linux')\""
if editcap -F pcapng "$linux" "$work/linux.pcapng" 2>/dev/null; then
	gzip -c "$work/linux.pcapng" >"$work/linux.pcapng.gz"
	ok_if "a .pcapng.gz as its pcapng" \
		eval "test \"\$(stats '$work/linux.pcapng.gz')\" = \"\$(stats '$work/linux.pcapng')\""
fi
head -c 100000 "$work/linux.pcap.gz" >"$work/cut.pcap.gz"
expect "a .pcap.gz cut short: what it held, then the error and 2" 2 "(after " \
	-q -r "$work/cut.pcap.gz"
# -F: the expression from a file, comments left out
printf 'udp port 4791  # RoCEv2\n# the client alone\nand src host 192.0.2.2\n' >"$work/filter"
ok_if "-F FILE gives the lines of its expression on the command line" \
	eval "\"$dump\" -F '$work/filter' -r '$linux' >'$work/F.out' 2>/dev/null &&
	      test -s '$work/F.out' &&
	      \"$dump\" -r '$linux' 'udp port 4791 and src host 192.0.2.2' 2>/dev/null | cmp -s - '$work/F.out'"
expect "-F and an expression" 1 "give one" -F "$work/filter" -r "$linux" udp
expect "-F with a file that is not there" 1 "-F $work/absent:" -F "$work/absent" -r "$linux"
printf '# nothing but a comment\n' >"$work/empty-filter"
expect "-F with no expression in it" 1 "holds no filter expression" -F "$work/empty-filter" -r "$linux"
# -A, -AA: the printed frames' bytes as text; the first frame's from its
# link-level header (-a: a line for every frame), as the record holds them
"$dump" -AA -a -c 1 -r "$linux" 2>/dev/null | tail -n +2 >"$work/AA.out"
python3 - "$linux" >"$work/AA.want" <<'PY'
import struct, sys
with open(sys.argv[1], "rb") as f:
    f.read(24)
    caplen = struct.unpack("<IIII", f.read(16))[2]
    data = f.read(caplen)
out = []
for i, c in enumerate(data):
    if c == 13 and i + 1 < len(data) and data[i + 1] == 10:
        continue
    out.append(chr(c) if c in (9, 10) or 32 <= c < 127 else ".")
sys.stdout.write("\n" + "".join(out) + "\n")
PY
ok_if "-AA: the first frame's bytes as text, as tcpdump -A prints them" \
	eval "test -s '$work/AA.want' && cmp -s '$work/AA.want' '$work/AA.out'"
expect "-A and -x" 1 "not both" -A -x -r "$linux"
# -C, -W, -G: the output rotated as tcpdump rotates it
mkdir "$work/rot"
"$dump" -r "$linux" -w "$work/rot/cap" -C 0.5 2>/dev/null
ok_if "-C 0.5: files of about half a megabyte, FILE, FILE1, FILE2 ... ($(ls "$work/rot" | tr '\n' ' '))" \
	eval "test \"\$(ls '$work/rot' | tr '\n' ' ')\" = 'cap cap1 cap2 cap3 ' &&
	      test \$(wc -c <'$work/rot/cap') -le 510000 && test \$(wc -c <'$work/rot/cap') -gt 500000"
ok_if "... which, put end to end (mergecap -a), are the capture byte for byte" \
	eval "mergecap -F pcap -a -w '$work/rot.all' '$work/rot/cap' '$work/rot/cap1' '$work/rot/cap2' '$work/rot/cap3' &&
	      cmp -s '$work/rot.all' '$linux'"
"$dump" -r "$linux" -w "$work/rot/ring" -C 0.3 -W 3 2>/dev/null
ok_if "-C 0.3 -W 3: three files, ring0 to ring2, written round" \
	eval "test \"\$(ls '$work/rot' | grep ring | tr '\n' ' ')\" = 'ring0 ring1 ring2 '"
ok_if "... the last one ends with the capture's last frame" \
	eval "test \"\$(TZ=UTC '$dump' -tt -a -r '$work/rot/ring2' 2>/dev/null | tail -n 1 | cut -d' ' -f1)\" = \
	           \"\$(TZ=UTC '$dump' -tt -a -r '$linux' 2>/dev/null | tail -n 1 | cut -d' ' -f1)\""
TZ=UTC "$dump" -r "$linux" -w "$work/rot/g-%H%M%S" -G 20 2>/dev/null
named=0 files=0
for f in "$work"/rot/g-*; do
	files=$((files + 1))
	first=$(TZ=UTC "$dump" -a -c 1 -r "$f" 2>/dev/null | head -n 1 | cut -c1-8 | tr -d :)
	[ "g-$first" = "$(basename "$f")" ] && named=$((named + 1))
done
ok_if "-G 20: a file each 20 s of the frames' time, named by strftime from its first frame's ($named of $files)" \
	test "$files" -ge 3 -a "$named" = "$files"
TZ=UTC "$dump" -r "$linux" -w "$work/rot/w-%H%M%S" -G 20 -W 2 2>/dev/null
status=$?
ok_if "-G 20 -W 2: two files, then it ends, status 0" \
	eval "test $status = 0 && test \$(ls '$work/rot' | grep -c '^w-') = 2"
expect "-C without -w" 1 "go with -w" -C 1 -r "$linux"
expect "-W without -C or -G" 1 "-W goes with -C or -G" -W 2 -w "$work/x.pcap" -r "$linux"
# a refused iWARP mount to a port it was not told (Linux's siw, the lab's
# mount to 20050): as many as tshark reads RSTs answering a SYN, named
siw=$src/tests/linux/bookworm-siw-nfs3/client/capture.pcap
refused=$(tshark -r "$siw" -Y 'tcp.flags.reset == 1 && tcp.flags.ack == 1 && tcp.seq_raw == 0 && tcp.srcport != 20049' 2>/dev/null | wc -l)
ok_if "a TCP connection refused on another port: counted as tshark reads them ($refused)" \
	eval "test $refused -gt 0 && test \"\$(stats '$siw' | jq .tcp_refused_other)\" = $refused"
ok_if "... --stats names the port and says how to read it as iWARP" \
	eval "'$dump' -q --stats -r '$siw' 2>/dev/null |
	      grep -q 'TCP connections refused on other ports $refused (the last by 192.0.2.1 port 20050, .*--iwarp-port 20050'"
ok_if "... --iwarp-port 20050: they are RSTs of the iWARP port" \
	eval "test \"\$('$dump' -q --stats=json --iwarp-port 20050 -r '$siw' 2>/dev/null | jq '[.tcp_refused_other, .tcp_resets] | join(\" \")' -r)\" = '0 $refused'"
# -c counts frames (tcpdump's packets); where none held a message, it says so
expect "-c 3 on frames with no message: said" 0 "no RPC-over-RDMA message in the 3 frames read" \
	-c 3 -r "$linux"
tap_end
