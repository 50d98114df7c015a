// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A program every kernel's verifier refuses: it reads past the largest
 * record a tracepoint may have (PERF_MAX_TRACE_SIZE), directly.  The
 * verifier test loads it to see the refusal worded with the verifier's own
 * reason.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("tracepoint")
int reads_past_its_record(void *ctx)
{
	return (int)*(volatile __u64 *)((char *)ctx + 16384);
}
