// Counting wrappers around glibc's allocator; see include/CModalKitAllocCounter.h.
//
// Why __libc_*: calling dlsym(RTLD_NEXT, "malloc") from inside malloc recurses (dlsym itself
// allocates); glibc exports its implementation under these names for exactly this purpose.
// Each wrapper forwards with the same contract (errno, alignment checks) as the function it
// replaces.
#define _GNU_SOURCE
#include "CModalKitAllocCounter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

// AddressSanitizer and ThreadSanitizer replace the allocator themselves (their runtimes define
// malloc and free and keep their own heap): a block from __libc_malloc freed through their free
// breaks them. In such a build the counter defines nothing and says so
// (modalkit_alloc_counter_sanitized).
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MODALKIT_SANITIZED_ALLOCATOR 1
#endif
#endif
#if !defined(MODALKIT_SANITIZED_ALLOCATOR) && (defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__))
#define MODALKIT_SANITIZED_ALLOCATOR 1
#endif

#ifdef MODALKIT_SANITIZED_ALLOCATOR

unsigned long long modalkit_alloc_count(void) { return 0; }
unsigned long long modalkit_alloc_bytes(void) { return 0; }
int modalkit_alloc_counter_selftest(void) { return 0; }
int modalkit_alloc_counter_sanitized(void) { return 1; }

#else

int modalkit_alloc_counter_sanitized(void) { return 0; }

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static _Atomic unsigned long long allocation_count;
static _Atomic unsigned long long allocation_bytes;

static inline void *counted(void *p, size_t size) {
    if (p) {
        atomic_fetch_add_explicit(&allocation_count, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&allocation_bytes, size, memory_order_relaxed);
    }
    return p;
}

static inline int power_of_two(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

void *malloc(size_t size) { return counted(__libc_malloc(size), size); }

void *calloc(size_t count, size_t size) {
    size_t total;
    if (__builtin_mul_overflow(count, size, &total)) {
        errno = ENOMEM;
        return NULL;
    }
    return counted(__libc_calloc(count, size), total);
}

// realloc(p, 0) frees p (glibc) and realloc(NULL, n) is malloc: only calls that hand out memory
// count; growing or shrinking a block in place is still an allocator call and counts.
void *realloc(void *ptr, size_t size) {
    void *p = __libc_realloc(ptr, size);
    return size == 0 ? p : counted(p, size);
}

void *reallocarray(void *ptr, size_t count, size_t size) {
    size_t total;
    if (__builtin_mul_overflow(count, size, &total)) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(ptr, total);
}

void *memalign(size_t alignment, size_t size) { return counted(__libc_memalign(alignment, size), size); }

// C11: the alignment must be a power of two (glibc ≥ 2.38 also returns EINVAL otherwise).
void *aligned_alloc(size_t alignment, size_t size) {
    if (!power_of_two(alignment)) {
        errno = EINVAL;
        return NULL;
    }
    return counted(__libc_memalign(alignment, size), size);
}

// POSIX: the alignment must be a power of two multiple of sizeof(void *); errors are returned,
// errno is left alone.
int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || !power_of_two(alignment)) return EINVAL;
    int saved = errno;
    void *p = __libc_memalign(alignment, size);
    if (!p) {
        errno = saved;
        return ENOMEM;
    }
    *result = counted(p, size);
    return 0;
}

void *valloc(size_t size) { return counted(__libc_valloc(size), size); }

void *pvalloc(size_t size) { return counted(__libc_pvalloc(size), size); }

unsigned long long modalkit_alloc_count(void) {
    return atomic_load_explicit(&allocation_count, memory_order_relaxed);
}

unsigned long long modalkit_alloc_bytes(void) {
    return atomic_load_explicit(&allocation_bytes, memory_order_relaxed);
}

int modalkit_alloc_counter_selftest(void) {
    unsigned long long before = modalkit_alloc_count();
    void *volatile p = malloc(24);
    int ok = p != NULL && modalkit_alloc_count() > before;
    free(p);
    return ok;
}

#endif
