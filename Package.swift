// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "flowpkg",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "flowpkg", targets: ["flowpkg"]),
        .library(name: "FlowPackage", targets: ["FlowPackage"]),
        .library(name: "FlowLoader", targets: ["FlowLoader"]),
        .library(name: "FlowRuntime", targets: ["FlowRuntime"]),
        .library(name: "FlowLiveDevelopment", targets: ["FlowLiveDevelopment"]),
        .library(name: "FlowKit", targets: ["FlowKit"]),
        .library(name: "FlowUpdates", targets: ["FlowUpdates"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // C libraries, reached through pkg-config; each wrapper target owns its handles.
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
        ),

        // The .luapkg format: manifest, names, libarchive-backed writer and reader, integrity.
        .target(
            name: "FlowPackage",
            dependencies: [
                "CArchive",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // What a host links to find its code: sources, priority policy, provenance.
        .target(name: "FlowLoader", dependencies: ["FlowPackage"]),
        // The development monitor: the live source's client, linked by debug hosts only.
        .target(name: "FlowLiveDevelopment", dependencies: ["FlowLoader"]),
        // Signed over-the-air updates: the feed, the update store, the policy, launch safety.
        .target(
            name: "FlowUpdates",
            dependencies: ["FlowLoader", "FlowPackage", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // A Lua 5.4 state and context on top of the loader.
        .target(name: "FlowRuntime", dependencies: ["FlowLoader", "CLua"]),
        // The Templates/ folder compiled in, so an installed binary carries its templates.
        .executableTarget(name: "TemplateEmbedder", path: "Sources/TemplateEmbedder"),
        .plugin(name: "EmbedTemplates", capability: .buildTool(), dependencies: ["TemplateEmbedder"]),
        .target(name: "EmbeddedTemplates", plugins: ["EmbedTemplates"]),
        // Project model, validation, export, templates.
        .target(
            name: "FlowKit",
            dependencies: [
                "FlowPackage", "FlowLoader", "FlowRuntime", "CLua", "EmbeddedTemplates",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "FlowCLI",
            dependencies: [
                "FlowKit", "FlowRuntime", "FlowLiveDevelopment", "FlowUpdates",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "flowpkg", dependencies: ["FlowCLI"]),

        // Helpers several test targets share: an in-memory source, package surgery, a stock-Lua host.
        .target(name: "FlowTestSupport", dependencies: ["FlowLoader"], path: "Tests/FlowTestSupport"),
        .testTarget(name: "FlowLiveDevelopmentTests", dependencies: ["FlowKit", "FlowLiveDevelopment"]),
        .testTarget(name: "FlowPackageTests", dependencies: ["FlowPackage"]),
        .testTarget(name: "FlowLoaderTests", dependencies: ["FlowLoader", "FlowTestSupport"]),
        .testTarget(name: "FlowUpdatesTests", dependencies: ["FlowUpdates", "FlowLoader", "FlowPackage"]),
        .testTarget(name: "FlowRuntimeTests", dependencies: ["FlowRuntime", "FlowLoader", "FlowPackage", "FlowTestSupport"]),
        .testTarget(name: "FlowKitTests", dependencies: ["FlowKit", "FlowPackage", "FlowRuntime", "EmbeddedTemplates", "FlowTestSupport"]),
        .testTarget(
            name: "FlowCLITests",
            dependencies: ["FlowCLI", "FlowTestSupport"],
            resources: [.copy("Golden")]
        ),
    ]
)
