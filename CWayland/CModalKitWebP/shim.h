/* libwebp (Debian libwebp-dev): the encoder, the animation encoder (libwebpmux's
 * WebPAnimEncoder) for `modal-demo preview`, and the animation decoder (libwebpdemux's
 * WebPAnimDecoder) with which tests read the previews back. */
#include <webp/encode.h>
#include <webp/decode.h>
#include <webp/mux.h>
#include <webp/demux.h>
