import FlowCLI
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Packages must not depend on the time zone of the machine that exported them; libarchive
// writes zip entry times through localtime, so flowpkg works in UTC.
setenv("TZ", "UTC0", 1)
tzset()

Flowpkg.main()
