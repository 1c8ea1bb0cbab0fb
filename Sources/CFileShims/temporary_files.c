#ifdef __linux__
#define _GNU_SOURCE  // O_TMPFILE, AT_EMPTY_PATH, mkostemp
#endif
#include "temporary_files.h"

#include <errno.h>
#include <fcntl.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// One slot per file being written at once: batch threads (at most 1024) each hold at most a
// couple of named files at a time.
#define SLOTS 4096

static char *slots[SLOTS];  // read and written only with __atomic builtins

int hm_open_unnamed(const char *folder) {
#if defined(__linux__) && defined(O_TMPFILE)
  return open(folder, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#else
  (void)folder;
  errno = EOPNOTSUPP;
  return -1;
#endif
}

int hm_link_unnamed(int descriptor, const char *target) {
#if defined(__linux__) && defined(AT_EMPTY_PATH)
  char proc_path[64];
  snprintf(proc_path, sizeof proc_path, "/proc/self/fd/%d", descriptor);
  if (linkat(AT_FDCWD, proc_path, AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0) return 0;
  if (errno != ENOENT || access("/proc/self/fd", F_OK) == 0) return -1;
  return linkat(descriptor, "", AT_FDCWD, target, AT_EMPTY_PATH);
#else
  (void)descriptor;
  (void)target;
  errno = ENOTSUP;
  return -1;
#endif
}

int hm_make_named(char *path_template) { return mkostemp(path_template, O_CLOEXEC); }

int hm_temporary_remember(const char *path) {
  char *copy = strdup(path);
  if (copy == NULL) return -1;
  for (int i = 0; i < SLOTS; i++) {
    char *expected = NULL;
    if (__atomic_compare_exchange_n(&slots[i], &expected, copy, 0, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST)) {
      return i;
    }
  }
  free(copy);
  return -1;
}

void hm_temporary_forget(int slot) {
  if (slot < 0 || slot >= SLOTS) return;
  char *path = __atomic_exchange_n(&slots[slot], NULL, __ATOMIC_SEQ_CST);
  free(path);
}

void hm_temporary_unlink_all(void) {
  // Only loads and unlink(2), both async-signal-safe. Nothing is freed: the process is about
  // to die, and another thread may be freeing a path concurrently only after taking it out.
  for (int i = 0; i < SLOTS; i++) {
    char *path = __atomic_load_n(&slots[i], __ATOMIC_SEQ_CST);
    if (path != NULL) unlink(path);
  }
}

static void clean_up_and_die(int number) {
  hm_temporary_unlink_all();
  signal(number, SIG_DFL);
  raise(number);
}

int hm_signal_is_ignored(int number) {
  struct sigaction current;
  if (sigaction(number, NULL, &current) != 0) return 0;
  return current.sa_handler == SIG_IGN;
}

void hm_temporary_clean_up_on_signals(void) {
  int numbers[] = {SIGINT, SIGTERM};
  // A parent may have blocked them by accident (a Dispatch or Foundation thread that spawned
  // us does), which would make Ctrl-C do nothing.
  sigset_t blocked;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGINT);
  sigaddset(&blocked, SIGTERM);
  pthread_sigmask(SIG_UNBLOCK, &blocked, NULL);
  for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
    if (hm_signal_is_ignored(numbers[i])) continue;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = clean_up_and_die;
    sigemptyset(&action.sa_mask);
    sigaction(numbers[i], &action, NULL);
  }
}
