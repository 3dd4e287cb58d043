import FlowLua
import FlowPackage
import FlowSupport

/// A weak link from the Lua functions a context hands out to the context: a `LuaFunction`
/// outliving its context throws `LuaContextError.terminated` instead of keeping it alive.
final class LuaContextReference: LuaFunctionOwner {
    private struct Link {
        weak var context: LuaContext?
    }

    private let link = Locked(Link())

    /// Set once, as the context finishes its `init`.
    var context: LuaContext? {
        get { link.withLock { $0.context } }
        set { link.withLock { $0.context = newValue } }
    }

    func callFunction(reference: Int32, arguments: [LuaValue]) throws -> [LuaValue] {
        guard let context else { throw LuaContextError.terminated }
        return try context.callFunction(reference: reference, arguments: arguments)
    }

    func releaseReference(_ reference: Int32) {
        context?.releaseReference(reference)
    }
}
