// JPEG encoding through libjpeg-turbo: 8-bit RGB rows (the caller has already flattened
// alpha), YCbCr 4:2:0, baseline, one scanline at a time.
//
// The markers are SOI, a JFIF APP0 (no timestamp: JFIF has none), the optional ICC
// profile as APP2 "ICC_PROFILE" segments, then the frame; no EXIF, comment or anything
// that varies between runs, so the same pixels and settings always give the same bytes.
//
// libjpeg's default error handler prints and calls exit(); ours records the message and
// longjmps back to the public function that made the call.

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim_log.h"
// jpeglib.h needs FILE and size_t declared before it; jerror.h needs jpeglib.h.
#include <jpeglib.h>
#include <jerror.h>

// ICC profiles travel in APP2 markers of at most 65533 payload bytes, 14 of which are
// the "ICC_PROFILE\0" identifier, sequence number and count; numbers are one byte.
#define HM_JPEG_ICC_BYTES_PER_MARKER 65519
#define HM_JPEG_ICC_MARKERS_MAX 255

typedef struct hm_jpeg_destination {
  struct jpeg_destination_mgr pub;
  FILE *file;
  int write_errno;
  JOCTET buffer[16384];
} hm_jpeg_destination;

struct hm_jpeg_writer {
  struct jpeg_compress_struct cinfo;
  struct jpeg_error_mgr errors;
  hm_jpeg_destination destination;
  jmp_buf jump;  // armed by every public function before it calls libjpeg
  hm_log log;
  int created, opened, finished;
  uint32_t height, rows_written;
};

static void error_exit(j_common_ptr cinfo) {
  hm_jpeg_writer *writer = cinfo->client_data;
  char text[JMSG_LENGTH_MAX > HM_MESSAGE_SIZE ? JMSG_LENGTH_MAX : HM_MESSAGE_SIZE];
  if (cinfo->err->msg_code == JERR_FILE_WRITE && writer->destination.write_errno != 0) {
    snprintf(text, sizeof text, "%s", strerror(writer->destination.write_errno));
  } else {
    cinfo->err->format_message(cinfo, text);
  }
  hm_log_fail(&writer->log, HM_ERR_WRITE, text);
  longjmp(writer->jump, 1);
}

static void output_message(j_common_ptr cinfo) {
  hm_jpeg_writer *writer = cinfo->client_data;
  char text[JMSG_LENGTH_MAX];
  cinfo->err->format_message(cinfo, text);
  hm_log_warn(&writer->log, text);
}

// Keeps warnings (level < 0) and drops trace messages.
static void emit_message(j_common_ptr cinfo, int level) {
  if (level >= 0) return;
  cinfo->err->num_warnings++;
  output_message(cinfo);
}

// Our own destination instead of jpeg_stdio_dest, to report the system's reason
// (disk full) rather than libjpeg's fixed text.
static void init_destination(j_compress_ptr cinfo) {
  hm_jpeg_destination *destination = (hm_jpeg_destination *)cinfo->dest;
  destination->pub.next_output_byte = destination->buffer;
  destination->pub.free_in_buffer = sizeof destination->buffer;
}

static void write_bytes(j_compress_ptr cinfo, size_t count) {
  hm_jpeg_destination *destination = (hm_jpeg_destination *)cinfo->dest;
  if (count > 0 && fwrite(destination->buffer, 1, count, destination->file) != count) {
    destination->write_errno = errno;
    ERREXIT(cinfo, JERR_FILE_WRITE);
  }
}

static boolean empty_output_buffer(j_compress_ptr cinfo) {
  hm_jpeg_destination *destination = (hm_jpeg_destination *)cinfo->dest;
  write_bytes(cinfo, sizeof destination->buffer);
  destination->pub.next_output_byte = destination->buffer;
  destination->pub.free_in_buffer = sizeof destination->buffer;
  return TRUE;
}

static void term_destination(j_compress_ptr cinfo) {
  hm_jpeg_destination *destination = (hm_jpeg_destination *)cinfo->dest;
  write_bytes(cinfo, sizeof destination->buffer - destination->pub.free_in_buffer);
  // stdio buffers: a full disk often shows only here.
  if (fflush(destination->file) != 0 || ferror(destination->file)) {
    destination->write_errno = errno != 0 ? errno : EIO;
    ERREXIT(cinfo, JERR_FILE_WRITE);
  }
}

hm_jpeg_writer *hm_jpeg_writer_create(void) { return calloc(1, sizeof(hm_jpeg_writer)); }

void hm_jpeg_writer_destroy(hm_jpeg_writer *writer) {
  if (writer == NULL) return;
  // jpeg_destroy_compress frees everything and cannot fail, even mid-image.
  if (writer->created) jpeg_destroy_compress(&writer->cinfo);
  free(writer);
}

