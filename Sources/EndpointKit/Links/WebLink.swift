import Foundation

/// One link of a `Link` response header (RFC 8288): a target URL, its relation types and its
/// other parameters.
///
/// ```swift
/// // Link: <https://api.github.com/repositories/1/branches?page=2>; rel="next"
/// let next: URL? = response.links["next"]?.url
/// ```
public struct WebLink: Hashable, Sendable {
    /// The target, resolved against the URL of the response that carried it.
    public let url: URL
    /// The relation types, lowercased: `["next"]`, or several for `rel="next last"`.
    public let relations: [String]
    /// The other parameters (`title`, `type`, `anchor`, …) by lowercased name, unquoted; a
    /// parameter without a value reads as `""`. Only the first of a repeated name counts.
    public let parameters: [String: String]

    /// Creates a link; EndpointKit creates these for you when it parses a header.
    ///
    /// ```swift
    /// let link = WebLink(url: URL(string: "https://example.com/page/2")!, relations: ["next"])
    /// ```
    public init(url: URL, relations: [String], parameters: [String: String] = [:]) {
        self.url = url
        self.relations = relations
        self.parameters = parameters
    }
}
