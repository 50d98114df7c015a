# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=sh
# The test scripts' checks, printed as TAP lines: check DESCRIPTION
# COMMAND... runs the command and counts it, tap_ok and tap_not_ok count a
# check the caller decided; tap_end prints the tally and gives the status.
# Sourced, not run.
n=0
fail=0
check() { # description, command...
	n=$((n + 1))
	desc=$1
	shift
	if "$@"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		fail=$((fail + 1))
	fi
}
# a check the caller decided: tap_ok DESCRIPTION, tap_not_ok DESCRIPTION
tap_ok() {
	n=$((n + 1))
	echo "ok $n - $*"
}
tap_not_ok() {
	n=$((n + 1))
	fail=$((fail + 1))
	echo "not ok $n - $*"
}
tap_end() {
	echo "$((n - fail)) passed, $fail failed"
	[ "$fail" -eq 0 ]
}
