#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes whole lines to stdout and stderr unbuffered, from any thread: a long-running
/// command's log must show up as it happens, also through a pipe.
final class LineOutput: Sendable {
    func write(_ line: String) {
        StandardStream.output.write(line + "\n")
    }

    func error(_ line: String) {
        StandardStream.error.write(line + "\n")
    }
}
