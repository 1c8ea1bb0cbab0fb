/// The version `--version` and the man page print: the text of the file `VERSION` at the
/// package root, which the Makefile gives the .deb and the tarball. A test checks the two
/// agree, so a release changes both (then `make man`). Not the output format's version
/// (`outputVersion`), which changes only when the same command would write other bytes.
let hexmaskVersion = "0.1.0"
