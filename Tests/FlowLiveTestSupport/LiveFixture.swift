import FlowLiveServer
import FlowTestSupport
import Foundation

/// A small project in a temporary folder, served by a real `LiveServer` on a free loopback port.
public final class LiveFixture: @unchecked Sendable {
    public static let token = "test-token-123"
    public let root: URL
    public let server: LiveServer
    public let port: UInt16
    private let logLines = LogLines()

    public init(
        identifier: String = "com.example.live", forcePolling: Bool = false,
        limits: LiveConnectionLimits = LiveConnectionLimits(), listeningOn requestedPort: UInt16 = 0,
        onEvent: @escaping @Sendable (SessionEvent) -> Void = { _ in }
    ) async throws {
        root = try Scratch("live").url
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Sources"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Resources"), withIntermediateDirectories: true)
        try """
        {"name": "Live", "identifier": "\(identifier)", "version": "1.0.0", "startModule": "main"}
        """.write(to: root.appendingPathComponent("flowpkg.json"), atomically: true, encoding: .utf8)
        try "local greeting = require 'greeting'\nprint(greeting.text)\n"
            .write(to: root.appendingPathComponent("Sources/main.lua"), atomically: true, encoding: .utf8)
        try "return { text = getResource('hello', 'txt') }\n"
            .write(to: root.appendingPathComponent("Sources/greeting.lua"), atomically: true, encoding: .utf8)
        try "hello".write(to: root.appendingPathComponent("Resources/hello.txt"), atomically: true, encoding: .utf8)
        let lines = logLines
        server = try LiveServer(
            projectAt: root,
            options: LiveServerOptions(
                port: requestedPort, token: Self.token, forcePolling: forcePolling, limits: limits),
            log: { lines.append($0) }, onEvents: { $0.forEach(onEvent) },
            // Files named relative to the project, as if serve ran in its folder.
            paths: ProjectPaths(root: root, workingDirectory: root.path))
        try server.start()
        port = server.listeningPort ?? 0
    }

    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
    public var log: [String] { logLines.lines }

    /// The first line the server logged that satisfies `match`, waiting up to `timeout`
    /// seconds for it (blocking: call it from a thread of its own, or the server's).
    public func waitForLog(timeout: TimeInterval = 10, where match: (String) -> Bool) -> String? {
        logLines.wait(timeout: timeout, where: match)
    }

    public func write(_ text: String, to path: String) throws {
        try text.write(to: root.appendingPathComponent(path), atomically: false, encoding: .utf8)
    }

    public func stop() async {
        close()
    }

    /// `stop()` for a test that must not suspend (each suspension queues it behind the other
    /// tests on Swift's global executor): the server stops and the folder goes, on this thread.
    public func close() {
        server.stop()
        try? FileManager.default.removeItem(at: root)
    }
}

final class LogLines: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: [String] = []
    func append(_ line: String) {
        condition.withLock {
            stored.append(line)
            condition.broadcast()
        }
    }
    var lines: [String] { condition.withLock { stored } }

    func wait(timeout: TimeInterval, where match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = stored.first(where: match) { return found }
            if !condition.wait(until: deadline) { return stored.first(where: match) }
        }
    }
}

/// Collects values handed over from other threads, and waits for them.
public final class Inbox<T>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [T] = []

    public init() {}

    /// Everything put so far.
    public var all: [T] {
        condition.lock()
        defer { condition.unlock() }
        return items
    }

    public func put(_ item: T) {
        condition.lock()
        items.append(item)
        condition.broadcast()
        condition.unlock()
    }

    /// The first item that satisfies `match`, waiting up to `timeout` seconds for it on a thread
    /// of its own (see `blocking` for what that costs the test).
    public func wait(timeout: TimeInterval = 5, where match: @escaping @Sendable (T) -> Bool = { _ in true }) async
        -> T?
    {
        let box = try? await blocking { UncheckedBox(self.waitHere(timeout: timeout, where: match)) }
        return box?.value
    }

    /// `wait` on the calling thread, for a test that must not suspend (each suspension queues it
    /// behind the other tests on Swift's global executor).
    public func waitHere(timeout: TimeInterval = 5, where match: (T) -> Bool = { _ in true }) -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = items.first(where: match) { return found }
            if !condition.wait(until: deadline) { return items.first(where: match) }
        }
    }
}

/// Runs blocking work (a monitor's synchronous requests, raw sockets) on its own thread, leaving
/// the concurrency pool's thread to other tests (the server under test runs on threads of its
/// own and needs none). The test pays for it when it resumes: it waits behind every test queued
/// meanwhile on Swift's global executor, as wide as the machine has cores, which in a full run
/// can be minutes. Work of a second or less is better done inline (docs/developing.md,
/// "Durations in a full test run").
public func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
    }
}

public struct UncheckedBox<T>: @unchecked Sendable {
    public let value: T
    public init(_ value: T) { self.value = value }
}
