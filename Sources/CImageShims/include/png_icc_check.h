#ifndef PNG_ICC_CHECK_H
#define PNG_ICC_CHECK_H

// libpng's checks of an ICC profile, for encoders that write the iCCP chunk themselves:
// a profile these accept is one libpng's reader gives back unchanged.

#include <stddef.h>
#include <stdint.h>

// Returns 1 when libpng would write `profile` as the iCCP chunk of an 8-bit PNG of the
// given colour type (`gray` nonzero: colour type 0, else 6), with the same relaxed
// checks libpng applies when writing (benign errors allowed, no sRGB-profile rewrite). Returns 0 otherwise and puts libpng's reason (e.g.
// "profile 'ICC profile': 'GRAY': Gray color space not permitted on RGB PNG") into
// `reason`. Never longjmps to the caller.
int hm_png_icc_profile_check(const uint8_t *profile, size_t size, int gray, char *reason,
                             size_t reason_size);

#endif
