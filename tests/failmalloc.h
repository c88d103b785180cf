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
#include <pthread.h>
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
 * 'live_bytes' their malloc_usable_size(). A lock keeps them whole when
 * the code under test allocates on threads of its own (the block
 * generator's drawn route); the test reads them between such calls, and
 * never forks while another thread may hold the lock.
 */
static long fail_after = -1;
static long alloc_calls;
static long live;
static size_t live_bytes;
static pthread_mutex_t alloc_lock = PTHREAD_MUTEX_INITIALIZER;

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
	pthread_mutex_lock(&alloc_lock);
	void *p = counted(alloc_fails() ? NULL : __libc_malloc(n));
	pthread_mutex_unlock(&alloc_lock);
	return p;
}

void *calloc(size_t n, size_t m)
{
	pthread_mutex_lock(&alloc_lock);
	void *p = counted(alloc_fails() ? NULL : __libc_calloc(n, m));
	pthread_mutex_unlock(&alloc_lock);
	return p;
}

void *realloc(void *p, size_t n)
{
	pthread_mutex_lock(&alloc_lock);
	void *q = NULL;
	if (!alloc_fails()) {
		size_t old = p ? malloc_usable_size(p) : 0;
		q = __libc_realloc(p, n);
		if (q || n == 0) { /* p is gone (glibc frees it for n == 0) */
			live -= p != NULL;
			live_bytes -= old;
			counted(q);
		}
	}
	pthread_mutex_unlock(&alloc_lock);
	return q;
}

void free(void *p)
{
	pthread_mutex_lock(&alloc_lock);
	uncount(p);
	__libc_free(p);
	pthread_mutex_unlock(&alloc_lock);
}

/* Whether these functions are the program's malloc: not under valgrind,
 * which replaces malloc whatever the program defines (the tests that need
 * them then skip). */
static inline int failmalloc_active(void)
{
	/* (volatile: the compiler may take malloc() for the C library's,
	 * which leaves the program's variables alone) */
	long before = *(volatile long *)&alloc_calls;
	void *volatile p = malloc(1);
	free(p);
	return *(volatile long *)&alloc_calls != before;
}
#endif

#endif
