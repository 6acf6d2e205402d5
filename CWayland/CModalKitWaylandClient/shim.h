#include <wayland-client.h>

/* Linux fd APIs that ModalKitWaylandClient needs and Swift's Glibc module does not expose:
 * - sys/timerfd.h is not part of the Glibc module map (key repeat runs on a timerfd in the poll loop);
 * - memfd_create is declared only under _GNU_SOURCE (wl_shm buffers live in a memfd).
 * The declaration below is identical to glibc's (>= 2.27). */
#include <sys/timerfd.h>
#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#endif
extern int memfd_create(const char *name, unsigned int flags);
