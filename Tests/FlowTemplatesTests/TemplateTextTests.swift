@testable import FlowTemplates
import Testing

/// The hand-written Mustache subset (TemplateText): what the Mustache spec says for each tag
/// the templates use, the standalone-line rule, and the parse errors with their places.
@Suite struct TemplateTextTests {
    func render(_ text: String, _ values: [String: String] = [:]) throws -> String {
        try TemplateText(text).render { values[$0] }
    }

    func problem(_ text: String) -> TemplateText.ParseError? {
        do {
            _ = try TemplateText(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func variablesAreFilledWithoutEscaping() throws {
        let values = ["name": "Words & <Co>", "id": "x"]
        #expect(
            try render("a {{name}} b {{ name }} {{{name}}} {{& id}}", values)
                == "a Words & <Co> b Words & <Co> Words & <Co> x")
        #expect(try render("[{{missing}}]") == "[]")
        #expect(try render("{{name.part}}|{{.}}", values) == "|")
    }

    @Test func sectionsRenderForAnyValueAndInvertedOnesForNone() throws {
        let values = ["set": "yes", "empty": ""]
        #expect(try render("{{#set}}on {{.}}{{/set}}{{#unset}}never{{/unset}}", values) == "on yes")
        #expect(try render("{{#empty}}shown{{/empty}}", values) == "shown")
        #expect(try render("{{^unset}}fallback{{/unset}}{{^set}}hidden{{/set}}", values) == "fallback")
        #expect(try render("{{#set}}{{^unset}}{{set}}{{/unset}}{{/set}}", values) == "yes")
    }

    @Test func standaloneTagsTakeTheirWholeLine() throws {
        let text =
            "begin\n  {{#set}}  \n  inside\n  {{/set}}\n{{! a comment }}\r\nend {{#set}}x{{/set}}\n  {{^set}}\nno\n{{/set}}"
        #expect(try render(text, ["set": "1"]) == "begin\n  inside\nend x\n")
        // Two tags on one line, or text beside a tag, keep the line.
        #expect(try render("{{#set}}{{/set}}\nx", ["set": "1"]) == "\nx")
        #expect(try render("a {{! c }}\nb") == "a \nb")
    }

    @Test func delimitersChange() throws {
        let text = "{{=<% %>=}}\nlocal t = {{1, 2}} -- <%name%>\n<%={{ }}=%>{{name}}"
        #expect(try render(text, ["name": "n"]) == "local t = {{1, 2}} -- n\nn")
    }

    @Test func problemsNameTheTagAndItsPlace() {
        #expect(problem("one\n  {{#open}}\nno close\n") == .init(problem: .expectedSectionEnd, line: 2, column: 3))
        #expect(problem("{{#a}}{{/b}}") == .init(problem: .sectionCloseNameIncorrect, line: 1, column: 7))
        #expect(problem("x\n{{name") == .init(problem: .unfinishedName, line: 2, column: 1))
        #expect(problem("{{=<%=}}") == .init(problem: .invalidSetDelimiter, line: 1, column: 1))
        #expect(problem("{{/a}}")?.problem == .sectionCloseNameIncorrect)
        #expect(
            problem("{{> partial}}")?.problem == .unsupported("partials and inheritance are not supported in templates")
        )
        #expect(problem("{{upper(name)}}")?.problem != nil)
        #expect(problem("{{% CONTENT_TYPE: TEXT}}")?.problem != nil)
    }
}
