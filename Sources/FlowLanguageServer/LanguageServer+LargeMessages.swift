import LanguageServerProtocol

/// A message too large to read (`DocumentLimits.maximumFrameBytes`), known by its first bytes
/// only: a request among them is answered with an error, a document it opens or changes is
/// forgotten (its saved content counts, as for a buffer over the limit), anything else is
/// reported as a frame that could not be read.
extension LanguageServer {
    func refuseLarge(length: Int, start: [UInt8]) {
        let reason = "the message is \(length) bytes; flowpkg reads at most \(DocumentLimits().maximumFrameBytes)"
        let method = Self.stringField("method", in: start)
        if let id = Self.requestID(in: start) {
            writer.send(Response(id: id, error: ResponseError(code: ErrorCode.invalidRequest, message: reason)))
        } else if method == "textDocument/didOpen" || method == "textDocument/didChange",
            let uri = Self.stringField("uri", in: start), let path = Self.path(ofURI: uri)
        {
            forget(path, because: "it came in a message of \(length) bytes, more than a module may be")
            if let workspace, workspace.session.setBuffer(nil, forPath: path) { publish(version: nil, path: nil) }
        } else {
            writer.send(Response(id: nil, error: ResponseError(code: ErrorCode.parseError, message: reason)))
        }
    }

    /// The first `"key": "value"` string of `bytes` (no escapes in the value), or nil.
    static func stringField(_ key: String, in bytes: [UInt8]) -> String? {
        guard var index = valueStart(of: key, in: bytes), index < bytes.count, bytes[index] == 0x22 else { return nil }
        index += 1
        var value: [UInt8] = []
        while index < bytes.count, bytes[index] != 0x22 {
            if bytes[index] == 0x5C { return nil }
            value.append(bytes[index])
            index += 1
        }
        return index < bytes.count ? String(decoding: value, as: UTF8.self) : nil
    }

    /// The top-level `"id"` of a request: a number or a string.
    static func requestID(in bytes: [UInt8]) -> RequestID? {
        guard let index = valueStart(of: "id", in: bytes), index < bytes.count else { return nil }
        if bytes[index] == 0x22 { return stringField("id", in: bytes).map(RequestID.string) }
        let digits = bytes[index...].prefix { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
        return Int(String(decoding: digits, as: UTF8.self)).map(RequestID.number)
    }

    /// Where the value of the first `"key":` starts, spaces skipped.
    private static func valueStart(of key: String, in bytes: [UInt8]) -> Int? {
        let needle = Array("\"\(key)\"".utf8)
        guard bytes.count >= needle.count else { return nil }
        func skipSpaces(from index: Int) -> Int {
            var next = index
            while next < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[next]) { next += 1 }
            return next
        }
        for index in 0...(bytes.count - needle.count)
        where bytes[index..<(index + needle.count)].elementsEqual(needle) {
            let colon = skipSpaces(from: index + needle.count)
            guard colon < bytes.count, bytes[colon] == 0x3A else { continue }
            return skipSpaces(from: colon + 1)
        }
        return nil
    }
}
