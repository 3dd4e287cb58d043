import Foundation
import LanguageServerProtocol
import Testing

/// Each request type carries its method name and its `Response`, and decodes its params from
/// the whole message once.
@Suite struct MethodTypesTests {
    @Test func aRequestDecodesItsParamsFromTheMessage() throws {
        let message = #"""
            {"jsonrpc":"2.0","id":4,"method":"textDocument/definition",
             "params":{"textDocument":{"uri":"file:///p/Sources/Main.lua"},"position":{"line":2,"character":7}}}
            """#
        let request = try DefinitionRequest.decode(message: Data(message.utf8), using: JSONDecoder())
        #expect(DefinitionRequest.method == "textDocument/definition")
        #expect(request.textDocument.uri == "file:///p/Sources/Main.lua")
        #expect(request.position == Position(line: 2, character: 7))
        #expect(request.place.position == request.position)
        let _: DefinitionRequest.Response.Type = [Location].self
    }

    @Test func aParameterlessRequestIgnoresItsParams() throws {
        let message = #"{"jsonrpc":"2.0","id":9,"method":"shutdown","params":{"anything":[1,2]}}"#
        _ = try ShutdownRequest.decode(message: Data(message.utf8), using: JSONDecoder())
        #expect(ShutdownRequest.method == "shutdown")
    }

    @Test func everyMethodNameIsDistinct() {
        let methods: [any MethodType.Type] = [
            DefinitionRequest.self, ShutdownRequest.self, HoverRequest.self, CompletionRequest.self,
            ReferenceParams.self, RenameParams.self, PrepareRenameRequest.self,
        ]
        let names = methods.map { $0.method }
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0 == "shutdown" || $0.hasPrefix("textDocument/") })
    }
}
