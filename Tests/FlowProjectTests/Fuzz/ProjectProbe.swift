import FlowDiagnostics
import FlowLua
import Foundation

@testable import FlowProject

/// One input as an untrusted project, and the rules validating it must keep: shared by
/// `ProjectFuzzTests` and the libFuzzer target (`Tests/Fuzz/run project`).
///
/// The input is `flowpkg.json`, `.luacheckrc` and `Sources/main.lua`, in that order, separated
/// by lines holding `%%`. Validation must end (every bound is counted, not timed), every
/// finding must be a catalogue code in words, nothing outside the folder may become a
/// resource, and `.luacheckrc` must stay within its memory and instruction bounds.
enum ProjectProbe {
    static let separator = Array("\n%%\n".utf8)

    /// The three files of `bytes`: missing parts are empty.
    static func parts(_ bytes: [UInt8]) -> (json: [UInt8], luacheckrc: [UInt8], source: [UInt8]) {
        var parts: [[UInt8]] = []
        var start = 0
        var index = 0
        while index + separator.count <= bytes.count, parts.count < 2 {
            if bytes[index..<(index + separator.count)].elementsEqual(separator) {
                parts.append(Array(bytes[start..<index]))
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(Array(bytes[min(start, bytes.count)...]))
        while parts.count < 3 { parts.append([]) }
        return (parts[0], parts[1], parts[2])
    }

    /// Writes the project `bytes` make into `folder` (which must be empty or missing),
    /// validates it, and returns the rules broken (empty when none was).
    static func project(_ bytes: [UInt8], in folder: URL) -> [String] {
        let (json, luacheckrc, source) = parts(bytes)
        let sources = folder.appendingPathComponent("Sources")
        try? FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: folder.appendingPathComponent("flowpkg.json").path, contents: Data(json))
        if !luacheckrc.isEmpty {
            FileManager.default.createFile(
                atPath: folder.appendingPathComponent(".luacheckrc").path, contents: Data(luacheckrc))
        }
        FileManager.default.createFile(atPath: sources.appendingPathComponent("main.lua").path, contents: Data(source))
        var options = ValidationOptions()
        options.allowsOutsideLinks = false
        options.concurrency = 1
        let report = Validator.validate(projectAt: folder, options: options)
        var broken: [String] = []
        for diagnostic in report.diagnostics {
            if DiagnosticCodes.entry(for: diagnostic.code.code) == nil {
                broken.append("unknown code \(diagnostic.code)")
            }
            if diagnostic.message.isEmpty { broken.append("\(diagnostic.code) without words") }
        }
        let root = FileTree.realPath(folder.path) ?? folder.path
        for resource in report.project?.resources ?? [] {
            let real = FileTree.realPath(resource.file.path) ?? resource.file.path
            if !real.hasPrefix(root + "/") { broken.append("a resource outside the project: \(real)") }
        }
        if !luacheckrc.isEmpty { broken += Self.luacheckrc(luacheckrc) }
        return broken
    }

    /// Evaluates a `.luacheckrc` and checks, by the allocator's and the hook's own counts, that
    /// it stayed within its bounds.
    static func luacheckrc(_ bytes: [UInt8]) -> [String] {
        let limits = LuacheckConfig.limits
        var peak = 0
        var instructions = 0
        _ = try? LuacheckConfig.evaluate(bytes, chunkName: ".luacheckrc") { state in
            peak = state.peakMemory
            instructions = state.instructionsCounted
        }
        var broken: [String] = []
        if peak > limits.memory { broken.append(".luacheckrc held \(peak) bytes, past \(limits.memory)") }
        // The hook looks every 100 instructions, and once past, stops at the next.
        if instructions > limits.instructions + 200 {
            broken.append(".luacheckrc ran \(instructions) instructions, past \(limits.instructions)")
        }
        return broken
    }
}
