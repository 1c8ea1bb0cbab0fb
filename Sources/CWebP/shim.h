// libwebp reports errors through return values and never longjmps, so Swift calls it
// directly. The decoder is here for the tests, which read back what was written.
#include <stddef.h>
#include <stdint.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/mux.h>
