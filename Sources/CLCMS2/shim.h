// Little CMS 2 reports errors through return values and a per-context log handler and never
// longjmps, so Swift calls it directly.
#include <lcms2.h>

// lcms2's pixel-format macros are built from function-like macros (COLORSPACE_SH, CHANNELS_SH,
// ...), which Swift cannot import; these constants carry the ones hexmask uses.
static const cmsUInt32Number hexmask_TYPE_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number hexmask_TYPE_GRAY_8 = TYPE_GRAY_8;
static const cmsUInt32Number hexmask_TYPE_CMYK_8 = TYPE_CMYK_8;
// Adobe's inverted CMYK (255 − ink), as an APP14 "Adobe" JPEG stores it.
static const cmsUInt32Number hexmask_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
