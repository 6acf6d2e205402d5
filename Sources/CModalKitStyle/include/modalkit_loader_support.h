/*
 * Host-side helpers of the style loader that need glibc's GNU extensions (dlinfo, dladdr1),
 * which Swift's Glibc module does not import. Not part of the plugin ABI: plugins never call
 * these, and they are hidden (not exported from any shared library that links ModalKit).
 */
#ifndef MODALKIT_LOADER_SUPPORT_H
#define MODALKIT_LOADER_SUPPORT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Whether `symbol` (an address dlsym() returned for `handle`) is defined in the object `handle`
 * names itself, rather than in one of its DT_NEEDED dependencies, which dlsym() on a handle also
 * searches (dlsym(3)). Compares the link map of the object that contains the address
 * (dladdr1 RTLD_DL_LINKMAP) with the handle's own (dlinfo RTLD_DI_LINKMAP).
 * Returns 1 (own), 0 (another object: its file name is copied into `definer`, NUL-terminated,
 * truncated to `definer_size`), or -1 when the dynamic loader cannot tell.
 */
int modalkit_loader_symbol_is_own(void *handle, const void *symbol, char *definer, size_t definer_size);

#ifdef __cplusplus
}
#endif

#endif
