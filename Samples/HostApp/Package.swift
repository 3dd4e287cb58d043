// swift-tools-version:6.0
import PackageDescription

// A Swift program that embeds a Lua package the way an app does: FlowpkgBuildPlugin exports
// Sources/HostApp/Lua into the target's resources at build time, and main.swift runs it.
let package = Package(
    name: "HostApp",
    platforms: [.macOS(.v13)],
    dependencies: [
        // This repository. An app of yours names flowpkg's Git URL and a version instead.
        .package(name: "flowpkg", path: "../..")
    ],
    targets: [
        // Lua 5.4's headers, for the C module below (the same library FlowRuntime links).
        .systemLibrary(
            name: "LuaHeaders",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"]), .brew(["lua"])]
        ),
        // A Lua C module, `require "greeting"`, opened by luaopen_greeting.
        .target(name: "Greeting", dependencies: ["LuaHeaders"]),
        .executableTarget(
            name: "HostApp",
            dependencies: [
                "Greeting",
                .product(name: "FlowPackage", package: "flowpkg"),
                .product(name: "FlowLoader", package: "flowpkg"),
                .product(name: "FlowRuntime", package: "flowpkg"),
                // Signed updates from a feed (HOSTAPP_UPDATE_FEED in main.swift).
                .product(name: "FlowUpdates", package: "flowpkg"),
                // Used only in debug builds (#if DEBUG in main.swift).
                .product(name: "FlowLiveDevelopment", package: "flowpkg"),
            ],
            // The Lua project is the plugin's input, not Swift source.
            exclude: ["Lua"],
            // One resource of the target's own: SwiftPM generates Bundle.module only for a target
            // that declares resources, and a plugin's output alone does not count (see the "Embedding a package in an app" article).
            resources: [.copy("About.txt")],
            plugins: [.plugin(name: "FlowpkgBuildPlugin", package: "flowpkg")]
        ),
    ]
)
