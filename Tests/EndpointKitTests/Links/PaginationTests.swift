@testable import EndpointKit
import EndpointKitTestSupport
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Pages as an AsyncSequence: every strategy, laziness, limits, loops, errors and cancellation.
@Suite struct PaginationTests {
    /// A server of `total` numbered items, `per` a page, paging by `?page=`; `links` decides which
    /// paging headers a page carries.
    static func pagedServer(total: Int = 5, per: Int = 2, failAt: Int? = nil, link: @escaping @Sendable (Int, URL) -> [String: String]) -> ClosureTransport {
        ClosureTransport { request in
            let page = Int(request.query("page") ?? "1") ?? 1
            if page == failAt { return (500, [:], #"{"error":"boom"}"#) }
            let items = Array(stride(from: (page - 1) * per + 1, through: min(page * per, total), by: 1))
            let hasMore = page * per < total
            return (200, hasMore ? link(page, request.url!) : [:], "[" + items.map(String.init).joined(separator: ",") + "]")
        }
    }

    static func nextLink(_ page: Int, _ url: URL) -> [String: String] {
        ["Link": "<\(url.path)?page=\(page + 1)>; rel=\"next\", <\(url.path)?page=99>; rel=\"last\""]
    }

    struct Numbers: PaginatedEndpoint {
        let endpoint = Restful(.get, "numbers")
        typealias ReturnPayloadType = [Int]
        static var pagination: Pagination<Self> { .nextLink }
    }

    @Test func `Link next pages are fetched lazily, in order, until there is none`() async throws {
        let transport = Self.pagedServer(link: Self.nextLink)
        let server = APIServer.stub(transport)
        let sequence = Numbers().items(on: server)
        #expect(transport.requests.isEmpty)  // nothing is fetched before iterating
        var items: [Int] = []
        for try await item in sequence { items.append(item) }
        #expect(items == [1, 2, 3, 4, 5])
        #expect(transport.urls == [
            "https://api.example.com/api/v1/numbers",
            "https://api.example.com/api/v1/numbers?page=2",
            "https://api.example.com/api/v1/numbers?page=3",
        ])
    }

    @Test func `limit stops fetching once reached`() async throws {
        for (limit, expectedItems, expectedRequests) in [(0, [Int](), 0), (2, [1, 2], 1), (3, [1, 2, 3], 2), (50, [1, 2, 3, 4, 5], 3)] {
            let transport = Self.pagedServer(link: Self.nextLink)
            var items: [Int] = []
            for try await item in Numbers().items(limit: limit, on: .stub(transport)) { items.append(item) }
            #expect(items == expectedItems)
            #expect(transport.requests.count == expectedRequests)
        }
    }

    @Test func `breaking out stops fetching`() async throws {
        let transport = Self.pagedServer(link: Self.nextLink)
        for try await page in Numbers().pages(on: .stub(transport)) {
            #expect(page.payload == [1, 2])
            break
        }
        #expect(transport.requests.count == 1)
    }

    struct Records: PaginatedEndpoint {
        let endpoint = Restful(.get, "records")
        struct ReturnPayloadType: Decodable, Sendable { let data: [String] }
        static var pagination: Pagination<Self> { .nextURL(inHeader: "Next-Page") }
        static func items(in page: ReturnPayloadType) -> [String] { page.data }
    }

