#include "CModalKitPng.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct {
    int (*begin_read_from_file)(png_imagep, const char *);
    int (*finish_read)(png_imagep, png_const_colorp, void *, png_int_32, void *);
    int (*write_to_file)(png_imagep, const char *, int, const void *, png_int_32, const void *);
    int (*write_to_memory)(png_imagep, void *, png_alloc_size_t *, int, const void *, png_int_32, const void *);
    void (*free)(png_imagep);
} table;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char error[512];

static void load(void) {
    void *png = dlopen(MODALKIT_PNG_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!png) {
        const char *message = dlerror();
        snprintf(error, sizeof error, "%s", message ? message : MODALKIT_PNG_SONAME);
        return;
    }
#define LOOK_UP(name) \
    do { \
        *(void **)&table.name = dlsym(png, "png_image_" #name); \
        if (!table.name) { \
            snprintf(error, sizeof error, "%s has no png_image_" #name, MODALKIT_PNG_SONAME); \
            return; \
        } \
    } while (0)
    LOOK_UP(begin_read_from_file);
    LOOK_UP(finish_read);
    LOOK_UP(write_to_file);
    LOOK_UP(write_to_memory);
    LOOK_UP(free);
#undef LOOK_UP
    loaded = 1;
}

/// Loads libpng; when it cannot, reports why in `image` as libpng reports an error.
static int ready(png_imagep image) {
    pthread_once(&once, load);
    if (loaded) return 1;
    if (image) {
        snprintf(image->message, sizeof image->message, "cannot load libpng: %s", error);
        image->warning_or_error = PNG_IMAGE_ERROR;
    }
    return 0;
}

int modalkit_png_image_begin_read_from_file(png_imagep image, const char *file_name) {
    return ready(image) ? table.begin_read_from_file(image, file_name) : 0;
}

int modalkit_png_image_finish_read(png_imagep image, png_const_colorp background, void *buffer,
                                   png_int_32 row_stride, void *colormap) {
    return ready(image) ? table.finish_read(image, background, buffer, row_stride, colormap) : 0;
}

int modalkit_png_image_write_to_file(png_imagep image, const char *file, int convert_to_8bit,
                                     const void *buffer, png_int_32 row_stride, const void *colormap) {
    return ready(image) ? table.write_to_file(image, file, convert_to_8bit, buffer, row_stride, colormap) : 0;
}

int modalkit_png_image_write_to_memory(png_imagep image, void *memory, png_alloc_size_t *memory_bytes,
                                       int convert_to_8_bit, const void *buffer, png_int_32 row_stride,
                                       const void *colormap) {
    return ready(image) ? table.write_to_memory(image, memory, memory_bytes, convert_to_8_bit, buffer, row_stride, colormap) : 0;
}

void modalkit_png_image_free(png_imagep image) {
    pthread_once(&once, load);
    if (loaded) table.free(image);
}
