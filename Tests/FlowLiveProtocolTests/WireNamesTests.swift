import FlowLiveProtocol
import FlowPackage
import Foundation
import Testing

/// The live channel's names are typed on the wire: decoded once, a bad one refused with the
/// reason, the JSON the same as before (a module as its string, a resource as name and type).
@Suite struct WireNamesTests {
    @Test func aChangeDecodesIntoTypedNames() throws {
        let json = #"""
            {"revision":3,"modules":["Foo.Bar"],"removedModules":[],
             "resources":[{"name":"img/logo","type":"png"}],"removedResources":[]}
            """#
        let change = try JSONDecoder().decode(LiveChange.self, from: Data(json.utf8))
        #expect(change.modules == [try ModuleName("Foo.Bar")])
        #expect(change.resources == [try ResourceKey(name: "img/logo", type: "png")])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let again = String(decoding: try encoder.encode(change), as: UTF8.self)
        #expect(again.contains(#""modules":["Foo.Bar"]"#))
        #expect(again.contains(#""resources":[{"name":"img\/logo","type":"png"}]"#))
    }

    @Test func aBadNameIsRefusedWithItsReasonNotDropped() throws {
        let badModule =
            #"{"revision":3,"modules":["../evil"],"removedModules":[],"resources":[],"removedResources":[]}"#
        do {
            _ = try JSONDecoder().decode(LiveChange.self, from: Data(badModule.utf8))
            Issue.record("a change with a bad module name decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("'../evil' is not a valid module name"))
        }
        let badResource = #"""
            {"identifier":"com.example.app","name":"App","revision":1,"modules":[],
             "resources":[{"name":"/etc/passwd","type":"","tag":"1"}]}
            """#
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(LiveManifest.self, from: Data(badResource.utf8))
        }
    }
}
