// `Decodable` conformances of the parameter wrappers and of `MultipartFile`, so that an endpoint
// that declares them can be `Decodable` too: what its JSON Schema, its OpenAPI description and its
// LLM tool calls are derived from.

extension QueryItem: Decodable where Value: Decodable {
    /// Decodes the wrapped value.
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Value.self))
    }
}

extension Body: Decodable where Value: Decodable {
    /// Decodes the wrapped value.
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Value.self))
    }
}

extension HeaderField: Decodable where Value: Decodable {
    /// Decodes the wrapped value. The header's name is not part of the data: decoded on its own,
    /// the wrapper has an empty name, which a request refuses (`.invalidRequest`) rather than send.
    /// Inside an endpoint that EndpointKit decodes (see `EndpointTools`), the declared name is kept.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Value.self)
        name = ""
    }
}

extension EncodedArray: Decodable where Value: Decodable {
    /// Decodes the wrapped value; decoded on its own, the list is sent as repeated keys. Inside an
    /// endpoint that EndpointKit decodes, the declared style is kept.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Value.self)
        encoding = .repeatedKeys
    }
}

extension MultipartFile: Decodable {
    /// Always throws: a file part is sent from memory or disk, never decoded from data. The
    /// conformance lets an endpoint with file parts be `Decodable`, so that it can be described.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(DecodingError.Context(
            codingPath: decoder.codingPath,
            debugDescription: "a MultipartFile cannot be decoded: create it from data or a file URL"))
    }
}

extension KeyedDecodingContainer {
    // The synthesized `init(from:)` of an endpoint decodes a wrapped property with `decode`, which
    // needs the key even when the wrapped type is optional. These overloads, which it picks over
    // the generic one, let a wrapped optional be left out as a plain optional may: what the
    // endpoint's JSON Schema, OpenAPI document and tool definition say (it is not required).

    /// Decodes a `@QueryItem` property of an endpoint: when its type is optional, a missing key
    /// is `nil`.
    ///
    /// ```swift
    /// @QueryItem var dryRun: Bool?   // {"text": "hi"} decodes, with dryRun nil
    /// ```
    public func decode<Value: Decodable & Sendable>(_ type: QueryItem<Value>.Type, forKey key: Key) throws -> QueryItem<Value> {
        try decodeWrapper(type, forKey: key, ifAbsent: nilValue(of: Value.self).map { QueryItem(wrappedValue: $0) })
    }

    /// Decodes a `@Body` property of an endpoint: when its type is optional, a missing key is
    /// `nil`.
    ///
    /// ```swift
    /// @Body var badge: Badge?   // {"name": "gold"} decodes, with badge nil
    /// ```
    public func decode<Value: Decodable & Sendable>(_ type: Body<Value>.Type, forKey key: Key) throws -> Body<Value> {
        try decodeWrapper(type, forKey: key, ifAbsent: nilValue(of: Value.self).map { Body(wrappedValue: $0) })
    }

    /// Decodes a `@HeaderField` property of an endpoint. When EndpointKit decodes the endpoint (to
    /// describe it, or from an LLM tool call), the header keeps the name it was declared with, and
    /// in a tool call its declared value too: headers are the app's, never the model's. Elsewhere
    /// this is the wrapper's own `init(from:)`, with a missing key `nil` when the type is optional.
    ///
    /// ```swift
    /// @HeaderField("X-Request-ID") var requestID: String? = nil
    /// ```
    public func decode<Value: Decodable & Sendable>(_ type: HeaderField<Value>.Type, forKey key: Key) throws -> HeaderField<Value> {
        guard let log = WrapperLog.current else {
            return try decodeWrapper(type, forKey: key, ifAbsent: nilValue(of: Value.self).map { HeaderField(wrappedValue: $0, "") })
        }
        let declared = try log.next(type, at: codingPath + [key])
        switch log.mode {
        case .decodingInput:
            return declared
        case .probing:
            return HeaderField(declaredAs: declared, value: try decodeWrapper(type, forKey: key).wrappedValue)
        }
    }

    /// Decodes an `@EncodedArray` property of an endpoint. When EndpointKit decodes the endpoint,
    /// the list keeps the style it was declared with, and a model may leave it out: it then has
    /// its declared value (an `@EncodedArray` always has one). Elsewhere this is the wrapper's own
    /// `init(from:)`, with a missing key `nil` when the type is optional.
    ///
    /// ```swift
    /// @EncodedArray(.commaSeparated) var ids: [String] = []   // {} decodes, with ids []
    /// ```
    public func decode<Value: Decodable & Sendable>(_ type: EncodedArray<Value>.Type, forKey key: Key) throws -> EncodedArray<Value> {
        guard let log = WrapperLog.current else {
            return try decodeWrapper(type, forKey: key, ifAbsent: nilValue(of: Value.self).map { EncodedArray(wrappedValue: $0, .repeatedKeys) })
        }
        let declared = try log.next(type, at: codingPath + [key])
        return EncodedArray(declaredAs: declared, value: try decodeWrapper(type, forKey: key, ifAbsent: declared).wrappedValue)
    }

    /// The conformance's own decoding (in this generic context the overloads above are not
    /// chosen), or `absent` when there is one and the key is missing or null.
    private func decodeWrapper<T: Decodable>(_ type: T.Type, forKey key: Key, ifAbsent absent: T? = nil) throws -> T {
        guard let absent else { return try decode(type, forKey: key) }
        return try decodeIfPresent(type, forKey: key) ?? absent
    }
}

extension HeaderField {
    /// `declared` with another value, without recording it in the wrapper log.
    init(declaredAs declared: HeaderField, value: Value) {
        wrappedValue = value
        name = declared.name
    }
}

extension EncodedArray {
    /// `declared` with another value, without recording it in the wrapper log.
    init(declaredAs declared: EncodedArray, value: Value) {
        wrappedValue = value
        encoding = declared.encoding
    }
}
