// `HostLaunch ROUNDS FOLDER IDENTIFIER [PACKAGE]`: launches the package with IDENTIFIER in FOLDER
// with `PackageLaunch` ROUNDS times in this process, each timed from the launch's first call to
// the start module's first printed line; prints the median and the best, in microseconds. Each
// launched context is stopped after its time is taken. With PACKAGE (a floor, not what a host
// is told to do), the launch opens that file itself with `EmbeddedPackageSource(contentsOf:)`:
// no folder listed, no second package with the identifier looked for.
import FlowLoader
import FlowPackage
import FlowRuntime

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

func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Writes `text` to standard error and exits with `status`.
func fail(_ text: String, status: Int32) -> Never {
    let bytes = Array(text.utf8)
    _ = write(2, bytes, bytes.count)
    exit(status)
}

let arguments = CommandLine.arguments
guard arguments.count == 4 || arguments.count == 5, let rounds = Int(arguments[1]), rounds > 0 else {
    fail("usage: HostLaunch ROUNDS FOLDER IDENTIFIER [PACKAGE]\n", status: 64)
}
let packageFile = arguments.count == 5 ? URL(fileURLWithPath: arguments[4]) : nil
let identifier = try PackageIdentifier(arguments[3])
let folder = URL(fileURLWithPath: arguments[2])
/// When the start module printed its first line. Written on the context's thread before
/// `run()` returns (the launch waits for the start module there), read after it.
final class FirstLine: @unchecked Sendable {
    var time: UInt64?
}
let firstLine = FirstLine()
var options = LuaContext.Options()
options.print = { _ in firstLine.time = firstLine.time ?? now() }

/// When the context was ready (`prepare` runs on it before the start module).
final class Ready: @unchecked Sendable {
    var time: UInt64 = 0
}
let ready = Ready()

var samples: [Double] = []
// Where each launch's time went: opening the package, making the context (state, standard
// libraries, host set-up), and the start module (found, read, checked, compiled, run).
var phases: [[Double]] = [[], [], []]
for _ in 0..<rounds {
    firstLine.time = nil
    let start = now()
    var launch =
        try packageFile.map {
            PackageLaunch(
                primary: try EmbeddedPackageSource(contentsOf: $0, expectedIdentifier: identifier), options: options)
        } ?? PackageLaunch(package: identifier, in: [folder], options: options)
    let opened = now()
    launch.prepare = { _ in ready.time = now() }
    let running = try launch.run()
    guard let printed = firstLine.time else {
        fail("HostLaunch: the start module printed nothing\n", status: 1)
    }
    samples.append(Double(printed - start) / 1000)
    phases[0].append(Double(opened - start) / 1000)
    phases[1].append(Double(ready.time - opened) / 1000)
    phases[2].append(Double(printed - ready.time) / 1000)
    running.stop()
}
samples.sort()
let medians = phases.map { $0.sorted()[$0.count / 2] }
print(
    "median \(samples[samples.count / 2]) best \(samples[0]) open \(medians[0]) context \(medians[1]) module \(medians[2])"
)
