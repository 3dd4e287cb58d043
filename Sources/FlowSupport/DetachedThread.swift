#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread of its own for work that blocks (a socket, a Lua state, a file walk): what
/// Foundation's `Thread` was used for, which FoundationEssentials does not have.
package enum DetachedThread {
    /// Starts `body` on a new detached thread. `name` shows in debuggers and `top -H` (cut to
    /// the 15 bytes Linux keeps); `stackSize` nil is the system's default for new threads.
    package static func start(
        name: String? = nil, stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void
    ) {
        let box = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let status = pthread_create(
            &thread, &attributes,
            { argument in
                #if canImport(Darwin)
                    let start = Unmanaged<Start>.fromOpaque(argument).takeRetainedValue()
                #else
                    let start = Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue()
                #endif
                if let name = start.name {
                    let short = String(decoding: name.utf8.prefix(15), as: UTF8.self)
                    #if canImport(Darwin)
                        pthread_setname_np(short)
                    #else
                        // Glibc's module leaves pthread_setname_np out; the kernel's file is the same.
                        let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
                        if file >= 0 {
                            _ = short.withCString { write(file, $0, strlen($0)) }
                            close(file)
                        }
                    #endif
                }
                start.body()
                return nil
            }, box)
        // As Foundation's Thread, failing to create a thread (out of memory) is not recoverable.
        precondition(status == 0, "cannot start a thread: \(String(cString: strerror(status)))")
    }

    /// Blocks the calling thread for `seconds`.
    package static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var time = timespec(
            tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1_000_000_000))
        var left = timespec()
        while nanosleep(&time, &left) != 0 && errno == EINTR { time = left }
    }

    private final class Start {
        let name: String?
        let body: @Sendable () -> Void
        init(name: String?, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
