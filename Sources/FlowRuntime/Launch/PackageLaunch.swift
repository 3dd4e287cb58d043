import FlowLoader
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The launch a host calls: the embedded package, the source policy, a verified update with
/// a fallback to the embedded package when the update's start module fails, the live source
/// when the development monitor is on, and the start module, in that order.
///
/// `flowpkg run` launches through it too, so a host and the command line start a package the
/// same way:
///
/// ```swift
/// var launch = try PackageLaunch(package: identifier, in: [resources], options: options)
/// launch.updates = try UpdateLaunch(configuration: feed, embedded: launch.embedded)  // FlowUpdates
/// let running = try launch.run()
/// ```
///
/// Nothing here prints: what a host shows goes to `log`.
public struct PackageLaunch {
    /// The lua interpreter's `arg` table, for a host that runs a program as `lua5.4` would:
    /// the arguments from 1, the start module's file at 0, the interpreter at -1.
    public struct ArgumentTable: Sendable {
        /// `arg[-1]`: the program that runs the package (the flowpkg binary's path).
        public var interpreter: String
        /// `arg[0]` when the running source cannot name the start module's file.
        public var script: String

        public init(interpreter: String, script: String) {
            self.interpreter = interpreter
            self.script = script
        }
    }

    /// The package the host ships with, opened and checked (for `flowpkg run DIR`, the
    /// project folder): what runs when no update does.
    public var primary: any PackageSource
    /// The context's name (its thread's name, and what messages call it).
    public var name: String
    public var options: LuaContext.Options
    /// The module to run; by default the one the running package names.
    public var startModule: ModuleName?
    /// The primary's C modules (`externalModules`); by default the ones it declares. An update
    /// runs with the ones its own manifest declares.
    public var externalModules: [String]?
    /// What the start module gets as `...` (and, with `argumentTable`, `arg[1]` on).
    public var arguments: [String] = []
    /// Sets the global `arg` as the lua interpreter does.
    public var argumentTable: ArgumentTable?
    /// Verified updates, when the host takes them (FlowUpdates' `UpdateLaunch`).
    public var updates: (any LaunchUpdates)?
    /// The development monitor, when it is on (FlowLiveDevelopment's `LiveLaunch`); nil in a
    /// release host.
    public var live: (any LaunchLiveSource)?
    /// Runs on each new context before the live source connects: the host's functions and
    /// globals go in here (a launch that falls back to the embedded package makes two).
    public var prepare: (LuaContext) throws -> Void = { _ in }
    /// Runs right before the start module, after the live source connected or not; what it
    /// throws ends the launch (the context is terminated).
    public var willRunStartModule: (LuaContext) throws -> Void = { _ in }
    /// Runs when the start module that runs last throws, before the live source is told and
    /// the context is terminated: where a host shows the error.
    public var startModuleFailed: (any Error) -> Void = { _ in }
    /// One line per event a host may show: which package runs, an update passed over or failing.
    public var log: (String) -> Void = { _ in }

    /// A launch of `primary`, already opened.
    public init(primary: any PackageSource, name: String? = nil, options: LuaContext.Options = .init()) {
        self.primary = primary
        self.name = name ?? primary.identifier.rawValue
        self.options = options
    }

    /// A launch of the `.luapkg` with `identifier` among the packages in `directories` (an
    /// app's resource folders): found, opened and checked now, before any Lua runs. Throws
    /// `LoaderError` (not found, ambiguous, refused) naming the file and the reason.
    public init(
        package identifier: PackageIdentifier, in directories: [URL], name: String? = nil,
        options: LuaContext.Options = .init()
    ) throws(LoaderError) {
        self.init(primary: try PackageLocator.open(identifier, in: directories), name: name, options: options)
    }

    /// The embedded package, when the primary is one (what an update client compares against).
    public var embedded: EmbeddedPackageSource? { primary as? EmbeddedPackageSource }

    /// Runs the launch: picks the package (an update, when `updates` has a verified one),
    /// makes the context, connects the live source when `live` is set, and runs the start
    /// module. When an update's start module throws before the launch is confirmed healthy,
    /// the embedded package runs in this same launch. Throws
    /// ``PackageLaunchError/startModuleFailed(_:)`` when the start module that ran last threw;
    /// other errors (no start module, a refused package) before any Lua runs.
    public func run() throws -> LaunchedPackage {
        var source: any PackageSource = primary
        if let updates {
            guard let embedded else { throw PackageLaunchError.updatesNeedAPackage(location: primary.location) }
            if let update = updates.chooseSource(embedded: embedded, log: log) { source = update }
        }
        let ranUpdate = source !== primary
        do {
            return try start(source, isUpdate: ranUpdate)
        } catch is FallBack {
            return try start(primary, isUpdate: false)
        }
    }