    @Test func `a URL in a named header is called as given, query included`() async throws {
        let transport = ClosureTransport { request in
            switch request.query("_token") {
            case nil: (200, ["Next-Page": "https://api.example.com/api/v1/records?_limit=2&_token=t%2B1"], #"{"data":["a","b"]}"#)
            case "t+1": (200, ["Next-Page": "/api/v1/records?_limit=2&_token=t2"], #"{"data":["c"]}"#)
            default: (200, [:], #"{"data":[]}"#)
            }
        }
        var pages: [[String]] = []
        for try await page in Records().pages(on: .stub(transport)) { pages.append(page.payload.data) }
        #expect(pages == [["a", "b"], ["c"], []])
        #expect(transport.urls.dropFirst() == [
            "https://api.example.com/api/v1/records?_limit=2&_token=t%2B1",
            "https://api.example.com/api/v1/records?_limit=2&_token=t2",
        ])
    }

    struct Events: PaginatedEndpoint {
        let endpoint = Restful(.get, "events")
        var cursor: String?
        var limit = 2
        struct ReturnPayloadType: Decodable, Sendable { let events: [String]; let nextCursor: String? }
        static var pagination: Pagination<Self> { .cursor(from: \.nextCursor, into: \.cursor) }
        static func items(in page: ReturnPayloadType) -> [String] { page.events }
    }

    @Test func `a cursor from the payload goes into the next request until it is nil or empty`() async throws {
        for last in ["null", #""""#] {
            let transport = ClosureTransport { request in
                switch request.query("cursor") {
                case nil: (200, [:], #"{"events":["e1","e2"],"next_cursor":"c/2"}"#)
                case "c/2": (200, [:], #"{"events":["e3"],"next_cursor":\#(last)}"#)
                default: (400, [:], "{}")
                }
            }
            var events: [String] = []
            for try await event in Events().items(on: .stub(transport)) { events.append(event) }
            #expect(events == ["e1", "e2", "e3"])
            #expect(transport.urls == ["https://api.example.com/api/v1/events?limit=2", "https://api.example.com/api/v1/events?cursor=c%2F2&limit=2"])
        }
    }

    struct NumberedPages: PaginatedEndpoint {
        let endpoint = Restful(.get, "numbers")
        var page = 1
        typealias ReturnPayloadType = [Int]
        static var pagination: Pagination<Self> { .pageNumber(\.page) }
    }

    @Test func `page numbers count up until an empty page`() async throws {
        let transport = Self.pagedServer(link: { _, _ in [:] })
        var items: [Int] = []
        for try await item in NumberedPages().items(on: .stub(transport)) { items.append(item) }
        #expect(items == [1, 2, 3, 4, 5])
        #expect(transport.requests.compactMap { $0.query("page") } == ["1", "2", "3", "4"])
    }

    struct Offsets: PaginatedEndpoint {
        let endpoint = Restful(.get, "offsets")
        var offset = 0
        var limit = 2
        typealias ReturnPayloadType = [Int]
        static var pagination: Pagination<Self> { .offset(\.offset) }
    }

    @Test func `offsets move past each page's items until an empty page`() async throws {
        let transport = ClosureTransport { request in
            let offset = Int(request.query("offset")!)!
            let items = Array((offset + 1)...(offset + 3)).filter { $0 <= 7 }.prefix(2)
            return (200, [:], "[" + items.map(String.init).joined(separator: ",") + "]")
        }
        var items: [Int] = []
        for try await item in Offsets().items(on: .stub(transport)) { items.append(item) }
        #expect(items == [1, 2, 3, 4, 5, 6, 7])
        #expect(transport.requests.compactMap { $0.query("offset") } == ["0", "2", "4", "6", "7"])
    }

    /// As a generator writes them where the document makes the parameters optional.
    struct OptionalPages: PaginatedEndpoint {
        let endpoint = Restful(.get, "numbers")
        var page: Int?
        typealias ReturnPayloadType = [Int]
        static var pagination: Pagination<Self> { .pageNumber(\.page) }
    }

    struct OptionalOffsets: PaginatedEndpoint {
        let endpoint = Restful(.get, "offsets")
        var offset: Int?
        var limit = 2
        typealias ReturnPayloadType = [Int]
        static var pagination: Pagination<Self> { .offset(\.offset) }
    }

    @Test func `optional page numbers and offsets start left out, then count from the server's default`() async throws {
        let pages = Self.pagedServer(link: { _, _ in [:] })
        var numbers: [Int] = []
        for try await item in OptionalPages().items(on: .stub(pages)) { numbers.append(item) }
        #expect(numbers == [1, 2, 3, 4, 5])
        #expect(pages.requests.map { $0.query("page") } == [nil, "2", "3", "4"])

        let offsets = ClosureTransport { request in
            let offset = Int(request.query("offset") ?? "0")!
            let items = Array((offset + 1)...(offset + 3)).filter { $0 <= 5 }.prefix(2)
            return (200, [:], "[" + items.map(String.init).joined(separator: ",") + "]")
        }
        var items: [Int] = []
        for try await item in OptionalOffsets().items(on: .stub(offsets)) { items.append(item) }
        #expect(items == [1, 2, 3, 4, 5])
        #expect(offsets.requests.map { $0.query("offset") } == [nil, "2", "4", "5"])
    }

    struct Charges: PaginatedEndpoint {
        let endpoint = Restful(.get, "charges")
        var startingAfter: String?
        struct ReturnPayloadType: Decodable, Sendable { let data: [Charge]; let hasMore: Bool }
        struct Charge: Decodable, Sendable { let id: String }
        static var pagination: Pagination<Self> {
            .custom { request, page in
                guard page.payload.hasMore, let last = page.payload.data.last else { return nil }
                var next = request
                next.startingAfter = last.id
                return next
            }
        }
        static func items(in page: ReturnPayloadType) -> [Charge] { page.data }
    }

    @Test func `a custom strategy builds the next request from the last one`() async throws {
        let transport = ClosureTransport { request in
            switch request.query("starting_after") {
            case nil: (200, [:], #"{"data":[{"id":"ch_1"},{"id":"ch_2"}],"has_more":true}"#)
            default: (200, [:], #"{"data":[{"id":"ch_3"}],"has_more":false}"#)
            }
        }
        var ids: [String] = []
        for try await charge in Charges().items(on: .stub(transport)) { ids.append(charge.id) }
        #expect(ids == ["ch_1", "ch_2", "ch_3"])
        #expect(transport.urls.last == "https://api.example.com/api/v1/charges?starting_after=ch_2")
    }

    @Test func `a server that hands out a page again ends the sequence with paginationFailed`() async throws {
        let transport = Self.pagedServer(total: 100) { page, url in
            ["Link": "<\(url.path)?page=\(min(page + 1, 2))>; rel=\"next\""]  // page 2 points at itself
        }
        var pages = 0
        let error = await #expect(throws: EndpointError.self) {
            for try await _ in Numbers().pages(on: .stub(transport)) { pages += 1 }
        }
        #expect(error?.kind == .paginationFailed)
        #expect(error?.reason == "page 3 repeats a page already fetched (GET /api/v1/numbers), so the server's pages would never end")
        #expect(pages == 2)
        #expect(transport.requests.count == 3)
    }

    @Test func `maximumPages caps a server whose pages never end`() async throws {
        let transport = Self.pagedServer(total: .max / 4, link: Self.nextLink)
        var pages = 0
        let error = await #expect(throws: EndpointError.self) {
            for try await _ in Numbers().pages(on: .stub(transport), maximumPages: 5) { pages += 1 }
        }
        #expect(error?.kind == .paginationFailed)
        #expect(error?.reason == "the server handed out more than 5 pages (raise maximumPages if it really has that many)")
        #expect(pages == 5)
        #expect(transport.requests.count == 5)
    }

    @Test func `an error on page 3 ends the sequence with that error`() async throws {
        let transport = Self.pagedServer(total: 100, failAt: 3, link: Self.nextLink)
        var iterator = Numbers().pages(on: .stub(transport)).makeAsyncIterator()
        #expect(try await iterator.next()?.payload == [1, 2])
        #expect(try await iterator.next()?.payload == [3, 4])
        let error = await #expect(throws: EndpointError.self) { _ = try await iterator.next() }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.statusCode == 500)
        #expect(try await iterator.next() == nil)  // ended: nothing more is fetched
        #expect(transport.requests.count == 3)
    }

    @Test func `cancellation between pages fetches nothing more`() async throws {
        let transport = Self.pagedServer(link: Self.nextLink)
        let task = Task {
            var seen = 0
            for try await _ in Numbers().pages(on: .stub(transport)) {
                seen += 1
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return seen
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(transport.requests.count == 1)
    }

    @Test func `pages of a bound endpoint go to its server, and follow APIServer.withTransport`() async throws {
        let stubs = StubTransport()
        stubs.on(BoundNumbers.self, .json("[7]", headers: ["Link": #"</numbers?page=2>; rel="next""#]), .json("[8]"))
        var items: [Int] = []
        try await APIServer.withTransport(stubs) {
            for try await item in BoundNumbers().items() { items.append(item) }
        }
        #expect(items == [7, 8])
        #expect(stubs.requests.map { $0.url?.absoluteString ?? "" } == ["https://api.github.test/numbers", "https://api.github.test/numbers?page=2"])
    }

    struct BoundNumbers: PaginatedEndpoint, BoundEndpoint {
        let endpoint = Restful(.get, "numbers")
        typealias ReturnPayloadType = [Int]
        static var pagination: Pagination<Self> { .nextLink }
    }
}
