// The package names on a wire (the live protocol): a module name as its string, a resource key
// as `{"name": …, "type": …}`. Decoding checks the name once, as the initializers do, and a bad
// one fails the whole decode with the reason, instead of being dropped later.

extension ModuleName: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension ResourceKey: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, type
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        let type = try container.decode(String.self, forKey: .type)
        do {
            try self.init(name: name, type: type)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .name, in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(type, forKey: .type)
    }
}