    /// An update's start module failed, and the update client sends the launch back to the
    /// embedded package (thrown after the update's context is cleaned up).
    private struct FallBack: Error {}

    /// One context over `source`, its start module run.
    private func start(_ source: any PackageSource, isUpdate: Bool) throws -> LaunchedPackage {
        let plan = SourcePolicy.plan(for: SourceSituation(monitor: .absent, primary: .ready(source.kind)))
        let loader = try Loader(
            identifier: primary.identifier, sources: plan.order.compactMap { $0 == source.kind ? source : nil })
        guard let start = isUpdate ? source.startModule ?? startModule : startModule ?? source.startModule else {
            throw LuaContextError.noStartModule(primary.identifier)
        }
        var options = self.options
        options.externalModules += isUpdate ? source.externalModules : externalModules ?? source.externalModules
        let attachment = live?.prepare(loader: loader, options: &options)
        let context = try LuaContext(
            name: name, packageIdentifier: primary.identifier, loader: loader, options: options)
        var running = false
        defer {
            if !running {
                attachment?.stop()
                context.terminate()
            }
        }
        if let argumentTable {
            // arg[0] is the start module's file, as lua5.4 names the script it runs, so a
            // program that finds its own files from arg[0] (Penlight's app.require_here) does.
            let script = loader.chunkName(ofModule: start) ?? argumentTable.script
            try context.setGlobal(
                "arg", sequence: ([argumentTable.interpreter, script] + arguments).map { .string($0) }, from: -1)
        }
        try prepare(context)
        if let attachment {
            let prepare = self.prepare, name = self.name, identifier = primary.identifier, made = options
            attachment.offer(
                LaunchContexts(identifier: identifier) {
                    let more = try Loader(identifier: identifier, sources: loader.sources)
                    let context = try LuaContext(
                        name: name, packageIdentifier: identifier, loader: more, options: made)
                    do {
                        try prepare(context)
                    } catch {
                        context.terminate()
                        throw error
                    }
                    return context
                })
        }
        attachment?.attach(to: context, primary: source.kind)
        try willRunStartModule(context)
        let result: LuaValue
        do {
            // The start module gets the arguments as `...`, as `lua script.lua a b` passes them.
            result = try context.loadModule(start, arguments: arguments.map { .string($0) })
        } catch {
            if isUpdate, let updates, updates.startModuleFailed(error, log: log) {
                log("update: the update's start module failed:\n\(error)")
                attachment?.startModuleFailed("the update's start module failed: \(error)")
                throw FallBack()
            }
            startModuleFailed(error)
            attachment?.startModuleFailed("\(error)")
            throw PackageLaunchError.startModuleFailed(error)
        }
        updates?.startModuleSucceeded()
        running = true
        return LaunchedPackage(context: context, source: source, result: result, attachment: attachment)
    }
}

/// A launched package: its context, running, and its live source, followed until `stop()`.
public final class LaunchedPackage: Sendable {
    public let context: LuaContext
    /// What runs: the embedded package (or project folder), or a downloaded update.
    public let source: any PackageSource
    /// The start module's first result.
    public let result: LuaValue
    private let attachment: (any LaunchLiveAttachment)?

    init(context: LuaContext, source: any PackageSource, result: LuaValue, attachment: (any LaunchLiveAttachment)?) {
        self.context = context
        self.source = source
        self.result = result
        self.attachment = attachment
    }

    /// Whether a live source is followed (the development monitor was on).
    public var followsLiveSource: Bool { attachment != nil }

    /// Sends one line of the host's own log to the live source, when one is followed.
    public func post(log line: String) {
        attachment?.post(log: line)
    }

    /// Stops following the live source, then terminates the context.
    public func stop() {
        attachment?.stop()
        context.terminate()
    }
}

/// Why a ``PackageLaunch`` ended.
public enum PackageLaunchError: Error, CustomStringConvertible {
    /// The start module threw (after any fallback to the embedded package); the Lua error
    /// with its traceback.
    case startModuleFailed(any Error)
    /// Updates were asked for, but the primary source is not an embedded package.
    case updatesNeedAPackage(location: String)

    public var description: String {
        switch self {
        case .startModuleFailed(let error): return "\(error)"
        case .updatesNeedAPackage(let location):
            return "\(location): updates run over an embedded package (a .luapkg), not a project folder"
        }
    }
}
