import FlowLiveProtocol
import FlowProject
import FlowSupport
import FlowTesting
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a program needs to run a project's spec files for `flowpkg test --live` and dev's `t`
/// key: the plan's files and options, the Lua files of the spec folders (the program cannot
/// read the project folder: it may run on a phone), and the dev dependencies' modules.
public enum LiveTestPlan {
    /// Why no request could be made.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The request for the project at `root`, with the spec files and options `.busted` and
    /// flowpkg.json's `tests` give (`flowpkg dev`'s `t` key).
    public static func request(projectAt root: URL) throws(Failure) -> LiveTestRequest {
        let target: TestTarget
        do {
            target = try TestTarget.open(root)
        } catch {
            throw Failure(description: "the project does not open: \(error)")
        }
        let folder = target.project.root.standardizedFileURL.path
        do {
            let plan = try SpecPlan.make(
                root: folder, declaredFolders: target.project.projectFile.tests, request: SpecPlan.Request())
            return try request(plan, root: folder, target: target)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    /// The request for `plan` of the project `target` at `root` (absolute).
    public static func request(_ plan: SpecPlan, root: String, target: TestTarget) throws(Failure) -> LiveTestRequest {
        var options = plan.options
        // What only a run in this process means: the program runs the files its own way.
        options.interpreter = nil
        options.coverage = false
        options.coverageFiles = []
        options.debugged = false
        var paths = Set(plan.files)
        for folder in Set(plan.files.filter { $0.contains("/") }.compactMap { $0.split(separator: "/").first }) {
            let below = SpecDiscovery.walk(root + "/" + folder).filter { $0.hasSuffix(".lua") }
            paths.formUnion(below.map { "\(folder)/\($0)" })
        }
        if let helper = options.helper, helper.hasSuffix(".lua"), !helper.hasPrefix("/") { paths.insert(helper) }
        var sources: [LiveTestRequest.File] = []
        for path in paths.sorted() {
            guard let data = FileManager.default.contents(atPath: root + "/" + path) else {
                throw Failure(description: "cannot read \(path) in \(root)")
            }
            sources.append(LiveTestRequest.File(path: path, text: String(decoding: data, as: UTF8.self)))
        }
        var modules: [LiveTestRequest.Module] = []
        for module in target.developmentModules {
            guard let data = FileManager.default.contents(atPath: module.file.path) else {
                throw Failure(description: "cannot read \(module.file.path), module \(module.name) of a dev dependency")
            }
            modules.append(
                LiveTestRequest.Module(
                    name: module.name.rawValue, chunk: PathText.relative(module.file.path, from: root),
                    text: String(decoding: data, as: UTF8.self)))
        }
        let request = LiveTestRequest(
            run: UUID().uuidString, files: plan.files, options: options, sources: sources, modules: modules)
        if request.textBytes > LiveProtocol.maxTestRequestBytes {
            throw Failure(
                description: "the spec folders and dev dependencies hold \(request.textBytes / 1024) KB of Lua, more "
                    + "than the \(LiveProtocol.maxTestRequestBytes / 1024) KB a live test run carries: name fewer spec files"
            )
        }
        return request
    }
}
