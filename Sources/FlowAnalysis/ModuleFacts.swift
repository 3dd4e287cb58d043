import LuaSyntax

/// What static analysis learns of one module from its syntax tree: the facts that
/// project-wide rules (requires, resources, globals) are checked against.
public struct ModuleFacts: Sendable, Equatable {
    /// A `require "name"` (or `require("name")`) with a literal name.
    public struct Require: Sendable, Equatable {
        public var module: String
        public var location: SourceLocation
        /// True when the call is inside a function body: it runs later, or never.
        public var isInsideFunction: Bool
        /// True when the call is guarded (`pcall(require, "x")`): a failure is expected and handled.
        public var isProtected: Bool
        /// True when the call runs only if something else holds: inside an `if` branch or a
        /// loop body, or right of `and`/`or` (`if not ok then m = require "fallback" end`).
        public var isConditional: Bool

        public init(
            module: String, location: SourceLocation, isInsideFunction: Bool, isProtected: Bool = false,
            isConditional: Bool = false
        ) {
            self.module = module
            self.location = location
            self.isInsideFunction = isInsideFunction
            self.isProtected = isProtected
            self.isConditional = isConditional
        }

        /// True when the require surely runs when its module loads: at top level, unguarded, unconditional.
        public var runsAtLoad: Bool { !isInsideFunction && !isProtected && !isConditional }
    }

    /// A `getResource(name, type, ...)` whose name and type are both literal strings.
    public struct ResourceUse: Sendable, Equatable {
        public var name: String
        public var type: String
        public var location: SourceLocation
        /// True when the call is inside a function body: it runs later, or never.
        public var isInsideFunction: Bool
        /// True when the call runs only if something else holds (an `if` branch, a loop body,
        /// right of `and`/`or`).
        public var isConditional: Bool

        public init(
            name: String, type: String, location: SourceLocation, isInsideFunction: Bool = false,
            isConditional: Bool = false
        ) {
            self.name = name
            self.type = type
            self.location = location
            self.isInsideFunction = isInsideFunction
            self.isConditional = isConditional
        }

        /// True when the call surely runs when its module loads: at top level, unconditional.
        public var runsAtLoad: Bool { !isInsideFunction && !isConditional }
    }

    /// A read of a global variable (a free name that is not a local in scope).
    public struct GlobalRead: Sendable, Equatable {
        public var name: String
        public var location: SourceLocation

        public init(name: String, location: SourceLocation) {
            self.name = name
            self.location = location
        }
    }

    public var requires: [Require] = []
    public var resourceUses: [ResourceUse] = []
    /// Every string literal in the module, so a resource named in any literal counts as used.
    public var stringLiterals: Set<String> = []
    public var globalReads: [GlobalRead] = []
    /// Globals this module assigns anywhere (`x = 1`, `function x() end`): other modules may read them.
    public var globalWrites: Set<String> = []
    /// Where each of `globalWrites` is first assigned (the name's place), for an editor's go to
    /// definition; a global set only through `rawset(_G, ...)` has none.
    public var globalWriteLocations: [String: SourceLocation] = [:]
    /// Of `globalWrites`, those set through the globals table (`_G.x = v`, `rawset(_G, "x", v)`,
    /// `_ENV.x = v` while `_ENV` is the chunk's): deliberate definitions, which FP405 counts as
    /// defined everywhere. A plain `x = v` declares nothing (luacheck's 111, and 113 where read).
    public var explicitGlobalWrites: Set<String> = []
    /// Globals the module tests for before use (`unpack or table.unpack`, `if jit then`, `type(x)`):
    /// it expects some hosts not to define them.
    public var guardedGlobals: Set<String> = []
    /// Where those tests read them: a Lua 5.1 global read there is portable code, not a miss.
    public var guardedReadPlaces: Set<SourceLocation> = []
    /// True when the module changes what its free names mean (`_ENV = t`, `local _ENV = t`,
    /// `setfenv`, Lua 5.1's `module(...)`): its reads of undefined globals are not reported.
    public var replacesEnvironment = false
    /// Modules this module registers at run time (`package.preload["x"] = f`,
    /// `package.loaded.x = v`): a `require` of one of them is not an unknown module.
    public var registeredModules: Set<String> = []
    /// True when the module adds a searcher of its own (`table.insert(package.searchers, f)`,
    /// `package.searchers[n] = f`), or registers modules under names it computes
    /// (`package.preload[name] = f`), or sets `package.path`: which names it provides only
    /// running it can tell.
    public var addsSearcher = false
    /// What luacheck's warning classes find in the module (see `LintRules`).
    public var lint = LintFacts()
    /// What its LuaCATS annotations and code say about types (`TypeRules`); nil for a module
    /// without annotations.
    public var types: ModuleTypes?

    public init() {}
}
