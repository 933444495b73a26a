/// An HTTP request method, such as `GET` or `POST`.
///
/// `RequestMethod` is an extensible value rather than a closed enum: the common methods are static
/// members, and any other token can be spelled out.
///
/// ```swift
/// var endpoint: Restful { Restful(.patch, "profile") }
/// let search = Restful(RequestMethod(rawValue: "QUERY"), "search")
/// ```
public struct RequestMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as it is sent on the wire, e.g. `"GET"`.
    public let rawValue: String

    /// Creates a method from its token. Tokens are case-sensitive: `"GET"`, not `"get"`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The method token, e.g. `"POST"`.
    public var description: String { rawValue }
}

extension RequestMethod {
    /// `GET`: parameters travel in the query string.
    public static let get = RequestMethod(rawValue: "GET")
    /// `POST`: parameters travel in a JSON body.
    public static let post = RequestMethod(rawValue: "POST")
    /// `PUT`: parameters travel in a JSON body.
    public static let put = RequestMethod(rawValue: "PUT")
    /// `PATCH`: parameters travel in a JSON body.
    public static let patch = RequestMethod(rawValue: "PATCH")
    /// `DELETE`: parameters travel in the query string.
    public static let delete = RequestMethod(rawValue: "DELETE")
    /// `HEAD`: parameters travel in the query string; the answer has no body.
    public static let head = RequestMethod(rawValue: "HEAD")
    /// `OPTIONS`: parameters travel in the query string.
    public static let options = RequestMethod(rawValue: "OPTIONS")

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
