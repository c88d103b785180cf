/*
 * fault.c: the allocation counter behind fault_hook.h (see fault.h).
 * Compiled without the hook, so it calls the real allocator. A mutex
 * keeps the counter whole when a split search's threads allocate (the
 * order in which they meet allocation k is theirs to decide: each run
 * must still fail cleanly or give the full result).
 */
#include "tests/fault/fault.h"

#include <limits.h>
#include <pthread.h>
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
static pthread_mutex_t fault_lock = PTHREAD_MUTEX_INITIALIZER;

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
	pthread_mutex_lock(&fault_lock);
	if (!fault.env_read)
		read_env();
	bool fail = false;
	if (fault.armed) {
		fault.seen++;
		if (!fault.fired && fault.left-- <= 0)
			fail = fault.fired = true;
	}
	pthread_mutex_unlock(&fault_lock);
	return fail;
}

static void count_live(long d)
{
	pthread_mutex_lock(&fault_lock);
	fault.live += d;
	pthread_mutex_unlock(&fault_lock);
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
	count_live(p != NULL);
	return p;
}

void *fault_calloc(size_t n, size_t size)
{
	if (fail_now())
		return NULL;
	void *p = calloc(n, size);
	count_live(p != NULL);
	return p;
}

void *fault_realloc(void *old, size_t n)
{
	if (fail_now())
		return NULL;
	void *p = realloc(old, n);
	count_live(p != NULL && old == NULL);
	return p;
}

char *fault_strdup(const char *s)
{
	if (fail_now())
		return NULL;
	char *p = strdup(s);
	count_live(p != NULL);
	return p;
}

void fault_free(void *p)
{
	count_live(-(long)(p != NULL));
	free(p);
}
