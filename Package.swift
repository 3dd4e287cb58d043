// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "flowpkg",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "flowpkg", targets: ["flowpkg"]),
        // What a host links: the format, the loader, a Lua runtime, the development monitor.
        .library(name: "FlowPackage", targets: ["FlowPackage"]),
        .library(name: "FlowLoader", targets: ["FlowLoader"]),
        .library(name: "FlowLua", targets: ["FlowLua"]),
        .library(name: "FlowRuntime", targets: ["FlowRuntime"]),
        .library(name: "FlowLiveDevelopment", targets: ["FlowLiveDevelopment"]),
        // What a tool links: projects (validation, export), templates, the live-source server.
        .library(name: "FlowDiagnostics", targets: ["FlowDiagnostics"]),
        .library(name: "FlowProject", targets: ["FlowProject"]),
        .library(name: "FlowTemplates", targets: ["FlowTemplates"]),
        .library(name: "FlowLiveServer", targets: ["FlowLiveServer"]),
        // Signed over-the-air updates, for hosts that take them.
        .library(name: "FlowUpdates", targets: ["FlowUpdates"]),
        // A target's Lua project folder, validated and exported into its resources at build time.
        .plugin(name: "FlowpkgBuildPlugin", targets: ["FlowpkgBuildPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `swift package generate-documentation`: the DocC catalogs of the host libraries (.ci/docs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C libraries, reached through pkg-config; each wrapper target owns its handles.
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),
        // zlib: the package reader inflates entries itself, so running a package never loads libarchive.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // Nettle's SHA-256 and Ed25519, for FlowPackage (see Sources/FlowPackage/Digest/Nettle.swift).
        .systemLibrary(
            name: "CNettle",
            pkgConfig: "hogweed",
            providers: [.apt(["nettle-dev"]), .brew(["nettle"])]
        ),
        // toml++, the TOML parser TOMLKit wraps, without TOMLKit's Swift layer: that imports Foundation
        // (and with it ICU) into the binary (Benchmarks/README.md, "stylua.toml without TOMLKit").
        // pkg-config gives its include folder (Homebrew's is not searched by default); SwiftPM drops
        // the -D flags of Debian's .pc with a "prohibited flag(s)" warning, which is harmless:
        // document.cpp sets them itself.
        .systemLibrary(
            name: "CTomlPlusPlus",
            pkgConfig: "tomlplusplus",
            providers: [.apt(["libtomlplusplus-dev"]), .brew(["tomlplusplus"])]
        ),
        // C functions over toml++ (document.cpp, which compiles toml++ in), so Swift reads stylua.toml
        // without C++ interop.
        .target(name: "CStyLuaToml", dependencies: ["CTomlPlusPlus"]),
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
        ),

        // A value behind a lock (Locked) and one to wait on (Awaited): the concurrency helpers every layer shares.
        .target(name: "FlowSupport"),
        // A small JSON parser that keeps positions and member order and refuses duplicate keys (manifests, project files).
        .target(name: "FlowJSON"),
        // The zip container: central directory, entry streams through zlib, limits, the libarchive writer.
        .target(
            name: "FlowArchive",
            dependencies: [
                // On Linux libarchive is loaded only when a package is written (LibArchive.swift).
                .target(
                    name: "CArchive",
                    condition: .when(platforms: [.macOS, .macCatalyst, .iOS, .tvOS, .watchOS, .visionOS])),
                "CZlib",
            ]
        ),
        // The .luapkg format: manifest, names, libarchive-backed writer, zlib-backed reader, integrity.
        // FlowDiagnostics (no dependencies of its own) gives a package problem its FP7xx code.
        .target(
            name: "FlowPackage",
            dependencies: [
                // Nettle, not swift-crypto: FlowpkgBuildPlugin's tool links FlowPackage, and an app
                // would compile BoringSSL again for it (see Sources/FlowPackage/Digest/Nettle.swift).
                // On Apple platforms CryptoKit instead (Digest/CryptoKit.swift): a host adds no Nettle.
                .target(name: "CNettle", condition: .when(platforms: [.linux, .android, .windows, .openbsd, .wasi])),
                "FlowArchive", "FlowDiagnostics", "FlowJSON", "FlowSupport",
            ]
        ),
        // What a host links to find its code: sources, priority policy, provenance.
        .target(name: "FlowLoader", dependencies: ["CSystemCalls", "FlowPackage", "FlowSupport"]),
        // System calls Swift's Glibc leaves out (getdents64: a launch lists its app folder).
        .target(name: "CSystemCalls"),
        // The CLua wrapper validation and the runtime share: a Lua state, values across the boundary,
        // Lua's errors, and compiling chunks without running them.
        // Its Lua files (a lone script's driver, the sandbox's, the debugger's wrappers) are in
        // Embedded/, compiled in by the same plugin as the templates.
        .target(
            name: "FlowLua",
            dependencies: ["CLua", "CFlowLua", "FlowSupport"],
            exclude: ["Embedded"],
            plugins: ["EmbedTemplates"]
        ),
        // The hooks Swift cannot be: coverage's line hook (coverage.c).
        .target(name: "CFlowLua", dependencies: ["CLua"]),
        // A Lua 5.4 context on top of the loader and FlowLua's state.
        // Its set-up scripts (a sandbox's allow-list, external C modules, observed output) are in
        // Embedded/, compiled in by the same plugin as the templates.
        .target(
            name: "FlowRuntime",
            dependencies: ["FlowLoader", "FlowLua", "FlowPackage", "FlowSupport"],
            exclude: ["Embedded"],
            plugins: ["EmbedTemplates"]
        ),
        // `flowpkg test`: busted's API over each spec file in a context of its own, in parallel, and
        // the reports (terminal, JSON, JUnit, TAP, GitHub). Its Lua runner is in Embedded/, compiled
        // in by the same plugin as the templates.
        .target(
            name: "FlowTesting",
            dependencies: [
                "FlowLiveProtocol", "FlowLoader", "FlowLua", "FlowPackage", "FlowRuntime", "FlowSupport", "FlowJSON",
            ],
            exclude: ["Embedded"],
            plugins: ["EmbedTemplates"]
        ),
        // Plain HTTP/1.1 over sockets (no HTTP library): what the live channel and update checks speak.
        .target(name: "FlowHTTP", dependencies: ["FlowSupport"]),
        // The live source's wire protocol: paths, the manifest it serves, the changes it announces.
        .target(name: "FlowLiveProtocol", dependencies: ["FlowJSON", "FlowPackage"]),
        // The development monitor: the live source's client, linked by debug hosts only.
        .target(
            name: "FlowLiveDevelopment",
            dependencies: [
                "FlowLoader", "FlowPackage", "FlowHTTP", "FlowLiveProtocol", "FlowRuntime", "FlowSupport",
                "FlowTesting",
            ]
        ),
        // Signed over-the-air updates: the feed, the update store, the policy, launch safety.
        .target(
            name: "FlowUpdates",
            dependencies: [
                "FlowHTTP", "FlowLoader", "FlowPackage", "FlowSupport", "FlowArchive",
            ]
        ),
        // The Templates/ folder compiled in, so an installed binary carries its templates.
        .executableTarget(name: "TemplateEmbedder", path: "Sources/TemplateEmbedder"),
        .plugin(name: "EmbedTemplates", capability: .buildTool(), dependencies: ["TemplateEmbedder"]),
        .target(name: "EmbeddedTemplates", plugins: ["EmbedTemplates"]),
        // Its Embedded/ folder compiled in: each environment's LuaCATS definitions of its globals.
        .target(name: "EmbeddedDefinitions", exclude: ["Embedded"], plugins: ["EmbedTemplates"]),
        // The lint rules' registry made from their files (Sources/FlowAnalysis/Lint/Rules): each rule's
        // catalogue entry into FlowDiagnostics, the rule list into FlowAnalysis; adding a rule is adding its file.
        .executableTarget(name: "LintRuleGenerator"),
        .plugin(name: "RegisterLintRules", capability: .buildTool(), dependencies: ["LintRuleGenerator"]),
        // A problem found in a project, as a plain value renderers turn into text. Its lint rules'
        // codes are generated from FlowAnalysis' rule files (RegisterLintRules).
        .target(name: "FlowDiagnostics", plugins: ["RegisterLintRules"]),
        // Lua source to syntax tree: lexer, parser, symbols, source locations.
        .target(name: "LuaSyntax"),
        // `flowpkg fmt` and the language server's formatting: StyLua's options and layout over
        // LuaSyntax's tree and tokens, each result checked against Lua's bytecode before a write.
        .target(
            name: "FlowFormat",
            dependencies: ["LuaSyntax", "FlowLua", "FlowSupport", "CStyLuaToml"]
        ),
        // Static analysis: what each module requires, reads and defines, and the project-wide rules.
        // Its rules' codes and list are generated from their files (RegisterLintRules).
        .target(
            name: "FlowAnalysis", dependencies: ["LuaSyntax", "FlowDiagnostics", "FlowPackage", "EmbeddedDefinitions"],
            plugins: ["RegisterLintRules"]
        ),
        // The project model and file, discovery, validation, export, the project-folder source.
        .target(
            name: "FlowProject",
            dependencies: [
                "FlowAnalysis", "FlowDiagnostics", "FlowJSON", "FlowLoader", "FlowLua", "FlowPackage", "FlowSupport",
                "FlowDependencies",
            ]
        ),
        // Templates: the catalog, Mustache rendering (the subset templates use, by hand: see
        // TemplateText.swift), writing a new project.
        .target(
            name: "FlowTemplates",
            dependencies: [
                "EmbeddedTemplates", "FlowDiagnostics", "FlowJSON", "FlowPackage", "FlowSupport",
                "FlowDependencies", "FlowLua", "FlowProject",
            ]
        ),
        // The live-source server `flowpkg serve` runs: HTTP listener, file watcher, change events.
        .target(
            name: "FlowLiveServer",
            dependencies: [
                "FlowDependencies", "FlowDiagnostics", "FlowHTTP", "FlowLiveProtocol", "FlowPackage", "FlowProject",
                "FlowSupport", "FlowTesting",
            ],
            // The session page's markup, script and style as files their own tools check, compiled in.
            resources: [
                .embedInCode("Page/session.js"), .embedInCode("Page/console.js"), .embedInCode("Page/session.css"),
                .embedInCode("Page/session.html"), .embedInCode("Page/snapshot.html"),
            ],
            // FlowTesting brings FlowRuntime, whose one `import Foundation` (for `Bundle`) would
            // otherwise make Foundation's String methods win overloads here and link Foundation and
            // ICU into flowpkg (.ci/binary-check): members come only from modules imported here.
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // `Content-Length`-framed messages over a descriptor: the base protocol LSP and DAP share.
        .target(name: "ContentLengthFraming", dependencies: ["FlowSupport"]),
        // The Language Server Protocol's messages, written by hand (see JSONRPC.swift).
        .target(name: "LanguageServerProtocol", dependencies: ["FlowSupport"]),
        // `flowpkg lsp`: validation, definitions, completion and hover for editors, kept current per edit.
        .target(
            name: "FlowLanguageServer",
            dependencies: [
                "ContentLengthFraming", "FlowAnalysis", "FlowDependencies", "FlowDiagnostics", "FlowFormat",
                "FlowPackage", "FlowProject", "FlowSupport", "LanguageServerProtocol", "LuaSyntax",
            ]
        ),
        .target(
            name: "FlowCLI",
            dependencies: [
                "FlowAnalysis", "FlowDiagnostics", "FlowLiveDevelopment", "FlowLiveServer", "FlowLoader", "FlowPackage",
                "FlowProject", "FlowRuntime", "FlowSupport", "FlowTemplates", "FlowUpdates",
                "FlowLanguageServer", "FlowDebugAdapter", "FlowDependencies", "FlowTesting", "FlowFormat",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "flowpkg", dependencies: ["FlowCLI"]),
        // A host target's Lua project folder, validated and exported into its resources at build time
        // by a tool that links FlowProject only (no CLI, templates, server or updates): an app compiles
        // this tool's closure for the host besides its own libraries.
        .executableTarget(name: "FlowpkgBuildTool", dependencies: ["FlowProject", "FlowSupport"]),
        .plugin(name: "FlowpkgBuildPlugin", capability: .buildTool(), dependencies: ["FlowpkgBuildTool"]),

        // Helpers several test targets share: an in-memory source, package surgery, a stock-Lua host,
        // the installed Lua corpus.
        .target(name: "FlowTestSupport", dependencies: ["FlowLoader", "FlowPackage"], path: "Tests/FlowTestSupport"),
        // A project served by a real LiveServer on loopback, and waiting on what other threads hand over.
        .target(
            name: "FlowLiveTestSupport", dependencies: ["FlowLiveServer", "FlowTestSupport"],
            path: "Tests/FlowLiveTestSupport"
        ),
        .testTarget(name: "FlowHTTPTests", dependencies: ["FlowHTTP", "FlowSupport"]),
        .testTarget(name: "FlowSupportTests", dependencies: ["FlowSupport", "FlowTestSupport"]),
        .testTarget(
            name: "FlowLiveServerTests",
            dependencies: [
                "FlowDependencies", "FlowHTTP", "FlowLiveDevelopment", "FlowLiveProtocol", "FlowLiveServer",
                "FlowLiveTestSupport", "FlowPackage", "FlowProject", "FlowRuntime", "FlowSupport", "FlowTestSupport",
            ]
        ),
        .testTarget(
            name: "FlowLiveDevelopmentTests",
            dependencies: [
                "FlowLiveDevelopment", "FlowLiveTestSupport", "FlowLoader", "FlowPackage", "FlowProject", "FlowRuntime",
                "FlowLiveProtocol", "FlowTestSupport",
            ]
        ),
        .testTarget(
            name: "FlowPackageTests",
            dependencies: [
                "CArchive", "FlowJSON", "FlowPackage", "FlowSupport", "FlowTestSupport", "FlowArchive",
            ]
        ),
        .testTarget(name: "FlowJSONTests", dependencies: ["FlowJSON"]),
        .testTarget(name: "FlowLoaderTests", dependencies: ["FlowLoader", "FlowPackage", "FlowTestSupport"]),
        .testTarget(
            name: "FlowUpdatesTests", dependencies: ["FlowLoader", "FlowPackage", "FlowTestSupport", "FlowUpdates"]
        ),
        .testTarget(name: "FlowLuaTests", dependencies: ["FlowLua", "FlowTestSupport"]),
        .testTarget(
            name: "FlowTestingTests",
            dependencies: ["FlowLoader", "FlowPackage", "FlowRuntime", "FlowTesting", "FlowTestSupport"],
            // Spec folders run by busted and by flowpkg test alike, read from the source tree.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "FlowRuntimeTests",
            dependencies: ["CLua", "FlowLoader", "FlowLua", "FlowPackage", "FlowRuntime", "FlowTestSupport"]
        ),
        .testTarget(name: "LuaSyntaxTests", dependencies: ["FlowLua", "FlowTestSupport", "LuaSyntax"]),
        .testTarget(name: "FlowFormatTests", dependencies: ["FlowFormat", "FlowTestSupport", "LuaSyntax"]),
        .testTarget(
            name: "FlowAnalysisTests",
            dependencies: ["FlowAnalysis", "FlowDiagnostics", "FlowLua", "FlowPackage", "FlowTestSupport", "LuaSyntax"]
        ),
        .testTarget(
            name: "FlowProjectTests",
            dependencies: [
                "FlowAnalysis", "FlowDependencies", "FlowDiagnostics", "FlowJSON", "FlowLoader", "FlowLua",
                "FlowPackage", "FlowProject", "FlowTestSupport",
            ]
        ),
        .testTarget(
            name: "FlowTemplatesTests",
            dependencies: [
                "EmbeddedTemplates", "FlowDiagnostics", "FlowPackage", "FlowProject", "FlowRuntime", "FlowTemplates",
                "FlowTestSupport",
            ]
        ),
        .testTarget(name: "FlowDiagnosticsTests", dependencies: ["FlowDiagnostics"]),
        // The generator run as the build runs it, on rule folders a test writes.
        .testTarget(name: "LintRuleGeneratorTests", dependencies: ["FlowTestSupport"]),
        // The protocol targets on their own: wire types, names, framing.
        .testTarget(name: "FlowLiveProtocolTests", dependencies: ["FlowLiveProtocol", "FlowPackage"]),
        .testTarget(name: "LanguageServerProtocolTests", dependencies: ["LanguageServerProtocol"]),
        .testTarget(name: "ContentLengthFramingTests", dependencies: ["ContentLengthFraming"]),
        .testTarget(
            name: "FlowLanguageServerTests",
            dependencies: [
                "ContentLengthFraming", "FlowDependencies", "FlowDiagnostics", "FlowLanguageServer", "FlowProject",
                "FlowTestSupport",
                "LanguageServerProtocol",
            ]
        ),
        .testTarget(
            name: "FlowCLITests",
            dependencies: [
                "FlowAnalysis", "FlowCLI", "FlowDiagnostics", "FlowHTTP", "FlowLiveDevelopment", "FlowLiveServer",
                "FlowPackage", "FlowProject", "FlowRuntime", "FlowSupport", "FlowTestSupport",
            ],
            // The Python clients the tests run (a browser page check, a pseudo-terminal, a DAP
            // client) are read from the source tree, not bundled.
            exclude: ["Scripts", "DapClient"],
            resources: [.copy("Golden")]
        ),
        // `flowpkg dap`: the Debug Adapter Protocol's messages and the session an editor drives;
        // the program's side of the debug channel is FlowLiveDevelopment's engine.
        .target(
            name: "FlowDebugAdapter",
            dependencies: [
                "ContentLengthFraming", "FlowHTTP", "FlowLiveProtocol", "FlowProject", "FlowSupport",
            ]
        ),
        .testTarget(
            name: "FlowDebugAdapterTests",
            dependencies: [
                "FlowDebugAdapter", "FlowLiveDevelopment", "FlowLiveProtocol", "FlowLua", "FlowRuntime",
                "FlowLiveTestSupport", "FlowLoader", "FlowPackage", "FlowSupport", "FlowTestSupport",
            ]
        ),
        // Dependencies: flowpkg.json's `dependencies`, LuaRocks driven as a tool, flowpkg.lock, the cache.
        .target(
            name: "FlowDependencies",
            dependencies: ["FlowDiagnostics", "FlowJSON", "FlowLua", "FlowPackage", "FlowSupport"],
            // luarocks' guard (LUA_INIT), which leaves every rock unbuilt until flowpkg read its rockspec;
            // the rockspec whose dependencies a resolution installs.
            resources: [.embedInCode("Resources/luarocks-guard.lua"), .embedInCode("Resources/resolution.rockspec")]
        ),
        .testTarget(
            name: "FlowDependenciesTests",
            dependencies: ["FlowDependencies", "FlowDiagnostics", "FlowPackage", "FlowTestSupport"]
        ),
        // The zip container on its own: writer, reader, central directory, entry streams.
        .testTarget(name: "FlowArchiveTests", dependencies: ["CArchive", "FlowArchive", "FlowTestSupport"]),
    ],
    // toml++ needs C++17 (CStyLuaToml).
    cxxLanguageStandard: .cxx17
)
