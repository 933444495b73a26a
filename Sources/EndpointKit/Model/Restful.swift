/// The HTTP method and path of an endpoint.
///
/// The path is relative to the server's path prefix (by default `/api/v{version}`), and may name
/// properties of the endpoint in braces; each placeholder is replaced by that property's value as
/// one percent-encoded path segment.
///
/// ```swift
/// struct PurchaseCheer: Endpoint {
///     var endpoint: Restful { Restful(.post, "purchase_cheer", version: 2) }  // POST /api/v2/purchase_cheer
///     // …
/// }
///
/// struct UploadPhoto: Endpoint {
///     var endpoint: Restful { Restful(.post, "photos", body: .multipart) }  // multipart/form-data
///     // …
/// }
///
/// struct ListBranches: Endpoint {
///     var endpoint: Restful { Restful(.get, "repos/{owner}/{repo}/branches") }
///     let owner: String
///     let repo: String
///     // …
/// }
/// ```
///
/// `Restful` never appears on the wire: EndpointKit leaves it out of the query string and body.
public struct Restful: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The HTTP method.
    public let method: RequestMethod
    /// The path template relative to the server's prefix, e.g. `"repos/{owner}/{repo}/branches"`.
    public let path: String
    /// The API version, substituted for `{version}` in the server's path prefix.
    public let version: Int
    /// How the properties are written into the body, or `nil` for the method's default: JSON for
    /// `POST`, `PUT` and `PATCH`, no body (a query string) for the others.
    public let body: BodyFormat?
    /// The path prefix of this endpoint alone, replacing the server's ``APIServer/pathPrefix``; `nil`
    /// (the default) uses the server's. `{version}` is replaced as in the server's.
    public let prefix: String?

    /// Creates an endpoint description.
    ///
    /// - Parameters:
    ///   - method: The HTTP method, e.g. `.get`.
    ///   - path: The path below the server's prefix; `{name}` binds the property `name`.
    ///   - version: The API version for the server's `{version}` prefix. Defaults to 1.
    ///   - body: How to write the body: ``BodyFormat/json``, ``BodyFormat/form``,
    ///     ``BodyFormat/multipart`` or ``BodyFormat/raw(contentType:)``. Defaults to the method's
    ///     usual choice; a `DELETE` given a format sends a body too.
    ///   - prefix: Replaces the server's path prefix for this endpoint, e.g. `""` for Prometheus'
    ///     `/-/healthy` beside its `/api/v1/…`. Defaults to `nil`: the server's prefix.
    ///
    /// ```swift
    /// var endpoint: Restful { Restful(.get, "-/healthy", prefix: "") }  // GET /-/healthy on a /api/v1 server
    /// ```
    public init(_ method: RequestMethod, _ path: String, version: Int = 1, body: BodyFormat? = nil, prefix: String? = nil) {
        self.method = method
        self.path = path
        self.version = version
        self.body = body
        self.prefix = prefix
    }

    /// The method and path template, e.g. `"GET repos/{owner}/{repo}/branches"`.
    public var description: String { "\(method) \(path)" }

    /// Encodes the description as a single string.
    ///
    /// EndpointKit itself never sends this value; the conformance exists so that endpoints declaring
    /// `let endpoint = Restful(...)` keep their synthesized `Encodable` conformance.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
