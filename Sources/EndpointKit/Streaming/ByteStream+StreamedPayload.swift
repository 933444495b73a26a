extension ByteStream: Decodable, StreamedPayload {
    /// Always fails: a stream is read from a response, not decoded from JSON.
    ///
    /// ```swift
    /// typealias ReturnPayloadType = ByteStream  // the call returns the stream; nothing decodes it
    /// ```
    public init(from decoder: any Decoder) throws {
        throw streamedPayloadIsNotDecodable(ByteStream.self, decoder: decoder)
    }

    package static var acceptedTypes: String? { nil }

    package static func reading(_ context: StreamContext) -> ByteStream {
        context.body
    }
}
