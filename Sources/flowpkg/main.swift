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

#if canImport(Glibc)
    // Worker threads' malloc arenas grow a page at a time without a pad: validate's workers
    // called mprotect 6,000 times on the benchmark tree. A 64 MB pad (address space, not
    // memory: pages are used only when touched) makes it a few dozen (Benchmarks/README.md,
    // lint speed).
    // mallopt is not in Swift's Glibc module (malloc.h); M_TOP_PAD is -2 there.
    if let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        _ = unsafeBitCast(mallopt, to: MallOpt.self)(-2, 64 << 20)
    }
#endif

Flowpkg.main()
