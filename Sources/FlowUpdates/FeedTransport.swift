import FlowHTTP
import FlowSupport
import Foundation
#if canImport(Darwin)
    import Darwin
    import FlowPackage  // Locked, for URLSession's answer
#endif

/// Reads feed files: `file://` from disk; `http://` over FlowHTTP's plain-socket HTTP/1.1
/// client; `https://` through URLSession on Apple platforms.
///
/// Not URLSession on Linux: there it lives in FoundationNetworking, over libcurl, whose
/// dependencies would load into every `flowpkg` process at start-up (about 9 ms at each
/// command, updates or not). A Linux host that needs HTTPS fetches the files itself, or serves
/// the feed over `file://` or `http://` on a network it trusts; every package is checked
/// against the host's trusted key whatever the transport.
enum FeedTransport {
    /// Hands the body of `url` to `sink` piece by piece; more than `limit` bytes is an error.
    static func get(
        _ url: URL, limit: Int64, timeout: TimeInterval,
        sink: (ArraySlice<UInt8>) throws(UpdateError) -> Void
    ) throws(UpdateError) {
        switch url.scheme?.lowercased() {
        case "file":
            try readFile(url, limit: limit, sink: sink)
        case "http":
            try HTTPGet.get(url, limit: limit, timeout: timeout, sink: sink)
        case "https":
            #if canImport(Darwin)
                try SessionGet.get(url, limit: limit, timeout: timeout, sink: sink)
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

    private static var httpsNote: String {
        #if canImport(Darwin)
            return " or https://"
        #else
            return ""
        #endif
    }

    /// The whole body of `url`, at most `limit` bytes.
    static func fetch(_ url: URL, limit: Int64, timeout: TimeInterval) throws(UpdateError) -> [UInt8] {
        var bytes: [UInt8] = []
        try get(url, limit: limit, timeout: timeout) { bytes += $0 }
        return bytes
    }

    private static func readFile(
        _ url: URL, limit: Int64,
        sink: (ArraySlice<UInt8>) throws(UpdateError) -> Void
    ) throws(UpdateError) {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw .unreachable(url: url.absoluteString, reason: "no such file")
        }
        defer { try? handle.close() }
        var total: Int64 = 0
        while true {
            let chunk = handle.readData(ofLength: 256 * 1024)
            if chunk.isEmpty { return }
            total += Int64(chunk.count)
            if total > limit { throw .unreachable(url: url.absoluteString, reason: "it is larger than \(limit) bytes") }
            try sink(ArraySlice(chunk))
        }
    }
}

/// One GET through FlowHTTP's plain-socket `HTTPConnection` (HTTP/1.1, `Connection: close`):
/// status 200 only. No redirects: a feed lives at one address.
enum HTTPGet {
    static func get(
        _ url: URL, limit: Int64, timeout: TimeInterval,
        sink: (ArraySlice<UInt8>) throws(UpdateError) -> Void
    ) throws(UpdateError) {
        let address = url.absoluteString
        func unreachable(_ failure: HTTPConnection.Failure) -> UpdateError {
            switch failure {
            case .unreachable(let reason), .malformed(let reason): return .unreachable(url: address, reason: reason)
            }
        }
        do {
            let connection = try HTTPConnection.get(
                url, headers: [("User-Agent", "flowpkg-updates"), ("Accept-Encoding", "identity")],
                timeout: timeout, readTimeout: timeout)
            let head = try connection.readHead()
            guard head.status == 200 else {
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
                            throw .unreachable(url: address, reason: "the answer is larger than \(limit) bytes")
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
                    outcome.withLock { $0 = .failure(.unreachable(url: address, reason: error.localizedDescription)) }
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
                    outcome.withLock { $0 = .failure(.unreachable(url: address, reason: error.localizedDescription)) }
                }
            }
            task.resume()
            done.wait()
            let file = try outcome.withLock { $0 }.get()
            defer { try? FileManager.default.removeItem(at: file) }
            try FeedTransport.get(URL(fileURLWithPath: file.path), limit: limit, timeout: timeout, sink: sink)
        }
    }
#endif
