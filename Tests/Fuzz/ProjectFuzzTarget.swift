import Foundation

/// libFuzzer's entry point for untrusted projects: each input is a project (`flowpkg.json`,
/// `.luacheckrc` and `Sources/main.lua`, separated by `%%` lines) that `ProjectProbe` writes to
/// a scratch folder and validates; with `FLOWPKG_FUZZ_TARGET` set to `lock`, `rockspec` or
/// `library`, it is that dependency file instead, read by `DependencyProbe`. A hang is caught by libFuzzer's `-timeout`, memory by
/// `-rss_limit_mb`, and a broken rule (a bound passed, a resource outside the folder, a finding
/// without words) is made a crash so libFuzzer keeps the input. Built and run by
/// `Tests/Fuzz/run project`, never by `swift build`.
private let kind = ProcessInfo.processInfo.environment["FLOWPKG_FUZZ_TARGET"] ?? "project"
private let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("flowpkg-fuzz-\(getpid())")

@_cdecl("FlowProjectFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
}

/// libFuzzer's `LLVMFuzzerRunDriver` (there is no header to import it from).
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    try? FileManager.default.removeItem(at: scratch)
    let broken: [String]
    switch kind {
    case "lock": broken = DependencyProbe.lock(bytes, in: scratch)
    case "rockspec": broken = DependencyProbe.rockspec(bytes)
    case "library": broken = DependencyProbe.library(bytes, in: scratch)
    default: broken = ProjectProbe.project(bytes, in: scratch)
    }
    if !broken.isEmpty { fatalError("reading an untrusted \(kind) broke a rule: \(broken)") }
    return 0
}
