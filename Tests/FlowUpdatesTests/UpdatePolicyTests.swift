import FlowLoader
import FlowPackage
import FlowUpdates
import Testing

/// Every row of the "Taking signed updates" article's "Which package runs" table: "embedded over remote".
@Suite struct UpdatePolicyTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var situation: UpdateSituation
        var expected: UpdatePlan
        var testDescription: String { name }
    }

    static let app = try! PackageIdentifier("com.example.app")
    static let other = try! PackageIdentifier("com.example.other")
    static let embedded = UpdateSituation.Package(identifier: app, version: "1.0.0", runtimeVersion: "1")
    static let a = String(repeating: "a", count: 64)
    static let b = String(repeating: "b", count: 64)

    static func update(
        _ version: String, id: String = a, identifier: PackageIdentifier = app, runtime: String? = "1",
        signature: SignatureStatus = .trusted(keyID: "k1"), failed: Bool = false
    ) -> UpdateSituation.Candidate {
        .init(
            id: id, package: .init(identifier: identifier, version: version, runtimeVersion: runtime),
            signature: signature, failed: failed)
    }

    static func situation(
        _ candidates: [UpdateSituation.Candidate], host: String? = nil, rolledBack: Bool = false,
        monitor: SourceSituation.Monitor = .absent,
        embedded: UpdateSituation.Package = embedded
    ) -> UpdateSituation {
        UpdateSituation(
            embedded: embedded, hostRuntimeVersion: host, candidates: candidates, rolledBack: rolledBack,
            monitor: monitor)
    }

    static let embeddedOnly = [SourceKind.embeddedPackage]
    static let updateOnly = [SourceKind.downloadedUpdate]
    static let aName = "update 1.1.0 (aaaaaaaaaaaa) not used: "

    static let rows: [Row] = [
        Row(
            name: "no update downloaded: embedded",
            situation: situation([]), expected: UpdatePlan(choice: .embedded, order: embeddedOnly)),
        Row(
            name: "signed by a trusted key, same identifier, same runtime, newer: the update",
            situation: situation([update("1.1.0")]), expected: UpdatePlan(choice: .update(id: a), order: updateOnly)),
        Row(
            name: "unsigned: embedded",
            situation: situation([update("1.1.0", signature: .unsigned)]),
            expected: UpdatePlan(
                choice: .embedded, order: embeddedOnly,
                messages: [
                    aName + "the package is not signed (no manifest.sig); export it with --sign KEY"
                ])),
        Row(
            name: "signed by a key the host does not trust: embedded",
            situation: situation([update("1.1.0", signature: .untrustedKey(keyID: "k2"))]),
            expected: UpdatePlan(
                choice: .embedded, order: embeddedOnly,
                messages: [
                    aName + "signed by key k2, which is not a trusted key"
                ])),
        Row(
            name: "manifest changed after signing: embedded",
            situation: situation([update("1.1.0", signature: .invalid(keyID: "k1"))]),
            expected: UpdatePlan(
                choice: .embedded, order: embeddedOnly,
                messages: [
                    aName
                        + "the signature by key k1 does not match manifest.json: the package was changed after it was signed"
                ])),
        Row(
            name: "signature entry malformed: embedded",
            situation: situation([update("1.1.0", signature: .malformed)]),
            expected: UpdatePlan(
                choice: .embedded, order: embeddedOnly,
                messages: [
                    aName + "manifest.sig is not a valid signature"
                ])),
        Row(
            name: "another identifier: embedded",
            situation: situation([update("1.1.0", identifier: other)]),
            expected: UpdatePlan(
                choice: .embedded, order: embeddedOnly,
                messages: [
                    aName + "it is com.example.other, not com.example.app"
                ])),
        Row(
            name: "runtime version other than the host declares: embedded",
            situation: situation([update("1.1.0", runtime: "1")], host: "2"),
            expected: UpdatePlan(
                choice: .embedded, order: embeddedOnly,
                messages: [
                    aName + "it needs runtime version 1; this host runs 2"
                ])),
        Row(
            name: "host declares none: the embedded package's runtime version is the host's",
            situation: situation([update("1.1.0", runtime: "2")]),
            expected: UpdatePlan(
                choice: .embedded, order: embeddedOnly,
                messages: [
                    aName + "it needs runtime version 2; this host runs 1"
                ])),
        Row(
            name: "neither declares a runtime version (older packages): compatible",
            situation: situation(
                [update("1.1.0", runtime: nil)],
                embedded: .init(identifier: app, version: "1.0.0", runtimeVersion: nil)),
            expected: UpdatePlan(choice: .update(id: a), order: updateOnly)),
        Row(
            name: "same version as embedded: embedded",
            situation: situation([update("1.0.0")]),
            expected: UpdatePlan(
                choice: .embedded, order: embeddedOnly,
                messages: [
                    "update 1.0.0 (aaaaaaaaaaaa) not used: it is not newer than the embedded package 1.0.0"
                ])),
        Row(
            name: "an app update shipped a newer embedded package: embedded wins",
            situation: situation(
                [update("1.1.0")], embedded: .init(identifier: app, version: "1.2.0", runtimeVersion: "1")),
            expected: UpdatePlan(
                choice: .embedded, order: embeddedOnly,
                messages: [
                    aName + "it is not newer than the embedded package 1.2.0"
                ])),
        Row(
            name: "versions compare as numbers: 1.10.0 is newer than 1.9.0",
            situation: situation(
                [update("1.10.0")], embedded: .init(identifier: app, version: "1.9.0", runtimeVersion: "1")),
            expected: UpdatePlan(choice: .update(id: a), order: updateOnly)),
        Row(
            name: "a pre-release comes before its release: embedded 1.1.0 beats 1.1.0-beta.2",
            situation: situation(
                [update("1.1.0-beta.2")], embedded: .init(identifier: app, version: "1.1.0", runtimeVersion: "1")),
            expected: UpdatePlan(
                choice: .embedded, order: embeddedOnly,
                messages: [
                    "update 1.1.0-beta.2 (aaaaaaaaaaaa) not used: it is not newer than the embedded package 1.1.0"
                ])),
        Row(
            name: "a version that cannot be compared: embedded",
            situation: situation([update("latest")]),
            expected: UpdatePlan(
                choice: .embedded, order: embeddedOnly,
                messages: [
                    "update latest (aaaaaaaaaaaa) not used: its version latest cannot be compared"
                ])),
        Row(
            name: "marked failed: embedded",
            situation: situation([update("1.1.0", failed: true)]),
            expected: UpdatePlan(
                choice: .embedded, order: embeddedOnly,
                messages: [
                    aName + "it failed at an earlier launch before the host confirmed it healthy"
                ])),
        Row(
            name: "newest failed, an earlier good one stored: the earlier good update",
            situation: situation([update("1.2.0", id: b, failed: true), update("1.1.0")]),
            expected: UpdatePlan(
                choice: .update(id: a), order: updateOnly,
                messages: [
                    "update 1.2.0 (bbbbbbbbbbbb) not used: it failed at an earlier launch before the host confirmed it healthy"
                ])),
        Row(
            name: "two good updates: the newest",
            situation: situation([update("1.1.0"), update("1.2.0", id: b)]),
            expected: UpdatePlan(
                choice: .update(id: b), order: updateOnly,
                messages: [
                    aName + "1.2.0 is newer"
                ])),
        Row(
            name: "the feed rolled back: embedded",
            situation: situation([update("1.1.0")], rolledBack: true),
            expected: UpdatePlan(
                choice: .embedded, order: embeddedOnly,
                messages: [
                    "the update feed rolled back; using the embedded package 1.0.0"
                ])),
        Row(
            name: "debug host, live source connected: live first, then the update",
            situation: situation([update("1.1.0")], monitor: .connected),
            expected: UpdatePlan(choice: .update(id: a), order: [.live, .downloadedUpdate])),
        Row(
            name: "debug host, live source connected, no usable update: live first, then embedded",
            situation: situation([update("1.1.0", signature: .unsigned)], monitor: .connected),
            expected: UpdatePlan(
                choice: .embedded, order: [.live, .embeddedPackage],
                messages: [
                    aName + "the package is not signed (no manifest.sig); export it with --sign KEY"
                ])),
    ]

    @Test(arguments: rows) func row(_ row: Row) {
        #expect(UpdatePolicy.plan(for: row.situation) == row.expected)
    }

    @Test func versionOrder() {
        let ordered = [
            "0.9", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta.2", "1.0.0-beta.11",
            "1.0.0-rc.1", "1.0.0", "1.0.1", "1.9.0", "1.10.0", "2",
        ]
        let versions = ordered.compactMap(PackageVersion.init)
        #expect(versions.count == ordered.count)
        for (lower, higher) in zip(versions, versions.dropFirst()) {
            #expect(lower < higher, "\(lower) < \(higher)")
        }
        #expect(PackageVersion("1.0.0+build.5") == PackageVersion("1.0.0"))
        #expect(PackageVersion("1.0") == PackageVersion("1.0.0"))
        #expect(PackageVersion("v1.0") == nil)
        #expect(PackageVersion("") == nil)
    }
}
