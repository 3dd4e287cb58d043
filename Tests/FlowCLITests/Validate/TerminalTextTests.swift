import FlowLoader
import Testing

@testable import FlowCLI

/// What a package says is shown escaped: no control character or bidirectional override
/// reaches the terminal, and ordinary text in any script is left as it is.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownEscaped() {
        #expect(TerminalText.escaped("a\u{1B}[2Jb") == #"a\u{1B}[2Jb"#)
        #expect(TerminalText.escaped("line\nforged\r\tx") == #"line\nforged\r\tx"#)
        #expect(TerminalText.escaped("\u{0}\u{7}\u{7F}\u{9B}") == #"\u{0}\u{7}\u{7F}\u{9B}"#)
        #expect(TerminalText.escaped("abc\u{202E}gnp.exe") == #"abc\u{202E}gnp.exe"#)
        #expect(TerminalText.escaped("Grüße, 世界 🙂 modules/a.lua") == "Grüße, 世界 🙂 modules/a.lua")
    }

    @Test func messagesKeepTheirOwnLinesOnly() {
        #expect(TerminalText.escapedLines("one\ntwo\u{1B}]0;t\u{7}") == "one\n" + #"two\u{1B}]0;t\u{7}"#)
    }

    @Test func runShowsEachRefusalReasonOnItsOwnLineEscaped() {
        let error = LoaderError.packageRefused(location: "App.luapkg", reasons: ["a\nb: bad", "c\u{1B}: bad"])
        #expect(
            TerminalText.runError(error) == "App.luapkg is refused:\n" + #"  - a\nb: bad"# + "\n" + #"  - c\u{1B}: bad"#
        )
    }
}