hm_status hm_jpeg_writer_open(hm_jpeg_writer *writer, FILE *file, uint32_t width,
                              uint32_t height, int quality, const uint8_t *icc_profile,
                              size_t icc_profile_size, const uint8_t *comment,
                              size_t comment_size, char *message, size_t message_size) {
  if (writer->log.status != HM_OK) return hm_log_report(&writer->log, message, message_size);
  if (writer->opened) {
    hm_log_fail(&writer->log, HM_ERR_USAGE, "JPEG writer opened twice");
    return hm_log_report(&writer->log, message, message_size);
  }
  if (icc_profile != NULL &&
      (icc_profile_size == 0 ||
       icc_profile_size > (size_t)HM_JPEG_ICC_BYTES_PER_MARKER * HM_JPEG_ICC_MARKERS_MAX)) {
    // jpeg_write_icc_profile does not check that the count fits in its byte.
    hm_log_fail(&writer->log, HM_ERR_USAGE, "ICC profile size does not fit JPEG markers");
    return hm_log_report(&writer->log, message, message_size);
  }
  writer->opened = 1;
  writer->height = height;
  writer->cinfo.err = jpeg_std_error(&writer->errors);
  writer->errors.error_exit = error_exit;
  writer->errors.output_message = output_message;
  writer->errors.emit_message = emit_message;
  writer->cinfo.client_data = writer;
  if (setjmp(writer->jump)) return hm_log_report(&writer->log, message, message_size);
  writer->created = 1;  // destroying a half-created struct is safe: it frees what exists
  jpeg_create_compress(&writer->cinfo);

  writer->destination.file = file;
  writer->destination.pub.init_destination = init_destination;
  writer->destination.pub.empty_output_buffer = empty_output_buffer;
  writer->destination.pub.term_destination = term_destination;
  writer->cinfo.dest = &writer->destination.pub;

  writer->cinfo.image_width = width;
  writer->cinfo.image_height = height;
  writer->cinfo.input_components = 3;
  writer->cinfo.in_color_space = JCS_RGB;
  jpeg_set_defaults(&writer->cinfo);
  jpeg_set_quality(&writer->cinfo, quality, TRUE);
  // Accurate integer DCT and Huffman tables fitted to the image: a few percent smaller,
  // and as deterministic as the default tables. Fitting them keeps every DCT coefficient
  // until the end (3 bytes a pixel at 4:2:0: 432 MB for a 12000² JPEG), so larger
  // pictures take the standard tables and stream in a few rows, as the other outputs do.
  writer->cinfo.dct_method = JDCT_ISLOW;
  writer->cinfo.optimize_coding =
      (uint64_t)width * height <= HM_JPEG_FITTED_TABLES_MAX_PIXELS ? TRUE : FALSE;
  jpeg_start_compress(&writer->cinfo, TRUE);
  // The comment (hexmask's mark) right after the JFIF header, before the profile.
  if (comment != NULL && comment_size > 0 && comment_size <= 65533) {
    jpeg_write_marker(&writer->cinfo, JPEG_COM, comment, (unsigned int)comment_size);
  }
  if (icc_profile != NULL) {
    jpeg_write_icc_profile(&writer->cinfo, icc_profile, (unsigned int)icc_profile_size);
  }
  return HM_OK;
}

hm_status hm_jpeg_writer_write_row(hm_jpeg_writer *writer, const uint8_t *row, char *message,
                                   size_t message_size) {
  if (writer->log.status != HM_OK) return hm_log_report(&writer->log, message, message_size);
  if (!writer->opened || writer->finished || writer->rows_written >= writer->height) {
    hm_log_fail(&writer->log, HM_ERR_USAGE, "more rows written than the image has");
    return hm_log_report(&writer->log, message, message_size);
  }
  if (setjmp(writer->jump)) return hm_log_report(&writer->log, message, message_size);
  JSAMPROW rows[1] = {(JSAMPROW)row};
  jpeg_write_scanlines(&writer->cinfo, rows, 1);
  writer->rows_written++;
  return HM_OK;
}

hm_status hm_jpeg_writer_finish(hm_jpeg_writer *writer, char *message, size_t message_size) {
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
  jpeg_finish_compress(&writer->cinfo);
  return HM_OK;
}

int hm_jpeg_writer_warning_count(const hm_jpeg_writer *writer) {
  return hm_log_warning_count(&writer->log);
}

const char *hm_jpeg_writer_warning(const hm_jpeg_writer *writer, int index) {
  return hm_log_warning(&writer->log, index);
}
