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
    package enum Kind: Hashable, Sendable {
        case json
        case form
        case multipart
        case raw(contentType: String)
        case empty
    }

    package let kind: Kind
    /// The media type of a JSON body, when it is not `application/json`.
    package var jsonMediaType: String?

    init(kind: Kind, jsonMediaType: String? = nil) {
        self.kind = kind
        self.jsonMediaType = jsonMediaType
    }

    /// A JSON object of the properties (snake_case keys, `nil` left out): the default for `POST`,
    /// `PUT` and `PATCH`. A ``Body`` property replaces the object with its own value.
    public static let json = BodyFormat(kind: .json)

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
        BodyFormat(kind: .json, jsonMediaType: contentType)
    }

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
    public static let empty = BodyFormat(kind: .empty)

    /// `application/x-www-form-urlencoded`: the properties as `name=value` pairs, with the same
    /// names, value rules and percent-encoding as a query string.
    public static let form = BodyFormat(kind: .form)

    /// `multipart/form-data`: each property is a part; ``MultipartFile`` properties are file parts
    /// (from memory or streamed from disk), the others are text fields with the query's value rules.
    public static let multipart = BodyFormat(kind: .multipart)

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
        BodyFormat(kind: .raw(contentType: contentType))
    }

    /// `"json"`, `"json(application/merge-patch+json)"`, `"form"`, `"multipart"`, `"raw(image/png)"`
    /// or `"empty"`.
    public var description: String {
        switch kind {
        case .json: jsonMediaType.map { "json(\($0))" } ?? "json"
        case .empty: "empty"
        case .form: "form"
        case .multipart: "multipart"
        case .raw(let contentType): "raw(\(contentType))"
        }
    }
}
