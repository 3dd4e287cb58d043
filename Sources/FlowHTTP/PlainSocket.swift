#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

/// A TCP socket through POSIX calls, closed when the value goes away: what the live channel's
/// client (FlowLiveDevelopment) and server (FlowLiveServer) speak HTTP over.
///
/// Plain sockets, not URLSession or a server library: on Linux URLSession lives in
/// FoundationNetworking, over libcurl, whose dependencies (TLS, Kerberos, LDAP, …) would load
/// into every process at start-up, 6 ms of CPU at each `flowpkg` command, live or not
/// (Benchmarks/README.md, "HTTP layer", which measures swift-nio too).
package final class PlainSocket: Sendable {
    /// Why a socket call failed: errno's text, and whether it was a timeout.
    package struct Failure: Error, Sendable {
        package var reason: String
        package var code: Int32
        package var timedOut: Bool { code == EAGAIN || code == EWOULDBLOCK }
        /// For `accept`: the listening socket is gone (shut down or closed). Anything else
        /// (out of descriptors or memory, a connection that failed before it was taken) is
        /// about one connection or passes; the listener waits a moment and goes on.
        package var isFatal: Bool { code == EINVAL || code == EBADF || code == ENOTSOCK }

        init(_ code: Int32 = errno, _ reason: String? = nil) {
            self.code = code
            self.reason = reason ?? String(cString: strerror(code))
        }
    }

    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
        var on: Int32 = 1
        #if canImport(Darwin)
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        // Not inherited by a program the host starts (Lua's io.popen): sockets made here carry
        // the flag from the start on Linux; accepted ones, and Darwin's, get it now.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(descriptor) }

    /// Connects to `host` (a name or an address) and `port`, giving up after `timeout`.
    package static func connect(host: String, port: Int, timeout: TimeInterval) throws(Failure) -> PlainSocket {
        var last = Failure(EHOSTUNREACH, "no address for \(host)")
        for address in try addresses(host: host, port: port, passive: false) {
            let descriptor = socket(address.family, streamType | closeOnExec, 0)
            if descriptor < 0 { last = Failure(); continue }
            if let failure = connect(descriptor, to: address, timeout: timeout) {
                close(descriptor)
                last = failure
                continue
            }
            return PlainSocket(descriptor: descriptor)
        }
        throw last
    }

    /// Listens on `host` (`localhost` or an address) and `port` (0: any free port).
    package static func listen(host: String, port: UInt16) throws(Failure) -> PlainSocket {
        let name = host == "localhost" ? "127.0.0.1" : host
        guard let address = try addresses(host: name, port: Int(port), passive: true).first else {
            throw Failure(EADDRNOTAVAIL, "no such address")
        }
        let descriptor = socket(address.family, streamType | closeOnExec, 0)
        if descriptor < 0 { throw Failure() }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = address.storage.withUnsafeBytes { raw in
            bind(descriptor, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
        }
        // A deep backlog: a burst of connections waits in the kernel for the accept loop
        // instead of having its SYNs dropped (the kernel caps it at net.core.somaxconn).
        if bound != 0 || systemListen(descriptor, 1024) != 0 {
            let failure = Failure()
            close(descriptor)
            throw failure
        }
        return PlainSocket(descriptor: descriptor)
    }

    /// The next connection, and who made it (`127.0.0.1:51234`); throws once shut down, and
    /// for whatever else keeps this one connection from being accepted (see `Failure.isFatal`).
    package func accept() throws(Failure) -> (socket: PlainSocket, peer: String) {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemAccept(descriptor, $0, &length) }
            }
            if client >= 0 { return (PlainSocket(descriptor: client), Self.describe(storage)) }
            if errno == EINTR || errno == ECONNABORTED { continue }
            throw Failure()
        }
    }

    /// Makes `accept`, `send` and `receive` return at once instead of waiting (`receiveNow`
    /// tells "nothing yet" apart), or wait again.
    package func setNonBlocking(_ on: Bool) {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
    }

    /// What a receive on a non-blocking socket found.
    package enum Available {
        case bytes([UInt8])
        /// Nothing has arrived yet.
        case nothingYet
        /// The other side closed its end.
        case closed
    }

    /// Up to `max` bytes of what has arrived, without waiting (the socket is non-blocking).
    package func receiveNow(max: Int) throws(Failure) -> Available {
        var bytes = [UInt8](repeating: 0, count: max)
        while true {
            let count = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, max, 0) }
            if count > 0 { bytes.removeLast(max - count); return .bytes(bytes) }
            if count == 0 { return .closed }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return .nothingYet }
            throw Failure()
        }
    }

    /// Waits up to `timeout` for any of `sockets` to have something to read (bytes, a
    /// connection to accept, or its end); returns which do, in order.
    package static func readable(_ sockets: [PlainSocket], within timeout: TimeInterval) -> [Bool] {
        var probes = sockets.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        let milliseconds = Int32(min(max(timeout, 0), 3600) * 1000)
        let ready = probes.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        guard ready > 0 else { return Array(repeating: false, count: sockets.count) }
        return probes.map { $0.revents & Int16(POLLIN | POLLERR | POLLHUP | POLLNVAL) != 0 }
    }

    /// The port it is bound to.
    package var localPort: UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard status == 0 else { return nil }
        return Self.port(of: storage)
    }

    /// How long a send or a receive may wait; nil waits as long as it takes.
    package func setTimeouts(send: TimeInterval?, receive: TimeInterval?) {
        for (option, seconds) in [(SO_SNDTIMEO, send), (SO_RCVTIMEO, receive)] {
            let value = seconds ?? 0
            var wait = timeval(tv_sec: Int(value), tv_usec: .init((value - value.rounded(.down)) * 1_000_000))
            setsockopt(descriptor, SOL_SOCKET, option, &wait, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Sends every byte.
    package func send(_ bytes: [UInt8]) throws(Failure) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                systemSend(descriptor, raw.baseAddress! + sent, bytes.count - sent)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure()
            }
            sent += count
        }
    }

    /// Up to `max` bytes as they arrive; nil once the other side has closed.
    package func receive(max: Int) throws(Failure) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: max)
        while true {
            let count = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, max, 0) }
            if count > 0 { bytes.removeLast(max - count); return bytes }
            if count == 0 { return nil }
            if errno == EINTR { continue }
            throw Failure()
        }
    }

    /// Up to `max` bytes, waiting until `deadline` at the latest: a peer that sends one byte at
    /// a time cannot stretch a read past it. Throws a timeout once the deadline has passed.
    package func receive(max: Int, before deadline: Date) throws(Failure) -> [UInt8]? {
        let left = deadline.timeIntervalSinceNow
        if left <= 0 { throw Failure(EAGAIN, "timed out") }
        setTimeouts(send: nil, receive: Swift.max(left, 0.001))
        return try receive(max: max)
    }

    /// Whether the other side has closed its end or reset the connection, without waiting and
    /// without taking any byte it sent.
    package var isClosedByPeer: Bool {
        var probe = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&probe, 1, 0) > 0 else { return false }
        if probe.revents & Int16(POLLERR | POLLHUP) != 0 { return true }
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Ends both directions: a receive or accept waiting on another thread returns at once.
    package func shutDown() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Says it will send no more, then reads and drops what the other side still sends (at
    /// most `limit` bytes, for at most `timeout` in all), so closing does not reset the
    /// connection before the other side has read the answer.
    package func finishSending(draining limit: Int = 1 << 20, timeout: TimeInterval = 1) {
        shutdown(descriptor, Int32(SHUT_WR))
        let deadline = Date(timeIntervalSinceNow: timeout)
        var drained = 0
        while drained < limit, let bytes = try? receive(max: 64 * 1024, before: deadline) { drained += bytes.count }
    }

    // MARK: Addresses

    private struct Address {
        var family: Int32
        var storage: [UInt8]
        var length: socklen_t
    }

    #if canImport(Glibc)
        private static let streamType = Int32(SOCK_STREAM.rawValue)
        private static let closeOnExec = Int32(SOCK_CLOEXEC.rawValue)
    #else
        private static let streamType = SOCK_STREAM
        private static let closeOnExec: Int32 = 0
    #endif

    /// Raises this process's soft limit on open descriptors to its hard limit, and returns the
    /// limit now in force: a server holding many connections at once needs more than the usual
    /// default of 1,024.
    @discardableResult
    package static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(resourceLimitFiles, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            #if canImport(Darwin)
                // Darwin refuses a soft limit above OPEN_MAX however high the hard one is.
                raised.rlim_cur = min(limit.rlim_max, rlim_t(OPEN_MAX))
            #endif
            if setrlimit(resourceLimitFiles, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    #if canImport(Glibc)
        private static let resourceLimitFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resourceLimitFiles = RLIMIT_NOFILE
    #endif

    private static func addresses(host: String, port: Int, passive: Bool) throws(Failure) -> [Address] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        if passive { hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST }
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            throw Failure(
                passive ? EADDRNOTAVAIL : EHOSTUNREACH,
                "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var found: [Address] = []
        var next = list
        while let info = next {
            next = info.pointee.ai_next
            guard let address = info.pointee.ai_addr else { continue }
            let bytes = Array(UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen)))
            found.append(Address(family: info.pointee.ai_family, storage: bytes, length: info.pointee.ai_addrlen))
        }
        return found
    }

    /// Connects without blocking past `timeout`; nil when connected.
    private static func connect(_ descriptor: Int32, to address: Address, timeout: TimeInterval) -> Failure? {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(descriptor, F_SETFL, flags) }
        let status = address.storage.withUnsafeBytes { raw in
            systemConnect(descriptor, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
        }
        if status == 0 { return nil }
        guard errno == EINPROGRESS else { return Failure() }
        var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&poller, 1, Int32(min(max(timeout, 0.001), 3600) * 1000))
        if ready == 0 { return Failure(ETIMEDOUT, "timed out connecting after \(String(printf: "%g", timeout)) s") }
        if ready < 0 { return Failure() }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
        return error == 0 ? nil : Failure(error)
    }

    private static func describe(_ storage: sockaddr_storage) -> String {
        var copy = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let port = Self.port(of: storage) ?? 0
        if Int32(storage.ss_family) == AF_INET6 {
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address -> String in
                    var raw = address.pointee.sin6_addr
                    inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                    return "[\(String(cString: text))]:\(port)"
                }
            }
        }
        return withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address -> String in
                var raw = address.pointee.sin_addr
                inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                return "\(String(cString: text)):\(port)"
            }
        }
    }

    private static func port(of storage: sockaddr_storage) -> UInt16? {
        var copy = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
        default:
            return nil
        }
    }
}

// The methods above shadow these names inside the type.
#if canImport(Glibc)
    private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Glibc.connect(fd, address, length)
    }
    private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { Glibc.listen(fd, backlog) }
    private func systemAccept(
        _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
    ) -> Int32 { Glibc.accept(fd, address, length) }
    private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        Glibc.send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    }
#else
    private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        Darwin.connect(fd, address, length)
    }
    private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { Darwin.listen(fd, backlog) }
    private func systemAccept(
        _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
    ) -> Int32 { Darwin.accept(fd, address, length) }
    private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        Darwin.send(fd, bytes, count, 0)
    }
#endif
