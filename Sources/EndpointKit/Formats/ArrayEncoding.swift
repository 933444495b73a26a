/// How a list is written into a query string or a form body.
///
/// Set it for a whole API with ``APIServer/arrayEncoding``, or for one property with
/// ``EncodedArray``. JSON bodies are not affected: a list is a JSON array there.
///
/// | style | `tags: ["a", "b"]` | `tags: []` |
/// |---|---|---|
/// | ``repeatedKeys`` (the default) | `tags=a&tags=b` | nothing |
/// | ``brackets`` | `tags[]=a&tags[]=b` (brackets percent-encoded) | nothing |
/// | ``commaSeparated`` | `tags=a,b` (a comma inside a value as `%2C`) | nothing |
///
/// ```swift
/// var stripe = APIServer(origin: URL(string: "https://api.stripe.com")!, pathPrefix: "/v1")
/// stripe.arrayEncoding = .brackets  // payment_method_types[]=card
/// ```
public struct ArrayEncoding: Hashable, Sendable, CustomStringConvertible {
    package enum Kind: Hashable, Sendable {
        case repeatedKeys
        case brackets
        case commaSeparated
    }

    package let kind: Kind

    /// The key once per element: `tags=a&tags=b`, as most servers (and HTML forms) expect.
    public static let repeatedKeys = ArrayEncoding(kind: .repeatedKeys)
    /// The key with `[]` once per element: `tags[]=a&tags[]=b`, as Rails, PHP, Stripe and
    /// Prometheus' `match[]` expect.
    public static let brackets = ArrayEncoding(kind: .brackets)
    /// One key, the elements separated by commas: `tags=a,b`, as OpenAPI's `explode: false` and
    /// many search APIs expect. Elements must be plain values, not objects.
    public static let commaSeparated = ArrayEncoding(kind: .commaSeparated)

    /// `"repeatedKeys"`, `"brackets"` or `"commaSeparated"`.
    public var description: String {
        switch kind {
        case .repeatedKeys: "repeatedKeys"
        case .brackets: "brackets"
        case .commaSeparated: "commaSeparated"
        }
    }
}
