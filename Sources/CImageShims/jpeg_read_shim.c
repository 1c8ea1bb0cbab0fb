// JPEG decoding through libjpeg-turbo, to RGBA (alpha 0xFF), one scanline at a time,
// or to raw CMYK for CMYK and YCCK files (the Swift side converts those rows).
//
// libjpeg's default error handler prints and calls exit(); ours records the message
// and longjmps back to the public function that made the call. Warnings (corrupt data
// libjpeg works around) are recorded instead of printed.

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "shim_log.h"
// jpeglib.h needs FILE and size_t declared before it; jerror.h needs jpeglib.h.
#include <jpeglib.h>
#include <jerror.h>

// Bytes the caller may have consumed while sniffing the format.
#define HM_JPEG_PREFIX_MAX 16

typedef struct hm_jpeg_source {
  struct jpeg_source_mgr pub;
  FILE *file;
  uint8_t prefix[HM_JPEG_PREFIX_MAX];
  size_t prefix_size;
  int prefix_served;
  int warned_eof;
  int read_errno;
  JOCTET buffer[4096];
} hm_jpeg_source;

// ICC profiles are split into APP2 segments numbered 1…255, so 255 is the most a
// well-formed file needs; one more lets the caller see there were too many.
#define HM_JPEG_ICC_SEGMENTS_MAX 256

typedef struct hm_jpeg_segment {
  uint8_t *data;
  size_t size;
} hm_jpeg_segment;

// What the APP1 and APP2 markers before the first scan held. Each marker is at most
// 65533 bytes, and at most one EXIF block and HM_JPEG_ICC_SEGMENTS_MAX ICC segments
// are kept, so a file of endless markers cannot grow memory without bound.
typedef struct hm_jpeg_metadata {
  hm_jpeg_segment exif;
  hm_jpeg_segment icc[HM_JPEG_ICC_SEGMENTS_MAX];
  int icc_count;
  int icc_overflow;
} hm_jpeg_metadata;

struct hm_jpeg_reader {
  struct jpeg_decompress_struct cinfo;
  struct jpeg_error_mgr errors;
  hm_jpeg_source source;
  jmp_buf jump;  // armed by every public function before it calls libjpeg
  hm_log log;
  int opened, started;
  uint32_t rows_read;
  int finishing;  // errors after the last row are demoted to warnings
  hm_jpeg_color color;
  hm_jpeg_metadata metadata;
};

static int is_lossless_sof(int marker) {
  return marker == 0xc3 || marker == 0xc7 || marker == 0xcb || marker == 0xcf;
}

// Turns libjpeg's message code into a status, rewording the ones a user can act on.
static hm_status classify(j_common_ptr cinfo, const hm_jpeg_reader *reader, char *text,
                          size_t text_size) {
  struct jpeg_error_mgr *errors = cinfo->err;
  switch (errors->msg_code) {
  case JERR_BAD_PRECISION:
    snprintf(text, text_size, "%d-bit JPEG is not supported", errors->msg_parm.i[0]);
    return HM_ERR_UNSUPPORTED;
  case JERR_SOF_UNSUPPORTED:
    if (is_lossless_sof(errors->msg_parm.i[0])) {
      snprintf(text, text_size, "lossless JPEG is not supported");
    } else {
      snprintf(text, text_size, "JPEG process (SOF 0x%02x) is not supported",
               errors->msg_parm.i[0]);
    }
    return HM_ERR_UNSUPPORTED;
  case JERR_NOT_COMPILED:
  case JERR_ARITH_NOTIMPL:
  case JERR_NOTIMPL:
  case JERR_CONVERSION_NOTIMPL:
    errors->format_message(cinfo, text);
    return HM_ERR_UNSUPPORTED;
  case JERR_IMAGE_TOO_BIG:
  case JERR_WIDTH_OVERFLOW:
  case JERR_OUT_OF_MEMORY:
  case JERR_NO_BACKING_STORE:  // past hm_jpeg_reader_limit_memory
    errors->format_message(cinfo, text);
    return HM_ERR_TOO_LARGE;
  case JERR_FILE_READ:
    snprintf(text, text_size, "%s", strerror(reader->source.read_errno));
    return HM_ERR_READ;
  case JERR_INPUT_EMPTY:
    errors->format_message(cinfo, text);
    return HM_ERR_TRUNCATED;
  default:
    errors->format_message(cinfo, text);
    return HM_ERR_CORRUPT;
  }
}

