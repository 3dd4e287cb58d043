import FlowHTTP
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Dispatch
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(Darwin)
    import Darwin
    import FlowPackage  // Locked, for URLSession's answer
#endif

/// Reads feed files: `file://` from disk; `http://` over FlowHTTP's plain-socket HTTP/1.1
/// client; `https://` through URLSession on Apple platforms.
///
/// Not URLSession on Linux: there it lives in FoundationNetworking, over libcurl, whose
/// dependencies would load into every `flowpkg` process at start-up (6 ms of CPU at each
/// command, updates or not: Benchmarks/README.md, "HTTP layer"). A Linux host that needs HTTPS fetches the files itself, or serves
/// the feed over `file://` or `http://` on a network it trusts; every package is checked
/// against the host's trusted key whatever the transport.
enum FeedTransport {
    /// Part of a file: bytes `start` through `end` (inclusive; nil: to the end).
    struct ByteRange: Equatable {
        var start: Int64
        var end: Int64?

        var header: String { "bytes=\(start)-" + (end.map(String.init) ?? "") }
    }

    /// What a server sent for a request with a range.
    enum Served: Equatable {
        /// The whole file (no range asked, or the server ignores ranges).
        case whole
        /// Exactly the range asked for.
        case range
    }

    /// Hands the body of `url` (or `range` of it) to `sink` piece by piece; more than `limit`
    /// bytes is an error, and so is passing `deadline`. With a range and `wholeAllowed` false,
    /// a server that answers with the whole file is an error (`rangesUnsupported`) before any
    /// of its body is read.
    @discardableResult
    static func get(
        _ url: URL, limit: Int64, timeout: TimeInterval, deadline: CheckDeadline, range: ByteRange? = nil,
        wholeAllowed: Bool = true, sink: (ArraySlice<UInt8>) throws(UpdateError) -> Void
    ) throws(UpdateError) -> Served {
        if deadline.passed { throw .deadline(seconds: deadline.seconds) }
        switch url.scheme?.lowercased() {
        case "file":
            return try readFile(url, limit: limit, deadline: deadline, range: range, sink: sink)
        case "http":
            return try HTTPGet.get(
                url, limit: limit, timeout: timeout, deadline: deadline, range: range, wholeAllowed: wholeAllowed,
                sink: sink)
        case "https":
            #if canImport(Darwin)
                try SessionGet.get(url, limit: limit, timeout: min(timeout, deadline.remaining), sink: sink)
                return .whole
            #else
                throw .unsupportedScheme(
                    "https:// update feeds are not supported on this platform (flowpkg does not link "
                        + "libcurl on Linux); serve the feed over http:// on a network you trust or use a file:// URL "
                        + "(packages are checked against the trusted key either way), or fetch it over HTTPS on Apple platforms"
                )
            #endif
        default:
            throw .unsupportedScheme(
                "an update feed URL starts with http://, file://\(Self.httpsNote), not '\(url.absoluteString)'")
        }
    }

    /// How a reason starts when the server sent more than it may: nothing of it is kept.
    static let tooLarge = "the answer is larger than"
    /// How a reason starts when the server said it would send more than it may.
    static let declaredTooLarge = "the answer is"

    /// The reason a range request's answer is refused when the server sent the whole file.
    static let rangesUnsupported = "the server does not serve byte ranges"

    private static var httpsNote: String {
        #if canImport(Darwin)
            return " or https://"
        #else
            return ""
        #endif
    }

    /// The whole body of `url`, at most `limit` bytes.
    static func fetch(_ url: URL, limit: Int64, timeout: TimeInterval, deadline: CheckDeadline) throws(UpdateError)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        try get(url, limit: limit, timeout: timeout, deadline: deadline) { bytes += $0 }
        return bytes
    }

    private static func readFile(
        _ url: URL, limit: Int64, deadline: CheckDeadline, range: ByteRange?,
        sink: (ArraySlice<UInt8>) throws(UpdateError) -> Void
    ) throws(UpdateError) -> Served {
        guard let handle = try? ReadableFile(path: url.path) else {
            throw .unreachable(url: url.absoluteString, reason: "no such file")
        }
        var left = Int64.max
        if let range {
            do { try handle.seek(to: max(0, range.start)) } catch {
                throw .unreachable(url: url.absoluteString, reason: "\(error)")
            }
            if let end = range.end { left = end - range.start + 1 }
        }
        var total: Int64 = 0
        while left > 0 {
            let chunk: [UInt8]
            do { chunk = try handle.read(upTo: Int(min(256 * 1024, left))) } catch {
                throw .unreachable(url: url.absoluteString, reason: "\(error)")
            }
            if chunk.isEmpty { break }
            total += Int64(chunk.count)
            left -= Int64(chunk.count)
            if total > limit { throw .unreachable(url: url.absoluteString, reason: "it is larger than \(limit) bytes") }
            if deadline.passed { throw .deadline(seconds: deadline.seconds) }
            try sink(ArraySlice(chunk))
        }
        return range == nil ? .whole : .range
    }
}

/// When a whole update check (index and download) must be over.
struct CheckDeadline: Sendable {
    let date: Date
    /// The deadline as the host set it, for messages.
    let seconds: Double

    init(seconds: Double) {
        self.seconds = seconds
        date = Date(timeIntervalSinceNow: seconds)
    }

    var remaining: TimeInterval { max(0, date.timeIntervalSinceNow) }
    var passed: Bool { remaining <= 0 }
}

