/// A function that crosses between Swift and Lua.
///
/// Read from a context, it holds a Lua function by reference and `call` runs it on that
/// context's executor. Made from a Swift closure, it becomes a Lua function when written into
/// a context, and Lua calls run the closure on the context's executor.
public final class LuaFunction: Sendable, Equatable, CustomStringConvertible {
    /// The Swift side of a function Lua can call: arguments in, results out; a thrown error
    /// becomes a Lua error carrying its description.
    public typealias Body = @Sendable ([LuaValue]) throws -> [LuaValue]

    package enum Storage: Sendable {
        case lua(reference: Int32, owner: any LuaFunctionOwner)
        case swift(Body)
    }

    package let storage: Storage

    /// A Swift closure Lua code can call once it is written into a context.
    public init(_ body: @escaping Body) {
        storage = .swift(body)
    }

    /// A Lua function held in `owner`'s registry as `reference`.
    package init(reference: Int32, owner: any LuaFunctionOwner) {
        storage = .lua(reference: reference, owner: owner)
    }

    deinit {
        if case .lua(let reference, let owner) = storage {
            owner.releaseReference(reference)
        }
    }

    /// Calls the function with `arguments` and returns all its results.
    ///
    /// A Lua function runs on its context's executor (inline when already there); its errors
    /// throw `LuaError`, and a terminated context throws `LuaContextError.terminated`.
    @discardableResult
    public func call(_ arguments: [LuaValue] = []) throws -> [LuaValue] {
        switch storage {
        case .swift(let body):
            return try body(arguments)
        case .lua(let reference, let owner):
            return try owner.callFunction(reference: reference, arguments: arguments)
        }
    }

    /// Calls the function with `arguments` and returns all its results.
    @discardableResult
    public func call(_ arguments: LuaValue...) throws -> [LuaValue] {
        try call(arguments)
    }

    public static func == (lhs: LuaFunction, rhs: LuaFunction) -> Bool { lhs === rhs }

    public var description: String {
        switch storage {
        case .lua: return "function"
        case .swift: return "function (Swift)"
        }
    }
}

/// What holds the Lua functions a `LuaFunction` refers to (FlowRuntime's context): it runs
/// them on the thread that owns their state, and frees their references.
package protocol LuaFunctionOwner: AnyObject, Sendable {
    /// Calls the function `reference` names with `arguments`; throws when the owner has closed.
    func callFunction(reference: Int32, arguments: [LuaValue]) throws -> [LuaValue]
    /// Frees `reference` once its `LuaFunction` is gone (from any thread).
    func releaseReference(_ reference: Int32)
}
