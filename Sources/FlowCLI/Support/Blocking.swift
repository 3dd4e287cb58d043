import Foundation

/// Runs async library code from a synchronous command's `run()`.
enum Blocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, Error> {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return box.result!
    }

    private final class ResultBox<T>: @unchecked Sendable {
        var result: Result<T, Error>?
    }
}

/// Blocks until SIGINT or SIGTERM, so a server can stop cleanly instead of being killed.
enum SignalWait {
    /// Waits for SIGINT or SIGTERM and returns which came.
    @discardableResult
    static func untilInterrupted() -> Int32 {
        untilInterrupted(orWoken: DispatchSemaphore(value: 0))!
    }

    /// Waits for SIGINT or SIGTERM (returning which came) or for `wake` to be signalled
    /// (returning nil).
    static func untilInterrupted(orWoken wake: DispatchSemaphore) -> Int32? {
        let done = DispatchSemaphore(value: 0)
        let received = SignalBox()
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                received.set(signalNumber)
                done.signal()
            }
            source.resume()
            sources.append(source)
        }
        let waker = Thread {
            wake.wait()
            done.signal()
        }
        waker.start()
        done.wait()
        sources.forEach { $0.cancel() }
        return received.value
    }

    private final class SignalBox: @unchecked Sendable {
        private let lock = NSLock()
        private var signalNumber: Int32?
        func set(_ value: Int32) { lock.withLock { if signalNumber == nil { signalNumber = value } } }
        var value: Int32? { lock.withLock { signalNumber } }
    }
}