/// One GET through FlowHTTP's plain-socket `HTTPConnection` (HTTP/1.1, `Connection: close`):
/// status 200 (or 206 for a range) only. No redirects: a feed lives at one address. A
/// watchdog cancels the connection at the check's deadline, however slowly the server sends.
enum HTTPGet {
    static func get(
        _ url: URL, limit: Int64, timeout: TimeInterval, deadline: CheckDeadline,
        range: FeedTransport.ByteRange?, wholeAllowed: Bool,
        sink: (ArraySlice<UInt8>) throws(UpdateError) -> Void
    ) throws(UpdateError) -> FeedTransport.Served {
        let address = url.absoluteString
        func unreachable(_ failure: HTTPConnection.Failure) -> UpdateError {
            if deadline.passed { return .deadline(seconds: deadline.seconds) }
            switch failure {
            case .unreachable(let reason), .malformed(let reason): return .unreachable(url: address, reason: reason)
            }
        }
        do {
            var headers = [("User-Agent", "flowpkg-updates"), ("Accept-Encoding", "identity")]
            if let range { headers.append(("Range", range.header)) }
            let wait = max(0.001, min(timeout, deadline.remaining))
            let connection = try HTTPConnection.get(url, headers: headers, timeout: wait, readTimeout: wait)
            let cancellation = connection.cancellation
            let watchdog = DispatchWorkItem { cancellation.cancel() }
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline.remaining, execute: watchdog)
            defer { watchdog.cancel() }
            let head = try connection.readHead()
            var served = FeedTransport.Served.whole
            switch head.status {
            case 200:
                if range != nil, !wholeAllowed {
                    throw UpdateError.unreachable(url: address, reason: FeedTransport.rangesUnsupported)
                }
            case 206 where range != nil:
                // "bytes START-END/TOTAL": the answer must start where the range asked.
                let contentRange = head.headers["content-range"] ?? ""
                guard let range, contentRange.hasPrefix("bytes \(range.start)-") else {
                    throw UpdateError.unreachable(
                        url: address, reason: "HTTP 206 for another range ('\(contentRange.prefix(60))')")
                }
                served = .range
            case 300..<400:
                throw UpdateError.unreachable(
                    url: address, reason: "HTTP \(head.status) (a redirect; a feed is read only at its own address)")
            default:
                throw UpdateError.unreachable(url: address, reason: "HTTP \(head.status)")
            }
            if let length = head.headers["content-length"].flatMap({ Int64($0) }), length > limit {
                throw UpdateError.unreachable(url: address, reason: "the answer is \(length) bytes, more than \(limit)")
            }
            var total: Int64 = 0
            var sinkError: UpdateError?
            do {
                try connection.streamBody(head) { (piece) throws(HTTPConnection.Failure) in
                    guard sinkError == nil else { return }
                    total += Int64(piece.count)
                    do throws(UpdateError) {
                        if total > limit {
                            throw .unreachable(url: address, reason: "\(FeedTransport.tooLarge) \(limit) bytes")
                        }
                        try sink(piece)
                    } catch {
                        // Stops the transfer; the read that follows fails, and this error is the one reported.
                        sinkError = error
                        connection.cancel()
                    }
                }
            } catch {
                throw sinkError ?? unreachable(error)
            }
            if let sinkError { throw sinkError }
            return served
        } catch let error as UpdateError {
            throw error
        } catch let error as HTTPConnection.Failure {
            throw unreachable(error)
        } catch {
            throw .unreachable(url: address, reason: "\(error)")
        }
    }
}

#if canImport(Darwin)
    /// HTTPS through URLSession, Apple's client (certificate checks, proxies, HTTP/2): the
    /// download goes to a temporary file, then is handed to the sink in pieces.
    enum SessionGet {
        static func get(
            _ url: URL, limit: Int64, timeout: TimeInterval,
            sink: (ArraySlice<UInt8>) throws(UpdateError) -> Void
        ) throws(UpdateError) {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            let session = URLSession(configuration: configuration)
            defer { session.finishTasksAndInvalidate() }
            let done = DispatchSemaphore(value: 0)
            let address = url.absoluteString
            // The completion handler's result, handed from URLSession's queue to the waiting thread.
            let outcome = Locked<Result<URL, UpdateError>>(.failure(.unreachable(url: address, reason: "no answer")))
            let task = session.downloadTask(with: url) { location, response, error in
                defer { done.signal() }
                if let error {
                    outcome.withLock { $0 = .failure(.unreachable(url: address, reason: failureReason(error))) }
                    return
                }
                guard let http = response as? HTTPURLResponse, http.statusCode == 200, let location else {
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    outcome.withLock { $0 = .failure(.unreachable(url: address, reason: "HTTP \(status)")) }
                    return
                }
                // URLSession removes the file when this handler returns: move it first.
                let kept = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
                do {
                    try FileManager.default.moveItem(at: location, to: kept)
                    outcome.withLock { $0 = .success(kept) }
                } catch {
                    outcome.withLock { $0 = .failure(.unreachable(url: address, reason: failureReason(error))) }
                }
            }
            task.resume()
            done.wait()
            let file = try outcome.withLock { $0 }.get()
            defer { try? FileManager.default.removeItem(at: file) }
            try FeedTransport.get(
                URL(fileURLWithPath: file.path), limit: limit, timeout: timeout,
                deadline: CheckDeadline(seconds: timeout), sink: sink)
        }
    }
#endif
