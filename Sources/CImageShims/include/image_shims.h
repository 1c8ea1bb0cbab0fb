#ifndef IMAGE_SHIMS_H
#define IMAGE_SHIMS_H

// The C side of the codecs. libpng and libjpeg report errors with longjmp; every call
// that may longjmp happens inside one of the functions below, each of which owns its
// own setjmp region and returns a status plus a message, so no longjmp ever crosses a
// Swift frame. Handles are opaque, allocated here, and freed by the matching *_destroy,
// which is safe after any failure (and with NULL).
//
// After a failure a handle stays failed: later calls return the same status and
// message without touching the library again, because its state is undefined then.

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

// Room for one message, including the terminating NUL.
#define HM_MESSAGE_SIZE 200

typedef enum hm_status {
  HM_OK = 0,
  HM_ERR_READ,         // the stream could not be read (errno-style message)
  HM_ERR_TRUNCATED,    // the data ends before the image does
  HM_ERR_CORRUPT,      // the library rejected the data
  HM_ERR_UNSUPPORTED,  // valid, but a kind of image this code does not handle
  HM_ERR_TOO_LARGE,    // bigger than the caller's limit, or out of memory
  HM_ERR_WRITE,        // the output stream refused bytes
  HM_ERR_USAGE,        // the caller broke the calling sequence (a bug, not the file)
} hm_status;

// MARK: Numbers

// strtod in the C locale (a "." is the decimal point whatever the host's locale): the
// number at `text` and, in `end`, where it stops (`text` itself when there is none).
double hm_strtod_c(const char *text, char **end);

// MARK: PNG reading

typedef struct hm_png_reader hm_png_reader;

// NULL only when out of memory.
hm_png_reader *hm_png_reader_create(void);
void hm_png_reader_destroy(hm_png_reader *reader);

// Makes the reader read `bytes` (copied) before reading on from the file: the bytes after
// the signature that the caller already took. Call before hm_png_reader_open; 0 when out
// of memory or called twice.
int hm_png_reader_replay(hm_png_reader *reader, const uint8_t *bytes, size_t size);

// Reads the header and every chunk before the image data, allocating no pixel memory.
// `signature_bytes` (0…8) bytes of the PNG signature were already read from `file`
// and checked by the caller. Sides longer than `max_side` are refused by libpng
// (HM_ERR_TOO_LARGE; width and height are still reported when the header was read).
hm_status hm_png_reader_open(hm_png_reader *reader, FILE *file, int signature_bytes,
                             uint32_t max_side, char *message, size_t message_size);
uint32_t hm_png_reader_width(const hm_png_reader *reader);
uint32_t hm_png_reader_height(const hm_png_reader *reader);
// Nonzero for an Adam7-interlaced file, which is decoded whole (width * height * 4 bytes
// and a pointer per row) at the first hm_png_reader_read_row. Valid once opened.
int hm_png_reader_interlaced(const hm_png_reader *reader);
// 1 when the stored pixels are gray (gray or gray + alpha colour types), 0 otherwise.
int hm_png_reader_gray(const hm_png_reader *reader);

// The eXIf chunk and the decompressed iCCP profile found before the image data, as
// libpng accepted them; NULL (size 0) when absent or refused (libpng then warns).
// Valid once hm_png_reader_open has succeeded and until the reader is destroyed.
const uint8_t *hm_png_reader_exif(const hm_png_reader *reader, size_t *size);
const uint8_t *hm_png_reader_icc(const hm_png_reader *reader, size_t *size);

// Sets up the conversion to 8-bit straight RGBA; call once, after the caller has
// accepted the size. Allocates the row buffers (and, for Adam7, the whole image).
hm_status hm_png_reader_start(hm_png_reader *reader, char *message, size_t message_size);

// Decodes the next row, top to bottom, into `row` (width * 4 bytes). The last row also
// reads the rest of the file, so a damaged end is reported there.
hm_status hm_png_reader_read_row(hm_png_reader *reader, uint8_t *row, char *message,
                                 size_t message_size);

int hm_png_reader_warning_count(const hm_png_reader *reader);
const char *hm_png_reader_warning(const hm_png_reader *reader, int index);

// MARK: JPEG reading

typedef struct hm_jpeg_reader hm_jpeg_reader;

hm_jpeg_reader *hm_jpeg_reader_create(void);
void hm_jpeg_reader_destroy(hm_jpeg_reader *reader);

// Reads the headers. `prefix` holds bytes the caller already consumed from `file`
// (its sniffing); they are decoded first, so pipes work without seeking.
hm_status hm_jpeg_reader_open(hm_jpeg_reader *reader, FILE *file, const uint8_t *prefix,
                              size_t prefix_size, char *message, size_t message_size);
uint32_t hm_jpeg_reader_width(const hm_jpeg_reader *reader);
uint32_t hm_jpeg_reader_height(const hm_jpeg_reader *reader);

// How the rows of an opened reader are laid out: RGBA, or CMYK (4 bytes per pixel,
// like RGBA) for CMYK and YCCK files, which the caller converts. Inverted CMYK, as
// Adobe's software writes it (it marks its files with an APP14 "Adobe" marker),
// stores 255 − ink.
typedef enum hm_jpeg_color {
  HM_JPEG_RGBA = 0,
  HM_JPEG_CMYK,
  HM_JPEG_CMYK_INVERTED,
} hm_jpeg_color;

