import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pages of a ``PaginatedEndpoint``, fetched one at a time as they are iterated.
///
/// Create it with ``PaginatedEndpoint/pages(on:maximumPages:)``:
///
/// ```swift
/// for try await page in ListRecords(bucket: "b", collection: "c").pages() {
///     print(page.statusCode, page.payload.data.count)
/// }
/// ```
public struct PageSequence<E: PaginatedEndpoint>: AsyncSequence, Sendable {
    /// Each page: its payload with the response's status and headers.
    public typealias Element = EndpointResponse<E.ReturnPayloadType>

    let first: E
    let server: APIServer?
    let maximumPages: Int

    /// An iterator that fetches the first page on its first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self)
    }

    /// Fetches the next page when asked for it.
    public struct Iterator: AsyncIteratorProtocol {
        private let sequence: PageSequence
        /// What to fetch next: an endpoint, at the URL a link named or at its own; `nil` once the
        /// sequence has ended.
        private var upcoming: (endpoint: E, url: URL?)?
        private var fetched = 0
        /// The requests of the pages fetched so far, to notice a server that hands one out again.
        private var seen: Set<RequestSignature> = []

        init(sequence: PageSequence) {
            self.sequence = sequence
            upcoming = (sequence.first, nil)
        }

        /// The next page, or `nil` after the last one.
        ///
        /// - Throws: The call's error (``EndpointError`` or `CancellationError`), or
        ///   ``EndpointError/Kind/paginationFailed`` when the server loops; the sequence then ends.
        public mutating func next() async throws -> EndpointResponse<E.ReturnPayloadType>? {
            guard let (endpoint, url) = upcoming else { return nil }
            upcoming = nil  // an error below ends the sequence
            try Task.checkCancellation()
            let server = try sequence.server ?? sequence.first.defaultServer()
            func failure(_ reason: String) -> EndpointError {
                EndpointError(kind: .paginationFailed, route: endpoint.endpoint.description, reason: reason)
            }
            if fetched >= sequence.maximumPages {
                throw failure("the server handed out more than \(sequence.maximumPages) pages (raise maximumPages if it really has that many)")
            }
            let page = try await endpoint.perform(on: server, options: CallOptions(url: url))
            fetched += 1
            guard seen.insert(RequestSignature(page.request, endpoint: endpoint)).inserted else {
                throw failure("page \(fetched) repeats a page already fetched (\(EndpointError.route(of: page.request))), so the server's pages would never end")
            }
            switch try E.pagination.next(endpoint, page) {
            case .url(let url)?: upcoming = (endpoint, url)
            case .endpoint(let next)?: upcoming = (next, nil)
            case nil: break
            }
            return page
        }
    }
}

/// What makes two page requests the same: method, URL and the endpoint value (what its body and
/// headers were made from).
struct RequestSignature: Hashable {
    let method: String
    let url: String
    let body: Data?

    init(_ request: URLRequest, endpoint: some Endpoint) {
        method = request.httpMethod ?? "GET"
        url = request.url?.absoluteString ?? ""
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        body = try? encoder.encode(endpoint)
    }
}
