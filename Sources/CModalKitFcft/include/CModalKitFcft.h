// fcft, loaded with dlopen when a program first makes a font: fcft's own header for its types, and
// the functions ModalKitText calls through a table filled by dlsym (modalkit_fcft_load). Nothing
// links libfcft (and its chain: fontconfig, freetype, harfbuzz, glib, pcre2, graphite2, brotli,
// expat, utf8proc, zlib), so a program that draws no text — `modal-demo --version`, `render` of a
// style, a style plugin's tools — maps none of it (docs/design.md, start-up and footprint).
#ifndef MODALKIT_FCFT_DYNAMIC_H
#define MODALKIT_FCFT_DYNAMIC_H

#include <fcft/fcft.h>

/// The soname loaded: fcft 3's ABI (Debian 12: libfcft4 3.1.5).
#define MODALKIT_FCFT_SONAME "libfcft.so.4"

struct modalkit_fcft_table {
    bool (*init)(enum fcft_log_colorize colorize, bool do_syslog, enum fcft_log_class log_level);
    struct fcft_font *(*from_name)(size_t count, const char *names[], const char *attributes);
    void (*destroy)(struct fcft_font *font);
    const struct fcft_glyph *(*rasterize_char_utf32)(struct fcft_font *font, uint32_t cp, enum fcft_subpixel subpixel);
    bool (*kerning)(struct fcft_font *font, uint32_t left, uint32_t right, long *x, long *y);
    /// The shaping entries (fcft 2.3/2.4 and later, so every libfcft.so.4 has them; whether they
    /// shape is `capabilities()`: fcft built without HarfBuzz/utf8proc returns NULL from them).
    enum fcft_capabilities (*capabilities)(void);
    const struct fcft_grapheme *(*rasterize_grapheme_utf32)(struct fcft_font *font, size_t len,
                                                            const uint32_t grapheme_cluster[], enum fcft_subpixel subpixel);
    struct fcft_text_run *(*rasterize_text_run_utf32)(struct fcft_font *font, size_t len, const uint32_t text[],
                                                      enum fcft_subpixel subpixel);
    void (*text_run_destroy)(struct fcft_text_run *run);
};

/// Filled by modalkit_fcft_load: every entry set, or (when it returned 0) none to be called.
extern struct modalkit_fcft_table modalkit_fcft;

/// Loads libfcft and looks its functions up, once per process (thread-safe). 1 when every function
/// was found; 0 otherwise, with the reason in modalkit_fcft_load_error().
int modalkit_fcft_load(void);

/// Why modalkit_fcft_load returned 0 (dlopen's or dlsym's message), or NULL.
const char *modalkit_fcft_load_error(void);

#endif
