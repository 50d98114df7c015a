#!/bin/sh
# The version of the tshark on the PATH: MAJOR.MINOR.PATCH, or with
# --minor MAJOR.MINOR (the name of the plugin folder a build serves).
# Fails with a message when tshark prints none.
set -eu
v=$(tshark --version 2>/dev/null | sed -n '1s/.* \([0-9]*\.[0-9]*\.[0-9]*\).*/\1/p')
[ -n "$v" ] || { echo "wireshark-version.sh: no version in 'tshark --version'" >&2; exit 1; }
if [ "${1:-}" = --minor ]; then
	echo "${v%.*}"
else
	echo "$v"
fi
