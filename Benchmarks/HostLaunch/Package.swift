// swift-tools-version:6.0
import PackageDescription

// The in-process start-up benchmark's Swift host (Benchmarks/host_launch.sh builds it in
// release mode and runs it): `PackageLaunch` on an embedded package, many times in one process.
let package = Package(
    name: "HostLaunch",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "flowpkg", path: "../..")],
    targets: [
        .executableTarget(
            name: "HostLaunch",
            dependencies: [
                .product(name: "FlowRuntime", package: "flowpkg"),
                .product(name: "FlowLoader", package: "flowpkg"),
                .product(name: "FlowPackage", package: "flowpkg"),
            ])
    ]
)
