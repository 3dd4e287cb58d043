import FlowLoader
import FlowPackage
import FlowTestSupport
import Foundation
import Testing
import FlowRuntime

/// `PackageLaunch`: the launch a host calls, on real packages and real Lua states.
@Suite struct PackageLaunchTests {
    let folder: URL

    init() throws {
        folder = try Scratch("launch").url
    }

    /// The updates a test hands the launch: `update` instead of the embedded package, and a
    /// record of what the launch told it.
    final class ChosenUpdate: LaunchUpdates {
        let update: (any PackageSource)?
        let takesBack: Bool
        var failures: [String] = []
        var succeeded = 0

        init(_ update: (any PackageSource)?, takesBack: Bool = true) {
            self.update = update
            self.takesBack = takesBack
        }

        func chooseSource(embedded: EmbeddedPackageSource, log: (String) -> Void) -> (any PackageSource)? {
            log("update: chose \(update?.location ?? "the embedded package")")
            return update
        }

        func startModuleFailed(_ error: any Error, log: (String) -> Void) -> Bool {
            failures.append("\(error)")
            return takesBack
        }

        func startModuleSucceeded() { succeeded += 1 }
    }

    @Test func aHostLaunchesItsPackageByIdentifier() throws {
        try PackageFixtures.write(
            folder.appendingPathComponent("App.luapkg"),
            modules: ["main.lua": "return hostName() .. ' ' .. require('util')", "util.lua": "return 'ran'"])
        var launch = try PackageLaunch(package: try PackageIdentifier("com.example.app"), in: [folder])
        launch.prepare = { context in
            try context.setGlobal("hostName", .function(LuaFunction { _ in [.string("host")] }))
        }
        let running = try launch.run()
        defer { running.stop() }
        #expect(running.result == "host ran")
        #expect(running.source === launch.primary)
        #expect(!running.followsLiveSource)
        #expect(running.context.loadedItems.map(\.source) == [.embeddedPackage, .embeddedPackage])
    }

    @Test func argumentsReachArgAndTheStartModuleAsTheLuaInterpreterPassesThem() throws {
        try PackageFixtures.write(
            folder.appendingPathComponent("App.luapkg"),
            modules: [
                "main.lua":
                    "local a, b = ... return table.concat({arg[-1], arg[0], arg[1], arg[2], a, b, tostring(arg[3])}, ',')"
            ])
        var launch = try PackageLaunch(package: try PackageIdentifier("com.example.app"), in: [folder])
        launch.arguments = ["x", "y"]
        launch.argumentTable = .init(interpreter: "/bin/host", script: "unused")
        let running = try launch.run()
        defer { running.stop() }
        // arg[0]: the start module's file as the package names it (no display name was given).
        #expect(running.result == "/bin/host,main.lua,x,y,x,y,nil")
    }

    @Test func anUpdateRunsInsteadOfTheEmbeddedPackage() throws {
        let embedded = try EmbeddedPackageSource(
            contentsOf: PackageFixtures.write(
                folder.appendingPathComponent("App.luapkg"), modules: ["main.lua": "return 'embedded'"]))
        let update = try EmbeddedPackageSource(
            contentsOf: PackageFixtures.write(
                folder.appendingPathComponent("Update.luapkg"), modules: ["main.lua": "return 'update'"]))
        let updates = ChosenUpdate(update)
        var lines: [String] = []
        var launch = PackageLaunch(primary: embedded)
        launch.updates = updates
        launch.log = { lines.append($0) }
        let running = try launch.run()
        defer { running.stop() }
        #expect(running.result == "update")
        #expect(running.source === update)
        #expect(updates.succeeded == 1)
        #expect(lines == ["update: chose \(update.location)"])
    }

    @Test func anUpdateWhoseStartModuleThrowsFallsBackToTheEmbeddedPackageInTheSameLaunch() throws {
        let embedded = try EmbeddedPackageSource(
            contentsOf: PackageFixtures.write(
                folder.appendingPathComponent("App.luapkg"), modules: ["main.lua": "return 'embedded'"]))
        let broken = try EmbeddedPackageSource(
            contentsOf: PackageFixtures.write(
                folder.appendingPathComponent("Update.luapkg"), modules: ["main.lua": "error('broken update')"]))
        let updates = ChosenUpdate(broken)
        var lines: [String] = []
        var launch = PackageLaunch(primary: embedded)
        launch.updates = updates
        launch.log = { lines.append($0) }
        let running = try launch.run()
        defer { running.stop() }
        #expect(running.result == "embedded")
        #expect(running.source === embedded)
        #expect(updates.failures.count == 1)
        #expect(updates.failures.first?.contains("broken update") == true)
        #expect(updates.succeeded == 1)
        #expect(lines.count == 2)
        #expect(lines.last?.hasPrefix("update: the update's start module failed:") == true)
    }

    @Test func aFailingStartModuleIsReportedOnceWithItsError() throws {
        let embedded = try EmbeddedPackageSource(
            contentsOf: PackageFixtures.write(
                folder.appendingPathComponent("App.luapkg"), modules: ["main.lua": "error('no luck')"]))
        var shown: [String] = []
        var launch = PackageLaunch(primary: embedded)
        launch.startModuleFailed = { shown.append("\($0)") }
        #expect {
            _ = try launch.run()
        } throws: { error in
            guard case PackageLaunchError.startModuleFailed(let underlying) = error else { return false }
            return "\(underlying)".contains("no luck")
        }
        #expect(shown.count == 1)
        #expect(shown.first?.contains("no luck") == true)
    }

    @Test func updatesNeedAnEmbeddedPackageAndALibraryPackageHasNoStartModule() throws {
        let library = try EmbeddedPackageSource(
            contentsOf: PackageFixtures.write(
                folder.appendingPathComponent("Lib.luapkg"), start: nil, modules: ["util.lua": "return 1"]))
        #expect(throws: LuaContextError.self) { _ = try PackageLaunch(primary: library).run() }
        var named = PackageLaunch(primary: library)
        named.startModule = try ModuleName("util")
        let running = try named.run()
        #expect(running.result == .integer(1))
        running.stop()

        final class Folder: PackageSource {
            let kind = SourceKind.projectFolder
            let location = "/somewhere"
            let identifier: PackageIdentifier
            init(_ identifier: PackageIdentifier) { self.identifier = identifier }
            func module(named name: ModuleName) throws -> ModuleCode? { nil }
            func resource(_ key: ResourceKey) throws -> [UInt8]? { nil }
        }
        var launch = PackageLaunch(primary: Folder(library.identifier))
        launch.updates = ChosenUpdate(nil)
        #expect {
            _ = try launch.run()
        } throws: { error in
            guard case PackageLaunchError.updatesNeedAPackage(let location) = error else { return false }
            return location == "/somewhere"
        }
    }
}
