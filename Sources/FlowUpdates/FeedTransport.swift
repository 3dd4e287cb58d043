import FlowLoader
import Foundation
#if canImport(Darwin)
import Darwin
#endif

/// Reads feed files: `file://` from disk; `http://` over the project's plain-socket HTTP/1.1
/// client; `https://` through URLSession on Apple platforms.
///
/// Not URLSession on Linux: there it lives in FoundationNetworking, over libcurl, whose
/// dependencies would load into every `flowpkg` process at start-up (about 9 ms at each
/// command, updates or not). A Linux host that needs HTTPS fetches the files itself, or serves
/// the feed over `file://` or `http://` on a network it trusts; every package is checked
/// against the host's trusted key whatever the transport.
enum FeedTransport {
    /// Hands the body of `url` to `sink` piece by piece; more than `limit` bytes is an error.
    static func get(_ url: URL, limit: Int64, timeout: TimeInterval,
                    sink: (ArraySlice<UInt8>) throws(UpdateError) -> Void) throws(UpdateError) {
        switch url.scheme?.lowercased() {
        case "file":
            try readFile(url, limit: limit, sink: sink)
        case "http":
            try HTTPGet.get(url, limit: limit, timeout: timeout, sink: sink)
        case "https":
            #if canImport(Darwin)
            try SessionGet.get(url, limit: limit, timeout: timeout, sink: sink)
            #else
            throw .unsupportedScheme("https:// update feeds are not supported on this platform (flowpkg does not link "
                + "libcurl on Linux); serve the feed over http:// on a network you trust or use a file:// URL "
                + "(packages are checked against the trusted key either way), or fetch it over HTTPS on Apple platforms")
            #endif
        default:
            throw .unsupportedScheme("an update feed URL starts with http://, file://\(Self.httpsNote), not '\(url.absoluteString)'")
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

    private static func readFile(_ url: URL, limit: Int64,
                                 sink: (ArraySlice<UInt8>) throws(UpdateError) -> Void) throws(UpdateError) {
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

/// One GET over a plain TCP socket (HTTP/1.1, `Connection: close`): status 200 only, the body
/// by Content-Length, chunks, or until the connection closes. No redirects: a feed lives at
/// one address.
enum HTTPGet {
    static func get(_ url: URL, limit: Int64, timeout: TimeInterval,
                    sink: (ArraySlice<UInt8>) throws(UpdateError) -> Void) throws(UpdateError) {
        let address = url.absoluteString
        func unreachable(_ reason: String) -> UpdateError { .unreachable(url: address, reason: reason) }
        guard let host = url.host, !host.isEmpty,
              let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw unreachable("the URL names no host")
        }
        let port = url.port ?? 80
        let socket: PlainSocket
        do { socket = try PlainSocket.connect(host: host, port: port, timeout: timeout) } catch {
            throw unreachable(error.reason)
        }
        socket.setTimeouts(send: timeout, receive: timeout)
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        let hostHeader = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let request = "GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nConnection: close\r\n"
            + "User-Agent: flowpkg-updates\r\nAccept-Encoding: identity\r\n\r\n"
        do { try socket.send(Array(request.utf8)) } catch { throw unreachable(error.reason) }

        let reader = SocketReader(socket)
        func problem(_ problem: SocketReader.Problem) -> UpdateError {
            switch problem {
            case .ended: return unreachable("the connection closed mid-answer")
            case .failed(let failure):
                return unreachable(failure.timedOut ? "no answer within \(String(format: "%g", timeout)) s" : failure.reason)
            case .malformed(let reason): return unreachable(reason)
            }
        }
        func some(_ max: Int) throws(UpdateError) -> ArraySlice<UInt8>? {
            do { return try reader.some(max: max) } catch {
                throw unreachable(error.timedOut ? "no answer within \(String(format: "%g", timeout)) s" : error.reason)
            }
        }
        let head: SocketReader.Head
        do { head = try reader.head() } catch { throw problem(error) }
        let parts = head.startLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw unreachable("it answered '\(head.startLine.prefix(80))', not HTTP/1.1")
        }
        guard status == 200 else {
            throw unreachable("HTTP \(status)\(parts.count > 2 ? " \(parts[2])" : "")")
        }
        var total: Int64 = 0
        func deliver(_ piece: ArraySlice<UInt8>) throws(UpdateError) {
            total += Int64(piece.count)
            if total > limit { throw unreachable("the answer is larger than \(limit) bytes") }
            try sink(piece)
        }
        if head.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            while true {
                let sizeLine: String
                do { sizeLine = try reader.line() } catch { throw problem(error) }
                let digits = sizeLine.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                guard let size = Int(digits, radix: 16), size >= 0 else { throw unreachable("a chunk size reads '\(sizeLine.prefix(20))'") }
                if size == 0 { return }
                var left = size
                while left > 0 {
                    guard let piece = try some(left) else { throw unreachable("the connection closed mid-answer") }
                    left -= piece.count
                    try deliver(piece)
                }
                do { _ = try reader.line() } catch { throw problem(error) }
            }
        } else if let length = head.headers["content-length"] {
            guard var left = Int64(length), left >= 0 else { throw unreachable("Content-Length reads '\(length.prefix(20))'") }
            if left > limit { throw unreachable("the answer is \(left) bytes, more than \(limit)") }
            while left > 0 {
                guard let piece = try some(Int(min(left, 64 * 1024))) else {
                    throw unreachable("the connection closed after \(total) of \(length) bytes")
                }
                left -= Int64(piece.count)
                try deliver(piece)
            }
        } else {
            while let piece = try some(64 * 1024) { try deliver(piece) }
        }
    }
}

#if canImport(Darwin)
/// HTTPS through URLSession, Apple's client (certificate checks, proxies, HTTP/2): the
/// download goes to a temporary file, then is handed to the sink in pieces.
enum SessionGet {
    static func get(_ url: URL, limit: Int64, timeout: TimeInterval,
                    sink: (ArraySlice<UInt8>) throws(UpdateError) -> Void) throws(UpdateError) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<URL, UpdateError> = .failure(.unreachable(url: url.absoluteString, reason: "no answer"))
        let task = session.downloadTask(with: url) { location, response, error in
            defer { done.signal() }
            if let error { outcome = .failure(.unreachable(url: url.absoluteString, reason: error.localizedDescription)); return }
            guard let http = response as? HTTPURLResponse, http.statusCode == 200, let location else {
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                outcome = .failure(.unreachable(url: url.absoluteString, reason: "HTTP \(status)"))
                return
            }
            // The file is removed when this handler returns: move it first.
            let kept = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
            do { try FileManager.default.moveItem(at: location, to: kept); outcome = .success(kept) } catch {
                outcome = .failure(.unreachable(url: url.absoluteString, reason: error.localizedDescription))
            }
        }
        task.resume()
        done.wait()
        let file = try outcome.get()
        defer { try? FileManager.default.removeItem(at: file) }
        var fileURL = URLComponents(); fileURL.scheme = "file"; fileURL.path = file.path
        try FeedTransport.get(fileURL.url!, limit: limit, timeout: timeout, sink: sink)
    }
}
#endif
