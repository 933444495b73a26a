import Foundation

/// The endpoint's one body property, a `Data` or a `String`, sent as it is.
struct RawBodyWriter: BodyWriter, CustomStringConvertible {
    let mediaType: String

    func write(_ properties: some Encodable, for server: APIServer) throws -> Data {
        guard properties is any EndpointProperties else {  // a @Body property: the body itself
            guard let bytes = ParameterEncoder.rawBytes(of: properties) else {
                throw WrittenBody.Problem(reason: "a raw body must be Data or String, not \(type(of: properties))")
            }
            return bytes
        }
        return try ParameterEncoder.fields(of: properties, for: server, destination: .raw).rawBody ?? Data()
    }

    /// A string, or binary data.
    func schema(ofBody properties: JSONValue) -> JSONValue {
        let one = properties["properties"]?.objectMembers?.first?.value ?? properties
        let isText = one["type"] == "string" && one["contentEncoding"] == nil
        return isText ? ["type": "string"] : ["contentMediaType": "application/octet-stream"]
    }

    var description: String { "raw(\(mediaType))" }
}

extension BodyFormat {
    /// The endpoint's one body property, a `Data` or a `String`, sent as it is with `contentType`.
    ///
    /// ```swift
    /// struct PutAvatar: Endpoint {
    ///     var endpoint: Restful { Restful(.put, "users/{id}/avatar", body: .raw(contentType: "image/png")) }
    ///     let id: Int
    ///     let png: Data
    ///     typealias ReturnPayloadType = EmptyPayload
    /// }
    /// ```
    public static func raw(contentType: String) -> BodyFormat {
        BodyFormat(RawBodyWriter(mediaType: contentType))
    }
}
