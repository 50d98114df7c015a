/* SPDX-License-Identifier: BSD-2-Clause */
/* Prints the findings catalogue as the table docs/findings.md carries;
 * with --diagnosis, the diagnosis's problems as docs/diagnosis.md's table,
 * with --diagnosis-ids their ids, one a line (the JSON Schema's enum). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rpcrdma/analyzer.h>
#include <rpcrdma/diagnosis.h>

static void findings(void)
{
	puts("| id | severity | reference | meaning | what to do |");
	puts("|---|---|---|---|---|");
	for (unsigned i = 0; i < RR_FINDING_COUNT; i++) {
		const struct rr_finding_info *f = rr_finding_info(i);
		printf("| `%s` | %s | %s | %s | %s. |\n", f->id,
		       rr_severity_str(f->severity),
		       f->reference[0] ? f->reference : "-", f->message, f->advice);
	}
}

static void problems(bool ids)
{
	if (!ids) {
		puts("| problem | severity | reference | what it is | what to do |");
		puts("|---|---|---|---|---|");
	}
	for (unsigned i = 0; i < RR_DIAGNOSIS_COUNT; i++) {
		const struct rr_diagnosis_info *d = rr_diagnosis_info(i);
		if (ids)
			puts(d->id);
		else
			printf("| `%s` | %s | %s | %s | %s. |\n", d->id,
			       rr_severity_str(d->severity), d->reference, d->title,
			       d->advice);
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--diagnosis"))
		problems(false);
	else if (argc > 1 && !strcmp(argv[1], "--diagnosis-ids"))
		problems(true);
	else if (argc > 1) {
		fprintf(stderr, "usage: findings-doc [--diagnosis | --diagnosis-ids]\n");
		return 2;
	} else
		findings();
	return 0;
}
