#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Every shell script of the tree through shellcheck (warnings and errors,
# as .shellcheckrc sets it): the *.sh files and those whose first line runs
# sh or bash, the build folders aside.  usage: shellcheck-test.sh SOURCE_DIR
set -eu
cd "$1"
scripts=$(find . -path ./.git -prune -o -path './build*' -prune -o -type f -print |
	while read -r f; do
		case $f in
		*.sh) echo "$f" ;;
		*) head -n 1 "$f" 2>/dev/null | grep -qE '^#!.*/(env )?(ba)?sh( |$)' && echo "$f" ;;
		esac
	done | sort)
[ -n "$scripts" ] || { echo "no scripts found" >&2; exit 1; }
echo "# $(echo "$scripts" | wc -l) scripts"
# shellcheck disable=SC2086 # the list is one name a word
exec shellcheck -S warning $scripts