static void error_exit(j_common_ptr cinfo) {
  hm_jpeg_reader *reader = cinfo->client_data;
  char text[JMSG_LENGTH_MAX > HM_MESSAGE_SIZE ? JMSG_LENGTH_MAX : HM_MESSAGE_SIZE];
  hm_status status = classify(cinfo, reader, text, sizeof text);
  if (reader->finishing) {
    hm_log_warn(&reader->log, text);
  } else {
    hm_log_fail(&reader->log, status, text);
  }
  longjmp(reader->jump, 1);
}

static void output_message(j_common_ptr cinfo) {
  hm_jpeg_reader *reader = cinfo->client_data;
  char text[JMSG_LENGTH_MAX];
  cinfo->err->format_message(cinfo, text);
  hm_log_warn(&reader->log, text);
}

// Keeps every warning (level < 0), not only the first as libjpeg's default does, and
// drops trace messages.
static void emit_message(j_common_ptr cinfo, int level) {
  if (level >= 0) return;
  cinfo->err->num_warnings++;
  output_message(cinfo);
}

static void init_source(j_decompress_ptr cinfo) { (void)cinfo; }
static void term_source(j_decompress_ptr cinfo) { (void)cinfo; }

// Serves the sniffed prefix first, then the file. At the end of the data it behaves
// like libjpeg's own stdio source: warn and insert an EOI marker, so a truncated file
// decodes (its missing part gray) instead of failing.
static boolean fill_input_buffer(j_decompress_ptr cinfo) {
  hm_jpeg_reader *reader = cinfo->client_data;
  hm_jpeg_source *source = &reader->source;
  size_t count;
  if (!source->prefix_served && source->prefix_size > 0) {
    memcpy(source->buffer, source->prefix, source->prefix_size);
    count = source->prefix_size;
    source->prefix_served = 1;
  } else {
    count = fread(source->buffer, 1, sizeof source->buffer, source->file);
  }
  if (count == 0) {
    if (ferror(source->file)) {
      source->read_errno = errno;
      ERREXIT(cinfo, JERR_FILE_READ);
    }
    if (!source->warned_eof) WARNMS(cinfo, JWRN_JPEG_EOF);
    source->warned_eof = 1;
    source->buffer[0] = (JOCTET)0xFF;
    source->buffer[1] = (JOCTET)JPEG_EOI;
    count = 2;
  }
  source->pub.next_input_byte = source->buffer;
  source->pub.bytes_in_buffer = count;
  return TRUE;
}

static void skip_input_data(j_decompress_ptr cinfo, long byte_count) {
  struct jpeg_source_mgr *source = cinfo->src;
  if (byte_count <= 0) return;
  while (byte_count > (long)source->bytes_in_buffer) {
    byte_count -= (long)source->bytes_in_buffer;
    (void)fill_input_buffer(cinfo);
  }
  source->next_input_byte += byte_count;
  source->bytes_in_buffer -= (size_t)byte_count;
}

// MARK: Metadata markers

// Our source never suspends (it inserts an EOI at the end of the data instead), so
// a marker processor may read byte by byte without libjpeg's suspension protocol.
static uint8_t next_byte(j_decompress_ptr cinfo) {
  struct jpeg_source_mgr *source = cinfo->src;
  if (source->bytes_in_buffer == 0) (void)source->fill_input_buffer(cinfo);
  source->bytes_in_buffer--;
  return *source->next_input_byte++;
}

