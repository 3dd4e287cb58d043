import Foundation

@testable import FlowJSON
@testable import FlowPackage

/// Runs one input through every reader of untrusted package bytes and returns what broke the
/// rule "a value, or an error in words": a crash ends the process, anything else is listed.
/// Shared by `FuzzCorpusTests` (the corpus and seeded mutations, in every test run) and the
/// libFuzzer target under `Tests/Fuzz` (coverage-guided, run by hand or `.ci/fuzz`).
enum ReaderProbe {
    /// The manifest readers: the byte-level layout reader, the JSON parser, the decoder on
    /// both paths, and the lazily made entry lists and lookups of a manifest that decodes.
    static func manifest(_ bytes: [UInt8]) -> [String] {
        var broken: [String] = []
        _ = CanonicalManifest(bytes).map { $0.modules.count + $0.resources.count }
        do {
            _ = try JSONParser.parse(bytes, maxDepth: PackageLimits.default.maxManifestDepth)
        } catch {
            if error.message.isEmpty { broken.append("JSONParser: an error without a message") }
        }
        do {
            let decoded = try Manifest.decodeChecked(bytes, packagePath: "fuzz.luapkg", limits: .default)
            let manifest = decoded.manifest
            for (position, module) in manifest.modules.enumerated() {
                if decoded.position(ofPath: module.path, resources: false) == nil {
                    broken.append("decoded manifest: module \(position) is not found by its path")
                }
                _ = decoded.module(at: position)
            }
            for (position, resource) in manifest.resources.enumerated() {
                _ = decoded.position(ofPath: resource.path, resources: true)
                _ = decoded.resource(at: position)
            }
            _ = manifest.entries
            // What decodes must encode to a manifest that decodes to the same value.
            do {
                let again = try Manifest.decode(manifest.jsonBytes(), packagePath: "again.luapkg")
                if again != manifest { broken.append("decoded manifest: re-encoding changes it") }
            } catch {
                broken.append("decoded manifest: its own encoding is refused: \(error)")
            }
        } catch {
            broken += unworded(error.problems, "Manifest.decode")
        }
        return broken
    }

    /// The package readers, on the file at `path`: the central directory, `verify`, the
    /// manifest alone, and an opened reader's every entry (each module and resource,
    /// `allModules`, `verify()`).
    static func package(at path: URL) -> [String] {
        var broken = unworded(PackageReader.verify(at: path), "PackageReader.verify(at:)")
        do { _ = try PackageReader.readManifest(at: path) } catch {
            broken += worded(error, "PackageReader.readManifest")
        }
        if let file = try? ZipFile(path: path.path), let end = try? file.endRecord() {
            _ = try? file.centralDirectoryNames(end)
            if let directory = try? ZipCentralDirectory(file: file, end: end) {
                broken += streamsAgree(directory, path: path.path)
            }
        }
        let reader: PackageReader
        do { reader = try PackageReader(contentsOf: path) } catch {
            return broken + worded(error, "PackageReader.init")
        }
        let manifest = reader.manifest
        for module in manifest.modules {
            _ = reader.module(named: module.name)
            do { _ = try reader.moduleData(module) } catch { broken += worded(error, "moduleData") }
        }
        for resource in manifest.resources {
            _ = reader.resource(resource.key)
            do { _ = try reader.resourceData(resource) } catch { broken += worded(error, "resourceData") }
        }
        do { _ = try reader.allModules() } catch { broken += worded(error, "allModules") }
        broken += unworded(reader.verify(), "PackageReader.verify()")
        return broken
    }

    /// Every entry whose local header passes, read by the package reader's own stream
    /// (`ZipEntryStream`, zlib) and by libarchive's streaming zip reader over the same window
    /// (at most 1 MiB of each, so an input that inflates without end costs no more): where the
    /// stream reads exactly the size the central directory declares, and the local header
    /// declares the same sizes, libarchive reads the same bytes. (Where the stream reads another
    /// count, the entry is refused by its size check; where the local header's sizes differ
    /// behind a data-descriptor flag, libarchive, which believes them, reads something else.)
    static func streamsAgree(_ directory: ZipCentralDirectory, path: String) -> [String] {
        var broken: [String] = []
        let limit = 1 << 20
        for index in directory.entries.indices.prefix(64) where directory.localHeaderProblem(index) == nil {
            let entry = directory.entries[index]
            let name = directory.name(of: entry)
            let ours: [UInt8]
            do {
                ours = try readAll(try directory.stream(forEntry: index, path: path), limit: limit)
            } catch {
                if "\(error)".isEmpty { broken.append("entry \(name): the stream's error has no words") }
                continue
            }
            // Compared where the local header's sizes are the directory's too, as a writer puts them.
            guard Int64(ours.count) == entry.size,
                let header = try? directory.file.read(at: entry.localHeaderOffset, count: 30),
                UInt64(le32(header, 18)) == entry.compressedSize, Int64(le32(header, 22)) == entry.size,
                let reader = try? directory.reader(forEntry: index, path: path),
                (try? reader.nextEntry()) != nil,
                let theirs = try? readAll(reader, limit: limit)
            else { continue }
            if theirs != ours {
                broken.append(
                    "entry \(name): the package reader's stream reads \(ours.count) bytes, libarchive \(theirs.count), not the same"
                )
            }
        }
        return broken
    }

