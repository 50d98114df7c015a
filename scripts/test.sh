#!/bin/sh
# Runs the whole test suite twice: a normal build (gcc), then a build under
# AddressSanitizer and UndefinedBehaviorSanitizer (clang), which also runs
# the libFuzzer target for a bounded time; then the tests of a build with
# the required libraries alone (scripts/required-only-build.sh).  Installs
# missing packages first.
#
# RPCRDMA_CAPTURES may name a folder of further real captures to decode;
# ../shared/captures is used when it exists beside the checkout.
# RR_FUZZ_SECONDS sets how long the fuzzer runs (default 60).
#
# Then Debian 13 (Wireshark 4.4, clang 19) and Debian unstable (Wireshark
# 4.6) in chroots made by scripts/chroot.sh and cached: on Debian 13 the
# whole project builds and its release suite passes; on unstable the
# Wireshark tests run.  RPCRDMA_CHROOTS chooses the releases ("" for none).
#
# Then the Debian packages (scripts/package-test.sh): built with cpack and
# installed into a clean chroot of the host's release; RPCRDMA_PACKAGES=skip
# leaves them out and says so.
#
# Then the lab (lab/run): Linux's NFS/RDMA client and server in two QEMU
# guests over Soft-RoCE and soft-iWARP, checked against the release build.
# It needs root (debootstrap, loop images); RPCRDMA_LAB=skip leaves it out
# and says so.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
chroots=${RPCRDMA_CHROOTS-trixie sid}
# debootstrap makes the chroots: installed here, before they start in the
# background, so that no two apt-get run at once; abidiff (the library_abi
# test) and shellcheck (the shellcheck test) run in the builds here, not in
# the chroots
"$top/scripts/install-deps.sh" ${chroots:+debootstrap} abigail-tools shellcheck

if [ -z "${RPCRDMA_CAPTURES:-}" ] && [ -d "$top/../shared/captures" ]; then
	RPCRDMA_CAPTURES=$(cd "$top/../shared/captures" && pwd)
fi
export RPCRDMA_CAPTURES="${RPCRDMA_CAPTURES:-}"
jobs=$(nproc 2>/dev/null || echo 2)

run_suite() {
	name=$1
	shift
	echo "=== $name build"
	cmake -S "$top" -B "$top/build-$name" "$@" >/dev/null
	cmake --build "$top/build-$name" -j "$jobs" >/dev/null
	echo "=== $name tests"
	(cd "$top/build-$name" && ctest --output-on-failure -j "$jobs")
}

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
# a chroot takes minutes to make the first time: made while the builds run
mkdir -p "$top/build-chroots"
for suite in $chroots; do
	$SUDO "$top/scripts/chroot.sh" "$suite" >"$top/build-chroots/$suite.log" 2>&1 &
	eval "chroot_pid_$suite=\$!"
done
if [ "${RPCRDMA_PACKAGES:-}" != skip ]; then
	. /etc/os-release
	$SUDO "$top/scripts/bare-chroot.sh" "${VERSION_CODENAME:-bookworm}" \
		>"$top/build-chroots/bare.log" 2>&1 &
	bare_pid=$!
fi

run_suite release -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=RelWithDebInfo
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
run_suite sanitize -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
	-DRR_SANITIZE=ON -DRR_FUZZ_SECONDS="${RR_FUZZ_SECONDS:-60}"
# as a packager without the optional libraries builds it; the plugin there
# is the release build's (Wireshark is required by both), its tests run once
"$top/scripts/required-only-build.sh" "$top/build-required-only" -E '^wireshark_'
in_chroot() { # suite, tests (a ctest -R pattern, or "" for all)
	suite=$1
	pid=""
	eval "pid=\$chroot_pid_$suite"
	wait "$pid" || {
		echo "=== $suite: the chroot could not be made:" >&2
		cat "$top/build-chroots/$suite.log" >&2
		exit 1
	}
	echo "=== $suite: build (chroot)"
	# the build folder is below the checkout, which the chroot mounts at
	# its own path
	$SUDO "$top/scripts/chroot-run.sh" "$suite" sh -c "
		set -e
		cd '$top'
		tshark --version | head -n 1
		cmake -S . -B build-$suite -DCMAKE_C_COMPILER=gcc \
			-DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
		cmake --build build-$suite -j $jobs >/dev/null
		echo '=== $suite: tests (chroot)'
		cd build-$suite
		RPCRDMA_CAPTURES='$RPCRDMA_CAPTURES' ctest --output-on-failure -j $jobs ${2:+-R '$2'}"
}
for suite in $chroots; do
	case $suite in
	sid) in_chroot "$suite" '^wireshark_' ;;
	*) in_chroot "$suite" "" ;;
	esac
done
if [ "${RPCRDMA_PACKAGES:-}" = skip ]; then
	echo "=== packages: SKIPPED (RPCRDMA_PACKAGES=skip)"
else
	wait "$bare_pid" || {
		echo "=== packages: the clean chroot could not be made:" >&2
		cat "$top/build-chroots/bare.log" >&2
		exit 1
	}
	$SUDO "$top/scripts/package-test.sh"
fi
if [ "${RPCRDMA_LAB:-}" = skip ]; then
	echo "=== lab: SKIPPED (RPCRDMA_LAB=skip): no test on real Linux kernels ran"
else
	echo "=== lab: Linux NFS/RDMA in QEMU guests"
	$SUDO env LAB_BUILD="$top/build-release" LAB_OUT="$top/build-release/lab" \
		"$top/lab/run"
fi
echo "=== all tests passed in both builds, the chroots, the packages and the lab"
