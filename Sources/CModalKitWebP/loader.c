#include "CModalKitWebP.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct modalkit_webp_table modalkit_webp;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char error[512];

static void *open_library(const char *soname) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *message = dlerror();
        snprintf(error, sizeof error, "%s", message ? message : soname);
    }
    return library;
}

static void load(void) {
    void *webp = open_library(MODALKIT_WEBP_SONAME);
    if (!webp) return;
    void *mux = open_library(MODALKIT_WEBPMUX_SONAME);
    if (!mux) return;
    void *demux = open_library(MODALKIT_WEBPDEMUX_SONAME);
    if (!demux) return;
    struct modalkit_webp_table table;
#define LOOK_UP(library, soname, name) \
    do { \
        *(void **)&table.name = dlsym(library, "WebP" #name); \
        if (!table.name) { \
            snprintf(error, sizeof error, "%s has no WebP" #name, soname); \
            return; \
        } \
    } while (0)
    LOOK_UP(webp, MODALKIT_WEBP_SONAME, ConfigInitInternal);
    LOOK_UP(webp, MODALKIT_WEBP_SONAME, PictureInitInternal);
    LOOK_UP(webp, MODALKIT_WEBP_SONAME, PictureImportRGBA);
    LOOK_UP(webp, MODALKIT_WEBP_SONAME, PictureFree);
    LOOK_UP(webp, MODALKIT_WEBP_SONAME, Free);
    LOOK_UP(mux, MODALKIT_WEBPMUX_SONAME, AnimEncoderOptionsInitInternal);
    LOOK_UP(mux, MODALKIT_WEBPMUX_SONAME, AnimEncoderNewInternal);
    LOOK_UP(mux, MODALKIT_WEBPMUX_SONAME, AnimEncoderAdd);
    LOOK_UP(mux, MODALKIT_WEBPMUX_SONAME, AnimEncoderAssemble);
    LOOK_UP(mux, MODALKIT_WEBPMUX_SONAME, AnimEncoderGetError);
    LOOK_UP(mux, MODALKIT_WEBPMUX_SONAME, AnimEncoderDelete);
    LOOK_UP(demux, MODALKIT_WEBPDEMUX_SONAME, AnimDecoderOptionsInitInternal);
    LOOK_UP(demux, MODALKIT_WEBPDEMUX_SONAME, AnimDecoderNewInternal);
    LOOK_UP(demux, MODALKIT_WEBPDEMUX_SONAME, AnimDecoderGetInfo);
    LOOK_UP(demux, MODALKIT_WEBPDEMUX_SONAME, AnimDecoderGetNext);
    LOOK_UP(demux, MODALKIT_WEBPDEMUX_SONAME, AnimDecoderHasMoreFrames);
    LOOK_UP(demux, MODALKIT_WEBPDEMUX_SONAME, AnimDecoderDelete);
#undef LOOK_UP
    modalkit_webp = table;
    loaded = 1;
}

int modalkit_webp_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *modalkit_webp_load_error(void) {
    return error[0] ? error : NULL;
}

int modalkit_webp_config_init(WebPConfig *config) {
    return modalkit_webp.ConfigInitInternal(config, WEBP_PRESET_DEFAULT, 75.f, WEBP_ENCODER_ABI_VERSION);
}

int modalkit_webp_picture_init(WebPPicture *picture) {
    return modalkit_webp.PictureInitInternal(picture, WEBP_ENCODER_ABI_VERSION);
}

int modalkit_webp_anim_encoder_options_init(WebPAnimEncoderOptions *options) {
    return modalkit_webp.AnimEncoderOptionsInitInternal(options, WEBP_MUX_ABI_VERSION);
}

WebPAnimEncoder *modalkit_webp_anim_encoder_new(int width, int height, const WebPAnimEncoderOptions *options) {
    return modalkit_webp.AnimEncoderNewInternal(width, height, options, WEBP_MUX_ABI_VERSION);
}

int modalkit_webp_anim_decoder_options_init(WebPAnimDecoderOptions *options) {
    return modalkit_webp.AnimDecoderOptionsInitInternal(options, WEBP_DEMUX_ABI_VERSION);
}

WebPAnimDecoder *modalkit_webp_anim_decoder_new(const WebPData *webp_data, const WebPAnimDecoderOptions *options) {
    return modalkit_webp.AnimDecoderNewInternal(webp_data, options, WEBP_DEMUX_ABI_VERSION);
}

void modalkit_webp_data_clear(WebPData *data) {
    modalkit_webp.Free((void *)data->bytes);
    memset(data, 0, sizeof *data);
}
