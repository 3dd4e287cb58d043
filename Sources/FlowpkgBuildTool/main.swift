import FlowProject
import FlowSupport
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// What FlowpkgBuildPlugin runs at build time: `FlowpkgBuildTool PROJECT OUTPUT` validates the
// Lua project and exports it to OUTPUT, as `flowpkg export PROJECT --output OUTPUT
// --absolute-paths` does, through the same library calls (Exporter, Diagnostic.text). It is
// its own small executable so that an app's build compiles only FlowProject's closure for the
// host, not the whole CLI (templates, server, update client, editor support, argument parsing).
// The arguments are read by hand because the plugin is the only caller and passes exactly two
// (and `--allow-outside-links` first, when the host's build allows linked files outside the
// project's repository, as FLOWPKG_ALLOW_OUTSIDE_LINKS=1 does).
//
// It prints nothing when the project is clean: a build log shows a line only for a problem,
// each as `/absolute/file:line:col: error: message [FPnnn]`. Exit status 1 when the export
// wrote nothing (an error in the project, or the output could not be written), 64 on usage.

var arguments = CommandLine.arguments.dropFirst()
let allowsOutsideLinks = arguments.first == OutsideLinks.option
if allowsOutsideLinks { arguments = arguments.dropFirst() }
guard arguments.count == 2, let project = arguments.first, let output = arguments.last else {
    StandardStream.error.write("usage: FlowpkgBuildTool [\(OutsideLinks.option)] PROJECT-FOLDER OUTPUT.luapkg\n")
    exit(64)
}
var options = ExportOptions(output: output)
options.allowsOutsideLinks = options.allowsOutsideLinks || allowsOutsideLinks
let result = Exporter.export(projectAt: URL(fileURLWithPath: project), options: options)
let report = result.diagnostics.map { $0.text() + "\n" }.joined()
StandardStream.output.write(report)
if result.package == nil {
    // Every failure comes with a diagnostic; this line only guards against a silent one.
    if result.diagnostics.isEmpty {
        StandardStream.error.write("error: \(project): the export wrote nothing to \(output)\n")
    }
    exit(1)
}