hm_jpeg_color hm_jpeg_reader_color(const hm_jpeg_reader *reader);
// 1 when the file stores one gray component, 0 otherwise.
int hm_jpeg_reader_gray(const hm_jpeg_reader *reader);

// The bytes libjpeg holds for the whole image while decoding an opened reader: its
// coefficients (2 bytes each, 64 a block, every component at its sampling, rounded up to
// whole MCUs) when the file has more than one scan (progressive, or components in
// separate scans), 0 when it decodes a row of blocks at a time.
size_t hm_jpeg_reader_whole_bytes(const hm_jpeg_reader *reader);
// Makes libjpeg refuse (HM_ERR_TOO_LARGE) to allocate its whole-image arrays when they
// need more than `bytes` with what it has allocated already: a backstop behind the
// caller's reservation of hm_jpeg_reader_whole_bytes. Call before hm_jpeg_reader_start.
void hm_jpeg_reader_limit_memory(hm_jpeg_reader *reader, size_t bytes);

// The metadata markers before the first scan, valid once hm_jpeg_reader_open has
// succeeded and until the reader is destroyed. Sizes are those found in the file;
// the bytes are not checked.
//
// The first APP1 "Exif\0\0" payload, after that identifier; NULL (size 0) when absent.
const uint8_t *hm_jpeg_reader_exif(const hm_jpeg_reader *reader, size_t *size);
// The APP2 "ICC_PROFILE\0" payloads in file order, after that identifier: sequence
// number (1-based), segment count, profile bytes. At most 256 are kept;
// hm_jpeg_reader_icc_overflow is nonzero when the file had more.
int hm_jpeg_reader_icc_segment_count(const hm_jpeg_reader *reader);
const uint8_t *hm_jpeg_reader_icc_segment(const hm_jpeg_reader *reader, int index,
                                          size_t *size);
int hm_jpeg_reader_icc_overflow(const hm_jpeg_reader *reader);

// Starts decompression to RGBA (or CMYK, see hm_jpeg_reader_color); call once, after
// the caller has accepted the size. `scale_denom` (1, 2, 4 or 8) makes libjpeg decode
// at 1/scale_denom of the stored size, rounded up (shrink-on-load).
hm_status hm_jpeg_reader_start(hm_jpeg_reader *reader, unsigned int scale_denom, char *message,
                               size_t message_size);
// The size rows are delivered at, valid once hm_jpeg_reader_start has succeeded.
uint32_t hm_jpeg_reader_output_width(const hm_jpeg_reader *reader);
uint32_t hm_jpeg_reader_output_height(const hm_jpeg_reader *reader);

// Decodes the next scanline into `row` (width * 4 bytes: RGBA with alpha 0xFF, or CMYK).
hm_status hm_jpeg_reader_read_row(hm_jpeg_reader *reader, uint8_t *row, char *message,
                                  size_t message_size);

int hm_jpeg_reader_warning_count(const hm_jpeg_reader *reader);
const char *hm_jpeg_reader_warning(const hm_jpeg_reader *reader, int index);

// MARK: JPEG writing

typedef struct hm_jpeg_writer hm_jpeg_writer;

hm_jpeg_writer *hm_jpeg_writer_create(void);
void hm_jpeg_writer_destroy(hm_jpeg_writer *writer);

// Starts a baseline YCbCr 4:2:0 JPEG of `quality` 1…100 with Huffman tables fitted
// to the image: SOI, JFIF APP0, `comment` (when not NULL: hexmask's mark) as a COM segment,
// then `icc_profile` (when not NULL) as APP2 "ICC_PROFILE" segments of at most 65519 bytes,
// numbered 1…count. Nothing else: no EXIF or timestamp. The profile must hold
// 1…255 × 65519 bytes (HM_ERR_USAGE otherwise).
/// The largest JPEG (in pixels, 2048²) written with Huffman tables fitted to the picture;
/// fitting them holds 3 bytes a pixel until the end, so larger ones take libjpeg's standard
/// tables and keep only a few rows.
#define HM_JPEG_FITTED_TABLES_MAX_PIXELS 4194304

hm_status hm_jpeg_writer_open(hm_jpeg_writer *writer, FILE *file, uint32_t width,
                              uint32_t height, int quality, const uint8_t *icc_profile,
                              size_t icc_profile_size, const uint8_t *comment,
                              size_t comment_size, char *message, size_t message_size);

// Compresses the next row of width * 3 bytes of RGB.
hm_status hm_jpeg_writer_write_row(hm_jpeg_writer *writer, const uint8_t *row, char *message,
                                   size_t message_size);

// Writes EOI and flushes `file`; an error here means the file is incomplete.
hm_status hm_jpeg_writer_finish(hm_jpeg_writer *writer, char *message, size_t message_size);

int hm_jpeg_writer_warning_count(const hm_jpeg_writer *writer);
const char *hm_jpeg_writer_warning(const hm_jpeg_writer *writer, int index);

#endif
