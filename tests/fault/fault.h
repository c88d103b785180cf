/*
 * fault.h: allocation fault injection for tests (SQLite's approach).
 *
 * The fault build compiles solver/, formats/, gen/, mesh/ and cli/ with
 * `-include tests/fault/fault_hook.h`, which routes their malloc, calloc,
 * realloc, strdup and free through this counter. Armed with k, the
 * counter lets k allocations through and fails the next one (and only that
 * one); a job run for k = 0, 1, 2, ... until no allocation fails has then
 * met a failure at every allocation it makes.
 *
 * The counter is process-wide state, on purpose: malloc takes no context.
 * A program that never arms it (the fault-built cubegen) reads the
 * environment instead: CUBEGEN_FAULT_AT=k fails allocation k (counting
 * from 0) of the whole run.
 */
#ifndef CUBEGEN_FAULT_H
#define CUBEGEN_FAULT_H

#include <stdbool.h>
#include <stddef.h>

/* Let 'k' allocations through, fail the next; start counting now. */
void fault_arm(long k);
/* Stop failing; returns the allocations attempted since fault_arm(). */
long fault_disarm(void);
/* Whether an allocation was failed since the last fault_arm(). */
bool fault_fired(void);
/* Blocks allocated through the hook and not yet freed through it. */
long fault_live(void);

void *fault_malloc(size_t n);
void *fault_calloc(size_t n, size_t size);
void *fault_realloc(void *p, size_t n);
char *fault_strdup(const char *s);
void fault_free(void *p);

#endif
