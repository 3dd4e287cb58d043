import FlowHTTP
import FlowLiveProtocol
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

/// Why a request to the live source failed.
public enum LiveSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing answered (refused, timed out, dropped).
    case unreachable(url: String, reason: String)
    /// The live source refused the token.
    case unauthorized(url: String)
    /// The live source answered with an error status.
    case status(url: String, code: Int, message: String)
    /// The live source answered with something that is not the protocol.
    case malformed(url: String, reason: String)

    public var description: String {
        switch self {
        case .unreachable(let url, let reason): return "live source \(url) is unreachable: \(reason)"
        case .unauthorized(let url):
            return "live source \(url) rejected the token: pass the token `flowpkg serve` printed"
        case .status(let url, let code, let message): return "live source \(url) answered \(code): \(message)"
        case .malformed(let url, let reason): return "live source \(url) sent an answer flowpkg cannot read: \(reason)"
        }
    }
}

/// Blocking, authenticated GETs against a live source; callers are on the context's own thread.
struct LiveHTTPClient: Sendable {
    let baseURL: URL
    let token: String
    let timeout: TimeInterval

    /// The most bytes one answer may hold: a module or a resource as large as a package allows.
    static let maxBodyBytes = 1 << 30

    /// `path` (and `query`) under the live source's URL.
    func url(_ path: String, query: [String: String] = [:]) -> URL {
        // The base URL was parsed once already (the configuration's): it always has components.
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            return baseURL.appendingPathComponent(path)
        }
        components.path = (components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path) + path
        if !query.isEmpty {
            components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        return components.url ?? baseURL.appendingPathComponent(path)
    }

    var authorization: (String, String) { ("Authorization", "Bearer \(token)") }

    /// The body of a 200 answer; nil for 404; throws for anything else.
    func get(_ path: String, query: [String: String] = [:], timeout: TimeInterval? = nil) throws(LiveSourceError)
        -> Data?
    {
        let url = url(path, query: query)
        let address = url.absoluteString
        let wait = timeout ?? self.timeout
        let connection: HTTPConnection
        let head: HTTPConnection.Head
        do {
            connection = try HTTPConnection.get(url, headers: [authorization], timeout: wait, readTimeout: wait)
            head = try connection.readHead()
            switch head.status {
            case 200: return Data(try connection.readBody(head, limit: Self.maxBodyBytes))
            case 404: return nil
            default: break
            }
        } catch {
            switch error {
            case .unreachable(let reason): throw .unreachable(url: address, reason: reason)
            case .malformed(let reason): throw .malformed(url: address, reason: reason)
            }
        }
        if head.status == 401 || head.status == 403 { throw .unauthorized(url: baseURL.absoluteString) }
        let body = (try? connection.readBody(head, limit: 64 * 1024)) ?? []
        let message = (try? JSONDecoder().decode([String: String].self, from: Data(body)))?["error"] ?? "no details"
        throw .status(url: address, code: head.status, message: message)
    }

    func manifest(timeout: TimeInterval? = nil) throws(LiveSourceError) -> LiveManifest {
        guard let data = try get(LiveProtocol.manifestPath, timeout: timeout) else {
            throw .malformed(
                url: baseURL.absoluteString,
                reason: "no manifest at \(LiveProtocol.manifestPath): is this a flowpkg live source?")
        }
        do {
            return try JSONDecoder().decode(LiveManifest.self, from: data)
        } catch {
            throw .malformed(url: baseURL.absoluteString, reason: "the manifest does not decode (\(error))")
        }
    }
}