// Reads the next `size` bytes of the current marker into `segment`. The memory is
// owned by `segment` before any byte is read, so a read error that longjmps out of
// here leaks nothing.
static void read_segment(j_decompress_ptr cinfo, hm_jpeg_segment *segment, size_t size) {
  segment->data = malloc(size > 0 ? size : 1);
  if (segment->data == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
  segment->size = size;
  for (size_t i = 0; i < size; i++) segment->data[i] = next_byte(cinfo);
}

// Reads the marker's payload up to `size` bytes and reports whether it starts with
// `tag`; `*consumed` is how many bytes were read.
static int read_tag(j_decompress_ptr cinfo, const char *tag, size_t tag_size, size_t size,
                    size_t *consumed) {
  int match = size >= tag_size;
  size_t count = size < tag_size ? size : tag_size;
  for (size_t i = 0; i < count; i++) {
    if (next_byte(cinfo) != (uint8_t)tag[i]) match = 0;
  }
  *consumed = count;
  return match;
}

// Keeps the first "Exif\0\0" APP1 payload and every "ICC_PROFILE\0" APP2 payload (its
// sequence number, count and bytes), and skips everything else, such as XMP. Used
// instead of jpeg_save_markers, which can limit the size of each marker but not their
// number. Like jpeg_read_header, this sees every marker up to the first scan,
// including an APP2 after the frame header.
static boolean read_metadata_marker(j_decompress_ptr cinfo) {
  hm_jpeg_reader *reader = cinfo->client_data;
  hm_jpeg_metadata *metadata = &reader->metadata;
  size_t length = (size_t)next_byte(cinfo) << 8;
  length += next_byte(cinfo);
  // The length counts its own two bytes; libjpeg's save_marker reads a smaller one as 0.
  size_t size = length >= 2 ? length - 2 : 0;
  size_t consumed = 0;
  if (cinfo->unread_marker == JPEG_APP0 + 1) {
    if (read_tag(cinfo, "Exif\0\0", 6, size, &consumed) && metadata->exif.data == NULL &&
        size > consumed) {
      read_segment(cinfo, &metadata->exif, size - consumed);
      consumed = size;
    }
  } else if (read_tag(cinfo, "ICC_PROFILE\0", 12, size, &consumed)) {
    if (metadata->icc_count < HM_JPEG_ICC_SEGMENTS_MAX) {
      metadata->icc_count++;
      read_segment(cinfo, &metadata->icc[metadata->icc_count - 1], size - consumed);
      consumed = size;
    } else {
      metadata->icc_overflow = 1;
    }
  }
  if (size > consumed) cinfo->src->skip_input_data(cinfo, (long)(size - consumed));
  return TRUE;
}

static void free_metadata(hm_jpeg_metadata *metadata) {
  free(metadata->exif.data);
  for (int i = 0; i < metadata->icc_count; i++) free(metadata->icc[i].data);
}

hm_jpeg_reader *hm_jpeg_reader_create(void) {
  hm_jpeg_reader *reader = calloc(1, sizeof(hm_jpeg_reader));
  if (reader == NULL) return NULL;
  reader->cinfo.err = jpeg_std_error(&reader->errors);
  reader->errors.error_exit = error_exit;
  reader->errors.emit_message = emit_message;
  reader->errors.output_message = output_message;
  reader->cinfo.client_data = reader;
  return reader;
}

void hm_jpeg_reader_destroy(hm_jpeg_reader *reader) {
  if (reader == NULL) return;
  // Safe in every state: a never-created or half-created decompressor has no memory
  // manager, and jpeg_destroy then does nothing.
  jpeg_destroy_decompress(&reader->cinfo);
  free_metadata(&reader->metadata);
  free(reader);
}

hm_status hm_jpeg_reader_open(hm_jpeg_reader *reader, FILE *file, const uint8_t *prefix,
                              size_t prefix_size, char *message, size_t message_size) {
  if (reader->log.status != HM_OK) return hm_log_report(&reader->log, message, message_size);
  if (reader->opened || prefix_size > HM_JPEG_PREFIX_MAX) {
    hm_log_fail(&reader->log, HM_ERR_USAGE, "JPEG reader opened twice or with a long prefix");
    return hm_log_report(&reader->log, message, message_size);
  }
  reader->opened = 1;
  if (setjmp(reader->jump)) return hm_log_report(&reader->log, message, message_size);
  jpeg_create_decompress(&reader->cinfo);

  hm_jpeg_source *source = &reader->source;
  source->file = file;
  if (prefix_size > 0) memcpy(source->prefix, prefix, prefix_size);
  source->prefix_size = prefix_size;
  source->pub.init_source = init_source;
  source->pub.fill_input_buffer = fill_input_buffer;
  source->pub.skip_input_data = skip_input_data;
  source->pub.resync_to_restart = jpeg_resync_to_restart;
  source->pub.term_source = term_source;
  source->pub.bytes_in_buffer = 0;
  source->pub.next_input_byte = NULL;
  reader->cinfo.src = &source->pub;
  jpeg_set_marker_processor(&reader->cinfo, JPEG_APP0 + 1, read_metadata_marker);
  jpeg_set_marker_processor(&reader->cinfo, JPEG_APP0 + 2, read_metadata_marker);

  (void)jpeg_read_header(&reader->cinfo, TRUE);
  switch (reader->cinfo.jpeg_color_space) {
  case JCS_CMYK:
  case JCS_YCCK:
    // libjpeg turns YCCK into CMYK itself, but has no CMYK → RGB conversion.
    reader->cinfo.out_color_space = JCS_CMYK;
    // Photoshop, which writes the Adobe marker, stores CMYK inverted (0 = full ink).
    reader->color = reader->cinfo.saw_Adobe_marker ? HM_JPEG_CMYK_INVERTED : HM_JPEG_CMYK;
    break;
  default:
    // libjpeg-turbo converts YCbCr, RGB and grayscale input to this directly.
    reader->cinfo.out_color_space = JCS_EXT_RGBA;
    reader->color = HM_JPEG_RGBA;
  }
  return HM_OK;
}

uint32_t hm_jpeg_reader_width(const hm_jpeg_reader *reader) { return reader->cinfo.image_width; }
uint32_t hm_jpeg_reader_height(const hm_jpeg_reader *reader) {
  return reader->cinfo.image_height;
}

uint32_t hm_jpeg_reader_output_width(const hm_jpeg_reader *reader) {
  return reader->cinfo.output_width;
}
uint32_t hm_jpeg_reader_output_height(const hm_jpeg_reader *reader) {
  return reader->cinfo.output_height;
}

size_t hm_jpeg_reader_whole_bytes(const hm_jpeg_reader *reader) {
  const struct jpeg_decompress_struct *cinfo = &reader->cinfo;
  if (!reader->opened || reader->log.status != HM_OK) return 0;
  // libjpeg's own rule (jdinput.c) for a coefficient buffer of the whole image.
  if (!cinfo->progressive_mode && cinfo->comps_in_scan >= cinfo->num_components) return 0;
  size_t total = 0;
  for (int index = 0; index < cinfo->num_components; index++) {
    const jpeg_component_info *component = &cinfo->comp_info[index];
    size_t h = (size_t)component->h_samp_factor, v = (size_t)component->v_samp_factor;
    // As jdinput.c's initial_setup and jdcoefct.c's request_virt_barray compute them.
    size_t columns = ((size_t)cinfo->image_width * h + (size_t)cinfo->max_h_samp_factor * 8 - 1) /
                     ((size_t)cinfo->max_h_samp_factor * 8);
    size_t rows = ((size_t)cinfo->image_height * v + (size_t)cinfo->max_v_samp_factor * 8 - 1) /
                  ((size_t)cinfo->max_v_samp_factor * 8);
    columns = (columns + h - 1) / h * h;
    rows = (rows + v - 1) / v * v;
    total += columns * rows * 64 * sizeof(JCOEF);
  }
  return total;
}

void hm_jpeg_reader_limit_memory(hm_jpeg_reader *reader, size_t bytes) {
  if (!reader->opened || reader->log.status != HM_OK) return;
  reader->cinfo.mem->max_memory_to_use = bytes > (size_t)LONG_MAX ? LONG_MAX : (long)bytes;
}

hm_status hm_jpeg_reader_start(hm_jpeg_reader *reader, unsigned int scale_denom, char *message,
                               size_t message_size) {
  if (reader->log.status != HM_OK) return hm_log_report(&reader->log, message, message_size);
  if (!reader->opened || reader->started) {
    hm_log_fail(&reader->log, HM_ERR_USAGE, "JPEG reader started out of order");
    return hm_log_report(&reader->log, message, message_size);
  }
  reader->started = 1;
  if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) {
    hm_log_fail(&reader->log, HM_ERR_USAGE, "JPEG scale must be 1/1, 1/2, 1/4 or 1/8");
    return hm_log_report(&reader->log, message, message_size);
  }
  if (setjmp(reader->jump)) return hm_log_report(&reader->log, message, message_size);
  // libjpeg scales in the inverse DCT: each 8×8 block becomes (8/denom)² pixels, far
  // cheaper than decoding every pixel and filtering them away.
  reader->cinfo.scale_num = 1;
  reader->cinfo.scale_denom = scale_denom;
  (void)jpeg_start_decompress(&reader->cinfo);
  uint32_t width = (reader->cinfo.image_width + scale_denom - 1) / scale_denom;
  uint32_t height = (reader->cinfo.image_height + scale_denom - 1) / scale_denom;
  // RGBA and CMYK both have four bytes per pixel, so the caller's row fits either.
  if (reader->cinfo.output_components != 4 || reader->cinfo.output_width != width ||
      reader->cinfo.output_height != height) {
    hm_log_fail(&reader->log, HM_ERR_UNSUPPORTED, "libjpeg could not convert this image to RGBA");
    return hm_log_report(&reader->log, message, message_size);
  }
  return HM_OK;
}

