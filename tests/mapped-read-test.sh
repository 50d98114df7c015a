#!/bin/sh
# A capture file's records read in place (cli/mapped-capture.c) give what
# libpcap's reading of the same bytes gives: every frame, its bytes, time
# stamps and lengths, and for a damaged file the same frames and error.
# Standard input is always read by libpcap, so `-r - < FILE` is the
# reference.  Besides every bundled and Linux capture: the same frames in
# the other byte order, in nanoseconds, in pcapng, with records longer
# than the file's snapshot length, cut short mid-record and mid-header,
# and a file large enough to be read ahead (cut short too).
# usage: mapped-read-test.sh RPCRDMA_DUMP SOURCE_DIR
set -u
dump=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TZ=UTC
. "$(dirname "$0")/tap.sh"
same() { # description, file, rpcrdma-dump options...
	d=$1 f=$2
	shift 2
	"$dump" "$@" -r "$f" >"$work/mapped" 2>&1
	a=$?
	# messages name the file, standard input "-"
	sed -i "s|: $f: |: -: |" "$work/mapped"
	"$dump" "$@" -r - <"$f" >"$work/libpcap" 2>&1
	b=$?
	check "$d (status $a, $(wc -l <"$work/mapped") lines)" \
		eval "[ $a = $b ] && cmp -s '$work/mapped' '$work/libpcap' && [ -s '$work/mapped' ]"
	cmp -s "$work/libpcap" "$work/mapped" ||
		diff "$work/libpcap" "$work/mapped" | head -8 | sed 's/^/#   /'
}
# every frame with its headers, its hex and -tt's stamps; the summary
# line and the statistics
full="-a -vv -x -tt --stats"
for f in "$src"/samples/*.pcap "$src"/tests/linux/*/client/capture.pcap; do
	same "$(basename "$(dirname "$(dirname "$f")")")/$(basename "$f")" "$f" $full
done
if [ -n "${RPCRDMA_CAPTURES:-}" ] && [ -d "$RPCRDMA_CAPTURES" ]; then
	for f in "$RPCRDMA_CAPTURES"/*.pcap; do
		[ -f "$f" ] && same "captures/$(basename "$f")" "$f" $full
	done
fi

linux=$src/tests/linux/bookworm-rxe-nfs3/client/capture.pcap
same "JSON Lines" "$linux" -j -a
same "nanosecond stamps of a microsecond file" "$linux" -tt -a --time-stamp-precision=nano

# the variants, made from the Linux capture by python3 (the byte order,
# the snapshot length, the cuts) and editcap (nanoseconds, pcapng)
python3 - "$linux" "$work" <<'EOF'
import struct, sys
src, work = sys.argv[1], sys.argv[2]
data = open(src, 'rb').read()
magic, = struct.unpack('<I', data[:4])
assert magic == 0xa1b2c3d4, 'a little-endian microsecond pcap file'
hdr = struct.unpack('<IHHiIII', data[:24])
recs, off = [], 24
while off < len(data):
    ts, frac, cap, wire = struct.unpack('<IIII', data[off:off + 16])
    recs.append((ts, frac, cap, wire, data[off + 16:off + 16 + cap]))
    off += 16 + cap
def write(name, endian, snaplen, records):
    with open(work + '/' + name, 'wb') as f:
        f.write(struct.pack(endian + 'IHHiIII', hdr[0], hdr[1], hdr[2],
                            hdr[3], hdr[4], snaplen, hdr[6]))
        for ts, frac, cap, wire, body in records:
            f.write(struct.pack(endian + 'IIII', ts, frac, cap, wire) + body)
write('swapped.pcap', '>', hdr[5], recs)
# a snapshot length shorter than some records (libpcap cuts them)
write('snap.pcap', '<', 200, recs)
# past the read-ahead's 4 MiB: six times the capture (11 MB, its 1 MiB
# chunks mapped ahead and unmapped behind the walk), and that cut short
# past its eighth MiB, where libpcap takes over
write('large.pcap', '<', hdr[5], recs * 6)
large = open(work + '/large.pcap', 'rb').read()
at = 24
while at < 8 << 20:
    at += 16 + struct.unpack('<I', large[at + 8:at + 12])[0]
open(work + '/large-cut.pcap', 'wb').write(large[:at + 16 + 10])
whole = open(work + '/swapped.pcap', 'rb').read()
first = 24 + sum(16 + r[2] for r in recs[:40])
open(work + '/cut-data.pcap', 'wb').write(whole[:first + 16 + 10])
open(work + '/cut-header.pcap', 'wb').write(whole[:first + 7])
EOF
same "a large file, read ahead on a second thread" "$work/large.pcap" -j -a
same "its statistics" "$work/large.pcap" -q --stats
same "a large file cut short past its eighth MiB" "$work/large-cut.pcap" -a -tt
same "the other byte order" "$work/swapped.pcap" $full
same "records longer than the snapshot length" "$work/snap.pcap" $full
same "cut short in a record's data" "$work/cut-data.pcap" -a -tt
same "cut short in a record's header" "$work/cut-header.pcap" -a -tt
check "a cut file is said to be cut" grep -q "truncated dump file" "$work/mapped"
if editcap -F nsecpcap "$linux" "$work/nsec.pcap" 2>/dev/null; then
	# standard input gives no precision of its own: said on both
	same "a nanosecond file" "$work/nsec.pcap" $full --time-stamp-precision=nano
	same "microsecond stamps of a nanosecond file" "$work/nsec.pcap" -tt -a \
		--time-stamp-precision=micro
else
	check "editcap made a nanosecond file" false
fi
if editcap -F pcapng "$linux" "$work/ng.pcapng" 2>/dev/null; then
	same "pcapng (libpcap's reading both ways)" "$work/ng.pcapng" -a -tt
fi
# -w copies what it read: the in-place records written back whole
"$dump" -q -r "$work/swapped.pcap" -w "$work/copy.pcap" 2>/dev/null
"$dump" -q -r - -w "$work/copy-ref.pcap" <"$work/swapped.pcap" 2>/dev/null
check "-w of a file read in place equals -w of libpcap's reading" \
	cmp -s "$work/copy.pcap" "$work/copy-ref.pcap"
tap_end
