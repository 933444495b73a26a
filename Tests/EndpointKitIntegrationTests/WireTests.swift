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

/// The wire rules as a real HTTP server sees them.
@Suite struct WireTests {
    let loopback: LoopbackServer
    init() async throws { loopback = try await LoopbackServer.ready() }

    struct Search: Endpoint {
        var endpoint: Restful { Restful(.get, "search/{userID}/files/{name}") }
        let userID: Int
        let name: String
        let text: String
        let tags: [String]
        let limit: Int?
        let exact: Bool
        let since: Date
        let filter: Filter
        let perPage: UInt64
        struct Filter: Encodable, Sendable { let minStars: Int; let langs: [String] }
        typealias ReturnPayloadType = Echo
    }

    @Test func `GET sends path parameters as escaped segments and the rest as a query`() async throws {
        let echo = try await Search(
            userID: 42, name: "a/b c?#%é", text: "1+1=2 & ü", tags: ["x y", "z&"], limit: nil,
            exact: true, since: Date(timeIntervalSince1970: 1_700_000_000),
            filter: .init(minStars: 5, langs: ["swift", "c++"]), perPage: .max
        ).call(on: loopback.server())

        #expect(echo.method == "GET")
        #expect(echo.target == "/search/42/files/a%2Fb%20c%3F%23%25%C3%A9"
            + "?text=1%2B1%3D2%20%26%20%C3%BC&tags=x%20y&tags=z%26&exact=true&since=2023-11-14T22%3A13%3A20Z"
            + "&filter%5Bmin_stars%5D=5&filter%5Blangs%5D=swift&filter%5Blangs%5D=c%2B%2B&per_page=18446744073709551615")
        #expect(echo.path == "/search/42/files/a/b c?#%é")
        #expect(echo.query == [
            "text": ["1+1=2 & ü"], "tags": ["x y", "z&"], "exact": ["true"], "since": ["2023-11-14T22:13:20Z"],
            "filter[min_stars]": ["5"], "filter[langs]": ["swift", "c++"], "per_page": ["18446744073709551615"],
        ])
        #expect(echo.body == "")
        #expect(echo.headers["accept"] == "application/json")
        #expect(echo.headers["user-agent"] == "EndpointKit/0.1")
        #expect(echo.headers["content-type"] == nil)
    }

    struct Climb: Endpoint {
        var endpoint: Restful { Restful(.get, "files/{first}/{second}/secret") }
        let first: String
        let second: String
        typealias ReturnPayloadType = Echo
    }

    @Test(arguments: [("..", "x"), ("x", "."), (".", "..")])
    func `dot segments are refused and nothing reaches the server`(first: String, second: String) async throws {
        let server = loopback.server(pathPrefix: "/\(UUID().uuidString)")
        let error = try await #require(throws: EndpointError.self) {
            try await Climb(first: first, second: second).call(on: server)
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.request == nil)
        #expect(error.description.contains("a dot segment that would climb the path"))
        #expect(try await Seen(prefix: server.pathPrefix).call(on: loopback.server()).paths.isEmpty)
    }

    @Test func `dots inside a segment are sent as they are`() async throws {
        let echo = try await Climb(first: "...", second: ".hidden").call(on: loopback.server())
        #expect(echo.target == "/files/.../.hidden/secret")
    }

    struct PurchaseCheer: Endpoint {
        let endpoint = Restful(.post, "purchase_cheer", version: 2)
        let identifier: String
        let transactionId: UInt64
        let note: String?
        let at: Date
        typealias ReturnPayloadType = Echo
    }

    @Test func `POST sends a snake_case JSON body to the versioned path`() async throws {
        let echo = try await PurchaseCheer(
            identifier: "cheer.large \"quoted\"", transactionId: 2_000_000_000_000_000_001, note: nil,
            at: Date(timeIntervalSince1970: 0)
        ).call(on: loopback.server(pathPrefix: "/api/v{version}"))

        #expect(echo.method == "POST")
        #expect(echo.target == "/api/v2/purchase_cheer")
        #expect(echo.headers["content-type"] == "application/json")
        #expect(echo.headers["content-length"] == "\(echo.body.utf8.count)")
        #expect(try jsonObject(echo.body) == [
            "identifier": "cheer.large \"quoted\"", "transaction_id": 2_000_000_000_000_000_001,
            "at": "1970-01-01T00:00:00Z",
        ])
        #expect(echo.body.contains(#""transaction_id":2000000000000000001"#))
    }

    struct Mutate: Endpoint {
        let endpoint: Restful
        let id: Int
        let value: String
        typealias ReturnPayloadType = Echo
    }

    @Test(arguments: [RequestMethod.put, .patch, .delete, .options, .get])
    func `each method places parameters by its rule`(method: RequestMethod) async throws {
        let echo = try await Mutate(endpoint: Restful(method, "items/{id}"), id: 7, value: "a b")
            .call(on: loopback.server())
        #expect(echo.method == method.rawValue)
        if method == .put || method == .patch {
            #expect(echo.target == "/items/7")
            #expect(echo.body == #"{"value":"a b"}"#)
        } else {
            #expect(echo.target == "/items/7?value=a%20b")
            #expect(echo.body == "")
        }
    }

    struct Ping: Endpoint {
        var endpoint: Restful { Restful(.head, "ping") }
        let probe: String
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `HEAD succeeds with an empty payload`() async throws {
        let payload = try await Ping(probe: "1").call(on: loopback.server())
        #expect(payload == EmptyPayload())
    }

    @Test func `204 No Content decodes as EmptyPayload`() async throws {
        let payload = try await Respond<EmptyPayload>(status: 204, type: "", body: "")
            .call(on: loopback.server())
        #expect(payload == EmptyPayload())
    }

    @Test func `String and Data payloads come back from a real server as sent`() async throws {
        let text = try await Respond<String>(status: 200, type: "text/plain; charset=utf-8", body: "héllo, wörld ✓")
            .call(on: loopback.server())
        #expect(text == "héllo, wörld ✓")
        let bytes = try await Respond<Data>(status: 200, type: "application/octet-stream", body: "raw+bytes & more")
            .call(on: loopback.server())
        #expect(bytes == Data("raw+bytes & more".utf8))
        let nothing = try await Respond<Balance?>(status: 204, type: "", body: "").call(on: loopback.server())
        #expect(nothing == nil)
    }

    struct Greeting: Endpoint {
        static var headers: [String: String] { ["Accept-Language": "fr", "X-Request-Source": "tests"] }
        var endpoint: Restful { Restful(.get, "greeting") }
        typealias ReturnPayloadType = Echo
    }

    @Test func `endpoint headers reach the server over the server's own`() async throws {
        let echo = try await Greeting().call(on: loopback.server(headers: ["accept-language": "en", "User-Agent": "Tests/1"]))
        #expect(echo.headers["accept-language"] == "fr")
        #expect(echo.headers["x-request-source"] == "tests")
        #expect(echo.headers["user-agent"] == "Tests/1")
    }

    @Test func `response uses the task-local default server`() async throws {
        let echo = try await APIServer.withDefault(loopback.server()) {
            try await Ping2(value: "local").response
        }
        #expect(echo.query == ["value": ["local"]])
    }

    struct Ping2: Endpoint {
        var endpoint: Restful { Restful(.get, "ping2") }
        let value: String
        typealias ReturnPayloadType = Echo
    }
}
#endif
