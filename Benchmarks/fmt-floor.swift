// The floors of `flowpkg fmt` (issue 48's speed rows), over the files listed in the file named
// by the second argument, one after another on one core, as the `lua5.4` loadfile loop compiles
// them. The first argument says how far each file goes:
// - `parse`: read, lexed and parsed with LuaSyntax (the syntax tree and the token stream with
//   its comments, from one lexing: `LuaParser.parseWithTokens`, as the formatter reads it),
//   what formatting cannot skip;
// - `layout`: also its whole layout (the Doc) built, and dropped unprinted: what formatting
//   cost before printing when every file became one Doc (since badc995 formatting prints the
//   statements outside expressions as it goes, LuaFormatter+Emission: this row is now the
//   layout of the old path, kept to compare);
// - `format`: formatted whole (`LuaFormat.format`, StyLua's default options), no diff.
// Benchmarks/fmt.sh builds it against the release build's objects (`swiftc -O -package-name ...`).
import FlowFormat
import FoundationEssentials
import LuaSyntax

let mode = CommandLine.arguments[1]
let list = try String(contentsOfFile: CommandLine.arguments[2], encoding: .utf8)
var total = 0
for path in list.split(separator: "\n") {
    let source = Array(try Data(contentsOf: URL(fileURLWithPath: String(path))))
    switch mode {
    case "parse":
        total += try LuaParser.parseWithTokens(source).1.tokens.count
    case "layout":
        total += try LuaFormat.layoutOnly(source) ? 1 : 0
    default:
        total += try LuaFormat.format(source).count
    }
}
print("\(mode): \(total)")
