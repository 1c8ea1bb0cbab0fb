/// The version `--version` and the man page print, and the one place it is written:
/// scripts/version.sh reads this line for the Makefile, the .deb and the tarball (a test
/// checks it does), so a release changes it here (then `make man`). Not the output
/// format's version (`outputVersion`), which changes only when the same command would
/// write other bytes.
let hexmaskVersion = "0.1.0"
