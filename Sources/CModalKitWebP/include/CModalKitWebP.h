// libwebp, loaded with dlopen when `modal-demo preview` first encodes (or a test decodes) an
// animation: libwebp's own headers for the types, and the functions ModalKitDemo calls through a
// table filled by dlsym (modalkit_webp_load). Nothing links libwebp, libwebpmux or libwebpdemux,
// so a window, `--version` and `render` map none of them (docs/design.md, start-up and footprint).
//
// The headers' inline initialisers (WebPConfigInit, WebPPictureInit, WebPAnimEncoderOptionsInit,
// WebPAnimEncoderNew, WebPAnimDecoderOptionsInit, WebPAnimDecoderNew, WebPDataClear) call the
// libraries' *Internal functions directly: use the modalkit_webp_* functions below instead, which
// pass the same ABI versions through the table.
#ifndef MODALKIT_WEBP_DYNAMIC_H
#define MODALKIT_WEBP_DYNAMIC_H

#include <webp/encode.h>
#include <webp/decode.h>
#include <webp/mux.h>
#include <webp/demux.h>

/// The sonames loaded (Debian 12: libwebp7, libwebpmux3, libwebpdemux2, all libwebp 1.2).
#define MODALKIT_WEBP_SONAME "libwebp.so.7"
#define MODALKIT_WEBPMUX_SONAME "libwebpmux.so.3"
#define MODALKIT_WEBPDEMUX_SONAME "libwebpdemux.so.2"

struct modalkit_webp_table {
    // libwebp: the encoder.
    int (*ConfigInitInternal)(WebPConfig *config, WebPPreset preset, float quality, int version);
    int (*PictureInitInternal)(WebPPicture *picture, int version);
    int (*PictureImportRGBA)(WebPPicture *picture, const uint8_t *rgba, int rgba_stride);
    void (*PictureFree)(WebPPicture *picture);
    void (*Free)(void *pointer);
    // libwebpmux: the animation encoder.
    int (*AnimEncoderOptionsInitInternal)(WebPAnimEncoderOptions *options, int version);
    WebPAnimEncoder *(*AnimEncoderNewInternal)(int width, int height, const WebPAnimEncoderOptions *options, int version);
    int (*AnimEncoderAdd)(WebPAnimEncoder *encoder, struct WebPPicture *frame, int timestamp_ms,
                          const struct WebPConfig *config);
    int (*AnimEncoderAssemble)(WebPAnimEncoder *encoder, WebPData *webp_data);
    const char *(*AnimEncoderGetError)(WebPAnimEncoder *encoder);
    void (*AnimEncoderDelete)(WebPAnimEncoder *encoder);
    // libwebpdemux: the animation decoder.
    int (*AnimDecoderOptionsInitInternal)(WebPAnimDecoderOptions *options, int version);
    WebPAnimDecoder *(*AnimDecoderNewInternal)(const WebPData *webp_data, const WebPAnimDecoderOptions *options, int version);
    int (*AnimDecoderGetInfo)(const WebPAnimDecoder *decoder, WebPAnimInfo *info);
    int (*AnimDecoderGetNext)(WebPAnimDecoder *decoder, uint8_t **buffer, int *timestamp);
    int (*AnimDecoderHasMoreFrames)(const WebPAnimDecoder *decoder);
    void (*AnimDecoderDelete)(WebPAnimDecoder *decoder);
};

/// Filled by modalkit_webp_load: every entry set, or (when it returned 0) none to be called.
extern struct modalkit_webp_table modalkit_webp;

/// Loads the three libraries and looks their functions up, once per process (thread-safe). 1 when
/// every function was found; 0 otherwise, with the reason in modalkit_webp_load_error().
int modalkit_webp_load(void);

/// Why modalkit_webp_load returned 0 (dlopen's or dlsym's message), or NULL.
const char *modalkit_webp_load_error(void);

/// The headers' initialisers, through the table (call only after modalkit_webp_load returned 1).
/// Each returns 0 on a version mismatch, as the inline function it stands for does.
int modalkit_webp_config_init(WebPConfig *config);
int modalkit_webp_picture_init(WebPPicture *picture);
int modalkit_webp_anim_encoder_options_init(WebPAnimEncoderOptions *options);
/// NULL when libwebpmux refuses the size or the options.
WebPAnimEncoder *modalkit_webp_anim_encoder_new(int width, int height, const WebPAnimEncoderOptions *options);
int modalkit_webp_anim_decoder_options_init(WebPAnimDecoderOptions *options);
/// NULL when the data is no WebP libwebpdemux can read.
WebPAnimDecoder *modalkit_webp_anim_decoder_new(const WebPData *webp_data, const WebPAnimDecoderOptions *options);
/// Frees what an encoder assembled into `data` (WebPFree) and empties it, as WebPDataClear does.
void modalkit_webp_data_clear(WebPData *data);

#endif
