import FlowTestSupport
import Foundation
import Testing

/// `verify`, `inspect`, `run` and `run --verify-all` on hostile packages, as a user runs them:
/// each exits 1 with a worded message (never a signal), and nothing a package holds reaches
/// the terminal unescaped.
@Suite struct HostilePackageCommandTests {
    let scratch: URL

    init() throws {
        scratch = try Scratch("hostile").url
        let project = ValidateCommandTests.fixtures.appendingPathComponent("valid/Basic").path
        let export = try FlowpkgProcess.run(["export", project, "-o", "Basic.luapkg"], in: scratch)
        guard export.status == 0 else { throw PackageCommandTests.CommandFailure(output: export.stderr) }
    }

    /// Rewrites `Basic.luapkg` as `name` with `edit` (a Python expression of `m`, the manifest's
    /// text) applied to `manifest.json`; every other entry is copied as it was.
    private func rewrite(_ name: String, manifest edit: String) throws {
        _ = try PackageCommandTests.tool(
            "python3",
            [
                "-c",
                """
                import zipfile, sys, re, json, hashlib
                src = zipfile.ZipFile(sys.argv[1]); items = [(i, src.read(i)) for i in src.infolist()]; src.close()
                with zipfile.ZipFile(sys.argv[2], 'w') as out:
                    for info, data in items:
                        if info.filename == 'manifest.json':
                            m = data.decode()
                            data = (\(edit)).encode()
                        out.writestr(info, data)
                """, scratch.appendingPathComponent("Basic.luapkg").path, scratch.appendingPathComponent(name).path,
            ])
    }

    private static let commands: [[String]] = [["verify"], ["inspect"], ["run"], ["run", "--verify-all"]]

    @Test(arguments: ["9223372036854775808", "99999999999999999999"])
    func numbersTooLargeForAnInt64ExitOneWithAMessage(digits: String) throws {
        for field in ["size", "formatVersion"] {
            let name = "\(field)-\(digits.count).luapkg"
            try rewrite(name, manifest: #"re.sub(r'"\#(field)": \d+', '"\#(field)": \#(digits)', m, count=1)"#)
            for command in Self.commands {
                let result = try FlowpkgProcess.run([command[0], name] + command.dropFirst(), in: scratch)
                let output = result.stdout + result.stderr
                #expect(result.status == 1, "\(command) on \(field) = \(digits): \(output)")
                #expect(output.contains("\(name): manifest.json:"), "\(command): \(output)")
                #expect(
                    output.contains("\"\(field)\" is too large, expected an integer up to 9223372036854775807"),
                    "\(command): \(output)")
            }
        }
    }

