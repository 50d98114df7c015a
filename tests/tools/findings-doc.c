/* SPDX-License-Identifier: BSD-2-Clause */
/* Prints the findings catalogue as the table docs/findings.md carries. */
#include <stdio.h>

#include <rpcrdma/analyzer.h>

int main(void)
{
	puts("| id | severity | reference | meaning | what to do |");
	puts("|---|---|---|---|---|");
	for (unsigned i = 0; i < RR_FINDING_COUNT; i++) {
		const struct rr_finding_info *f = rr_finding_info(i);
		printf("| `%s` | %s | %s | %s | %s. |\n", f->id,
		       rr_severity_str(f->severity),
		       f->reference[0] ? f->reference : "-", f->message, f->advice);
	}
	return 0;
}
