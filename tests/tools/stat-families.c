/* SPDX-License-Identifier: BSD-2-Clause */
/* Prints the statistics' families (rpcrdma/stat-families.h, with
 * RR_STAT_LIST's counters where the list places them): "table", the table
 * docs/metrics.md carries; "prom", each family Prometheus shows as
 * "NAME TYPE LABEL,LABEL WHEN" (labels "-" when none; WHEN "always", or
 * "rebuilding": only where messages are rebuilt, not in the exporter). */
#include <stdio.h>
#include <string.h>

#include <rpcrdma/stat-families.h>

#define RR_X_ROWS_DOC(sym, doc) [sym] = doc,
static const char *const rows_doc[] = { RR_STAT_ROWS_LIST(RR_X_ROWS_DOC) };

static void labels_of(const struct rr_stat_family_info *fi, char *out, size_t size,
		      const char *sep, const char *quote)
{
	out[0] = '\0';
	for (unsigned l = 0; fi->labels[l]; l++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s%s%s", l ? sep : "",
			 quote, fi->labels[l], quote);
}

/* RR_STAT_LIST's row i as a family: unlabelled, or the first of a kind */
static bool stat_row_is_family(unsigned i, bool kinds)
{
	return kinds ? rr_stat_kind_first(i) : !rr_stat_info(i)->prom_label[0];
}

static void line(bool table, const struct rr_stat_family_info *fi, const char *name,
		 const char *help, unsigned shown_also, bool rebuilding)
{
	char lb[128];
	labels_of(fi, lb, sizeof(lb), table ? ", " : ",", table ? "`" : "");
	if (!table) {
		if (name && (fi->shown & RR_SHOWN_PROM))
			printf("%s %s %s %s\n", name, rr_stat_type_str(fi->type), lb[0] ? lb : "-",
			       rebuilding ? "rebuilding" : "always");
		return;
	}
	static const unsigned shown[] = { RR_SHOWN_TEXT, RR_SHOWN_JSON, RR_SHOWN_PROM,
					  RR_SHOWN_TOP, RR_SHOWN_PLUGIN };
	printf("| %s%s%s | %s | %s | %s |", name ? "`" : "", name ? name : "-",
	       name ? "`" : "", rr_stat_type_str(fi->type), lb[0] ? lb : "-", rows_doc[fi->rows]);
	for (unsigned k = 0; k < sizeof(shown) / sizeof(shown[0]); k++)
		printf(" %s |", (fi->shown | shown_also) & shown[k] ? "yes" : "-");
	printf(" %s |\n", help);
}

int main(int argc, char **argv)
{
	bool table = argc > 1 && !strcmp(argv[1], "table");
	if (argc != 2 || (!table && strcmp(argv[1], "prom"))) {
		fprintf(stderr, "usage: stat-families table|prom\n");
		return 2;
	}
	if (table) {
		puts("| metric | type | labels | rows | text | JSON | Prometheus | top | plugin | HELP |");
		puts("|---|---|---|---|---|---|---|---|---|---|");
	}
	for (unsigned id = 0; id < RR_STAT_FAMILY_COUNT; id++) {
		const struct rr_stat_family_info *fi = rr_stat_family_info(id);
		bool kinds = fi->rows == RR_ROWS_STAT_KINDS;
		if (fi->rows != RR_ROWS_STAT_SCALARS && !kinds) {
			line(table, fi, fi->name, fi->help, 0, false);
			continue;
		}
		for (unsigned i = 0; i < RR_STAT_COUNT; i++) {
			const struct rr_stat_info *si = rr_stat_info(i);
			if (stat_row_is_family(i, kinds))
				line(table, fi, si->prom_name, si->help,
				     (si->text[0] ? RR_SHOWN_TEXT : 0) |
				     (si->json != RR_STAT_JSON_NONE ? RR_SHOWN_JSON : 0),
				     si->json == RR_STAT_JSON_REBUILT);
		}
	}
	return 0;
}
