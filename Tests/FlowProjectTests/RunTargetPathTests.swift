import Foundation
import Testing

@testable import FlowProject

/// `RunTarget` names a package's modules by the package's path, tidied by hand rather than by
/// `URL.standardizedFileURL` (whose generic machinery cost start-up time): it must give what
/// `URL` gives.
@Suite struct RunTargetPathTests {
    @Test(arguments: [
        "/a/b/c.luapkg", "/a/./b/../c.luapkg", "/a//b///c.luapkg", "/../a.luapkg", "/a/b/..", "/a/b/.",
        "/", "/a/", "/a/../../b", "/é/ü/./x.luapkg", "/a/..b/.c/c..", "/tmp/./work/../work/App.luapkg",
    ])
    func tidiesAsURLDoes(path: String) {
        #expect(RunTarget.lexicallyStandardized(path) == URL(fileURLWithPath: path).standardizedFileURL.path)
    }
}
