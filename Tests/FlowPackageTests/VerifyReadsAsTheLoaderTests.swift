import FlowTestSupport
import Foundation
import Testing

@testable import FlowPackage

/// `verify` (and `run --verify-all`, which is `PackageReader.verify()`) reads every entry
/// exactly as the loader does: through the central directory, with the local header checked
/// against it. For every hostile layout below, the entries verify refuses are exactly those
/// the loader refuses to serve, with the same words, and a package verify passes is one the
/// loader serves whole.
@Suite struct VerifyReadsAsTheLoaderTests {
    let scratch: Scratch
    init() throws { scratch = try Scratch() }

    /// Python helpers that change one field of one entry's local header, or point one entry's
    /// central directory record elsewhere.
    static let patches = #"""
        def headers(b, sig, name_at, head):
            i = 0
            while (i := b.find(sig, i)) >= 0:
                nl = struct.unpack_from('<H', b, i + name_at)[0]
                yield i, bytes(b[i + head:i + head + nl])
                i += 4
        def local_offset(b, name):
            return next(i for i, n in headers(b, b'PK\x03\x04', 26, 30) if n == name.encode())
        def patch_local(path, name, at, fmt, value):
            b = bytearray(open(path, 'rb').read())
            struct.pack_into(fmt, b, local_offset(b, name) + at, value)
            open(path, 'wb').write(b)
        def point_central(path, name, other):
            # The central record of `name` points at the local header of `other`.
            b = bytearray(open(path, 'rb').read())
            target = local_offset(b, other)
            for i, n in headers(b, b'PK\x01\x02', 28, 46):
                if n == name.encode(): struct.pack_into('<I', b, i + 42, target)
            open(path, 'wb').write(b)
        def rename_local(path, name, new):
            b = bytearray(open(path, 'rb').read())
            at = local_offset(b, name) + 30
            b[at:at + len(new)] = new.encode()
            open(path, 'wb').write(b)
        """#

    /// The same two-module package (both modules the same size), then `patch`.
    private func make(_ name: String, _ patch: String) throws -> URL {
        let path = scratch.path(name)
        try HostileZip.make(
            path,
            Self.patches + "\n" + """
                m, e = valid_entries(main=b"return 1\\n", ui=b"return 2\\n")
                write(sys.argv[1], [("manifest.json", json.dumps(m))] + e)
                \(patch)
                """)
        return path
    }

    /// Every entry the loader refuses to serve, each with its problems.
    private func loaderRefusals(_ reader: PackageReader) -> [PackageProblem] {
        var problems: [PackageProblem] = []
        for module in reader.manifest.modules {
            do { _ = try reader.moduleData(module) } catch let error as PackageError {
                problems += error.problems
            } catch {
                Issue.record("\(error)")
            }
        }
        for resource in reader.manifest.resources {
            do { _ = try reader.resourceData(resource) } catch let error as PackageError {
                problems += error.problems
            } catch {
                Issue.record("\(error)")
            }
        }
        return problems
    }

    static let cases: [(name: String, patch: String, entry: String, words: String)] = [
        (
            "offset-at-another-entry", "point_central(sys.argv[1], 'modules/ui.lua', 'modules/main.lua')",
            "modules/ui.lua", "points at the local header of modules/main.lua"
        ),
        (
            "local-name", "rename_local(sys.argv[1], 'modules/ui.lua', 'modules/uj.lua')",
            "modules/ui.lua", "points at the local header of modules/uj.lua"
        ),
        (
            "local-flags", "patch_local(sys.argv[1], 'modules/ui.lua', 6, '<H', 0x0800)",
            "modules/ui.lua", "its local header's flags (2048) differ from the central directory's (0)"
        ),
        (
            "local-descriptor-flag", "patch_local(sys.argv[1], 'modules/main.lua', 6, '<H', 0x0008)",
            "modules/main.lua", "its local header's flags (8) differ"
        ),
        (
            "local-method", "patch_local(sys.argv[1], 'modules/ui.lua', 8, '<H', 0)",
            "modules/ui.lua", "its local header's compression method (0) differs from the central directory's (8)"
        ),
        (
            "local-size", "patch_local(sys.argv[1], 'modules/ui.lua', 22, '<I', 5)",
            "modules/ui.lua", "its local header declares 5 bytes"
        ),
        (
            "local-packed-size", "patch_local(sys.argv[1], 'modules/main.lua', 18, '<I', 4000)",
            "modules/main.lua", "its local header declares 9 bytes (4000 packed)"
        ),
        (
            "local-crc", "patch_local(sys.argv[1], 'modules/ui.lua', 14, '<I', 1234)",
            "modules/ui.lua", "its local header's CRC-32 differs from the central directory's"
        ),
        (
            "no-local-header", "patch_local(sys.argv[1], 'modules/ui.lua', 0, '<I', 0x01020304)",
            "modules/ui.lua", "the central directory points at no local header"
        ),
    ]

    @Test(arguments: 0..<cases.count)
    func verifyRefusesExactlyWhatTheLoaderRefuses(_ index: Int) throws {
        let test = Self.cases[index]
        let path = try make("\(test.name).luapkg", test.patch)
        let verified = PackageReader.verify(at: path)
        #expect(verified.map(\.entry) == [test.entry], "\(test.name): \(verified)")
        #expect(verified.first?.message.contains(test.words) == true, "\(test.name): \(verified)")
        // The reader opens (the central directory and the manifest are sound) and the loader
        // refuses the same entry with the same words; `run --verify-all` says the same.
        let reader = try PackageReader(contentsOf: path)
        #expect(loaderRefusals(reader) == verified, "\(test.name)")
        #expect(reader.verify() == verified, "\(test.name)")
        #expect(throws: PackageError.self) { try reader.allModules() }
    }

    @Test func soundPackageIsServedWholeAndVerified() throws {
        let path = try make("ok.luapkg", "")
        #expect(PackageReader.verify(at: path).isEmpty)
        let reader = try PackageReader(contentsOf: path)
        #expect(loaderRefusals(reader).isEmpty)
        #expect(reader.verify().isEmpty)
        #expect(try reader.allModules().count == 2)
    }

    @Test func overlappingEntriesAreRefused() throws {
        // The central directory describes `ui` as starting inside `main`'s bytes: a layout
        // overlapping zip bombs use. Here `main` is stored, and its data holds a local header
        // for `ui`, so the name check alone would pass: `main`'s bytes run into `ui`.
        let path = scratch.path("overlap.luapkg")
        try HostileZip.make(
            path,
            Self.patches + "\n" + """
                ui = b"return 2\\n"
                inner = zipfile.ZipInfo('modules/ui.lua', (1980, 1, 1, 0, 0, 0))
                import io, zlib
                buf = io.BytesIO()
                with zipfile.ZipFile(buf, 'w') as z: z.writestr(inner, ui)
                raw = buf.getvalue()
                local = raw[:raw.find(b'PK\\x01\\x02')]
                main = b"return 1 --" + local + b"\\n"
                m = manifest([("main", "modules/main.lua", main), ("ui", "modules/ui.lua", ui)])
                write(sys.argv[1], [("manifest.json", json.dumps(m)), ("modules/main.lua", main), ("modules/ui.lua", ui)], method=zipfile.ZIP_STORED)
                b = bytearray(open(sys.argv[1], 'rb').read())
                at = local_offset(b, 'modules/main.lua')
                inside = b.find(b'PK\\x03\\x04', at + 4)
                for i, n in headers(b, b'PK\\x01\\x02', 28, 46):
                    if n == b'modules/ui.lua': struct.pack_into('<I', b, i + 42, inside)
                open(sys.argv[1], 'wb').write(b)
                """)
        let verified = PackageReader.verify(at: path)
        #expect(verified.map(\.entry) == ["modules/main.lua"], "\(verified)")
        #expect(verified.first?.message.contains("entries overlap") == true, "\(verified)")
        let reader = try PackageReader(contentsOf: path)
        #expect(loaderRefusals(reader) == verified)
        #expect(reader.verify() == verified)
    }
}
