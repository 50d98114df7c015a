# SPDX-License-Identifier: BSD-2-Clause
# The test scripts' checks, printed as TAP lines: check DESCRIPTION
# COMMAND... runs the command and counts it; tap_end prints the tally and
# gives the status.  Sourced, not run.
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
tap_end() {
	echo "$((n - fail)) passed, $fail failed"
	[ "$fail" -eq 0 ]
}
