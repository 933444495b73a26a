import Foundation

/// The links of a response's `Link` header (RFC 8288), in the order the server sent them.
///
/// Look one up by relation type, in any case:
///
/// ```swift
/// let page = try await ListBranches(owner: "apple", repo: "swift").callWithMetadata()
/// if let next = page.links["next"]?.url {
///     let more = try await ListBranches(owner: "apple", repo: "swift").call(at: next)
/// }
/// ```
///
/// A malformed link is skipped, never guessed at; the others still count.
public struct WebLinks: RandomAccessCollection, Hashable, Sendable {
    private let links: [WebLink]

    /// Creates a collection of links.
    ///
    /// ```swift
    /// let links = WebLinks([WebLink(url: next, relations: ["next"])])
    /// ```
    public init(_ links: [WebLink] = []) {
        self.links = links
    }

    /// Parses the value of a `Link` header (several headers joined by commas), resolving each
    /// target against `base`, the URL of the response.
    ///
    /// ```swift
    /// let links = WebLinks(header: #"</items?page=2>; rel="next""#, base: URL(string: "https://example.com/items")!)
    /// links["next"]?.url  // https://example.com/items?page=2
    /// ```
    public init(header: String, base: URL?) {
        self.links = LinkHeaderParser.links(in: header, base: base)
    }

    /// The first link with the relation type `relation` (compared without regard to case), or `nil`.
    public subscript(relation: String) -> WebLink? {
        let wanted = relation.lowercased()
        return links.first { $0.relations.contains(wanted) }
    }

    /// The first link's position.
    public var startIndex: Int { links.startIndex }
    /// The position past the last link.
    public var endIndex: Int { links.endIndex }
    /// The link at `position`.
    public subscript(position: Int) -> WebLink { links[position] }
}