// Every pixel has been delivered; what follows the last scan (up to EOI) can only
// produce complaints, which become warnings.
static void finish_quietly(hm_jpeg_reader *reader) {
  reader->finishing = 1;
  if (setjmp(reader->jump) == 0) (void)jpeg_finish_decompress(&reader->cinfo);
  reader->finishing = 0;
}

hm_status hm_jpeg_reader_read_row(hm_jpeg_reader *reader, uint8_t *row, char *message,
                                  size_t message_size) {
  if (reader->log.status != HM_OK) return hm_log_report(&reader->log, message, message_size);
  if (!reader->started || reader->rows_read >= reader->cinfo.output_height) {
    hm_log_fail(&reader->log, HM_ERR_USAGE, "read past the last row of the image");
    return hm_log_report(&reader->log, message, message_size);
  }
  if (setjmp(reader->jump)) return hm_log_report(&reader->log, message, message_size);
  JSAMPROW rows[1] = {row};
  // Our source never suspends, so libjpeg always returns the one row asked for.
  if (jpeg_read_scanlines(&reader->cinfo, rows, 1) != 1) {
    hm_log_fail(&reader->log, HM_ERR_CORRUPT, "decoder returned no row");
    return hm_log_report(&reader->log, message, message_size);
  }
  reader->rows_read++;
  if (reader->rows_read == reader->cinfo.output_height) finish_quietly(reader);
  return HM_OK;
}

