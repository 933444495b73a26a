/// The items of every page of a ``PaginatedEndpoint``, fetched a page at a time as they are
/// iterated.
///
/// Create it with ``PaginatedEndpoint/items(limit:on:maximumPages:)``:
///
/// ```swift
/// for try await branch in ListBranches(owner: "apple", repo: "swift", perPage: 100).items(limit: 1_000) {
///     print(branch.name)
/// }
/// ```
public struct ItemSequence<E: PaginatedEndpoint>: AsyncSequence, Sendable where E.Items.Element: Sendable {
    /// One item of a page.
    public typealias Element = E.Items.Element

    let pages: PageSequence<E>
    let limit: Int?

    /// An iterator that fetches the first page on its first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: pages.makeAsyncIterator(), remaining: limit.map { Swift.max($0, 0) })
    }

    /// Hands out a page's items, fetching the next page when they run out.
    public struct Iterator: AsyncIteratorProtocol {
        private var pages: PageSequence<E>.Iterator
        private var buffer: [E.Items.Element] = []
        private var position = 0
        /// How many more items may be delivered; `nil` for no limit.
        private var remaining: Int?

        init(pages: PageSequence<E>.Iterator, remaining: Int?) {
            self.pages = pages
            self.remaining = remaining
        }

        /// The next item, or `nil` after the last one (or once `limit` items were delivered).
        ///
        /// - Throws: As ``PageSequence/Iterator/next()``.
        public mutating func next() async throws -> E.Items.Element? {
            if remaining == 0 { return nil }  // the limit is reached: fetch nothing more
            while position == buffer.count {
                guard let page = try await pages.next() else { return nil }
                buffer = Array(E.items(in: page.payload))
                position = 0
            }
            defer { position += 1 }
            remaining? -= 1
            return buffer[position]
        }
    }
}
