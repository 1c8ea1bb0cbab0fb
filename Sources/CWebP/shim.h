// libwebp reports errors through return values and never longjmps, so Swift calls it
// directly: the decoder reads WebP input, the encoder and mux write WebP output.
#include <stddef.h>
#include <stdint.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/mux.h>
#include <webp/demux.h>