    @Test func inspectAndVerifyEscapeWhatThePackageSays() throws {
        // A name with an escape sequence (clear screen, set title) and a forged line, in a
        // format 1 manifest (whose digest covers only the entries).
        try rewrite(
            "escape.luapkg",
            manifest: """
                (lambda j: json.dumps(dict(j, formatVersion=1, name="Basic\\u001b[2J\\u001b]0;pwned\\u0007\\nforged: yes",
                    digest=hashlib.sha256(''.join(f"{p}:{h}\\n" for p, h in sorted((e["path"], e["sha256"])
                    for e in j["modules"] + j["resources"])).encode()).hexdigest())))(json.loads(m))
                """)
        let inspect = try FlowpkgProcess.run(["inspect", "escape.luapkg"], in: scratch)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(!inspect.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(inspect.stdout.contains(#"  name:         Basic\u{1B}[2J\u{1B}]0;pwned\u{7}\nforged: yes"#))
        #expect(!inspect.stdout.contains("\nforged"))
        // The JSON form is escaped by JSON.
        let json = try FlowpkgProcess.run(["inspect", "escape.luapkg", "--format", "json"], in: scratch)
        #expect(!json.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(report?["name"] as? String == "Basic\u{1B}[2J\u{1B}]0;pwned\u{7}\nforged: yes")

        // verify names an unlisted entry whose name holds control characters, escaped.
        _ = try PackageCommandTests.tool(
            "python3",
            [
                "-c",
                """
                import zipfile, sys, shutil
                shutil.copy(sys.argv[1], sys.argv[2])
                with zipfile.ZipFile(sys.argv[2], 'a') as z: z.writestr('resources/x\\x1b[31m\\nfake: ok', b'x')
                """, scratch.appendingPathComponent("Basic.luapkg").path,
                scratch.appendingPathComponent("unlisted.luapkg").path,
            ])
        let verify = try FlowpkgProcess.run(["verify", "unlisted.luapkg"], in: scratch)
        #expect(verify.status == 1)
        #expect(
            verify.stdout
                == "unlisted.luapkg: resources/x\\u{1B}[31m\\nfake: ok: the entry name contains a control character [FP704]\n"
                + "unlisted.luapkg: 1 problem\n")
        let open = try FlowpkgProcess.run(["inspect", "unlisted.luapkg"], in: scratch)
        #expect(open.status == 1)
        #expect(
            open.stderr
                == "error: unlisted.luapkg: resources/x\\u{1B}[31m\\nfake: ok: the entry name contains a control character [FP704]\n"
        )
        let run = try FlowpkgProcess.run(["run", "unlisted.luapkg"], in: scratch)
        #expect(run.status == 1)
        #expect(!run.stderr.contains("\u{1B}"))
        #expect(run.stderr.contains(#"resources/x\u{1B}[31m\nfake: ok: the entry name contains a control character"#))
    }

    @Test func zipBombIsRefusedWhenOpenedNamingTheEntryAndTheLimit() throws {
        // 64 MiB of zeros deflate to 64 KB (a gigabyte, to a megabyte); the manifest lists it as it is (its
        // hash is never computed: the package is refused before any entry is read).
        _ = try PackageCommandTests.tool(
            "python3",
            [
                "-c",
                """
                import zipfile, sys, json, hashlib
                main = b"print('hi')\\n"; size = 1 << 26
                mods = [{"name": "main", "path": "modules/main.lua", "size": len(main), "sha256": hashlib.sha256(main).hexdigest()}]
                ress = [{"name": "zeros", "type": "bin", "path": "resources/zeros.bin", "size": size, "sha256": "a" * 64}]
                lines = sorted([(e["path"], e["sha256"]) for e in mods + ress])
                digest = hashlib.sha256(''.join(f"{p}:{s}\\n" for p, s in lines).encode()).hexdigest()
                m = {"formatVersion": 1, "identifier": "com.example.bomb", "name": "Bomb", "version": "1", "startModule": "main",
                     "luaVersion": "5.4", "generator": "test", "modules": mods, "resources": ress, "digest": digest}
                def entry(name):
                    info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)); info.compress_type = zipfile.ZIP_DEFLATED
                    info.create_system = 3; info.external_attr = 0o100644 << 16
                    return info
                with zipfile.ZipFile(sys.argv[1], 'w') as out:
                    out.writestr(entry('manifest.json'), json.dumps(m))
                    out.writestr(entry('modules/main.lua'), main)
                    info = entry('resources/zeros.bin')
                    block = bytes(1 << 20)
                    with out.open(info, 'w', force_zip64=True) as f:
                        for _ in range(size >> 20): f.write(block)
                """, scratch.appendingPathComponent("bomb.luapkg").path,
            ])
        let size =
            try FileManager.default.attributesOfItem(
                atPath: scratch.appendingPathComponent("bomb.luapkg").path)[.size] as? Int ?? 0
        #expect(size < 100_000)
        for command in Self.commands {
            let result = try FlowpkgProcess.run([command[0], "bomb.luapkg"] + command.dropFirst(), in: scratch)
            let output = result.stdout + result.stderr
            #expect(result.status == 1)
            #expect(
                output.contains(
                    "bomb.luapkg: resources/zeros.bin: declares 67108864 bytes packed in "), "\(command): \(output)")
            #expect(output.contains("more than the 100-fold expansion a package entry may have"), "\(output)")
        }
    }

    @Test func exportRemovesTheTemporaryFilesOfKilledExportsOnly() throws {
        // One past the largest PID the kernel gives: no process has it.
        let pidMax = try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8)
        let dead = (Int(pidMax.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 4_194_304) + 1
        let alive = ProcessInfo.processInfo.processIdentifier
        let stale = ".Basic.luapkg.\(dead).17.tmp", live = ".Basic.luapkg.\(alive).18.tmp"
        let other = ".Basic.luapkg.\(dead).tmp"
        for name in [stale, live, other] {
            try Data(repeating: 0, count: 1000).write(to: scratch.appendingPathComponent(name))
        }
        let project = ValidateCommandTests.fixtures.appendingPathComponent("valid/Basic").path
        let export = try FlowpkgProcess.run(["export", project, "-o", "Basic.luapkg"], in: scratch)
        #expect(export.status == 0, "\(export.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        #expect(!left.contains(stale))
        #expect(left.contains(live))
        #expect(left.contains(other))
    }
}
