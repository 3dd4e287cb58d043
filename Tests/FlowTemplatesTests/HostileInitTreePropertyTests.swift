import FlowTestSupport
import Foundation
import Testing

@testable import FlowTemplates

/// `init` on seeded generated hostile trees (issue 43, Proof): links to `.`, `..`, `/` and each
/// other, FIFOs named like C and Lua modules, rockspecs that never end, grow or run commands,
/// modules over validate's 8 MB cap (sparse), odd names. Each scan ends, and what it adopts
/// stays inside the tree: the sources folder is below it, the start module one of its files,
/// and every dependency name one a lock accepts. `FLOWPKG_FUZZ_ITERATIONS` lengthens the run.
@Suite struct HostileInitTreePropertyTests {
    static let folders = ["", "src/", "lua/", "lib/deep/", "rockspecs/", "...", "a b/"]
    static let rockspecs = [
        "while true do end", "local t = {} local i = 0 while true do i = i + 1 t[i] = ('x'):rep(4096) end",
        "package = 'evil'\nversion = '1.0-1'\nbuild = { type = 'command', build_command = 'id > MARKER' }",
        "os.execute('id > MARKER')", "dependencies = { '..', '../..', 'lua >= 5.1', 'ok >= 1' }",
        "package = '..'\nversion = '1-1'\ndependencies = setmetatable({}, { __index = function() while true do end end })",
        "package = 'good'\nversion = '1.0-1'\nbuild = { type = 'builtin', modules = { good = 'src/good.lua' } }",
    ]

    static func tree(_ random: inout SeededGenerator, in root: URL) throws {
        let fileManager = FileManager.default
        func place(_ path: String) -> String {
            let full = root.path + "/" + path
            try? fileManager.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            return full
        }
        let requires = (0..<Int.random(in: 0...4, using: &random)).map { _ in
            ["pwn", "lib.deep.x", "good", "..", "a.b.c", "huge"].randomElement(using: &random)!
        }
        let main = requires.map { "require '\($0)'" }.joined(separator: "\n") + "\nreturn 1\n"
        fileManager.createFile(
            atPath: place(Self.folders.randomElement(using: &random)! + "main.lua"), contents: Data(main.utf8))
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            let folder = Self.folders.randomElement(using: &random)!
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                let target = [".", "..", "/", "../..", "main.lua", "nowhere"].randomElement(using: &random)!
                try? fileManager.createSymbolicLink(
                    atPath: place(folder + "link\(Int.random(in: 0...9, using: &random))"), withDestinationPath: target)
            case 1:
                _ = mkfifo(place(folder + ["pwn.so", "other.lua", "x.rockspec"].randomElement(using: &random)!), 0o600)
            case 2:
                let name = folder + ["evil-1.0-1.rockspec", "x.rockspec", "..rockspec"].randomElement(using: &random)!
                fileManager.createFile(
                    atPath: place(name), contents: Data(Self.rockspecs.randomElement(using: &random)!.utf8))
            case 3:
                let huge = place(folder + "huge.lua")
                fileManager.createFile(atPath: huge, contents: nil)
                _ = truncate(huge, 16 << 20)
            case 4:
                fileManager.createFile(
                    atPath: place(folder + "good.lua"), contents: Data("local M = {}\nreturn M\n".utf8))
            default:
                fileManager.createFile(
                    atPath: place(folder + ".luacheckrc"), contents: Data("globals = { 'a' }\nwhile true do end\n".utf8)
                )
            }
        }
    }

    @Test func generatedTreesAreReadAndStayInside() throws {
        var random = SeededGenerator(seed: 43)
        let iterations = Int(ProcessInfo.processInfo.environment["FLOWPKG_FUZZ_ITERATIONS"] ?? "") ?? 16
        for round in 0..<iterations {
            let scratch = try TemplateScratch()
            defer { scratch.remove() }
            try Self.tree(&random, in: scratch.url)
            guard let code = ExistingCode.scan(scratch.url) else { continue }
            // The base as a folder: resolved against a URL without its trailing slash, "." would be its parent.
            let folder = URL(fileURLWithPath: scratch.url.path, isDirectory: true)
            let sources = URL(fileURLWithPath: code.sources, relativeTo: folder).standardizedFileURL.path
            #expect(
                sources == scratch.url.standardizedFileURL.path
                    || sources.hasPrefix(scratch.url.standardizedFileURL.path + "/"),
                "round \(round): sources \(code.sources)")
            if let start = code.startModule {
                let base = sources + "/" + start.replacingOccurrences(of: ".", with: "/")
                #expect(
                    FileManager.default.fileExists(atPath: base + ".lua")
                        || FileManager.default.fileExists(atPath: base + "/init.lua"), "round \(round): start \(start)")
            }
            for dependency in code.dependencies {
                #expect(!dependency.name.allSatisfy { $0 == "." } && !dependency.name.contains("/"), "round \(round)")
            }
        }
    }
}
