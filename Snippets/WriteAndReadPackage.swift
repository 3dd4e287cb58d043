// Writes a small `.luapkg` with FlowPackage, opens it again, and checks every entry.
import FlowPackage
import Foundation

// snippet.hide
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("luapkg-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let mainFile = folder.appendingPathComponent("main.lua")
try Data("print(require('greeting').text)\n".utf8).write(to: mainFile)
let greetingFile = folder.appendingPathComponent("greeting.lua")
try Data("return { text = 'hello from a package' }\n".utf8).write(to: greetingFile)
let mottoFile = folder.appendingPathComponent("motto.txt")
try Data("Small and checked.\n".utf8).write(to: mottoFile)
// snippet.show

// What goes in: names, and the file each entry's bytes come from.
let input = PackageInput(
    identifier: try PackageIdentifier("com.example.hello"), name: "Hello", version: "1.0.0",
    startModule: try ModuleName("main"),
    modules: [
        .init(name: try ModuleName("main"), relativePath: "main.lua", file: mainFile),
        .init(name: try ModuleName("greeting"), relativePath: "greeting.lua", file: greetingFile),
    ],
    resources: [.init(key: try ResourceKey(name: "motto", type: "txt"), file: mottoFile)])

// The same input and timestamp give the same bytes; the file appears whole or not at all.
let output = folder.appendingPathComponent("Hello.luapkg")
let written = try PackageWriter.write(input, to: output)
print("wrote \(output.lastPathComponent), digest \(written.digest)")

// Opening reads the central directory and the manifest only, and checks them.
let reader = try PackageReader(contentsOf: output)
for entry in reader.manifest.entries {
    print("\(entry.path)\t\(entry.size) bytes\tsha256 \(entry.sha256.prefix(12))…")
}

// Each read checks the entry's size and SHA-256 before it returns the bytes.
let motto = try reader.resourceData(try ResourceKey(name: "motto", type: "txt"))
print("motto:", String(decoding: motto, as: UTF8.self), terminator: "")

// `verify` reads every entry, as `flowpkg verify` does.
let problems = reader.verify(expectedIdentifier: try PackageIdentifier("com.example.hello"))
print(problems.isEmpty ? "verified: no problems" : problems.map(\.message).joined(separator: "\n"))
