// The loopback server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS
// and watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The shapes of real APIs, against the loopback server over real HTTP: bound endpoints, URLs the
/// server hands back, every pagination strategy, every JSON body form, `{+name}`, array styles,
/// and 304 with the cache.
@Suite struct RealAPIShapeTests {
    /// The loopback server with EndpointKit's default (snake_case) coders.
    static func api(_ middlewares: [any EndpointMiddleware] = []) async throws -> APIServer {
        var server = APIServer(origin: try await LoopbackServer.ready().origin, pathPrefix: "", transport: IntegrationTransport.shared)
        server.middlewares = middlewares
        return server
    }

    // MARK: Binding

    @Test func `a bound family reaches its server without on:, and withTransport keeps it off the network`() async throws {
        _ = try await LoopbackServer.ready()  // the family's static `server` reads it without waiting
        let echo = try await LoopbackEcho(tag: "bound").response
        #expect(echo.target == "/bound-echo?tag=bound")
        let stubs = StubTransport()
        stubs.on(LoopbackEcho.self, .status(418))
        let error = await #expect(throws: EndpointError.self) {
            try await APIServer.withTransport(stubs) { try await LoopbackEcho(tag: "stubbed").response }
        }
        #expect(error?.statusCode == 418)
        let seen = try await Seen(prefix: "/bound-echo?tag=stubbed").call(on: LoopbackServer.ready().server())
        #expect(seen.paths.isEmpty)
    }

    // MARK: URLs the server hands back

    struct StartUpload: Endpoint {
        var endpoint: Restful { Restful(.post, "upload-start/{+name}", body: .empty) }
        let name: String
        typealias ReturnPayloadType = EmptyPayload
    }

    struct FinishUpload: Endpoint {
        var endpoint: Restful { Restful(.put, "unused", body: .raw(contentType: "application/octet-stream")) }
        @QueryItem var digest: String
        @Body var blob: Data
        typealias ReturnPayloadType = Echo
    }

    @Test func `an upload session's Location is called as given, with the endpoint's body`() async throws {
        let loopback = try await LoopbackServer.ready()
        let server = loopback.server()
        let loopbackOrigin = loopback.origin.absoluteString
        let started = try await StartUpload(name: "library/ubuntu").callWithMetadata(on: server)
        #expect(started.statusCode == 202)
        let session = try #require(started.location)
        #expect(session.absoluteString == "\(loopbackOrigin)/v2/library/ubuntu/blobs/uploads/session-1?_state=s%2B1")
        let echo = try await FinishUpload(digest: "sha256:1", blob: Data("layer".utf8)).call(at: session, on: server)
        #expect(echo.method == "PUT")
        #expect(echo.target == "/v2/library/ubuntu/blobs/uploads/session-1?_state=s%2B1&digest=sha256%3A1")  // @QueryItem follows
        #expect(echo.body == "layer")
        #expect(echo.headers["content-type"] == "application/octet-stream")
        let start = try await Seen(prefix: "/upload-start/library/ubuntu").call(on: server)
        #expect(start.paths == ["/upload-start/library/ubuntu"])
    }

    // MARK: Pagination

    struct LinkPages: PaginatedEndpoint {
        var endpoint: Restful { Restful(.get, "pages/link") }
        var per = 2
        var total = 5
        var loop: Int?
        var failAt: Int?
        typealias ReturnPayloadType = [Int]
        static var pagination: Pagination<Self> { .nextLink }
    }

    @Test func `Link rel=next pages arrive in order until the last`() async throws {
        var items: [Int] = []
        for try await item in LinkPages().items(on: try await Self.api()) { items.append(item) }
        #expect(items == [1, 2, 3, 4, 5])
        var limited: [Int] = []
        for try await item in LinkPages(total: 1_000).items(limit: 3, on: try await Self.api()) { limited.append(item) }
        #expect(limited == [1, 2, 3])
    }

    @Test func `a looping server and one that fails on page 3 end the sequence with an error`() async throws {
        var pages = 0
        let loop = await #expect(throws: EndpointError.self) {
            for try await _ in LinkPages(total: 100, loop: 1).pages(on: try await Self.api()) { pages += 1 }
        }
        #expect(loop?.kind == .paginationFailed)
        #expect(pages == 2)
        var delivered: [Int] = []
        let failure = await #expect(throws: EndpointError.self) {
            for try await item in LinkPages(total: 100, failAt: 3).items(on: try await Self.api()) { delivered.append(item) }
        }
        #expect(failure?.statusCode == 500)
        #expect(delivered == [1, 2, 3, 4])
    }

    struct KintoRecords: PaginatedEndpoint {
        var endpoint: Restful { Restful(.get, "pages/next-page") }
        struct ReturnPayloadType: Decodable, Sendable { let data: [String] }
        static var pagination: Pagination<Self> { .nextURL(inHeader: "Next-Page") }
        static func items(in page: ReturnPayloadType) -> [String] { page.data }
    }

    @Test func `Next-Page URLs are followed as given`() async throws {
        var pages: [[String]] = []
        for try await page in KintoRecords().pages(on: try await Self.api()) { pages.append(page.payload.data) }
        #expect(pages == [["a", "b"], ["c", "d"], ["e"]])
    }

    struct CursorPages: PaginatedEndpoint {
        var endpoint: Restful { Restful(.get, "pages/cursor") }
        var cursor: String?
        struct ReturnPayloadType: Decodable, Sendable { let items: [String]; let nextCursor: String? }
        static var pagination: Pagination<Self> { .cursor(from: \.nextCursor, into: \.cursor) }
        static func items(in page: ReturnPayloadType) -> [String] { page.items }
    }

    struct NumberPages: PaginatedEndpoint {
        var endpoint: Restful { Restful(.get, "pages/number") }
        var page = 1
        typealias ReturnPayloadType = [Int]
        static var pagination: Pagination<Self> { .pageNumber(\.page) }
    }

    @Test func `a payload cursor and page numbers page through a real server`() async throws {
        var cursorItems: [String] = []
        for try await item in CursorPages().items(on: try await Self.api()) { cursorItems.append(item) }
        #expect(cursorItems == ["x1", "x2", "x3"])
        var numbers: [Int] = []
        for try await item in NumberPages().items(on: try await Self.api()) { numbers.append(item) }
        #expect(numbers == [10, 11, 20, 21, 30, 31])
    }

    // MARK: Bodies, paths and arrays on the wire

    struct PatchRecord: Endpoint {
        var endpoint: Restful { Restful(.patch, "records/{+path}", body: .json(contentType: "application/merge-patch+json")) }
        let path: String
        var title: Nullable<String>? = nil
        var note: Nullable<String>? = nil
        @HeaderField("If-Match") var version: String? = nil
        typealias ReturnPayloadType = Echo
    }

    @Test func `merge-patch with null, a vendor type and If-Match arrive as sent`() async throws {
        let echo = try await PatchRecord(path: "buckets/b 1/r", title: .value("T"), note: .null, version: "\"7\"")
            .call(on: LoopbackServer.ready().server())
        #expect(echo.target == "/records/buckets/b%201/r")
        #expect(echo.body == #"{"note":null,"title":"T"}"# || echo.body == #"{"title":"T","note":null}"#)
        #expect(echo.headers["content-type"] == "application/merge-patch+json")
        #expect(echo.headers["if-match"] == "\"7\"")
    }

    struct Operation: Encodable, Sendable { let op: String; let path: String }

    struct JSONPatch: Endpoint {
        var endpoint: Restful { Restful(.patch, "patch", body: .json(contentType: "application/json-patch+json")) }
        @Body var operations: [Operation]
        typealias ReturnPayloadType = Echo
    }

    struct EmptyPost: Endpoint {
        var endpoint: Restful { Restful(.post, "start", body: .empty) }
        typealias ReturnPayloadType = Echo
    }

    @Test func `a whole-body array and an empty POST arrive as sent`() async throws {
        let server = try await LoopbackServer.ready().server()
        server.encoder.outputFormatting = .sortedKeys
        let patch = try await JSONPatch(operations: [Operation(op: "remove", path: "/a")]).call(on: server)
        #expect(patch.body == #"[{"op":"remove","path":"\/a"}]"#)
        let empty = try await EmptyPost().call(on: server)
        #expect(empty.method == "POST")
        #expect(empty.body == "")
        #expect(empty.headers["content-type"] == nil)
        #expect(empty.headers["content-length"].map { $0 == "0" } ?? true)
    }

    struct Series: Endpoint {
        var endpoint: Restful { Restful(.get, "series") }
        @EncodedArray(.brackets) var match: [String] = []
        @EncodedArray(.commaSeparated) var inName: [String] = []
        var tag: [String] = []
        typealias ReturnPayloadType = Echo
    }

    @Test func `array styles are read back by a real query parser`() async throws {
        let echo = try await Series(match: ["up", "a,b"], inName: ["x", "y,z"], tag: ["1", "2"])
            .call(on: LoopbackServer.ready().server())
        #expect(echo.query["match[]"] == ["up", "a,b"])
        #expect(echo.query["in_name"] == ["x,y,z"])  // the comma inside "y,z" travels as %2C
        #expect(echo.target.contains("in_name=x,y%2Cz"))
        #expect(echo.query["tag"] == ["1", "2"])
    }

    struct Healthy: Endpoint {
        var endpoint: Restful { Restful(.get, "-/healthy", prefix: "") }
        typealias ReturnPayloadType = Echo
    }

    @Test func `an endpoint's own prefix replaces the server's on the wire`() async throws {
        let echo = try await Healthy().call(on: LoopbackServer.ready().server(pathPrefix: "/api/v1"))
        #expect(echo.target == "/-/healthy")
    }

    // MARK: Conditional requests

    struct Resource: Decodable, Sendable, Equatable { let key: String; let version: String }

    struct GetResource: Endpoint {
        var endpoint: Restful { Restful(.get, "etag/{key}") }
        let key: String
        var version = "1"
        typealias ReturnPayloadType = Resource
    }

    struct ETagCount: Endpoint {
        var endpoint: Restful { Restful(.get, "etag-count/{key}") }
        let key: String
        struct ReturnPayloadType: Decodable, Sendable, Equatable { let full: Int; let notModified: Int }
    }

    @Test func `HTTPCache turns a real 304 into the stored payload`() async throws {
        let key = UUID().uuidString
        let server = try await Self.api([HTTPCache()])
        #expect(try await GetResource(key: key).call(on: server) == Resource(key: key, version: "1"))
        #expect(try await GetResource(key: key).call(on: server) == Resource(key: key, version: "1"))
        #expect(try await GetResource(key: key, version: "2").call(on: server) == Resource(key: key, version: "2"))
        #expect(try await ETagCount(key: key).call(on: Self.api()) == .init(full: 2, notModified: 1))
    }
}

/// An endpoint of a family bound to the loopback server.
struct LoopbackEcho: LoopbackBound {
    var endpoint: Restful { Restful(.get, "bound-echo") }
    let tag: String
    typealias ReturnPayloadType = Echo
}

protocol LoopbackBound: Endpoint {}
extension LoopbackBound {
    static var server: APIServer? { LoopbackServer.current?.server() }  // its tests start it first
}
#endif
