// libjxl (JPEG XL) reports errors through return values and never longjmps (it is built
// without C++ exceptions escaping its C API), so Swift calls it directly: the decoder
// reads JPEG XL input, the encoder writes JPEG XL output. Both run on the calling thread
// (no parallel runner), so the bytes never depend on the machine's cores.
#include <stddef.h>
#include <stdint.h>
#include <jxl/decode.h>
#include <jxl/encode.h>
