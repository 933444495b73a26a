import Foundation

/// JSON, the default body of `POST`, `PUT` and `PATCH`: the body properties as one object, in the
/// server's ``APIServer/encoder`` (snake_case keys, `nil` left out).
struct JSONBodyWriter: BodyWriter, CustomStringConvertible {
    var mediaType = "application/json"

    func write(_ properties: some Encodable, for server: APIServer) throws -> Data {
        try server.encoder.encode(properties)
    }

    var description: String { mediaType == "application/json" ? "json" : "json(\(mediaType))" }
}

extension BodyFormat {
    /// A JSON object of the properties (snake_case keys, `nil` left out): the default for `POST`,
    /// `PUT` and `PATCH`. A ``Body`` property replaces the object with its own value.
    public static let json = BodyFormat(JSONBodyWriter())

    /// JSON sent under another media type, such as a vendor type or JSON merge-patch.
    ///
    /// ```swift
    /// struct PutManifest: Endpoint {
    ///     var endpoint: Restful {
    ///         Restful(.put, "{+name}/manifests/{reference}",
    ///                 body: .json(contentType: "application/vnd.oci.image.manifest.v1+json"))
    ///     }
    ///     // …
    /// }
    /// ```
    public static func json(contentType: String) -> BodyFormat {
        BodyFormat(JSONBodyWriter(mediaType: contentType))
    }
}

extension Restful {
    /// The body actually sent: the endpoint's format, else JSON for `POST`, `PUT` and `PATCH`;
    /// `nil` for no body (the properties form the query), including ``BodyFormat/empty``.
    package var sentBodyFormat: BodyFormat? {
        let format = body ?? (method.sendsParametersInBody ? .json : nil)
        return format?.writer == nil ? nil : format
    }
}
