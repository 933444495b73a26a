/// How an endpoint's properties are written into its request body.
///
/// Choose it on the endpoint's ``Restful`` value. Without one, `POST`, `PUT` and `PATCH` send JSON
/// and the other methods send no body (their properties form the query string).
///
/// ```swift
/// struct SignIn: Endpoint {
///     let endpoint = Restful(.post, "oauth/token", body: .form)  // grant_type=password&username=…
///     let grantType = "password"
///     let username: String
///     let password: String
///     struct ReturnPayloadType: Decodable, Sendable { let accessToken: String }
/// }
/// ```
public struct BodyFormat: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case json
        case form
        case multipart
        case raw(contentType: String)
    }

    let kind: Kind

    /// A JSON object of the properties (snake_case keys, `nil` left out): the default for `POST`,
    /// `PUT` and `PATCH`.
    public static let json = BodyFormat(kind: .json)

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
    ///     let endpoint = Restful(.put, "users/{id}/avatar", body: .raw(contentType: "image/png"))
    ///     let id: Int
    ///     let png: Data
    ///     typealias ReturnPayloadType = EmptyPayload
    /// }
    /// ```
    public static func raw(contentType: String) -> BodyFormat {
        BodyFormat(kind: .raw(contentType: contentType))
    }

    /// `"json"`, `"form"`, `"multipart"` or `"raw(image/png)"`.
    public var description: String {
        switch kind {
        case .json: "json"
        case .form: "form"
        case .multipart: "multipart"
        case .raw(let contentType): "raw(\(contentType))"
        }
    }
}
