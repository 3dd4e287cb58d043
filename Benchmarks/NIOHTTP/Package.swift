// swift-tools-version:6.0
// A scratch package to measure swift-nio against flowpkg's hand-written HTTP layer (issue 33).
import PackageDescription

let package = Package(
    name: "nio-scratch",
    dependencies: [.package(url: "https://github.com/apple/swift-nio", exact: "2.101.3")],
    targets: [
        .executableTarget(name: "plain-hello"),
        .executableTarget(
            name: "nio-hello",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        .executableTarget(
            name: "nio-serve",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
    ]
)
