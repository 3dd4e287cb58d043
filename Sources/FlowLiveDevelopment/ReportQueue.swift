import FlowLiveProtocol
import FlowLoader
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A load whose size and hash are worked out when it is sent.
struct PendingLoad: Sendable {
    var item: LoadedItem
    var bytes: [UInt8]
    var time: Double

    var event: LiveEvent {
        let kind: LiveLoadedItem.Kind, name: String
        switch item.item {
        case .module(let module): kind = .module; name = module.rawValue
        case .resource(let key): kind = .resource; name = key.description
        }
        let digest = SHA256.hex(of: bytes)
        let source: String
        switch item.source {
        case .live: source = "live"
        case .downloadedUpdate: source = "update"
        case .embeddedPackage: source = "embedded"
        case .projectFolder: source = "folder"
        }
        return LiveEvent(
            kind: .loaded, time: time,
            items: [
                LiveLoadedItem(
                    kind: kind, name: name, source: source, size: bytes.count, sha256: digest, loadedAt: time)
            ])
    }
}

/// The reporter's queue and its counters, behind one condition.
final class ReportQueue: @unchecked Sendable {
    enum Queued: Sendable {
        case ready(LiveEvent)
        /// A line of output, made an event only when sent (most of what a program reports).
        case line(String, LiveEvent.Stream, Double)
        case load(PendingLoad)

        var event: LiveEvent {
            switch self {
            case .ready(let event): return event
            case .line(let text, let stream, let time):
                return LiveEvent(kind: .output, time: time, stream: stream, text: text)
            case .load(let load): return load.event
            }
        }
    }

    struct State {
        var events: [Queued] = []
        /// Where the queue starts in `events` (taking from the front is O(1)).
        var head = 0
        var partial: [LiveEvent.Stream: String] = [:]
        var dropped = 0
        /// Events queued since the start (dropped ones too) and events sent or dropped.
        var queuedTotal = 0
        var sentTotal = 0
        var stopped = false
        /// The last attempt to send found no server: a flush does not wait for it.
        var unreachable = false
        let capacity: Int

        var count: Int { events.count - head }

        mutating func append(_ event: LiveEvent) { push(.ready(event)) }
        mutating func appendLine(_ text: String, stream: LiveEvent.Stream, time: Double) {
            push(.line(text, stream, time))
        }
        mutating func appendLoad(_ load: PendingLoad) { push(.load(load)) }

        private mutating func push(_ queued: Queued) {
            queuedTotal += 1
            if count >= capacity {
                head += 1
                dropped += 1
                sentTotal += 1
            }
            events.append(queued)
            if head > 4096, head * 2 > events.count {
                events.removeFirst(head)
                head = 0
            }
        }

        mutating func flushPartials() {
            for stream in [LiveEvent.Stream.stdout, .stderr] {
                guard let text = partial[stream], !text.isEmpty else { continue }
                partial[stream] = ""
                append(LiveEvent(kind: .output, stream: stream, text: text))
            }
        }

        /// A batch that could not be sent goes back in front, as far as the capacity allows
        /// (what does not fit is the oldest, and is dropped).
        mutating func putBack(_ batch: [Queued]) {
            let room = max(0, capacity - count)
            let kept = batch.suffix(room)
            dropped += batch.count - kept.count
            sentTotal += batch.count - kept.count
            events = Array(kept) + events[head...]
            head = 0
        }
    }

    private var state: State
    private let condition = Condition()

    init(capacity: Int) {
        state = State(capacity: capacity)
    }

    /// Threads waiting on the condition: a change wakes them only when there are some.
    private var waiters = 0

    /// Changes the state and wakes whoever waits.
    func change<Result>(_ body: (inout State) -> Result) -> Result {
        condition.lock()
        defer {
            if waiters > 0 { condition.broadcast() }
            condition.unlock()
        }
        return body(&state)
    }

    /// Waits on the condition (with the lock held) until woken or `deadline`.
    private func waitOnce(until deadline: Date?) -> Bool {
        waiters += 1
        defer { waiters -= 1 }
        guard let deadline else {
            condition.wait()
            return true
        }
        return condition.wait(until: deadline)
    }

    func wait(deadline: Date, until ready: (State) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !ready(state) {
            if !waitOnce(until: deadline) { return ready(state) }
        }
        return true
    }

    /// Waits for events, then takes up to `maxEvents`; nil once stopped. A partial line
    /// waiting alone is taken after a tenth of a second without its end.
    func takeBatch(maxEvents: Int, notBefore: Date) -> (events: [Queued], count: Int, dropped: Int)? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if state.stopped { return nil }
            if state.count > 0 {
                let early = notBefore.timeIntervalSinceNow
                if early > 0, state.count < maxEvents {
                    // Too soon after the last report: let more lines gather. A sleep, not a
                    // wait on the condition, so the lines printed meanwhile wake no one.
                    condition.unlock()
                    DetachedThread.sleep(seconds: early)
                    condition.lock()
                    continue
                }
                let end = min(state.events.count, state.head + maxEvents)
                let batch = Array(state.events[state.head..<end])
                state.head = end
                if state.head == state.events.count {
                    state.events.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                return (batch, batch.count, state.dropped)
            }
            if state.partial.values.contains(where: { !$0.isEmpty }) {
                if !waitOnce(until: Date(timeIntervalSinceNow: 0.1)), state.count == 0 {
                    state.flushPartials()
                }
                continue
            }
            _ = waitOnce(until: nil)
        }
    }
}
