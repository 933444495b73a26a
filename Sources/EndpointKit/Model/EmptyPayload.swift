/// The result of an endpoint that answers with no content.
///
/// Use it as the `ReturnPayloadType` of endpoints that answer `204 No Content` or an empty body.
/// Whatever body the server sends is ignored, whatever its content type.
///
/// ```swift
/// struct DeleteCheer: Endpoint {
///     var endpoint: Restful { Restful(.delete, "cheers/{id}") }
///     let id: Int
///     typealias ReturnPayloadType = EmptyPayload
/// }
/// try await DeleteCheer(id: 7).call()
/// ```
public struct EmptyPayload: Decodable, Hashable, Sendable {
    /// Creates an empty payload.
    public init() {}

    /// Creates an empty payload, ignoring whatever the decoder holds.
    public init(from decoder: any Decoder) throws {}
}
