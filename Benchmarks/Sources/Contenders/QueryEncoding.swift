import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A search with 20 query parameters: strings that need escaping, arrays, dates, optionals.
public struct SearchIssues: Endpoint {
    public var endpoint: Restful { Restful(.get, "search/issues") }
    public var query = "is:open label:\"good first issue\" 1+1=2 & more"
    public var repository = "apple/swift"
    public var author: String? = "jane.doe@example.com"
    public var assignee: String? = nil
    public var labels = ["bug", "good first issue", "help wanted", "a&b"]
    public var milestone: String? = "Swift 6.1 — ☃"
    public var state = "open"
    public var sort = "updated"
    public var order = "desc"
    public var perPage = 100
    public var page = 3
    public var createdAfter = Date(timeIntervalSince1970: 1_700_000_000)
    public var updatedBefore: Date? = Date(timeIntervalSince1970: 1_750_000_000)
    public var includePullRequests = false
    public var minimumComments: Int? = 5
    public var maximumComments: Int? = nil
    public var language = "Swift"
    public var mentions = ["@alice", "@bob"]
    public var reactionScore = 0.75
    public var cursor: String? = "Y3Vyc29yOnYyOpK5MjAyNC0wNS0wMVQxMjozMDowMFo="
    public typealias ReturnPayloadType = EmptyPayload
    public init() {}

    /// An in-memory transport that answers 204 without looking at the request.
    public struct NoContentTransport: HTTPTransport {
        public init() {}
        static let response = HTTPURLResponse(
            url: Fixtures.origin, statusCode: 204, httpVersion: "HTTP/1.1", headerFields: [:])!
        public func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
            (.data(Data()), Self.response)
        }
    }

    public static let server = APIServer(origin: Fixtures.origin, transport: NoContentTransport())

    /// Created once, as a careful developer would.
    nonisolated(unsafe) static let dateFormatter = ISO8601DateFormatter()  // only read after creation

    /// The same query by hand with `URLComponents.queryItems` (which, unlike EndpointKit, leaves
    /// `+`, `/`, `?` and `;` unescaped).
    public static func handWrittenURL(_ search: SearchIssues) -> URL? {
        var components = URLComponents(string: "http://127.0.0.1:8080/api/v1/search/issues")
        let formatter = dateFormatter
        var items = [
            URLQueryItem(name: "query", value: search.query),
            URLQueryItem(name: "repository", value: search.repository),
        ]
        if let author = search.author { items.append(URLQueryItem(name: "author", value: author)) }
        if let assignee = search.assignee { items.append(URLQueryItem(name: "assignee", value: assignee)) }
        items += search.labels.map { URLQueryItem(name: "labels", value: $0) }
        if let milestone = search.milestone { items.append(URLQueryItem(name: "milestone", value: milestone)) }
        items += [
            URLQueryItem(name: "state", value: search.state),
            URLQueryItem(name: "sort", value: search.sort),
            URLQueryItem(name: "order", value: search.order),
            URLQueryItem(name: "per_page", value: String(search.perPage)),
            URLQueryItem(name: "page", value: String(search.page)),
            URLQueryItem(name: "created_after", value: formatter.string(from: search.createdAfter)),
        ]
        if let date = search.updatedBefore { items.append(URLQueryItem(name: "updated_before", value: formatter.string(from: date))) }
        items.append(URLQueryItem(name: "include_pull_requests", value: search.includePullRequests ? "true" : "false"))
        if let value = search.minimumComments { items.append(URLQueryItem(name: "minimum_comments", value: String(value))) }
        if let value = search.maximumComments { items.append(URLQueryItem(name: "maximum_comments", value: String(value))) }
        items.append(URLQueryItem(name: "language", value: search.language))
        items += search.mentions.map { URLQueryItem(name: "mentions", value: $0) }
        items.append(URLQueryItem(name: "reaction_score", value: String(search.reactionScore)))
        if let cursor = search.cursor { items.append(URLQueryItem(name: "cursor", value: cursor)) }
        components?.queryItems = items
        return components?.url
    }
}
