#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The Language Server Protocol's messages, written by hand as small Codable types: no maintained
// Swift LSP package (sourcekit-lsp's LanguageServerProtocol is not published for reuse) is on
// the list of packages flowpkg may depend on, and the part an editor needs is small.

/// A request's id: a number or a string, as the client chose.
public enum RequestID: Codable, Sendable, Hashable, CustomStringConvertible {
    case number(Int)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        }
    }

    public var description: String {
        switch self {
        case .number(let number): return String(number)
        case .string(let string): return string
        }
    }
}

/// JSON-RPC's and LSP's error codes.
public enum ErrorCode {
    public static let parseError = -32700
    public static let invalidRequest = -32600
    public static let methodNotFound = -32601
    public static let invalidParams = -32602
    public static let internalError = -32603
    public static let serverNotInitialized = -32002
    public static let requestFailed = -32803
}

/// The error of a failed request.
public struct ResponseError: Codable, Sendable, Equatable, Error {
    public var code: Int
    public var message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }
}

/// The fields every incoming message has: a request has `id` and `method`, a notification only
/// `method`, a response only `id`.
public struct MessageHeader: Decodable, Sendable {
    public var jsonrpc: String?
    public var id: RequestID?
    public var method: String?
}

/// Decodes only a message's `params`.
public struct ParamsOf<Params: Decodable>: Decodable {
    public var params: Params
}

/// A response to a request: `result` (null included) or `error`, never both.
public struct Response<Result: Encodable>: Encodable {
    public var id: RequestID?
    public var result: Result?
    public var error: ResponseError?

    public init(id: RequestID?, result: Result) {
        self.id = id
        self.result = result
    }

    public init(id: RequestID?, error: ResponseError) where Result == Bool {
        self.id = id
        self.error = error
    }

    enum CodingKeys: String, CodingKey { case jsonrpc, id, result, error }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("2.0", forKey: .jsonrpc)
        // A response whose request id could not be read carries `"id": null`.
        if let id { try container.encode(id, forKey: .id) } else { try container.encodeNil(forKey: .id) }
        if let error {
            try container.encode(error, forKey: .error)
        } else if let result {
            try container.encode(result, forKey: .result)
        } else {
            try container.encodeNil(forKey: .result)
        }
    }
}

/// A notification or a request (with `id`) sent to the other side.
public struct OutgoingMessage<Params: Encodable>: Encodable {
    public var jsonrpc = "2.0"
    public var id: RequestID?
    public var method: String
    public var params: Params

    public init(id: RequestID? = nil, method: String, params: Params) {
        self.id = id
        self.method = method
        self.params = params
    }
}
