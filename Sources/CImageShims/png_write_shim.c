// PNG encoding through libpng: 8-bit RGBA or gray, non-interlaced, one row at a time.
//
// Only IHDR, an optional iCCP, IDAT and IEND are written, with libpng's default
// adaptive filtering and a fixed zlib level, so the same pixels always give the same
// bytes.

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "shim_log.h"

struct hm_png_writer {
  png_structp png;
  png_infop info;
  FILE *file;
  jmp_buf jump;  // armed by every public function before it calls libpng
  hm_log log;
  int opened, finished;
  uint32_t height, rows_written;
  char icc_refusal[HM_MESSAGE_SIZE];  // why libpng refused the profile; "" when it did not
};

// The iCCP profile name; any fixed Latin-1 name of 1…79 characters would do.
#define HM_ICC_PROFILE_NAME "ICC profile"

static void on_error(png_structp png, png_const_charp text) {
  hm_png_writer *writer = png_get_error_ptr(png);
  hm_log_fail(&writer->log, HM_ERR_WRITE, text);
  longjmp(writer->jump, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
  hm_png_writer *writer = png_get_error_ptr(png);
  hm_log_warn(&writer->log, text);
}

// Our own writer instead of png_init_io, to report the system's reason (disk full).
static void write_data(png_structp png, png_bytep data, size_t length) {
  hm_png_writer *writer = png_get_io_ptr(png);
  if (fwrite(data, 1, length, writer->file) != length) png_error(png, strerror(errno));
}

static void flush_data(png_structp png) {
  hm_png_writer *writer = png_get_io_ptr(png);
  if (fflush(writer->file) != 0) png_error(png, strerror(errno));
}

// Sets `profile` to be written as iCCP if libpng accepts it, and records why not
// otherwise.
static void set_icc_profile(hm_png_writer *writer, const uint8_t *profile, size_t size) {
  if (size > 0xffffffffu) {
    snprintf(writer->icc_refusal, sizeof writer->icc_refusal,
             "ICC profile of %zu bytes is too large", size);
    return;
  }
  // libpng checks the profile's header here (length, signature, colour space against
  // the PNG's colour type) and reports problems as "application errors", which would
  // end the whole image. Allowed as warnings, a bad profile is simply not set, and
  // one whose only fault is what libpng itself calls "just a warning" (a PCS
  // illuminant other than D50, common in wide-gamut profiles) is written. This stays
  // on for the rest of the image; the row and IEND calls raise no such errors.
  png_set_benign_errors(writer->png, 1);
  // Matching libpng's list of known sRGB profiles would add gAMA and cHRM chunks for
  // them and refuse a few old ones; the profile is forwarded exactly as it came.
  png_set_option(writer->png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
  int warnings_before = hm_log_warning_count(&writer->log);
  png_set_iCCP(writer->png, writer->info, HM_ICC_PROFILE_NAME, PNG_COMPRESSION_TYPE_BASE,
               profile, (png_uint_32)size);
  if (png_get_valid(writer->png, writer->info, PNG_INFO_iCCP) == 0) {
    int warnings = hm_log_warning_count(&writer->log);
    const char *reason =
        warnings > warnings_before ? hm_log_warning(&writer->log, warnings - 1) : "refused";
    snprintf(writer->icc_refusal, sizeof writer->icc_refusal, "%s", reason);
  }
}

hm_png_writer *hm_png_writer_create(void) { return calloc(1, sizeof(hm_png_writer)); }

void hm_png_writer_destroy(hm_png_writer *writer) {
  if (writer == NULL) return;
  png_destroy_write_struct(&writer->png, &writer->info);
  free(writer);
}

hm_status hm_png_writer_open(hm_png_writer *writer, FILE *file, uint32_t width,
                             uint32_t height, int channels, int compression_level,
                             const uint8_t *icc_profile, size_t icc_profile_size,
                             char *message, size_t message_size) {
  if (writer->log.status != HM_OK) return hm_log_report(&writer->log, message, message_size);
  if (writer->opened) {
    hm_log_fail(&writer->log, HM_ERR_USAGE, "PNG writer opened twice");
    return hm_log_report(&writer->log, message, message_size);
  }
  writer->opened = 1;
  writer->file = file;
  writer->height = height;
  // Armed before png_create_write_struct because creation may already report errors.
  if (setjmp(writer->jump)) return hm_log_report(&writer->log, message, message_size);
  writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, writer, on_error, on_warning);
  if (writer->png != NULL) writer->info = png_create_info_struct(writer->png);
  if (writer->info == NULL) {
    hm_log_fail(&writer->log, HM_ERR_WRITE, "out of memory");
    return hm_log_report(&writer->log, message, message_size);
  }
  png_set_write_fn(writer->png, writer, write_data, flush_data);
  png_set_compression_level(writer->png, compression_level);
  int color_type = channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB_ALPHA;
  png_set_IHDR(writer->png, writer->info, width, height, 8, color_type,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (icc_profile != NULL) set_icc_profile(writer, icc_profile, icc_profile_size);
  png_write_info(writer->png, writer->info);
  return HM_OK;
}

hm_status hm_png_writer_write_row(hm_png_writer *writer, const uint8_t *row, char *message,
                                  size_t message_size) {
  if (writer->log.status != HM_OK) return hm_log_report(&writer->log, message, message_size);
  if (!writer->opened || writer->finished || writer->rows_written >= writer->height) {
    hm_log_fail(&writer->log, HM_ERR_USAGE, "more rows written than the image has");
    return hm_log_report(&writer->log, message, message_size);
  }
  if (setjmp(writer->jump)) return hm_log_report(&writer->log, message, message_size);
  png_write_row(writer->png, row);
  writer->rows_written++;
  return HM_OK;
}

hm_status hm_png_writer_finish(hm_png_writer *writer, char *message, size_t message_size) {
  if (writer->log.status != HM_OK) return hm_log_report(&writer->log, message, message_size);
  if (!writer->opened || writer->finished || writer->rows_written != writer->height) {
    char text[HM_MESSAGE_SIZE];
    snprintf(text, sizeof text, "only %u of %u rows were written", writer->rows_written,
             writer->height);
    hm_log_fail(&writer->log, HM_ERR_USAGE, text);
    return hm_log_report(&writer->log, message, message_size);
  }
  writer->finished = 1;
  if (setjmp(writer->jump)) return hm_log_report(&writer->log, message, message_size);
  png_write_end(writer->png, writer->info);
  // stdio buffers: a full disk often shows only here.
  if (fflush(writer->file) != 0 || ferror(writer->file)) {
    hm_log_fail(&writer->log, HM_ERR_WRITE, strerror(errno));
    return hm_log_report(&writer->log, message, message_size);
  }
  return HM_OK;
}

const char *hm_png_writer_icc_refusal(const hm_png_writer *writer) {
  return writer->icc_refusal;
}
