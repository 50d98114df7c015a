/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A program the running kernel's verifier refuses (tests/bpf/refused.bpf.c)
 * loaded through libbpf as the tools load theirs: the message names what
 * failed and gives the verifier's own reason, not only libbpf's error
 * number (exit 77 without the privilege to load programs).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "../unit/check.h"

#include "bpf-messages.h"
#include "refused.skel.h"

int main(void)
{
	char msg[512];
	rr_bpf_messages_begin();
	struct refused *skel = refused__open();
	if (!CHECK(skel != NULL))
		return check_done();
	int err = refused__load(skel);
	refused__destroy(skel);
	rr_bpf_failure(msg, sizeof(msg), "loading the eBPF program", err);
	printf("# %s\n", msg);
	if (err == -EPERM && geteuid() != 0) {
		printf("1..0 # SKIP loading BPF programs needs root\n");
		return 77;
	}
	CHECK(err != 0);
	CHECK(strstr(msg, "loading the eBPF program: ") == msg);
	CHECK(strstr(msg, "verifier: invalid bpf_context access off=16384") != NULL);
	return check_done();
}
