/*
 * fault.c: the allocation counter behind fault_hook.h (see fault.h).
 * Compiled without the hook, so it calls the real allocator.
 */
#include "tests/fault/fault.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	bool env_read; /* CUBEGEN_FAULT_AT looked up */
	bool armed;    /* counting toward a failure */
	long left;     /* allocations to let through before failing one */
	long seen;     /* allocations attempted while armed */
	bool fired;    /* an allocation was failed */
	long live;     /* blocks out through the hook */
} fault;

static void report_count(void)
{
	fprintf(stderr, "fault: allocations: %ld\n", fault.seen);
}

/* A program that never arms the counter (the fault-built cubegen) is
 * driven by the environment: CUBEGEN_FAULT_AT=k fails allocation k;
 * CUBEGEN_FAULT_COUNT=1 fails none and prints how many there were at
 * exit, on stderr. */
static void read_env(void)
{
	fault.env_read = true;
	if (fault.armed)
		return;
	const char *at = getenv("CUBEGEN_FAULT_AT");
	if (at && *at) {
		fault.armed = true;
		fault.left = strtol(at, NULL, 10);
	} else if (getenv("CUBEGEN_FAULT_COUNT")) {
		fault.armed = true;
		fault.left = LONG_MAX;
		atexit(report_count);
	}
}

static bool fail_now(void)
{
	if (!fault.env_read)
		read_env();
	if (!fault.armed)
		return false;
	fault.seen++;
	if (fault.fired || fault.left-- > 0)
		return false;
	fault.fired = true;
	return true;
}

void fault_arm(long k)
{
	fault.env_read = true;
	fault.armed = true;
	fault.left = k;
	fault.seen = 0;
	fault.fired = false;
}

long fault_disarm(void)
{
	fault.armed = false;
	return fault.seen;
}

bool fault_fired(void)
{
	return fault.fired;
}

long fault_live(void)
{
	return fault.live;
}

void *fault_malloc(size_t n)
{
	if (fail_now())
		return NULL;
	void *p = malloc(n);
	fault.live += p != NULL;
	return p;
}

void *fault_calloc(size_t n, size_t size)
{
	if (fail_now())
		return NULL;
	void *p = calloc(n, size);
	fault.live += p != NULL;
	return p;
}

void *fault_realloc(void *old, size_t n)
{
	if (fail_now())
		return NULL;
	void *p = realloc(old, n);
	fault.live += p != NULL && old == NULL;
	return p;
}

char *fault_strdup(const char *s)
{
	if (fail_now())
		return NULL;
	char *p = strdup(s);
	fault.live += p != NULL;
	return p;
}

void fault_free(void *p)
{
	fault.live -= p != NULL;
	free(p);
}
