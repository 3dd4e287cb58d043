import FlowLiveProtocol
import FlowLoader
import FlowPackage
import FlowRuntime

/// What a run needs from the project: its folder, its spec files, and the sources a spec's
/// `require` and `getResource` reach (what `flowpkg run` resolves, dev dependencies included).
public struct TestSuite: Sendable {
    /// The project folder, absolute: spec files, `lpath` and `./?.lua` are found from here.
    public var root: String
    /// The spec files, relative to `root`, in the order they run.
    public var files: [String]
    public var identifier: PackageIdentifier
    /// The sources each file's context loads from, highest first.
    public var sources: [any PackageSource]
    /// The C modules the project declares (`externalModules`).
    public var externalModules: [String]
    /// The Lua files specs load by path (spec files, helpers), by their path relative to `root`,
    /// when they come from elsewhere than the file system (a live run's request); nil: the
    /// files in `root`.
    public var texts: [String: String]?
    /// Modules required by name that no source serves (a live run's dev dependencies).
    public var modules: [String: LiveTestRequest.Module] = [:]
    /// Makes each file's context, instead of one over `sources` (a live run: a context like the
    /// program's own, with its host's API).
    public var makeContext: (@Sendable () throws -> LuaContext)?

    public init(
        root: String, files: [String], identifier: PackageIdentifier, sources: [any PackageSource],
        externalModules: [String] = []
    ) {
        self.root = root
        self.files = files
        self.identifier = identifier
        self.sources = sources
        self.externalModules = externalModules
    }
}

extension TestSuite {
    /// The suite a program runs for `flowpkg test --live`: the request's files, read from the
    /// request, in contexts `makeContext` makes.
    public static func live(
        _ request: LiveTestRequest, identifier: PackageIdentifier,
        makeContext: @escaping @Sendable () throws -> LuaContext
    ) -> TestSuite {
        var suite = TestSuite(root: ".", files: request.files, identifier: identifier, sources: [])
        suite.texts = Dictionary(request.sources.map { ($0.path, $0.text) }, uniquingKeysWith: { first, _ in first })
        suite.modules = Dictionary(request.modules.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        suite.makeContext = makeContext
        return suite
    }

    /// The text of `path` from `texts` (`./spec/a_spec.lua` and `spec/a_spec.lua` alike).
    func text(at path: String) -> String? {
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        return texts?[String(relative)]
    }
}
