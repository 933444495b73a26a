import Foundation

/// How an API hands out its next page: a strategy of a ``PaginatedEndpoint``.
///
/// ```swift
/// static var pagination: Pagination<Self> { .nextLink }                          // GitHub, a registry
/// static var pagination: Pagination<Self> { .nextURL(inHeader: "Next-Page") }    // Kinto
/// static var pagination: Pagination<Self> { .cursor(from: \.nextCursor, into: \.cursor) }
/// static var pagination: Pagination<Self> { .pageNumber(\.page) }
/// static var pagination: Pagination<Self> { .offset(\.offset) }
/// ```
///
/// The URL strategies call the URL the server gave as it is (see `call(at:on:)`); the others
/// change a property of the endpoint and call it again.
public struct Pagination<E: PaginatedEndpoint>: Sendable {
    /// What comes after a page.
    enum Next: Sendable {
        /// The same endpoint, called at this URL.
        case url(URL)
        /// This endpoint value, called as usual.
        case endpoint(E)
    }

    /// The next page after `response`, the answer to `endpoint`; `nil` after the last one.
    let next: @Sendable (_ endpoint: E, _ response: EndpointResponse<E.ReturnPayloadType>) throws -> Next?

    /// The URL in the `Link` header whose relation is `next` (RFC 8288), until a page has none.
    public static var nextLink: Pagination { link(relation: "next") }

    /// The URL in the `Link` header with the relation `relation`, until a page has none.
    ///
    /// ```swift
    /// static var pagination: Pagination<Self> { .link(relation: "next") }
    /// ```
    public static func link(relation: String) -> Pagination {
        Pagination { _, response in response.links[relation].map { .url($0.url) } }
    }

    /// The URL in the header `name` (Kinto's `Next-Page`), until a page has none.
    ///
    /// ```swift
    /// static var pagination: Pagination<Self> { .nextURL(inHeader: "Next-Page") }
    /// ```
    public static func nextURL(inHeader name: String) -> Pagination {
        Pagination { _, response in response.url(inHeader: name).map { .url($0) } }
    }

    /// A cursor (or page token) read from each page and written into a property of the next
    /// request, until a page has none (`nil`, or an empty string).
    ///
    /// ```swift
    /// struct ListEvents: PaginatedEndpoint {
    ///     var endpoint: Restful { Restful(.get, "events") }
    ///     var cursor: String?                                          // ?cursor=… from page 2 on
    ///     struct ReturnPayloadType: Decodable, Sendable { let events: [Event]; let nextCursor: String? }
    ///     static var pagination: Pagination<Self> { .cursor(from: \.nextCursor, into: \.cursor) }
    ///     static func items(in page: ReturnPayloadType) -> [Event] { page.events }
    /// }
    /// ```
    public static func cursor<Cursor: Sendable>(
        from source: any KeyPath<E.ReturnPayloadType, Cursor?> & Sendable,
        into property: any WritableKeyPath<E, Cursor?> & Sendable
    ) -> Pagination {
        Pagination { endpoint, response in
            guard let cursor = response.payload[keyPath: source] else { return nil }
            if let text = cursor as? String, text.isEmpty { return nil }
            var next = endpoint
            next[keyPath: property] = cursor
            return .endpoint(next)
        }
    }

    /// A page number in a property, one more for each page, until a page has no items.
    ///
    /// ```swift
    /// var page = 1
    /// static var pagination: Pagination<Self> { .pageNumber(\.page) }
    /// ```
    public static func pageNumber(_ property: any WritableKeyPath<E, Int> & Sendable) -> Pagination {
        Pagination { endpoint, response in
            guard try itemCount(of: response) > 0 else { return nil }
            var next = endpoint
            next[keyPath: property] = try endpoint[keyPath: property].adding(1, named: property)
            return .endpoint(next)
        }
    }

    /// An offset in a property, moved past each page's items, until a page has none.
    ///
    /// ```swift
    /// var offset = 0
    /// var limit = 100
    /// static var pagination: Pagination<Self> { .offset(\.offset) }
    /// ```
    public static func offset(_ property: any WritableKeyPath<E, Int> & Sendable) -> Pagination {
        Pagination { endpoint, response in
            let count = try itemCount(of: response)
            guard count > 0 else { return nil }
            var next = endpoint
            next[keyPath: property] = try endpoint[keyPath: property].adding(count, named: property)
            return .endpoint(next)
        }
    }

    /// A page number in an optional property: `nil` (the parameter left out, so the server's
    /// default applies) is page `first`; then one more for each page, until a page has no items.
    /// What a generated endpoint declares, where the document says the page is optional.
    ///
    /// ```swift
    /// var page: Int?
    /// static var pagination: Pagination<Self> { .pageNumber(\.page) }
    /// ```
    public static func pageNumber(_ property: any WritableKeyPath<E, Int?> & Sendable, startingAt first: Int = 1) -> Pagination {
        Pagination { endpoint, response in
            guard try itemCount(of: response) > 0 else { return nil }
            var next = endpoint
            next[keyPath: property] = try (endpoint[keyPath: property] ?? first).adding(1, named: property)
            return .endpoint(next)
        }
    }

    /// An offset in an optional property: `nil` (left out) is offset 0; then moved past each
    /// page's items, until a page has none.
    ///
    /// ```swift
    /// var offset: Int?
    /// static var pagination: Pagination<Self> { .offset(\.offset) }
    /// ```
    public static func offset(_ property: any WritableKeyPath<E, Int?> & Sendable) -> Pagination {
        Pagination { endpoint, response in
            let count = try itemCount(of: response)
            guard count > 0 else { return nil }
            var next = endpoint
            next[keyPath: property] = try (endpoint[keyPath: property] ?? 0).adding(count, named: property)
            return .endpoint(next)
        }
    }

    /// The next request worked out by `next` from the last request and its response; `nil` after
    /// the last page. For APIs that say "more" one way and "from where" another, such as
    /// Stripe's `has_more` and `starting_after`.
    ///
    /// ```swift
    /// static var pagination: Pagination<Self> {
    ///     .custom { request, page in
    ///         guard page.payload.hasMore, let last = page.payload.data.last else { return nil }
    ///         var next = request
    ///         next.startingAfter = last.id
    ///         return next
    ///     }
    /// }
    /// ```
    public static func custom(
        _ next: @escaping @Sendable (_ request: E, _ page: EndpointResponse<E.ReturnPayloadType>) throws -> E?
    ) -> Pagination {
        Pagination { endpoint, response in try next(endpoint, response).map { .endpoint($0) } }
    }

    private static func itemCount(of response: EndpointResponse<E.ReturnPayloadType>) throws -> Int {
        var count = 0
        for _ in E.items(in: response.payload) { count += 1 }
        return count
    }
}

private extension Int {
    /// `self + amount`, or an error instead of a trap when a server's pages would overflow it.
    func adding<Root, Value>(_ amount: Int, named property: KeyPath<Root, Value>) throws -> Int {
        let (sum, overflow) = addingReportingOverflow(amount)
        if overflow {
            throw EndpointError(
                kind: .paginationFailed, route: String(describing: Root.self),
                reason: "the page number or offset \(self) cannot grow by \(amount) without overflowing")
        }
        return sum
    }
}
