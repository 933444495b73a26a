// `Decodable` conformances of the parameter wrappers and of `MultipartFile`, so that an endpoint
// that declares them can be `Decodable` too: what its JSON Schema, its OpenAPI description and its
// LLM tool definition are derived from.

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
    /// Decodes the wrapped value. The header's name is not part of the data: a decoded wrapper has
    /// an empty name, which a request refuses (`.invalidRequest`) rather than send.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Value.self)
        name = ""
    }
}

extension EncodedArray: Decodable where Value: Decodable {
    /// Decodes the wrapped value; the list is then sent as repeated keys.
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
