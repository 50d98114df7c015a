#!/bin/sh
# Installs what the lab needs on the host, from Debian's archive.
set -eu
packages="qemu-system-x86 qemu-utils debootstrap e2fsprogs util-linux iproute2 jq"
missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "lab: installing:$missing"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
