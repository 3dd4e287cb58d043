import FlowDependencies
import Testing

/// `add` and `remove` splice flowpkg.json: every byte outside the edit stays as written.
@Suite struct ProjectFileEditorTests {
    func edited(_ text: String, _ edit: (inout ProjectFileEditor) throws -> Void) throws -> String {
        var editor = ProjectFileEditor(bytes: Array(text.utf8))
        try edit(&editor)
        return String(decoding: editor.bytes, as: UTF8.self)
    }

    @Test func addsTheObjectAfterTheLastKeyIndentedAsTheFileIs() throws {
        let text = "{\n    \"name\":   \"app\",\n    \"version\": \"1.0.0\"   \n}\n"
        let result = try edited(text) { try $0.setDependency("inspect", value: "\"~> 3.1\"") }
        #expect(
            result
                == "{\n    \"name\":   \"app\",\n    \"version\": \"1.0.0\",\n    \"dependencies\": {\n        \"inspect\": \"~> 3.1\"\n    }   \n}\n"
        )
    }

    @Test func addsAndReplacesEntriesInAnExistingObject() throws {
        let text = "{\"dependencies\": {\"a\": \"1.0\", \"b\": {\"path\": \"../b\"}}, \"x\": [1, {\"y\": \"}\"}]}"
        let added = try edited(text) { try $0.setDependency("c", value: "\">= 2\"") }
        #expect(
            added
                == "{\"dependencies\": {\"a\": \"1.0\", \"b\": {\"path\": \"../b\"},\n                  \"c\": \">= 2\"}, \"x\": [1, {\"y\": \"}\"}]}"
        )
        let replaced = try edited(text) { try $0.setDependency("b", value: "{\"package\": \"b.luapkg\"}") }
        #expect(
            replaced
                == "{\"dependencies\": {\"a\": \"1.0\", \"b\": {\"package\": \"b.luapkg\"}}, \"x\": [1, {\"y\": \"}\"}]}"
        )
        let empty = try edited("{\n  \"dependencies\": {}\n}\n") { try $0.setDependency("a", value: "\"1.0\"") }
        #expect(empty == "{\n  \"dependencies\": {\n    \"a\": \"1.0\"\n  }\n}\n")
    }

    @Test func removesFirstMiddleLastAndOnlyEntries() throws {
        let text = "{\n  \"dependencies\": {\n    \"a\": \"1\",\n    \"b\": \"2\",\n    \"c\": \"3\"\n  }\n}\n"
        #expect(
            try edited(text) { try $0.removeDependency("a") }
                == "{\n  \"dependencies\": {\n    \"b\": \"2\",\n    \"c\": \"3\"\n  }\n}\n")
        #expect(
            try edited(text) { try $0.removeDependency("b") }
                == "{\n  \"dependencies\": {\n    \"a\": \"1\",\n    \"c\": \"3\"\n  }\n}\n")
        #expect(
            try edited(text) { try $0.removeDependency("c") }
                == "{\n  \"dependencies\": {\n    \"a\": \"1\",\n    \"b\": \"2\"\n  }\n}\n")
        let only = "{\"dependencies\": {\"a\": \"1\"}, \"name\": \"x\"}"
        #expect(try edited(only) { try $0.removeDependency("a") } == "{\"dependencies\": {}, \"name\": \"x\"}")
        #expect(throws: ProjectFileEditor.EditError.noSuchDependency("z")) {
            try edited(text) { try $0.removeDependency("z") }
        }
    }

    @Test func refusesWhatIsNotJSON() {
        #expect(throws: ProjectFileEditor.EditError.self) {
            try edited("{\"name\": ") { try $0.setDependency("a", value: "\"1\"") }
        }
    }
}
