// swift-tools-version:6.0
// A scratch package to measure swift-subprocess 1.0.2 against a posix_spawn runner like
// FlowSupport's ChildProcess (issue 44): binary size and the time to start and reap a child.
import PackageDescription

let package = Package(
    name: "child-runner-scratch",
    dependencies: [.package(url: "https://github.com/swiftlang/swift-subprocess", exact: "1.0.2")],
    targets: [
        .executableTarget(name: "spawn-none"),
        .executableTarget(name: "spawn-posix"),
        .executableTarget(
            name: "spawn-subprocess", dependencies: [.product(name: "Subprocess", package: "swift-subprocess")]),
    ]
)
