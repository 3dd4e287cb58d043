// Starts `/bin/true` N times (argv[1], default 1) with swift-subprocess 1.0.2, output
// collected as a string, as a runner of luarocks would.
import Subprocess

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1 : 1
for _ in 0..<count {
    let result = try await Subprocess.run(.path("/bin/true"), output: .string(limit: 1 << 20))
    if !result.terminationStatus.isSuccess { fatalError("\(result.terminationStatus)") }
}
print("hello", count)
