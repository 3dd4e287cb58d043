// The floor of `flowpkg fmt` (issue 48's speed row): what it cannot skip for a file, reading it
// and lexing and parsing it with LuaSyntax (the syntax tree and the token stream with its
// comments), over the files listed in the file named by the first argument, one after another
// as the `lua5.4` loadfile loop compiles them. Benchmarks/fmt.sh builds it against the release
// build's LuaSyntax: `swiftc -O -package-name flowpkg -I .build/release/Modules ...`.
import Foundation
import LuaSyntax

let list = try String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8)
var tokens = 0
for path in list.split(separator: "\n") {
    let source = Array(try Data(contentsOf: URL(fileURLWithPath: String(path))))
    _ = try LuaParser.parse(source)
    tokens += try LuaTokenStream(source: source).tokens.count
}
print("\(tokens) tokens")
