// libpng, loaded with dlopen the first time a PNG is written or read (`modal-demo render`,
// `preview --frames`, a screenshot of modalkit-session): libpng's own header for the types, and its
// simplified API's five functions called through the modalkit_png_* wrappers below. Nothing links
// libpng16 (or the zlib it brings), so `--version` and a window's start-up before its first font
// map neither (FreeType, which fcft loads, needs both; docs/design.md, start-up and footprint).
#ifndef MODALKIT_PNG_DYNAMIC_H
#define MODALKIT_PNG_DYNAMIC_H

#include <png.h>

/// The soname loaded (Debian 12: libpng16-16, libpng 1.6).
#define MODALKIT_PNG_SONAME "libpng16.so.16"

/// Each wrapper loads libpng once per process (thread-safe), then calls the function of the same
/// name without the prefix. When libpng cannot be loaded, the begin/finish/write wrappers return
/// 0 with the image's `message` set to the reason (dlopen's or dlsym's message) and
/// `warning_or_error` to PNG_IMAGE_ERROR, as libpng reports its own errors; modalkit_png_image_free
/// then does nothing.
int modalkit_png_image_begin_read_from_file(png_imagep image, const char *file_name);
int modalkit_png_image_finish_read(png_imagep image, png_const_colorp background, void *buffer,
                                   png_int_32 row_stride, void *colormap);
int modalkit_png_image_write_to_file(png_imagep image, const char *file, int convert_to_8bit,
                                     const void *buffer, png_int_32 row_stride, const void *colormap);
int modalkit_png_image_write_to_memory(png_imagep image, void *memory, png_alloc_size_t *memory_bytes,
                                       int convert_to_8_bit, const void *buffer, png_int_32 row_stride,
                                       const void *colormap);
void modalkit_png_image_free(png_imagep image);

#endif
