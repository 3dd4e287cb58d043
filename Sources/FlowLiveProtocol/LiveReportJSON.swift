import FlowJSON

/// A report written as JSON by hand: a program printing thousands of lines a second sends them
/// all, and Foundation's `JSONEncoder` (generic containers, one box per optional field) was
/// most of the sending thread's time in the profile. `LiveReportJSONTests` checks that
/// `JSONDecoder` reads back exactly the report that was written.
extension LiveReport {
    public var jsonBytes: [UInt8] {
        var out = JSONBytes()
        out.bytes.reserveCapacity(128 + events.count * 96)
        out.raw("{\"program\":")
        out.program(program)
        out.raw(",\"dropped\":")
        out.raw(String(dropped))
        out.raw(",\"events\":[")
        for (index, event) in events.enumerated() {
            if index > 0 { out.raw(",") }
            out.event(event)
        }
        out.raw("]}")
        return out.bytes
    }
}

struct JSONBytes {
    var bytes: [UInt8] = []

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func string(_ text: String) {
        JSONText.appendQuoted(text, to: &bytes)
    }

    mutating func number(_ value: Double) {
        raw(value.isFinite ? "\(value)" : "0")
    }

    mutating func field(_ name: String, _ value: String?) {
        guard let value else { return }
        raw(",\"\(name)\":")
        string(value)
    }

    mutating func strings(_ name: String, _ values: [String]?) {
        guard let values else { return }
        raw(",\"\(name)\":[")
        for (index, value) in values.enumerated() {
            if index > 0 { raw(",") }
            string(value)
        }
        raw("]")
    }

    mutating func program(_ program: LiveProgram) {
        raw("{\"id\":")
        string(program.id)
        field("identifier", program.identifier)
        field("version", program.version)
        field("digest", program.digest)
        field("hostName", program.hostName)
        field("platform", program.platform)
        raw(",\"processID\":\(program.processID)}")
    }

    mutating func event(_ event: LiveEvent) {
        raw("{\"kind\":\"\(event.kind.rawValue)\",\"time\":")
        number(event.time)
        field("stream", event.stream?.rawValue)
        field("text", event.text)
        field("phase", event.phase?.rawValue)
        strings("modules", event.modules)
        strings("resources", event.resources)
        if let milliseconds = event.milliseconds {
            raw(",\"milliseconds\":")
            number(milliseconds)
        }
        if let items = event.items {
            raw(",\"items\":[")
            for (index, item) in items.enumerated() {
                if index > 0 { raw(",") }
                raw("{\"kind\":\"\(item.kind.rawValue)\"")
                field("name", item.name)
                field("source", item.source)
                raw(",\"size\":\(item.size)")
                field("sha256", item.sha256)
                raw(",\"loadedAt\":")
                number(item.loadedAt)
                raw("}")
            }
            raw("]")
        }
        raw("}")
    }
}
