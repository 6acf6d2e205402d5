/*
 * CModalKitAllocCounter.h — a heap-allocation counter for modal-bench, which checks the
 * target "0 heap allocations per frame after warm-up" by counting.
 *
 * The target defines malloc, calloc, realloc, reallocarray, posix_memalign, aligned_alloc,
 * memalign, valloc and pvalloc; each counts the call and forwards to glibc's own implementation
 * (__libc_malloc and friends, the documented way to wrap glibc's allocator: glibc manual,
 * "Replacing malloc"). Linked into an executable, these definitions interpose the allocator for
 * the whole process — the Swift runtime (libswiftCore's swift_slowAlloc), Foundation, pixman,
 * fontconfig — because the dynamic linker binds every library's malloc to the executable's
 * definition first. free() is not replaced (the memory is glibc's).
 *
 * Link this target ONLY into modal-bench. Counts are process-wide (all threads), updated with
 * relaxed atomics; reading them allocates nothing.
 */
#ifndef CALLOCCOUNTER_H
#define CALLOCCOUNTER_H

#ifdef __cplusplus
extern "C" {
#endif

/// Number of successful allocation calls (malloc, calloc, realloc with a non-zero size, …) since
/// the process started. A failed call (NULL result) is not counted.
unsigned long long modalkit_alloc_count(void);

/// Sum of the sizes requested by the counted calls, bytes.
unsigned long long modalkit_alloc_bytes(void);

/// Allocates `size` bytes with malloc from this target (so, through the interposer) and frees it:
/// the count must grow (by one, or more when other threads allocate meanwhile). Returns 1 when it did. Used as a self-check; a self-check of the
/// other libraries (libswiftCore, pixman) is up to the caller.
int modalkit_alloc_counter_selftest(void);

/// 1 when this build has AddressSanitizer or ThreadSanitizer, whose runtimes own the allocator:
/// the counter then replaces nothing and counts nothing (the functions above return 0).
int modalkit_alloc_counter_sanitized(void);

#ifdef __cplusplus
}
#endif

#endif
