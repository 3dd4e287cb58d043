import Foundation

/// libFuzzer's entry point: each input goes through every manifest reader, or (with
/// `FLOWPKG_FUZZ_TARGET=package`) is written to a file and goes through every package reader,
/// as `ReaderProbe` does in the tests. A crash is what libFuzzer looks for; an error without
/// words is made one here, so libFuzzer keeps the input. Built and run by `Tests/Fuzz/run`,
/// never by `swift build`.
private let fuzzesPackages = ProcessInfo.processInfo.environment["FLOWPKG_FUZZ_TARGET"] == "package"
private let packagePath = FileManager.default.temporaryDirectory
    .appendingPathComponent("flowpkg-fuzz-\(getpid()).luapkg")

/// SwiftPM links an executable's entry point as `<module>_main`; here it hands the command
/// line to libFuzzer's driver.
@_cdecl("FlowPackageFuzz_main")
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
    let broken: [String]
    if fuzzesPackages {
        FileManager.default.createFile(atPath: packagePath.path, contents: Data(bytes))
        broken = ReaderProbe.package(at: packagePath)
    } else {
        broken = ReaderProbe.manifest(bytes)
    }
    if !broken.isEmpty { fatalError("a reader broke its rule: \(broken)") }
    return 0
}