    private static func readAll(_ source: some EntryByteSource, limit: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count <= limit {
            let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    private static func worded(_ error: any Error, _ reader: String) -> [String] {
        guard let error = error as? PackageError else { return ["\(reader): not a PackageError: \(error)"] }
        if error.description.isEmpty { return ["\(reader): an error without words"] }
        return unworded(error.problems, reader)
    }

    private static func unworded(_ problems: [PackageProblem], _ reader: String) -> [String] {
        problems.filter { $0.message.isEmpty }.map { "\(reader): a problem without words (entry \($0.entry ?? "-"))" }
    }
}

/// Seeded mutations of an input: the same inputs on every run of a seed. Byte flips,
/// interesting values, numbers past Int64, inserted and deleted runs, splices; for a zip, zip
/// fields (sizes, offsets, counts, name lengths, flags, methods) near its signatures.
struct Mutator {
    /// SplitMix64.
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }

    static let tokens: [[UInt8]] = [
        "9223372036854775807", "9223372036854775808", "99999999999999999999", "-9223372036854775808",
        "-1", "0", "1e400", "1.5", "-0", "00", "null", "true", "[]", "{}", "\"\"", "\"", "\\", "\\u0000",
        "\\ud800", "\u{1B}[2J", "\n", ",", ":", "{", "}", "[", "]", "é", "\u{FFFF}", "modules/", "../", "/",
        "manifest.json", "\"size\": ", "\"formatVersion\": ", "\"path\": \"modules/a.lua\"",
    ].map { Array($0.utf8) }

    static let values: [UInt64] = [
        0, 1, 2, 0x7F, 0x80, 0xFF, 0xFFFF, 0xFFFE, 0x8000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF,
        0xFFFF_FFFE, 30, 46, 22, 1024, 65_535,
    ]

    /// One to four mutations of `input`.
    mutating func mutate(_ input: [UInt8], zip: Bool) -> [UInt8] {
        var bytes = input
        for _ in 0...below(4) {
            if zip && below(3) > 0 { zipField(&bytes) } else { generic(&bytes) }
        }
        return bytes
    }

    private mutating func generic(_ bytes: inout [UInt8]) {
        let at = below(bytes.count + 1)
        switch below(8) {
        case 0 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] ^= UInt8(1 << below(8))
        case 1 where !bytes.isEmpty:
            bytes[min(at, bytes.count - 1)] = UInt8(truncatingIfNeeded: Self.values[below(Self.values.count)])
        case 2: bytes.insert(contentsOf: Self.tokens[below(Self.tokens.count)], at: at)
        case 3:
            // A number in the text replaced by a large one.
            if let digit = bytes[at...].firstIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) {
                var end = digit
                while end < bytes.count, bytes[end] >= 0x30, bytes[end] <= 0x39 { end += 1 }
                bytes.replaceSubrange(digit..<end, with: Self.tokens[below(4)])
            }
        case 4: bytes.removeSubrange(at..<min(bytes.count, at + 1 + below(64)))
        case 5:
            let end = min(bytes.count, at + below(256))
            bytes.insert(contentsOf: Array(bytes[at..<end]), at: below(bytes.count + 1))
        case 6: bytes.removeSubrange(min(at, bytes.count)...)
        default:
            let end = min(bytes.count, at + 1 + below(32))
            if at < end {
                bytes.replaceSubrange(at..<end, with: (at..<end).map { _ in UInt8(truncatingIfNeeded: next()) })
            }
        }
    }

    /// Overwrites a 1, 2, 4 or 8-byte little-endian field at an offset from a zip signature.
    private mutating func zipField(_ bytes: inout [UInt8]) {
        var signatures: [Int] = []
        var index = 0
        while index + 4 <= bytes.count {
            if bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] < 8, bytes[index + 3] < 9 {
                signatures.append(index)
            }
            index += 1
        }
        guard !signatures.isEmpty else { return generic(&bytes) }
        let at = signatures[below(signatures.count)] + below(48)
        let width = [1, 2, 4, 8][below(4)]
        var value = below(4) == 0 ? next() : Self.values[below(Self.values.count)]
        if below(5) == 0 { value = UInt64(bytes.count) &+ UInt64(below(3)) &- 1 }
        for offset in 0..<width where at + offset < bytes.count {
            bytes[at + offset] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(offset)))
        }
    }
}
