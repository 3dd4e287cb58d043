import FlowPackage

/// Why a context refused a request before any Lua ran.
public enum LuaContextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The context was terminated; it runs nothing more.
    case terminated
    /// The loader serves another package than the context was created for.
    case identifierMismatch(expected: PackageIdentifier, loader: PackageIdentifier)
    /// A Lua function from one context was handed to another.
    case foreignFunction
    /// A global name that is empty.
    case invalidGlobalName(String)
    /// `loadStartModule` on a package that names no start module (a library package).
    case noStartModule(PackageIdentifier)
    /// `loadScript` of a path that no source has as a script.
    case noSuchScript(String)

    public var description: String {
        switch self {
        case .terminated: return "the Lua context was terminated"
        case .identifierMismatch(let expected, let loader):
            return "the loader serves '\(loader)', but the context was created for '\(expected)'"
        case .foreignFunction: return "a Lua function can only be passed back to the context it came from"
        case .invalidGlobalName(let name): return "'\(name)' is not a usable global name"
        case .noStartModule(let identifier):
            return
                "package '\(identifier)' names no start module: set \"startModule\" in flowpkg.json, or load a module by name"
        case .noSuchScript(let path):
            return
                "no script '\(path)' in the package: a script is a .lua file with a dot in its name, listed in the manifest's scripts"
        }
    }
}
