/* See modalkit_loader_support.h. */
#define _GNU_SOURCE
#include "modalkit_loader_support.h"

#include <dlfcn.h>
#include <link.h>
#include <string.h>

__attribute__((visibility("hidden")))
int modalkit_loader_symbol_is_own(void *handle, const void *symbol, char *definer, size_t definer_size) {
    struct link_map *own = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &own) != 0 || own == NULL) return -1;
    Dl_info info;
    struct link_map *containing = NULL;
    if (dladdr1(symbol, &info, (void **)&containing, RTLD_DL_LINKMAP) == 0 || containing == NULL) return -1;
    if (containing == own) return 1;
    if (definer != NULL && definer_size > 0) {
        const char *name = containing->l_name != NULL && containing->l_name[0] != '\0' ? containing->l_name
                         : info.dli_fname != NULL ? info.dli_fname : "";
        strncpy(definer, name, definer_size - 1);
        definer[definer_size - 1] = '\0';
    }
    return 0;
}
