import FlowLoader
import FlowPackage
import FlowSupport
import Foundation
import Testing

@testable import FlowRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which thread runs a context's work: the caller's, when its stack is as large as the
/// context asks for (so a launch makes no thread), else the context's own, started then.
@Suite struct ContextThreadTests {
    /// The calling thread, as a number.
    private static func threadNumber() -> UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    /// Runs `body` on a new thread with a stack of `stackSize` bytes and waits for it.
    private func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () throws -> T) throws -> T {
        let outcome = Awaited<Result<T, any Error>?>(nil)
        DetachedThread.start(stackSize: stackSize) {
            let result = Result { try body() }
            outcome.withLock { $0 = result }
        }
        return try outcome.wait { $0 }.get()
    }

    /// A context whose global `where()` says which thread Lua called it on; returns that
    /// thread and the caller's for a `require` of the start module, made and run on one thread.
    private func threads(callerStack: Int, contextStack: Int = 8 << 20) throws -> (caller: UInt, lua: UInt) {
        try onThread(stackSize: callerStack) {
            var options = LuaContext.Options()
            options.stackSize = contextStack
            let (context, _) = try makeContext(modules: ["main": "return where()"], options: options)
            defer { context.terminate() }
            try context.setGlobal("where", .function(LuaFunction { _ in [.integer(Int64(Self.threadNumber()))] }))
            guard case .integer(let lua) = try context.loadModule(ModuleName("main")) else {
                throw LuaContextError.terminated
            }
            return (Self.threadNumber(), UInt(lua))
        }
    }

    @Test func aCallerWithAStackAsLargeRunsTheLuaItself() throws {
        let (caller, lua) = try threads(callerStack: 16 << 20)
        #expect(caller == lua)
    }

    @Test func aCallerWithASmallerStackHandsTheWorkToTheContextsThread() throws {
        let (caller, lua) = try threads(callerStack: 1 << 20)
        #expect(caller != lua)
    }

    @Test func workQueuedAfterAnInlineLaunchRunsAndTerminateWaitsForIt() throws {
        let results = try onThread(stackSize: 16 << 20) { () throws -> [String] in
            let (context, _) = try makeContext(modules: [
                "main": "count = 1\nreturn 'main'", "later": "count = count + 1\nreturn 'later'",
            ])
            _ = try context.loadModule(ModuleName("main"))
            let done = Awaited<String?>(nil)
            // No job runs now: this one starts the context's own thread.
            context.loadModule(try ModuleName("later")) { result in
                done.withLock { $0 = (try? result.get()).map { "\($0)" } ?? "failed" }
            }
            let later = done.wait { $0 }
            let count = try context.global("count")
            context.terminate()
            return [later, "\(count)", "\((try? context.global("count")) == nil)"]
        }
        #expect(results == ["later", "2", "true"])
    }
}
