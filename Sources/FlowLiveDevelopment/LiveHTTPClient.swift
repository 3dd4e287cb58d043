import FlowLoader
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
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

    func request(_ path: String, query: [String: String] = [:], timeout: TimeInterval? = nil) -> URLRequest {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.path = (components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path) + path
        if !query.isEmpty {
            components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        var request = URLRequest(url: components.url!, timeoutInterval: timeout ?? self.timeout)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    /// The body of a 200 answer; nil for 404; throws for anything else.
    func get(_ path: String, query: [String: String] = [:], timeout: TimeInterval? = nil) throws(LiveSourceError) -> Data? {
        let request = request(path, query: query, timeout: timeout)
        let box = ResponseBox()
        let done = DispatchSemaphore(value: 0)
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            box.set(data: data, response: response as? HTTPURLResponse, error: error)
            done.signal()
        }
        task.resume()
        done.wait()
        let (data, response, error) = box.get()
        let url = request.url?.absoluteString ?? baseURL.absoluteString
        if let error { throw .unreachable(url: url, reason: error.localizedDescription) }
        guard let response else { throw .unreachable(url: url, reason: "no response") }
        switch response.statusCode {
        case 200: return data ?? Data()
        case 404: return nil
        case 401, 403: throw .unauthorized(url: baseURL.absoluteString)
        default:
            let message = data.flatMap { try? JSONDecoder().decode([String: String].self, from: $0)["error"] } ?? "no details"
            throw .status(url: url, code: response.statusCode, message: message)
        }
    }

    func manifest(timeout: TimeInterval? = nil) throws(LiveSourceError) -> LiveManifest {
        guard let data = try get(LiveProtocol.manifestPath, timeout: timeout) else {
            throw .malformed(url: baseURL.absoluteString, reason: "no manifest at \(LiveProtocol.manifestPath): is this a flowpkg live source?")
        }
        do {
            return try JSONDecoder().decode(LiveManifest.self, from: data)
        } catch {
            throw .malformed(url: baseURL.absoluteString, reason: "the manifest does not decode (\(error))")
        }
    }
}

/// Carries a URLSession completion's results back to the waiting thread.
private final class ResponseBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    private var response: HTTPURLResponse?
    private var error: Error?

    func set(data: Data?, response: HTTPURLResponse?, error: Error?) {
        lock.withLock { (self.data, self.response, self.error) = (data, response, error) }
    }

    func get() -> (Data?, HTTPURLResponse?, Error?) {
        lock.withLock { (data, response, error) }
    }
}
