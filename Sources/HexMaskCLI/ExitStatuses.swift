extension CommandError {
  /// Every exit status `hexmask` uses and what it means, as `--help` and the manual page
  /// list them.
  static let exitStatuses: [(status: Int32, meaning: String)] = [
    (
      0,
      "The output was written (in a batch: every file was written or skipped), or help was shown."
    ),
    (
      1,
      "A file could not be read or written; the message names it and the reason. In a batch: "
        + "at least one file failed (a damaged photo, a picture too small for --corner), the "
        + "others were written. Also when standard output or error could not be written (a "
        + "full disk)."
    ),
    (
      2,
      "The command line is wrong: an unknown option, a bad value, a corner too large for the "
        + "one picture given (in a batch, that file's failure: status 1), outputs in conflict, "
        + "an OUTPUT hexmask did not make (in a batch, that file's failure). Nothing was "
        + "written."
    ),
    (
      130,
      "A batch was stopped by SIGINT (Ctrl-C) once its running files finished; the same "
        + "command finishes the rest. A SIGINT or SIGTERM the parent ignored (as a script's "
        + "cmd & ignores SIGINT) stays ignored."
    ),
    (143, "The same, stopped by SIGTERM."),
    (
      141,
      "Standard output or error was a pipe closed early (as by head) while SIGPIPE was "
        + "ignored; nothing more is said, as when SIGPIPE ends the process. A batch starts no "
        + "new file once it happens."
    ),
  ]
}
