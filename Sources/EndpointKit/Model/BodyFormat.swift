/// How an endpoint's properties are written into its request body.
///
/// Choose it on the endpoint's ``Restful`` value. Without one, `POST`, `PUT` and `PATCH` send JSON
/// and the other methods send no body (their properties form the query string).
///
/// The format sets the `Content-Type` header, replacing one in the server's ``APIServer/headers``. A
/// `Content-Type` that the endpoint itself sets (its ``Endpoint/headers`` or a ``HeaderField``)
/// is sent as written instead; a multipart body refuses one, because its boundary must match.
///
/// ```swift
/// struct SignIn: Endpoint {
///     var endpoint: Restful { Restful(.post, "oauth/token", body: .form) }  // grant_type=password&username=…
///     let grantType = "password"
///     let username: String
///     let password: String
///     struct ReturnPayloadType: Decodable, Sendable { let accessToken: String }
/// }
/// ```
public struct BodyFormat: Hashable, Sendable, CustomStringConvertible {
    /// What writes the body; `nil` for ``empty``.
    public let writer: (any BodyWriter)?

    /// A format of your own: CBOR, CSV, XML.
    ///
    /// ```swift
    /// extension BodyFormat {
    ///     nonisolated static let csv = BodyFormat(CSVWriter())
    /// }
    /// ```
    public init(_ writer: some BodyWriter) {
        self.writer = writer
    }

    private init(writer: (any BodyWriter)?) {
        self.writer = writer
    }

    /// Whether the two formats have equal writers, or none.
    public static func == (lhs: BodyFormat, rhs: BodyFormat) -> Bool {
        lhs.identity == rhs.identity
    }

    /// Hashes the writer.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }

    private var identity: AnyHashable? { writer.map { AnyHashable($0) } }

    /// No body at all, whatever the method: a `POST` that starts something and sends nothing
    /// (not even `{}`). The properties that are not in the path form the query string, as for a
    /// `GET`, and no `Content-Type` is sent.
    ///
    /// ```swift
    /// struct StartUpload: Endpoint {
    ///     var endpoint: Restful { Restful(.post, "{+name}/blobs/uploads/", body: .empty) }
    ///     let name: String
    ///     typealias ReturnPayloadType = EmptyPayload
    /// }
    /// ```
    public static let empty = BodyFormat(writer: nil)

    /// `"json"`, `"json(application/merge-patch+json)"`, `"form"`, `"multipart"`, `"raw(image/png)"`
    /// or `"empty"`; for a writer of yours, its description or else its media type.
    public var description: String {
        guard let writer else { return "empty" }
        return (writer as? any CustomStringConvertible)?.description ?? writer.mediaType
    }
}
