import FlowDebugAdapter
import Foundation

/// A DAP client for tests, talking to a `DebugAdapterSession` in this process over two pipes
/// with the Content-Length framing an editor uses: requests answered by seq, events waited for.
final class InProcessDapClient: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let toAdapter = Pipe()
    private let fromAdapter = Pipe()
    private let condition = NSCondition()
    private var responses: [Int: [String: Any]] = [:]
    private(set) var events: [[String: Any]] = []
    private var closed = false
    private var seq = 0

    /// Starts a session whose relative paths are resolved from `workingDirectory`; a `launch`
    /// starts `flowpkgExecutable`.
    init(workingDirectory: String, flowpkgExecutable: String = "/bin/false") {
        let input = toAdapter.fileHandleForReading.fileDescriptor
        let output = fromAdapter.fileHandleForWriting.fileDescriptor
        Thread.detachNewThread {
            DebugAdapterSession(
                input: input, output: output, flowpkgExecutable: flowpkgExecutable,
                workingDirectory: workingDirectory
            ).run()
        }
        Thread.detachNewThread { [self] in read() }
    }

    private func read() {
        let handle = fromAdapter.fileHandleForReading
        var buffer = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer += chunk
            while let headerEnd = buffer.range(of: Data("\r\n\r\n".utf8)) {
                let header = String(decoding: buffer[buffer.startIndex..<headerEnd.lowerBound], as: UTF8.self)
                let length =
                    header.split(separator: "\r\n").compactMap { line -> Int? in
                        guard line.lowercased().hasPrefix("content-length:") else { return nil }
                        return Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
                    }.first ?? 0
                guard buffer.count - (headerEnd.upperBound - buffer.startIndex) >= length else { break }
                let body = buffer[headerEnd.upperBound..<(headerEnd.upperBound + length)]
                buffer = Data(buffer[(headerEnd.upperBound + length)...])
                guard let message = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { continue }
                condition.lock()
                if message["type"] as? String == "response", let requestSeq = message["request_seq"] as? Int {
                    responses[requestSeq] = message
                } else {
                    events.append(message)
                }
                condition.broadcast()
                condition.unlock()
            }
        }
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Sends `command` and waits (up to `timeout` seconds) for its response.
    @discardableResult
    func request(_ command: String, _ arguments: [String: Any] = [:], timeout: TimeInterval = 120) throws -> [String:
        Any]
    {
        condition.lock()
        seq += 1
        let mine = seq
        condition.unlock()
        let message: [String: Any] = ["seq": mine, "type": "request", "command": command, "arguments": arguments]
        let body = try JSONSerialization.data(withJSONObject: message)
        toAdapter.fileHandleForWriting.write(Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
        let deadline = Date() + timeout
        condition.lock()
        defer { condition.unlock() }
        while responses[mine] == nil, !closed {
            if !condition.wait(until: deadline) { throw Failure(description: "no response to \(command)") }
        }
        guard let response = responses[mine] else { throw Failure(description: "the adapter ended before \(command)") }
        return response
    }

    /// As `request`, failing unless the response is a success; its body.
    @discardableResult
    func succeed(_ command: String, _ arguments: [String: Any] = [:]) throws -> [String: Any] {
        let response = try request(command, arguments)
        guard response["success"] as? Bool == true else {
            throw Failure(description: "\(command) failed: \(response["message"] ?? "")")
        }
        return response["body"] as? [String: Any] ?? [:]
    }

    /// The first event `name` at index `after` or later that `match` accepts, and the index
    /// after it; waits up to `timeout` seconds.
    func event(
        _ name: String, after: Int = 0, timeout: TimeInterval = 120,
        where match: ([String: Any]) -> Bool = { _ in true }
    ) throws -> ([String: Any], Int) {
        let deadline = Date() + timeout
        condition.lock()
        defer { condition.unlock() }
        while true {
            if after < events.count {
                for index in after..<events.count where events[index]["event"] as? String == name {
                    if match(events[index]) { return (events[index], index + 1) }
                }
            }
            if closed { throw Failure(description: "the adapter ended before a \(name) event") }
            if !condition.wait(until: deadline) { throw Failure(description: "no \(name) event: \(events)") }
        }
    }

    /// How many events came so far (an index for `event(_:after:)`).
    var eventCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return events.count
    }

    /// Ends the session: its input closes, as an editor that quits closes it.
    func close() {
        try? toAdapter.fileHandleForWriting.close()
    }
}
