/// An endpoint whose results come in pages, with the way its API hands out the next page.
///
/// Declare the ``Pagination`` strategy, and where a page's items are when the payload is not
/// itself the list. Then iterate the pages or the items; pages are fetched one at a time, only
/// as the loop asks for them:
///
/// ```swift
/// struct ListBranches: GitHubEndpoint, PaginatedEndpoint {
///     var endpoint: Restful { Restful(.get, "repos/{owner}/{repo}/branches") }
///     let owner: String
///     let repo: String
///     var perPage: Int?
///     typealias ReturnPayloadType = [Branch]
///     static var pagination: Pagination<Self> { .nextLink }   // Link: <…>; rel="next"
/// }
///
/// for try await branch in ListBranches(owner: "apple", repo: "swift", perPage: 100).items(limit: 1_000) {
///     print(branch.name)
/// }
///
/// struct ListRecords: KintoEndpoint, PaginatedEndpoint {
///     var endpoint: Restful { Restful(.get, "buckets/{bucket}/collections/{collection}/records") }
///     let bucket: String
///     let collection: String
///     struct ReturnPayloadType: Decodable, Sendable { let data: [Record] }
///     static var pagination: Pagination<Self> { .nextURL(inHeader: "Next-Page") }
///     static func items(in page: ReturnPayloadType) -> [Record] { page.data }
/// }
/// ```
public protocol PaginatedEndpoint: Endpoint {
    /// A page's items: by default the payload itself, which must then be a list.
    associatedtype Items: Sequence = ReturnPayloadType

    /// How the API hands out the next page.
    static var pagination: Pagination<Self> { get }

    /// The items of one page. Implement it when the list is inside the payload
    /// (`page.data`, `page.items`); a payload that is itself a list needs nothing.
    ///
    /// ```swift
    /// static func items(in page: ReturnPayloadType) -> [Record] { page.data }
    /// ```
    static func items(in page: ReturnPayloadType) -> Items
}

// MARK: - Default implementations

extension PaginatedEndpoint where Items == ReturnPayloadType {
    /// The payload is the list.
    public static func items(in page: ReturnPayloadType) -> Items { page }
}

// MARK: - API

extension PaginatedEndpoint {
    /// The pages, each an ``EndpointResponse`` (payload, status, headers), fetched one at a time as the
    /// loop asks for them, starting with this endpoint's own call.
    ///
    /// ```swift
    /// for try await page in ListRecords(bucket: "b", collection: "c").pages() {
    ///     print(page.payload.data.count)
    /// }
    /// ```
    ///
    /// Breaking out of the loop stops fetching. A failed call ends the loop with its error.
    /// A server that hands out a page already fetched, or more than `maximumPages` pages, ends it
    /// with ``EndpointError/Kind/paginationFailed``, so a looping server cannot keep it going.
    ///
    /// - Parameters:
    ///   - server: Where to call; `nil` (the default) for the endpoint's own ``Endpoint/server``
    ///     or ``APIServer/default``.
    ///   - maximumPages: The most pages to fetch. Defaults to 1,000.
    public func pages(on server: APIServer? = nil, maximumPages: Int = 1_000) -> PageSequence<Self> {
        PageSequence(first: self, server: server, maximumPages: maximumPages)
    }

    /// The items of every page, fetched a page at a time as the loop asks for them.
    ///
    /// ```swift
    /// for try await branch in ListBranches(owner: "apple", repo: "swift", perPage: 100).items(limit: 1_000) {
    ///     print(branch.name)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - limit: The most items to deliver; no page is fetched once it is reached. `nil` (the
    ///     default) for all of them.
    ///   - server: Where to call; `nil` for the endpoint's own server or ``APIServer/default``.
    ///   - maximumPages: The most pages to fetch (see ``pages(on:maximumPages:)``).
    public func items(limit: Int? = nil, on server: APIServer? = nil, maximumPages: Int = 1_000) -> ItemSequence<Self>
    where Items.Element: Sendable {
        ItemSequence(pages: pages(on: server, maximumPages: maximumPages), limit: limit)
    }
}
