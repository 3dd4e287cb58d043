import FlowTestSupport
import Foundation
@testable import FlowPackage

/// Deterministic pseudo-random bytes: incompressible, like media.
func noise(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    var out = [UInt8](repeating: 0, count: count)
    for index in 0..<count {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        out[index] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return out
}

/// Runs a tool the way a user would and returns its exit status and output.
@discardableResult
func runTool(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (
    status: Int32, output: String
) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [executable] + arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let folder = try Scratch("tool")
    defer { folder.remove() }
    let scratch = try folder.file("output", "")
    let handle = try FileHandle(forWritingTo: scratch)
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    process.waitUntilExit()
    try handle.close()
    return (process.terminationStatus, String(decoding: try Data(contentsOf: scratch), as: UTF8.self))
}

/// Runs a Python script (with `sys.argv[1:] == arguments`); used to build zips the package
/// writer refuses to produce, and to read packages with Python's own `zipfile`.
@discardableResult
func python(_ script: String, _ arguments: [String] = []) throws -> String {
    let result = try runTool("python3", ["-c", script] + arguments)
    if result.status != 0 { throw PythonFailure(output: result.output) }
    return result.output
}

struct PythonFailure: Error, CustomStringConvertible {
    var output: String
    var description: String { "python3 failed: \(output)" }
}

/// A small, valid package input: two modules (one `init.lua`), a text and a media resource.
struct SampleProject {
    let scratch: Scratch
    let input: PackageInput

    init(_ scratch: Scratch, folder: String = "project", mediaSize: Int = 40_000) throws {
        self.scratch = scratch
        let main = try scratch.file("\(folder)/Sources/main.lua", "local ui = require 'ui'\nprint(ui.title)\n")
        let ui = try scratch.file("\(folder)/Sources/ui/init.lua", "return { title = 'Hello' }\n")
        let text = try scratch.file(
            "\(folder)/Resources/texts/h2g2.txt", String(repeating: "Don't panic. ", count: 2000))
        let logo = try scratch.file("\(folder)/Resources/img/logo.png", noise(mediaSize, seed: 42))
        input = PackageInput(
            identifier: try PackageIdentifier("com.example.sample"), name: "Sample", version: "1.2.3",
            startModule: try ModuleName("main"),
            modules: [
                .init(name: try ModuleName("ui"), relativePath: "ui/init.lua", file: ui),
                .init(name: try ModuleName("main"), relativePath: "main.lua", file: main),
            ],
            resources: [
                .init(key: try ResourceKey(name: "texts/h2g2", type: "txt"), file: text),
                .init(key: try ResourceKey(name: "img/logo", type: "png"), file: logo),
            ])
    }

    /// Writes the package and returns its URL.
    func write(to name: String = "Sample-1.2.3.luapkg", options: PackageWriteOptions = .init()) throws -> URL {
        let output = scratch.path(name)
        try PackageWriter.write(input, to: output, options: options)
        return output
    }
}
