#if canImport(Glibc)
    import Glibc
#endif

/// A pad on malloc's heaps for a command that checks many files on worker threads and then
/// exits (`validate`, `export`, `fmt`): without one, each worker's arena grows a page at a time
/// (validate's workers called mprotect 6,000 times on the benchmark tree; a few dozen with a
/// 64 MB pad, which is address space, not memory: pages are used only when touched;
/// Benchmarks/README.md, lint speed). Not set for the long-running commands (`run`, `serve`,
/// `lsp`): with it, memory a program frees could stay with the process up to the pad's size.
enum MallocPad {
    static func forShortRun() {
        #if canImport(Glibc)
            // mallopt is not in Swift's Glibc module (malloc.h); M_TOP_PAD is -2 there.
            if let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
                typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
                _ = unsafeBitCast(mallopt, to: MallOpt.self)(-2, 64 << 20)
            }
        #endif
    }
}
