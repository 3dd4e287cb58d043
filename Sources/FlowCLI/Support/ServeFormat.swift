import ArgumentParser
import FlowLiveServer
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How `flowpkg serve` prints its log and what programs send back.
enum ServeFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// One line per event for people: `app[42]: hello`, `Sources/main.lua:3: error: …`.
    case text
    /// One JSON object per line, for editor extensions: every event, and the server's own log
    /// as `{"kind":"log","message":…}`.
    case json

    func line(_ event: SessionEvent) -> String {
        switch self {
        case .text: return event.text
        case .json: return Self.encode(event)
        }
    }

    func line(log message: String) -> String {
        switch self {
        case .text: return message
        case .json: return object(["kind": "log", "message": message])
        }
    }

    func object(_ fields: [String: String]) -> String {
        Self.encode(fields)
    }

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
