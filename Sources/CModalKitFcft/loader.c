#include "CModalKitFcft.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct modalkit_fcft_table modalkit_fcft;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char error[512];

static void load(void) {
    void *library = dlopen(MODALKIT_FCFT_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *message = dlerror();
        snprintf(error, sizeof error, "%s", message ? message : "cannot load " MODALKIT_FCFT_SONAME);
        return;
    }
    struct modalkit_fcft_table table;
#define LOOK_UP(name) \
    do { \
        *(void **)&table.name = dlsym(library, "fcft_" #name); \
        if (!table.name) { \
            snprintf(error, sizeof error, "%s has no fcft_" #name, MODALKIT_FCFT_SONAME); \
            return; \
        } \
    } while (0)
    LOOK_UP(init);
    LOOK_UP(from_name);
    LOOK_UP(destroy);
    LOOK_UP(rasterize_char_utf32);
    LOOK_UP(kerning);
    LOOK_UP(capabilities);
    LOOK_UP(rasterize_grapheme_utf32);
    LOOK_UP(rasterize_text_run_utf32);
    LOOK_UP(text_run_destroy);
#undef LOOK_UP
    modalkit_fcft = table;
    loaded = 1;
}

int modalkit_fcft_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *modalkit_fcft_load_error(void) {
    return error[0] ? error : NULL;
}
