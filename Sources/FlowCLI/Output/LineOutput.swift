import Foundation

/// Writes whole lines to stdout and stderr unbuffered, from any thread: a long-running
/// command's log must show up as it happens, also through a pipe.
final class LineOutput: Sendable {
    func write(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
