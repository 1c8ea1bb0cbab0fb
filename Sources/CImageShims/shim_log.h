#ifndef SHIM_LOG_H
#define SHIM_LOG_H

// What a handle remembers about its failure and its warnings. Private to the shims.

#include "image_shims.h"

// A damaged file can produce a warning per row; the first few say all there is to say.
#define HM_WARNINGS_MAX 8

typedef struct hm_log {
  hm_status status;
  char error[HM_MESSAGE_SIZE];
  int warning_count;  // stored warnings, at most HM_WARNINGS_MAX
  int warnings_dropped;
  char warnings[HM_WARNINGS_MAX + 1][HM_MESSAGE_SIZE];  // +1 for the "more" line
} hm_log;

// Records the failure; the first failure wins, as later ones are consequences.
void hm_log_fail(hm_log *log, hm_status status, const char *text);

// Copies the recorded failure into the caller's buffer and returns its status.
hm_status hm_log_report(const hm_log *log, char *message, size_t message_size);

void hm_log_warn(hm_log *log, const char *text);

int hm_log_warning_count(const hm_log *log);
const char *hm_log_warning(const hm_log *log, int index);

#endif
