// PNG decoding through libpng, to 8-bit straight RGBA, one row at a time.
//
// No gamma transform: like most web tools we pass sample values through unchanged;
// gAMA, sRGB and cHRM are ignored (the ICC profile is the pipeline's business).

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "shim_log.h"

// Ancillary chunks (iCCP, text, eXIf) larger than this are refused rather than
// allocated: a 20-byte header must not be able to ask for gigabytes.
#define HM_PNG_CHUNK_MALLOC_MAX (16u << 20)
// Limits how many ancillary chunks libpng keeps; a file with millions of tiny text
// chunks would otherwise grow without bound.
#define HM_PNG_CHUNK_CACHE_MAX 1000

struct hm_png_reader {
  png_structp png;
  png_infop info;
  FILE *file;
  jmp_buf jump;  // armed by every public function before it calls libpng
  hm_log log;
  hm_status read_failure;  // set by read_data just before png_error, to classify it
  int hit_user_limit;      // libpng only warns about the limit, then fails the IHDR
  char last_ihdr_warning[HM_MESSAGE_SIZE];
  int opened, started;
  uint32_t width, height;
  int interlaced;
  uint32_t next_row;
  size_t row_bytes;
  uint8_t *image;        // Adam7 only: the format spreads each row over seven passes
  png_bytep *image_rows;  // row pointers into `image`, for png_read_image
  // eXIf and iCCP as libpng kept them (owned by `info`); NULL when absent or refused.
  const uint8_t *exif, *icc;
  uint32_t exif_size, icc_size;
  // Bytes the caller read past the signature (looking for an animation), read again first.
  uint8_t *replay;
  size_t replay_size, replay_used;
};

