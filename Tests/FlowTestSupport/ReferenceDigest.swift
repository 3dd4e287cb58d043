import Foundation

/// SHA-256 as coreutils' `sha256sum` (or macOS's `shasum -a 256`) computes it, in lower-case
/// hex: the reference flowpkg's own SHA-256 (Nettle, in FlowPackage) is checked against, an
/// implementation nobody here wrote.
package func referenceSHA256(_ bytes: [UInt8]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    #if os(macOS)
        process.arguments = ["shasum", "-a", "256"]
    #else
        process.arguments = ["sha256sum"]
    #endif
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    // Written from another thread: a large input would otherwise fill the pipe while the
    // tool's answer is not yet read.
    let writer = Thread {
        input.fileHandleForWriting.write(Data(bytes)); try? input.fileHandleForWriting.close()
    }
    writer.start()
    let answer = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
        let digest = String(decoding: answer, as: UTF8.self).split(separator: " ").first
    else { throw ReferenceDigestError.toolFailed(process.terminationStatus) }
    return String(digest)
}

package enum ReferenceDigestError: Error { case toolFailed(Int32) }
