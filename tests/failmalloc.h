/*
 * failmalloc.h: a malloc that fails on demand, for the unit tests that
 * check every allocation failure of a module (they return its ENOMEM
 * status and leak nothing). It defines malloc, calloc, realloc and free
 * for the whole program, so a test program includes it exactly once, in
 * its own .c file (never in the helpers linked into every test). Off under
 * AddressSanitizer, which owns malloc there: HAVE_ASAN is then defined
 * and the tests that need it skip.
 */
#ifndef CUBEGEN_TESTS_FAILMALLOC_H
#define CUBEGEN_TESTS_FAILMALLOC_H

#include <errno.h>
#include <malloc.h>
#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif

#ifndef HAVE_ASAN
/*
 * Replaces malloc for the whole program, the libraries it links included:
 * after 'fail_after' more allocations every allocation fails (-1: never).
 * 'alloc_calls' counts allocations, 'live' the blocks not yet freed and
 * 'live_bytes' their malloc_usable_size().
 */
static long fail_after = -1;
static long alloc_calls;
static long live;
static size_t live_bytes;

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static int alloc_fails(void)
{
	alloc_calls++;
	if (fail_after < 0)
		return 0;
	if (fail_after == 0) {
		errno = ENOMEM;
		return 1;
	}
	fail_after--;
	return 0;
}

static void *counted(void *p)
{
	if (p) {
		live++;
		live_bytes += malloc_usable_size(p);
	}
	return p;
}

static void uncount(void *p)
{
	if (p) {
		live--;
		live_bytes -= malloc_usable_size(p);
	}
}

void *malloc(size_t n)
{
	return counted(alloc_fails() ? NULL : __libc_malloc(n));
}

void *calloc(size_t n, size_t m)
{
	return counted(alloc_fails() ? NULL : __libc_calloc(n, m));
}

void *realloc(void *p, size_t n)
{
	if (alloc_fails())
		return NULL;
	size_t old = p ? malloc_usable_size(p) : 0;
	void *q = __libc_realloc(p, n);
	if (q || n == 0) { /* p is gone (glibc frees it for n == 0) */
		live -= p != NULL;
		live_bytes -= old;
		counted(q);
	}
	return q;
}

void free(void *p)
{
	uncount(p);
	__libc_free(p);
}

/* Whether these functions are the program's malloc: not under valgrind,
 * which replaces malloc whatever the program defines (the tests that need
 * them then skip). */
static inline int failmalloc_active(void)
{
	long before = alloc_calls;
	free(malloc(1));
	return alloc_calls != before;
}
#endif

#endif