static void on_error(png_structp png, png_const_charp text) {
  hm_png_reader *reader = png_get_error_ptr(png);
  hm_status status = HM_ERR_CORRUPT;
  if (reader->read_failure != HM_OK) {
    status = reader->read_failure;
  } else if (reader->hit_user_limit) {
    status = HM_ERR_TOO_LARGE;
  }
  // libpng warns what is wrong with an IHDR ("Invalid bit depth in IHDR"), then fails
  // with a generic "Invalid IHDR data"; the warning is the useful message.
  if (strcmp(text, "Invalid IHDR data") == 0 && reader->last_ihdr_warning[0] != '\0') {
    text = reader->last_ihdr_warning;
  }
  hm_log_fail(&reader->log, status, text);
  longjmp(reader->jump, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
  hm_png_reader *reader = png_get_error_ptr(png);
  if (strstr(text, "exceeds user limit") != NULL) reader->hit_user_limit = 1;
  if (strstr(text, "IHDR") != NULL) {
    snprintf(reader->last_ihdr_warning, sizeof reader->last_ihdr_warning, "%s", text);
  }
  // libpng only warns about an ancillary chunk longer than png_set_chunk_malloc_max
  // and then may still allocate its declared size (up to 2 GiB for a 57-byte file).
  // Stopping here is what the limit is for.
  if (strstr(text, "chunk data is too large") != NULL) {
    hm_log_fail(&reader->log, HM_ERR_CORRUPT, text);
    longjmp(reader->jump, 1);
  }
  hm_log_warn(&reader->log, text);
}

// Our own reader instead of png_init_io, to tell a short file from a failing disk.
static void read_data(png_structp png, png_bytep data, size_t length) {
  hm_png_reader *reader = png_get_io_ptr(png);
  size_t replayed = reader->replay_size - reader->replay_used;
  if (replayed > length) replayed = length;
  if (replayed > 0) {
    memcpy(data, reader->replay + reader->replay_used, replayed);
    reader->replay_used += replayed;
    data += replayed;
    length -= replayed;
    if (length == 0) return;
  }
  if (fread(data, 1, length, reader->file) == length) return;
  if (ferror(reader->file)) {
    int error = errno;
    reader->read_failure = HM_ERR_READ;
    png_error(png, strerror(error));
  }
  reader->read_failure = HM_ERR_TRUNCATED;
  png_error(png, "unexpected end of file");
}

hm_png_reader *hm_png_reader_create(void) { return calloc(1, sizeof(hm_png_reader)); }

void hm_png_reader_destroy(hm_png_reader *reader) {
  if (reader == NULL) return;
  png_destroy_read_struct(&reader->png, &reader->info, NULL);
  free(reader->image_rows);
  free(reader->image);
  free(reader->replay);
  free(reader);
}

int hm_png_reader_replay(hm_png_reader *reader, const uint8_t *bytes, size_t size) {
  if (reader->opened || reader->replay != NULL) return 0;
  if (size == 0) return 1;
  reader->replay = malloc(size);
  if (reader->replay == NULL) return 0;
  memcpy(reader->replay, bytes, size);
  reader->replay_size = size;
  return 1;
}

hm_status hm_png_reader_open(hm_png_reader *reader, FILE *file, int signature_bytes,
                             uint32_t max_side, char *message, size_t message_size) {
  if (reader->log.status != HM_OK) return hm_log_report(&reader->log, message, message_size);
  if (reader->opened) {
    hm_log_fail(&reader->log, HM_ERR_USAGE, "PNG reader opened twice");
    return hm_log_report(&reader->log, message, message_size);
  }
  reader->opened = 1;
  reader->file = file;
  // Armed before png_create_read_struct because creation may already report errors.
  if (setjmp(reader->jump)) {
    // The IHDR handler stores the size before checking it, so a refused size can
    // still be named in the error message.
    if (reader->png != NULL && reader->info != NULL) {
      reader->width = png_get_image_width(reader->png, reader->info);
      reader->height = png_get_image_height(reader->png, reader->info);
    }
    return hm_log_report(&reader->log, message, message_size);
  }
  reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, on_error, on_warning);
  if (reader->png != NULL) reader->info = png_create_info_struct(reader->png);
  if (reader->info == NULL) {
    hm_log_fail(&reader->log, HM_ERR_TOO_LARGE, "out of memory");
    return hm_log_report(&reader->log, message, message_size);
  }
  png_set_read_fn(reader->png, reader, read_data);
  png_set_sig_bytes(reader->png, signature_bytes);
  png_set_user_limits(reader->png, max_side, max_side);
  png_set_chunk_cache_max(reader->png, HM_PNG_CHUNK_CACHE_MAX);
  png_set_chunk_malloc_max(reader->png, HM_PNG_CHUNK_MALLOC_MAX);
  // libpng refuses a few old sRGB profiles it knows to be slightly wrong; viewers use
  // them all the same, and the profile is forwarded as it came, like any other.
  png_set_option(reader->png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
  // hexmask ignores sRGB chunks; read, one placed before an iCCP makes libpng drop the
  // profile ("too many profiles"), leaving the picture's numbers with nothing to say
  // what they are. Skipped, the iCCP is read whatever the order.
  static const png_byte srgb_chunk[] = {'s', 'R', 'G', 'B', '\0'};
  png_set_keep_unknown_chunks(reader->png, PNG_HANDLE_CHUNK_NEVER, srgb_chunk, 1);
  png_read_info(reader->png, reader->info);
  reader->width = png_get_image_width(reader->png, reader->info);
  reader->height = png_get_image_height(reader->png, reader->info);
  reader->interlaced = png_get_interlace_type(reader->png, reader->info) != PNG_INTERLACE_NONE;
  // libpng has already checked both: a damaged eXIf or iCCP is dropped with a warning.
  png_bytep exif = NULL;
  png_uint_32 exif_size = 0;
  if (png_get_eXIf_1(reader->png, reader->info, &exif_size, &exif) != 0 && exif != NULL) {
    reader->exif = exif;
    reader->exif_size = exif_size;
  }
  png_charp name = NULL;
  int compression = 0;
  png_bytep icc = NULL;
  png_uint_32 icc_size = 0;
  if (png_get_iCCP(reader->png, reader->info, &name, &compression, &icc, &icc_size) != 0 &&
      icc != NULL) {
    reader->icc = icc;
    reader->icc_size = icc_size;
  }
  return HM_OK;
}

uint32_t hm_png_reader_width(const hm_png_reader *reader) { return reader->width; }

const uint8_t *hm_png_reader_exif(const hm_png_reader *reader, size_t *size) {
  *size = reader->exif_size;
  return reader->exif;
}

const uint8_t *hm_png_reader_icc(const hm_png_reader *reader, size_t *size) {
  *size = reader->icc_size;
  return reader->icc;
}
uint32_t hm_png_reader_height(const hm_png_reader *reader) { return reader->height; }

int hm_png_reader_interlaced(const hm_png_reader *reader) { return reader->interlaced; }

int hm_png_reader_gray(const hm_png_reader *reader) {
  if (reader->png == NULL || reader->info == NULL) return 0;
  return (png_get_color_type(reader->png, reader->info) & PNG_COLOR_MASK_COLOR) == 0;
}

hm_status hm_png_reader_start(hm_png_reader *reader, char *message, size_t message_size) {
  if (reader->log.status != HM_OK) return hm_log_report(&reader->log, message, message_size);
  if (!reader->opened || reader->started) {
    hm_log_fail(&reader->log, HM_ERR_USAGE, "PNG reader started out of order");
    return hm_log_report(&reader->log, message, message_size);
  }
  reader->started = 1;
  if (setjmp(reader->jump)) return hm_log_report(&reader->log, message, message_size);
  // libpng applies these in its own fixed order: palette and tRNS expansion, 16 → 8
  // bits with rounding (scale, not strip), gray → RGB, then an opaque alpha channel
  // for the types that still lack one.
  png_set_expand(reader->png);
  png_set_scale_16(reader->png);
  png_set_gray_to_rgb(reader->png);
  png_set_add_alpha(reader->png, 0xff, PNG_FILLER_AFTER);
  (void)png_set_interlace_handling(reader->png);
  png_read_update_info(reader->png, reader->info);
  reader->row_bytes = (size_t)reader->width * 4;
  if (png_get_bit_depth(reader->png, reader->info) != 8 ||
      png_get_channels(reader->png, reader->info) != 4 ||
      png_get_rowbytes(reader->png, reader->info) != reader->row_bytes) {
    hm_log_fail(&reader->log, HM_ERR_UNSUPPORTED, "libpng could not convert this image to RGBA");
    return hm_log_report(&reader->log, message, message_size);
  }
  return HM_OK;
}

// Adam7 spreads every row over seven passes, so the whole image has to be decoded
// before the first row is complete.
static void read_interlaced_image(hm_png_reader *reader) {
  if (reader->height > SIZE_MAX / reader->row_bytes) {
    hm_log_fail(&reader->log, HM_ERR_TOO_LARGE, "interlaced image too large for memory");
    return;
  }
  reader->image = malloc(reader->row_bytes * reader->height);
  reader->image_rows = malloc(sizeof(png_bytep) * reader->height);
  if (reader->image == NULL || reader->image_rows == NULL) {
    hm_log_fail(&reader->log, HM_ERR_TOO_LARGE, "not enough memory for an interlaced image");
    return;
  }
  for (uint32_t y = 0; y < reader->height; y++) {
    reader->image_rows[y] = reader->image + (size_t)y * reader->row_bytes;
  }
  png_read_image(reader->png, reader->image_rows);
  png_read_end(reader->png, reader->info);
}

hm_status hm_png_reader_read_row(hm_png_reader *reader, uint8_t *row, char *message,
                                 size_t message_size) {
  if (reader->log.status != HM_OK) return hm_log_report(&reader->log, message, message_size);
  if (!reader->started || reader->next_row >= reader->height) {
    hm_log_fail(&reader->log, HM_ERR_USAGE, "read past the last row of the image");
    return hm_log_report(&reader->log, message, message_size);
  }
  if (setjmp(reader->jump)) return hm_log_report(&reader->log, message, message_size);
  if (reader->interlaced) {
    if (reader->image == NULL) {
      read_interlaced_image(reader);
      if (reader->log.status != HM_OK) return hm_log_report(&reader->log, message, message_size);
    }
    memcpy(row, reader->image_rows[reader->next_row], reader->row_bytes);
  } else {
    png_read_row(reader->png, row, NULL);
  }
  reader->next_row++;
  // The zlib checksum and the chunks after the image data come only after the last
  // row; reading them here makes a damaged end an error rather than silent.
  if (!reader->interlaced && reader->next_row == reader->height) {
    png_read_end(reader->png, reader->info);
  }
  return HM_OK;
}

int hm_png_reader_warning_count(const hm_png_reader *reader) {
  return hm_log_warning_count(&reader->log);
}

const char *hm_png_reader_warning(const hm_png_reader *reader, int index) {
  return hm_log_warning(&reader->log, index);
}
