/// An HTTP request method, such as `GET` or `POST`.
///
/// `HTTPMethod` is an extensible value rather than a closed enum: the common methods are static
/// members, and any other token can be spelled out.
///
/// ```swift
/// let endpoint = Restful(.patch, "profile")
/// let search = Restful(HTTPMethod(rawValue: "QUERY"), "search")
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as it is sent on the wire, e.g. `"GET"`.
    public let rawValue: String

    /// Creates a method from its token. Tokens are case-sensitive: `"GET"`, not `"get"`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The method token, e.g. `"POST"`.
    public var description: String { rawValue }
}

extension HTTPMethod {
    /// `GET`: parameters travel in the query string.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `POST`: parameters travel in a JSON body.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: parameters travel in a JSON body.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: parameters travel in a JSON body.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: parameters travel in the query string.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `HEAD`: parameters travel in the query string; the answer has no body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS`: parameters travel in the query string.
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// Whether an endpoint's parameters go in a request body (`POST`, `PUT`, `PATCH`) rather than in
    /// the query string.
    var sendsParametersInBody: Bool {
        self == .post || self == .put || self == .patch
    }

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110 §9.2.2):
    /// `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`. Retry policies retry only these by default.
    public var isIdempotent: Bool {
        self == .get || self == .head || self == .put || self == .delete || self == .options
    }
}
