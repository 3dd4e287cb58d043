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

/// What a finished child left: its exit status and everything it wrote.
package struct ChildOutput: Sendable {
    /// The command line as a person would type it, for messages.
    package var commandLine: String
    package var status: Int32
    package var standardOutput: String
    package var standardError: String

    package var succeeded: Bool { status == 0 }
    /// Both streams, for quoting in a message.
    package var combined: String { standardOutput + standardError }
}

extension ChildProcess {
    /// What is kept of each stream: a tool that writes more is cut, never waited on.
    static let outputLimit = 8 << 20

    /// Runs `command` to completion, its output captured, and waits for it at most `deadline`
    /// seconds: then its process group gets SIGKILL and the run throws `timedOut`. A SIGINT,
    /// SIGTERM or SIGHUP flowpkg receives meanwhile goes to its group, and the run throws
    /// `interrupted` once it ended (SIGKILL after 2 seconds more), so the caller unwinds and
    /// removes what it made. Should flowpkg be SIGKILLed, the child gets SIGKILL too
    /// (`endsWithThisThread`).
    package static func run(_ command: ChildCommand, deadline: Double?) throws(ChildProcessError) -> ChildOutput {
        let line = command.commandLine
        ChildProcessGroups.beginWaiting()
        defer { ChildProcessGroups.endWaiting() }
        if let signalNumber = ChildProcessGroups.receivedSignal {
            throw .interrupted(command: line, signal: signalNumber)
        }
        let captured = Locked(([UInt8](), [UInt8]()))
        var capturing = command
        capturing.output = .stream { bytes, isError in
            captured.withLock { streams in
                if isError {
                    if streams.1.count < outputLimit { streams.1 += bytes.prefix(outputLimit - streams.1.count) }
                } else if streams.0.count < outputLimit {
                    streams.0 += bytes.prefix(outputLimit - streams.0.count)
                }
            }
        }
        capturing.lifetime = .bound(forwardsSignals: true)
        // This thread waits for it: the kernel kills it if flowpkg dies (SIGKILL) meanwhile.
        let child = try start(capturing, endsWithThisThread: true)
        let end = deadline.map { Date() + $0 } ?? .distantFuture
        var killAt: Date?
        var status: Int32?
        while status == nil {
            // Woken at once when it ends; every half second to see a signal flowpkg received.
            status = child.wait(until: min(end, Date() + 0.5))
            if status != nil { break }
            if Date() >= end {
                child.signal(SIGKILL)
                child.wait()
                throw .timedOut(command: line, seconds: deadline ?? 0)
            }
            if ChildProcessGroups.receivedSignal != nil {
                if let killAt, Date() >= killAt { child.signal(SIGKILL) }
                if killAt == nil { killAt = Date() + 2 }
            }
        }
        if let signalNumber = ChildProcessGroups.receivedSignal {
            throw .interrupted(command: line, signal: signalNumber)
        }
        let (out, err) = captured.withLock { $0 }
        return ChildOutput(
            commandLine: line, status: status ?? 1, standardOutput: String(decoding: out, as: UTF8.self),
            standardError: String(decoding: err, as: UTF8.self))
    }
}
