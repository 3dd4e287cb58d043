import FlowLoader
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads the live source's server-sent events and decodes each `change` event.
final class EventStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let request: URLRequest
    private let onChange: @Sendable (LiveChange) -> Void
    private let onHello: @Sendable (Int) -> Void
    private let onEnd: @Sendable (String) -> Void
    private var buffer: [UInt8] = []
    private var session: URLSession?
    private var ended = false

    init(request: URLRequest, onHello: @escaping @Sendable (Int) -> Void, onChange: @escaping @Sendable (LiveChange) -> Void,
         onEnd: @escaping @Sendable (String) -> Void) {
        self.request = request
        self.onHello = onHello
        self.onChange = onChange
        self.onEnd = onEnd
    }

    func start() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: queue)
        self.session = session
        session.dataTask(with: request).resume()
    }

    func cancel() {
        session?.invalidateAndCancel()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if status == 200 {
            completionHandler(.allow)
        } else {
            completionHandler(.cancel)
            end(status == 401 ? "the live source rejected the token" : "the live source answered \(status)")
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        buffer.append(contentsOf: data)
        while let event = nextEvent() {
            if event.name == "hello",
               let hello = try? JSONDecoder().decode([String: Int].self, from: Data(event.data.utf8)),
               let revision = hello["revision"] {
                onHello(revision)
                continue
            }
            guard event.name == LiveProtocol.changeEvent,
                  let change = try? JSONDecoder().decode(LiveChange.self, from: Data(event.data.utf8)) else { continue }
            onChange(change)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        end(error.map { "connection to the live source lost: \($0.localizedDescription)" } ?? "the live source closed the stream")
        session.finishTasksAndInvalidate()
    }

    private func end(_ reason: String) {
        guard !ended else { return }
        ended = true
        onEnd(reason)
    }

    /// Takes one complete event (up to a blank line) off the buffer.
    private func nextEvent() -> (name: String, data: String)? {
        guard let end = (0..<max(0, buffer.count - 1)).first(where: { buffer[$0] == 10 && buffer[$0 + 1] == 10 }) else {
            return nil
        }
        let text = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 2)
        var name = "message"
        var data: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("event:") {
                name = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("data:") {
                data.append(String(line.dropFirst(5).drop(while: { $0 == " " })))
            }
        }
        return (name, data.joined(separator: "\n"))
    }
}
