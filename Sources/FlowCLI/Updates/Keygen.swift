import ArgumentParser
import FlowPackage
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import FlowSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Flowpkg {
    /// `flowpkg keygen`: a new Ed25519 key pair for signing packages.
    struct Keygen: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keygen",
            abstract: "Create an Ed25519 key pair for signing packages.",
            discussion: """
                Writes NAME.key (the private key, mode 0600: keep it secret, e.g. in your CI's \
                secret store) and NAME.pub (the public key a host trusts). Each is one line, \
                'flowpkg-ed25519-private-key BASE64' or 'flowpkg-ed25519-public-key BASE64', \
                after a comment line. Existing files are never overwritten.

                EXAMPLES:
                  flowpkg keygen release
                  flowpkg export -o App.luapkg --sign release.key
                  flowpkg verify App.luapkg --trusted-key release.pub
                """
        )

        @Argument(help: "The key files' path without extension: NAME.key and NAME.pub.", completion: .file())
        var name: String = "flowpkg-signing"

        init() {}

        func run() throws {
            let privatePath = name + ".key", publicPath = name + ".pub"
            for path in [privatePath, publicPath] where FileManager.default.fileExists(atPath: path) {
                StandardStream.error.write(
                    "error: \(path) already exists; keygen never overwrites a key (choose another NAME)\n")
                throw ExitCode.failure
            }
            let key = PackageSigningKey()
            do {
                try Self.create(privatePath, key.fileText, mode: 0o600)
                do {
                    try Self.create(publicPath, key.publicKey.fileText, mode: 0o644)
                } catch {
                    unlink(privatePath)
                    throw error
                }
            } catch let error as KeyFileError {
                StandardStream.error.write("error: \(error.message)\n")
                throw ExitCode.failure
            }
            print(
                "wrote \(privatePath) (private key, keep it secret) and \(publicPath) (public key), key id \(key.publicKey.keyID)"
            )
        }

        struct KeyFileError: Error { var message: String }

        /// Creates `path` exclusively (never replacing a file, even one made a moment ago) with `mode`.
        static func create(_ path: String, _ text: String, mode: mode_t) throws {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            guard descriptor >= 0 else {
                throw KeyFileError(message: "\(path): cannot create it: \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            fchmod(descriptor, mode)  // the umask may have taken bits away; 0600 must be exact
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == bytes.count, fsync(descriptor) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(path)
                throw KeyFileError(message: "\(path): cannot write it: \(reason)")
            }
        }
    }
}
