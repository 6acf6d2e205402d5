/*
 * An LD_PRELOAD shim that takes memfd_create away, as an old kernel (before 3.17) or a seccomp
 * filter that does not know the system call does: memfd_create fails with ENOSYS. Compiled by the
 * tests at test time (`cc -shared -fPIC`). Compile-time knobs:
 *   NO_MEMFD_MARKER   path of a file that gets one line per call, so that a test can tell the
 *                     shim was in effect (required)
 *   NO_SHM_OPEN       shm_open fails too (EACCES, as with an unwritable /dev/shm): no shared
 *                     memory at all
 * Both functions are libc's own symbols, so the shim replaces them for every caller in the
 * process (modal-demo and libwayland-cursor alike); the system call stays reachable through
 * syscall(2), which none of them uses for it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/types.h>

static void mark(const char *what) {
    FILE *f = fopen(NO_MEMFD_MARKER, "a");
    if (f) {
        fprintf(f, "%s\n", what);
        fclose(f);
    }
}

int memfd_create(const char *name, unsigned int flags) {
    (void)name;
    (void)flags;
    mark("memfd_create");
    errno = ENOSYS;
    return -1;
}

#ifdef NO_SHM_OPEN
int shm_open(const char *name, int oflag, mode_t mode) {
    (void)name;
    (void)oflag;
    (void)mode;
    mark("shm_open");
    errno = EACCES;
    return -1;
}
#endif
