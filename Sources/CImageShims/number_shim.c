// Numbers in the C locale, whatever locale the host program set: a cascade's XML writes
// "0.5" where a German locale's strtod would stop at the ".". strtod_l is not visible to
// Swift (glibc declares it only for _GNU_SOURCE), hence this file.
#define _GNU_SOURCE
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#ifdef __APPLE__
#include <xlocale.h>
#endif

#include "image_shims.h"

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void) { c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }

double hm_strtod_c(const char *text, char **end) {
  pthread_once(&c_locale_once, make_c_locale);
  if (c_locale == (locale_t)0) {
    // Out of memory: no number read, which the caller reports as not a number.
    *end = (char *)text;
    return 0;
  }
  return strtod_l(text, end, c_locale);
}
