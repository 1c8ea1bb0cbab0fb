import CFileShims
import HexMask
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The first SIGINT or SIGTERM received since `catchStopSignals()`, or 0.
let stopSignal = Atomic<Int32>(0)

/// From now on SIGINT and SIGTERM ask a batch to stop starting files instead of killing the
/// process; a second signal removes the running files' named temporary files and kills it as
/// usual.
///
/// A signal the parent made the process ignore stays ignored, as it does for a single file
/// (`hm_temporary_clean_up_on_signals`) and for POSIX tools: a script's `cmd &` ignores SIGINT
/// so that Ctrl-C meant for the script's foreground job does not stop it, and a batch started
/// that way must finish.
func catchStopSignals() {
  // Initialise the global here: a signal handler must not run Swift's lazy initialisation.
  _ = stopSignal.load(ordering: .relaxed)
  // A parent may have blocked them (a Dispatch thread that spawned us does); the mask is
  // inherited by the worker threads, so unblock before they start.
  var signals = sigset_t()
  sigemptyset(&signals)
  for number in [SIGINT, SIGTERM] { sigaddset(&signals, number) }
  pthread_sigmask(SIG_UNBLOCK, &signals, nil)
  for number in [SIGINT, SIGTERM] where hm_signal_is_ignored(number) == 0 {
    _ = signal(number) { received in
      // Only async-signal-safe work: an atomic store, or the default action.
      let first = stopSignal.compareExchange(
        expected: 0, desired: received, ordering: .relaxed
      ).exchanged
      if !first {
        removeTemporaryFilesNow()
        _ = signal(received, SIG_DFL)
        _ = raise(received)
      }
    }
  }
}
