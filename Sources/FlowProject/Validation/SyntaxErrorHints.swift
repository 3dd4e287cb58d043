/// A hint for a Lua 5.4 syntax error (FP301), chosen from the words of Lua's own message.
enum SyntaxErrorHints {
    static func hint(for message: String) -> String {
        if let range = message.firstRange(of: "(to close '"),
            let close = message[range.upperBound...].firstRange(of: "' at line ")
        {
            let opener = message[range.upperBound..<close.lowerBound]
            let line = message[close.upperBound...].prefix { $0.isNumber }
            // The message starts with what was expected: `'end' expected (to close ...`.
            let closer = message.hasPrefix("'") ? String(message.prefix { $0 != " " }) : "closing token"
            return
                "the '\(opener)' at line \(line) is not closed here: add the missing \(closer), or remove a stray one above"
        }
        if message.hasPrefix("unfinished long string") || message.hasPrefix("unfinished long comment") {
            return "close it with ']]' (with as many '=' between the brackets as it opened with)"
        }
        if message.hasPrefix("unfinished string") {
            return "close the string on the same line with its quote; for text over several lines use [[ ... ]]"
        }
        if message.hasPrefix("malformed number") {
            return "a number cannot run into letters: put a space or an operator after it"
        }
        if message.hasPrefix("<eof> expected") || message.hasPrefix("'<eof>' expected") {
            return "there is one 'end' or closing bracket too many above this place"
        }
        if message.hasPrefix("'=' expected") {
            return "a statement must be a call or an assignment; check for a missing '=', '(' or a misspelt keyword"
        }
        if message.hasPrefix("unexpected symbol") {
            return
                "this token cannot start or continue an expression here: check the operator, comma or quote before it"
        }
        if message.hasPrefix("break outside") || message.contains("no visible label") {
            return "'break' and 'goto' must stay inside the loop or block that holds their target"
        }
        if message.contains("attempt to assign to const variable") {
            return "a <const> or <close> local cannot be assigned again: declare it without the attribute"
        }
        if message.hasPrefix("invalid escape sequence") || message.hasPrefix("decimal escape too large")
            || message.hasPrefix("UTF-8 value too large") || message.contains("expected in \\")
        {
            return "escape a backslash as '\\\\', or use a long string [[ ... ]] where escapes are not read"
        }
        if message.contains("expected") {
            return "Lua expected something else at this token; `luac5.4 -p FILE` reports the same error"
        }
        return "`luac5.4 -p FILE` reports the same error"
    }
}
