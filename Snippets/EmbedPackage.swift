// A host in one file: launch the package by its identifier, give Lua a Swift function, run the
// start module. Run it as `EmbedPackage FOLDER IDENTIFIER`, FOLDER holding the `.luapkg`
// (an app passes `bundle: .main` instead, where the build put the package).
import FlowPackage
import FlowRuntime
import Foundation

// snippet.hide
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: EmbedPackage FOLDER IDENTIFIER\n".utf8))
    exit(64)
}
let folder = URL(fileURLWithPath: arguments[1])
let identifierText = arguments[2]
// snippet.show

var options = LuaContext.Options()
// Lua's `print`, one line at a time, to standard output.
options.print = { line in FileHandle.standardOutput.write(Data(line.utf8)) }

// Finds the one `.luapkg` with this identifier and checks it; no Lua runs yet.
let identifier = try PackageIdentifier(identifierText)
var launch = try PackageLaunch(package: identifier, in: [folder], options: options)

// A Swift function Lua calls as `hostVersion()`, set before the start module runs.
launch.prepare = { context in
    try context.setGlobal(
        "hostVersion",
        .function(LuaFunction { _ in [.string("EmbedPackage 1.0")] }))
}

// Runs the module flowpkg.json names as `startModule`; its Lua errors come back as Swift errors.
let running = try launch.run()
print("the start module returned \(running.result)")
for item in running.context.loadedItems { print(item) }
running.stop()