int hm_jpeg_reader_warning_count(const hm_jpeg_reader *reader) {
  return hm_log_warning_count(&reader->log);
}

const char *hm_jpeg_reader_warning(const hm_jpeg_reader *reader, int index) {
  return hm_log_warning(&reader->log, index);
}

hm_jpeg_color hm_jpeg_reader_color(const hm_jpeg_reader *reader) { return reader->color; }

int hm_jpeg_reader_gray(const hm_jpeg_reader *reader) {
  return reader->cinfo.jpeg_color_space == JCS_GRAYSCALE;
}

const uint8_t *hm_jpeg_reader_exif(const hm_jpeg_reader *reader, size_t *size) {
  *size = reader->metadata.exif.size;
  return reader->metadata.exif.data;
}

int hm_jpeg_reader_icc_segment_count(const hm_jpeg_reader *reader) {
  return reader->metadata.icc_count;
}

const uint8_t *hm_jpeg_reader_icc_segment(const hm_jpeg_reader *reader, int index,
                                          size_t *size) {
  if (index < 0 || index >= reader->metadata.icc_count) {
    *size = 0;
    return NULL;
  }
  *size = reader->metadata.icc[index].size;
  return reader->metadata.icc[index].data;
}

int hm_jpeg_reader_icc_overflow(const hm_jpeg_reader *reader) {
  return reader->metadata.icc_overflow;
}
