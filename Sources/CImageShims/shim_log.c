#include "shim_log.h"

#include <string.h>

void hm_log_fail(hm_log *log, hm_status status, const char *text) {
  if (log->status != HM_OK) return;
  log->status = status;
  snprintf(log->error, sizeof log->error, "%s", text);
}

hm_status hm_log_report(const hm_log *log, char *message, size_t message_size) {
  if (message != NULL && message_size > 0) {
    snprintf(message, message_size, "%s", log->status == HM_OK ? "" : log->error);
  }
  return log->status;
}

void hm_log_warn(hm_log *log, const char *text) {
  if (log->warning_count < HM_WARNINGS_MAX) {
    snprintf(log->warnings[log->warning_count], HM_MESSAGE_SIZE, "%s", text);
    log->warning_count++;
  } else {
    log->warnings_dropped++;
    snprintf(log->warnings[HM_WARNINGS_MAX], HM_MESSAGE_SIZE, "%d more warning%s",
             log->warnings_dropped, log->warnings_dropped == 1 ? "" : "s");
  }
}

int hm_log_warning_count(const hm_log *log) {
  return log->warning_count + (log->warnings_dropped > 0 ? 1 : 0);
}

const char *hm_log_warning(const hm_log *log, int index) {
  if (index < 0 || index >= hm_log_warning_count(log)) return "";
  return log->warnings[index];
}
