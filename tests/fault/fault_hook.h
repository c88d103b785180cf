/*
 * fault_hook.h: force-included (-include) into every object of the fault
 * build, so the modules' allocations go through tests/fault/fault.c. The
 * system headers come first so their own declarations are untouched.
 */
#ifndef CUBEGEN_FAULT_HOOK_H
#define CUBEGEN_FAULT_HOOK_H

#include <stdlib.h>
#include <string.h>

#include "tests/fault/fault.h"

#define malloc(n) fault_malloc(n)
#define calloc(n, size) fault_calloc(n, size)
#define realloc(p, n) fault_realloc(p, n)
#define strdup(s) fault_strdup(s)
#define free(p) fault_free(p)

#endif
