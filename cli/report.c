/*
 * report.c: printing a count (report.h).
 */
#include "cli/report.h"

#include <stdio.h>

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
}

void report_text(const struct count_report *r)
{
	const char *lb = r->complete ? "" : "at least ";
	printf("puzzle: %s\n", r->name[0] ? r->name : r->file);
	if (r->burrtools_why)
		printf("burrtools: counts differently: %s\n", r->burrtools_why);
	printf("solutions: %s%llu\n", lb, (unsigned long long)r->solutions);
	printf("assemblies: %s%llu\n", lb, (unsigned long long)r->assemblies);
	if (r->why[0])
		printf("why: %s\n", r->why);
	if (!r->complete)
		printf("stopped: %s\n", r->stop[0] == 'm' && r->stop[3] == '\0'
		       ? "--max solutions found" : "--max-nodes reached");
	printf("symmetries: %d%s\n", r->symmetries,
	       r->mirror_closed ? " (with mirror images: the pieces are mirror-closed)"
	                        : " (rotations only)");
	if (r->rename_colours)
		printf("renamings: %llu (symmetries combined with renamings of "
		       "colours that keep the puzzle; solutions count up to "
		       "them)\n", (unsigned long long)r->renamings);
	printf("nodes: %llu\n", (unsigned long long)r->nodes);
	printf("time: %.6f s\n", r->seconds);
	printf("difficulty: %s\n", r->diff_text);
}
