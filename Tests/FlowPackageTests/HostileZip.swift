import Foundation

/// Builds zips the package writer would never produce, with Python's `zipfile`: the hostile
/// inputs the reader must refuse without crashing, hanging or filling memory.
enum HostileZip {
    /// Python helpers every script starts with.
    static let library = #"""
        import zipfile, hashlib, json, struct, sys
        def sha(b): return hashlib.sha256(b).hexdigest()
        def manifest(modules=(), resources=(), start='main', identifier='com.example.hostile'):
            mods = [{"name": n, "path": p, "size": len(b), "sha256": sha(b)} for n, p, b in modules]
            ress = [{"name": n, "type": t, "path": p, "size": len(b), "sha256": sha(b)} for n, t, p, b in resources]
            lines = sorted([(m["path"], m["sha256"]) for m in mods + ress], key=lambda x: x[0].encode())
            digest = hashlib.sha256(''.join(f"{p}:{s}\n" for p, s in lines).encode()).hexdigest()
            return {"formatVersion": 1, "identifier": identifier, "name": "Hostile", "version": "1", "startModule": start,
                    "luaVersion": "5.4", "generator": "test", "modules": mods, "resources": ress, "digest": digest}
        def write(path, entries, method=zipfile.ZIP_DEFLATED):
            import warnings; warnings.simplefilter('ignore')
            with zipfile.ZipFile(path, 'w') as z:
                for name, data, *rest in entries:
                    kind = rest[0] if rest else 'file'
                    info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
                    info.compress_type = method
                    info.create_system = 3
                    info.external_attr = {'file': 0o100644 << 16, 'symlink': 0o120777 << 16, 'dir': (0o40755 << 16) | 0x10}[kind]
                    if isinstance(data, str): data = data.encode()
                    z.writestr(info, data)
        def patch_size(path, name, size):
            # Makes both the local header and the central directory lie about an entry's size.
            b = bytearray(open(path, 'rb').read()); n = name.encode()
            for sig, name_at, size_at, head in ((b'PK\x03\x04', 26, 22, 30), (b'PK\x01\x02', 28, 24, 46)):
                i = 0
                while (i := b.find(sig, i)) >= 0:
                    nl = struct.unpack_from('<H', b, i + name_at)[0]
                    if b[i + head:i + head + nl] == n: struct.pack_into('<I', b, i + size_at, size)
                    i += 4
            open(path, 'wb').write(b)
        def flip_byte(path, name):
            # Changes one byte in the middle of an entry's stored (possibly deflated) data.
            b = bytearray(open(path, 'rb').read()); n = name.encode()
            i = b.find(b'PK\x03\x04' + b[4:4])
            i = 0
            while (i := b.find(b'PK\x03\x04', i)) >= 0:
                nl, el = struct.unpack_from('<HH', b, i + 26)
                if b[i + 30:i + 30 + nl] == n:
                    z = zipfile.ZipFile(path); info = z.getinfo(name)
                    at = i + 30 + nl + el + info.compress_size // 2
                    b[at] ^= 0x20
                    break
                i += 4
            open(path, 'wb').write(b)
        def valid_entries(main=b"return 1\n", ui=b"return {}\n"):
            m = manifest([("main", "modules/main.lua", main), ("ui", "modules/ui.lua", ui)])
            return m, [("modules/main.lua", main), ("modules/ui.lua", ui)]
        """#

    /// Runs `body` (Python, after the helpers) with `sys.argv[1]` the path to write.
    static func make(_ path: URL, _ body: String) throws {
        try python(library + "\n" + body, [path.path])
    }
}
