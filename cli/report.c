/*
 * report.c: printing a count (report.h).
 */
#include "cli/report.h"

#include <stdio.h>

#include "solver/disasm.h"

void report_json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

void report_json_fields(const struct count_report *r)
{
	printf("{\"file\": ");
	report_json_string(r->file);
	printf(", \"solutions\": %llu, \"assemblies\": %llu, \"complete\": %s, "
	       "\"nodes\": %llu, \"seconds\": %.6f, \"symmetries\": %d, "
	       "\"mirror_closed\": %s, \"stop\": \"%s\"",
	       (unsigned long long)r->solutions, (unsigned long long)r->assemblies,
	       r->complete ? "true" : "false", (unsigned long long)r->nodes,
	       r->seconds, r->symmetries, r->mirror_closed ? "true" : "false",
	       r->stop);
	if (r->why[0]) {
		printf(", \"why\": ");
		report_json_string(r->why);
	}
	printf(", \"rename_colours\": %s", r->rename_colours ? "true" : "false");
	if (r->problems) {
		printf(", \"problem\": %llu, \"problems\": %zu, "
		       "\"burrtools_differs\": ", (unsigned long long)r->problem,
		       r->problems);
		if (r->burrtools_why)
			report_json_string(r->burrtools_why);
		else
			printf("null");
	}
	if (r->rename_colours)
		printf(", \"renamings\": %llu", (unsigned long long)r->renamings);
	if (r->diff_has)
		printf(", \"difficulty\": %.6f", r->diff_score);
	else
		printf(", \"difficulty\": null");
	printf(", \"difficulty_method\": \"%s\", \"dead_ends\": %llu",
	       r->diff_method, (unsigned long long)r->dead_ends);
	if (r->threads)
		printf(", \"threads\": %u", r->threads);
	printf(", \"tasks\": %llu", (unsigned long long)r->tasks);
	if (!r->disassembled)
		return;
	printf(", \"disassembled\": true, \"stuck\": %llu, \"undecided\": %llu",
	       (unsigned long long)r->stuck, (unsigned long long)r->undecided);
	if (r->min_level)
		printf(", \"min_level\": %u, \"below_min_level\": %llu",
		       r->min_level, (unsigned long long)r->below_min);
	printf(", \"max_level\": [");
	for (size_t i = 0; i < r->nmax_level; i++)
		printf("%s%d", i ? ", " : "", r->max_level[i]);
	printf("], \"max_level_solutions\": %llu, \"moves\": [",
	       (unsigned long long)r->max_level_solutions);
	for (size_t i = 0; i < r->nmoves; i++) {
		if (i)
			printf(", ");
		report_json_string(r->moves[i]);
	}
	printf("]");
}

void report_level(const int *level, size_t n, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && at < len; i++) {
		int w = snprintf(buf + at, len - at, "%s%d", i ? "." : "", level[i]);
		if (w < 0)
			break;
		at += (size_t)w;
	}
}

void report_text(const struct count_report *r)
{
	const char *lb = r->complete ? "" : "at least ";
	printf("puzzle: %s\n", r->name[0] ? r->name : r->file);
	if (r->burrtools_why)
		printf("burrtools: counts differently: %s\n", r->burrtools_why);
	printf("solutions: %s%llu%s\n", lb, (unsigned long long)r->solutions,
	       !r->disassembled ? ""
	       : r->min_level ? " (come apart, first level at least --min-level)"
	       : " (come apart)");
	printf("assemblies: %s%llu\n", lb, (unsigned long long)r->assemblies);
	if (r->disassembled) {
		printf("stuck: %s%llu (solutions that do not come apart)\n", lb,
		       (unsigned long long)r->stuck);
		if (r->undecided)
			printf("undecided: %s%llu (not taken apart: a search bound, "
			       "see --disassemble-nodes, or more than 64 pieces)\n",
			       lb, (unsigned long long)r->undecided);
		if (r->min_level)
			printf("below level %u: %s%llu (come apart, but sooner)\n",
			       r->min_level, lb, (unsigned long long)r->below_min);
		char lv[DIS_LEVEL_TEXT];
		report_level(r->max_level, r->nmax_level, lv, sizeof lv);
		if (r->nmax_level)
			printf("level: %s (the highest; %s%llu solution%s)\n", lv, lb,
			       (unsigned long long)r->max_level_solutions,
			       r->max_level_solutions == 1 ? "" : "s");
		else
			printf("level: none\n");
	}
	if (r->why[0])
		printf("why: %s\n", r->why);
	if (!r->complete)
		printf("stopped: %s\n", r->stop[0] == 'm' && r->stop[3] == '\0'
		       ? "--max solutions found" : "--max-nodes reached");
	printf("symmetries: %d%s\n", r->symmetries,
	       r->mirror_closed ? " (with mirror images: the pieces are mirror-closed)"
	       : r->mirror_some ? " (rotations; with mirror images too for the "
	                          "solutions whose mirror image uses the pieces "
	                          "within their ranges)"
	                        : " (rotations only)");
	if (r->rename_colours)
		printf("renamings: %llu (symmetries combined with renamings of "
		       "colours that keep the puzzle; solutions count up to "
		       "them)\n", (unsigned long long)r->renamings);
	printf("nodes: %llu\n", (unsigned long long)r->nodes);
	printf("time: %.6f s\n", r->seconds);
	printf("difficulty: %s\n", r->diff_text);
}
