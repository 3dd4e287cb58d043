import FlowTestSupport
import Foundation
import Testing
@testable import FlowPackage

/// Signed packages: `manifest.sig` right after the manifest, checked against trusted keys.
@Suite struct SigningTests {
    /// Every entry of a zip, in order, with its bytes.
    static func entries(_ package: URL) throws -> [(path: String, bytes: [UInt8])] {
        let reader = try ArchiveReader(path: package.path)
        var out: [(String, [UInt8])] = []
        while let info = try reader.nextEntry() { out.append((info.path, try reader.readData(limit: 1 << 30))) }
        return out
    }

    /// Writes `entries` as a zip at `url`, replacing it.
    static func rewrite(_ url: URL, _ entries: [(path: String, bytes: [UInt8])]) throws {
        try? FileManager.default.removeItem(at: url)
        let writer = try ArchiveWriter(path: url.path)
        for (path, bytes) in entries {
            try writer.addEntry(
                ArchiveEntryHeader(
                    path: path, size: Int64(bytes.count), compression: .deflate,
                    modificationTime: PackageWriteOptions.defaultTimestamp), bytes: bytes)
        }
        try writer.close()
    }

    static func signed(_ sample: SampleProject, key: PackageSigningKey, name: String = "Signed.luapkg") throws -> URL {
        var options = PackageWriteOptions()
        options.signingKey = key
        return try sample.write(to: name, options: options)
    }

    @Test func signedPackageCarriesTheSignatureSecondAndVerifies() throws {
        let scratch = try Scratch()
        let sample = try SampleProject(scratch)
        let key = PackageSigningKey()
        let package = try Self.signed(sample, key: key)
        let paths = try Self.entries(package).map(\.path)
        #expect(paths.prefix(2) == ["manifest.json", "manifest.sig"])
        let reader = try PackageReader(contentsOf: package)
        #expect(reader.isSigned)
        #expect(reader.signatureStatus(trustedKeys: [key.publicKey]) == .trusted(keyID: key.publicKey.keyID))
        #expect(reader.verify().isEmpty)
        #expect(PackageReader.verify(at: package).isEmpty)
        // The signature is over the exact manifest bytes the archive holds.
        let manifestBytes = try Self.entries(package)[0].bytes
        let signature = try #require(PackageSignature(bytes: try Self.entries(package)[1].bytes))
        #expect(key.publicKey.isValidSignature(signature.signature, for: manifestBytes))
        // Zip tools read it as any zip.
        let listing = try python(
            "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(z.namelist()[:2])",
            [package.path])
        #expect(listing.contains("'manifest.json', 'manifest.sig'"))
    }

