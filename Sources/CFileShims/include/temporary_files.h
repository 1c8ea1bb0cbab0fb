#ifndef TEMPORARY_FILES_H
#define TEMPORARY_FILES_H

// Named temporary files that a signal must not leave behind.
//
// hexmask writes outputs through unnamed files (O_TMPFILE) where it can, and those vanish by
// themselves when the process dies. Where a temporary file must have a name (a file system
// without O_TMPFILE, or the instant between linking a finished file in and renaming it over
// the old output), its path is registered here, and a SIGINT or SIGTERM handler removes
// every registered path before the process dies. The handler's work must be
// async-signal-safe, which is why this lives in C: a fixed table of atomic pointers, read
// by the handler with no lock and no allocation.

// Opens a new file without a name in `folder` for writing (Linux's O_TMPFILE, which Swift
// cannot see: the macro needs _GNU_SOURCE). Returns the descriptor, or -1 with errno set;
// always -1 (EOPNOTSUPP) where that is not Linux.
int hm_open_unnamed(const char *folder);

// Gives the unnamed file `descriptor` the name `target`, which must not exist: through
// /proc/self/fd as open(2) documents (no privilege needed), or where /proc is missing with
// AT_EMPTY_PATH (which needs CAP_DAC_READ_SEARCH). Returns 0, or -1 with errno set; always
// -1 (ENOTSUP) where that is not Linux.
int hm_link_unnamed(int descriptor, const char *target);

// mkostemp(template, O_CLOEXEC), hidden from Swift by the same _GNU_SOURCE.
int hm_make_named(char *path_template);

// Remembers `path` (copied) until hm_temporary_forget; returns its slot, or -1 when the
// table is full (the file is then simply not cleaned up on a signal).
int hm_temporary_remember(const char *path);

// Forgets the path in `slot` (a no-op for -1).
void hm_temporary_forget(int slot);

// Unlinks every remembered path. Async-signal-safe: call it from a signal handler.
void hm_temporary_unlink_all(void);

// 1 when signal `number` is ignored (SIG_IGN) now, 0 otherwise: a parent ignores SIGINT for
// a script's `cmd &`, and tools keep such a signal ignored. In C because Swift sees struct
// sigaction's handler only through an anonymous union and cannot compare it with SIG_IGN.
int hm_signal_is_ignored(int number);

// From now on SIGINT and SIGTERM unlink every remembered path and then kill the process as
// the signal's default action would (so the shell sees 130 or 143). A signal the parent
// made the process ignore stays ignored, as `nohup` and background jobs of scripts expect.
void hm_temporary_clean_up_on_signals(void);

#endif
