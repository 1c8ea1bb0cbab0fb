import HexMaskCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

exit(runHexMask(Array(commandLineArguments().dropFirst())))