    @Test func unsignedPackageStaysValidAndSaysSo() throws {
        let scratch = try Scratch()
        let package = try SampleProject(scratch).write()
        let reader = try PackageReader(contentsOf: package)
        #expect(!reader.isSigned)
        #expect(reader.signatureStatus(trustedKeys: [PackageSigningKey().publicKey]) == .unsigned)
        #expect(
            SignatureStatus.unsigned.description
                == "the package is not signed (no manifest.sig); export it with --sign KEY")
    }

    @Test func anotherKeyIsNotTrusted() throws {
        let scratch = try Scratch()
        let signer = PackageSigningKey(), trusted = PackageSigningKey()
        let reader = try PackageReader(contentsOf: try Self.signed(try SampleProject(scratch), key: signer))
        #expect(
            reader.signatureStatus(trustedKeys: [trusted.publicKey]) == .untrustedKey(keyID: signer.publicKey.keyID))
        #expect(reader.signatureStatus(trustedKeys: [trusted.publicKey, signer.publicKey]).isTrusted)
    }

    @Test func signatureCopiedOntoARebuiltPackageIsInvalid() throws {
        let scratch = try Scratch()
        let key = PackageSigningKey()
        let sample = try SampleProject(scratch)
        let original = try Self.signed(sample, key: key)
        // Same names, other code: a sound package whose manifest is not the one signed.
        try scratch.file("project/Sources/main.lua", "os.exit(1)\n")
        let rebuilt = try sample.write(to: "Rebuilt.luapkg")
        var entries = try Self.entries(rebuilt)
        entries.insert(try Self.entries(original)[1], at: 1)
        try Self.rewrite(rebuilt, entries)
        let reader = try PackageReader(contentsOf: rebuilt)
        #expect(reader.signatureStatus(trustedKeys: [key.publicKey]) == .invalid(keyID: key.publicKey.keyID))
    }

    @Test func changedManifestBytesFailTheSignature() throws {
        let key = PackageSigningKey()
        let bytes = Array("{\"name\": \"A\"}\n".utf8)
        let signature = PackageSignature(signing: bytes, with: key)
        #expect(
            SignatureStatus.check(signature: signature, manifestBytes: bytes, trustedKeys: [key.publicKey]).isTrusted)
        var changed = bytes
        changed[10] = UInt8(ascii: "B")
        #expect(
            SignatureStatus.check(signature: signature, manifestBytes: changed, trustedKeys: [key.publicKey])
                == .invalid(keyID: key.publicKey.keyID))
    }

    @Test func signatureAnywhereButSecondIsAnUnlistedEntry() throws {
        let scratch = try Scratch()
        let package = try Self.signed(try SampleProject(scratch), key: PackageSigningKey())
        var entries = try Self.entries(package)
        let signature = entries.remove(at: 1)
        entries.append(signature)
        try Self.rewrite(package, entries)
        #expect(
            PackageReader.verify(at: package).contains(
                PackageProblem(
                    .entryNotListed, entry: "manifest.sig", message: "is in the archive but not listed in the manifest")
            ))
    }

    @Test func malformedSignatureEntryIsReported() throws {
        let scratch = try Scratch()
        let package = try Self.signed(try SampleProject(scratch), key: PackageSigningKey())
        var entries = try Self.entries(package)
        entries[1].bytes = Array("ed25519 not-base64 nope\n".utf8)
        try Self.rewrite(package, entries)
        let reader = try PackageReader(contentsOf: package)
        #expect(reader.signatureStatus(trustedKeys: []) == .malformed)
    }

    @Test func keyFilesRoundTripAndAreToldApart() throws {
        let key = PackageSigningKey()
        let again = try PackageSigningKey(text: key.fileText, path: "k.key")
        #expect(again.publicKey == key.publicKey)
        #expect(try PackagePublicKey(text: key.publicKey.fileText, path: "k.pub") == key.publicKey)
        #expect(
            throws: SigningKeyError.malformed(
                path: "k.pub", reason: "this is a private key; give the public key file (.pub)")
        ) {
            try PackagePublicKey(text: key.fileText, path: "k.pub")
        }
        #expect(
            throws: SigningKeyError.malformed(
                path: "k.key", reason: "this is a public key; signing needs the private key file")
        ) {
            try PackageSigningKey(text: key.publicKey.fileText, path: "k.key")
        }
        #expect(throws: SigningKeyError.malformed(path: "x", reason: "the key is not 32 bytes of base64")) {
            try PackagePublicKey(text: "flowpkg-ed25519-public-key AAAA\n", path: "x")
        }
    }

    @Test func aMissingKeyFileSaysHowToMakeOne() throws {
        let scratch = try Scratch()
        let key = scratch.url.appendingPathComponent("release.key")
        let hint = "no such file (flowpkg keygen NAME writes a pair: NAME.key signs, NAME.pub verifies)"
        #expect(throws: SigningKeyError.unreadable(path: key.path, reason: hint)) {
            try PackageSigningKey(contentsOf: key)
        }
        let publicKey = scratch.url.appendingPathComponent("release.pub")
        #expect(throws: SigningKeyError.unreadable(path: publicKey.path, reason: hint)) {
            try PackagePublicKey(contentsOf: publicKey)
        }
    }

    @Test func runtimeVersionRoundTripsAndOlderManifestsStillRead() throws {
        let scratch = try Scratch()
        let sample = try SampleProject(scratch)
        var input = sample.input
        input.runtimeVersion = "2"
        let output = scratch.path("Runtime.luapkg")
        try PackageWriter.write(input, to: output)
        #expect(try PackageReader(contentsOf: output).manifest.runtimeVersion == "2")
        let plain = try PackageReader(contentsOf: try sample.write())
        #expect(plain.manifest.runtimeVersion == nil)
        #expect(!String(decoding: plain.manifestBytes, as: UTF8.self).contains("runtimeVersion"))
    }
}
