// libpng's ICC profile checks without writing anything: png_set_iCCP on a throwaway
// write struct. hexmask writes PNG itself (Encoding/FastPNG), but a profile libpng's
// reader would refuse must not be written, so libpng decides, in its own words.

#include <png.h>
#include <setjmp.h>
#include <stdio.h>

#include "png_icc_check.h"
#include "shim_log.h"

// Must match the name the encoders write.
#define HM_ICC_PROFILE_NAME "ICC profile"

typedef struct icc_check {
  jmp_buf jump;
  hm_log log;
} icc_check;

static void on_error(png_structp png, png_const_charp text) {
  icc_check *check = png_get_error_ptr(png);
  hm_log_fail(&check->log, HM_ERR_USAGE, text);
  longjmp(check->jump, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
  icc_check *check = png_get_error_ptr(png);
  hm_log_warn(&check->log, text);
}

int hm_png_icc_profile_check(const uint8_t *profile, size_t size, int gray, char *reason,
                             size_t reason_size) {
  if (reason_size > 0) reason[0] = 0;
  if (size > 0xffffffffu) {
    snprintf(reason, reason_size, "ICC profile of %zu bytes is too large", size);
    return 0;
  }
  icc_check check = {0};
  // volatile: read after the longjmp.
  png_structp volatile png = NULL;
  png_infop volatile info = NULL;
  int volatile accepted = 0;
  if (setjmp(check.jump) == 0) {
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &check, on_error, on_warning);
    if (png != NULL) info = png_create_info_struct(png);
    if (info == NULL) {
      snprintf(reason, reason_size, "out of memory");
    } else {
      png_set_IHDR(png, info, 1, 1, 8, gray ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB_ALPHA,
                   PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
      png_set_benign_errors(png, 1);
      png_set_option(png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
      png_set_iCCP(png, info, HM_ICC_PROFILE_NAME, PNG_COMPRESSION_TYPE_BASE, profile,
                   (png_uint_32)size);
      accepted = png_get_valid(png, info, PNG_INFO_iCCP) != 0;
      if (!accepted) {
        int count = hm_log_warning_count(&check.log);
        snprintf(reason, reason_size, "%s",
                 count > 0 ? hm_log_warning(&check.log, count - 1) : "refused");
      }
    }
  } else {
    snprintf(reason, reason_size, "%s", check.log.error);
  }
  png_structp png_copy = png;
  png_infop info_copy = info;
  png_destroy_write_struct(&png_copy, &info_copy);
  return accepted;
}
