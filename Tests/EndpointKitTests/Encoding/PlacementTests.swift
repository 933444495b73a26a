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

/// `@QueryItem` and `@HeaderField` properties: where they go, and header precedence.
@Suite struct PlacementTests {
    struct PostComment: Endpoint {
        let endpoint = Restful(.post, "posts/{postId}/comments")
        let postId: Int
        @QueryItem var notify: Bool
        @QueryItem var tags: [String] = []
        @HeaderField("X-Request-ID") var requestID: String? = nil
        let text: String
        typealias ReturnPayloadType = EmptyPayload
    }

    func sent(_ endpoint: some Endpoint, serverHeaders: [String: String] = [:]) async throws -> URLRequest {
        let transport = RecordingTransport()
        var server = APIServer.stub(transport)
        server.headers = serverHeaders
        _ = try await endpoint.call(on: server)
        return try transport.request
    }

    @Test func `@QueryItem goes in the query string of a POST and @HeaderField in a header, neither in the body`() async throws {
        let request = try await sent(PostComment(postId: 7, notify: true, tags: ["a b", "c"], requestID: "abc", text: "Nice!"))
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/posts/7/comments?notify=true&tags=a%20b&tags=c")
        #expect(request.bodyText == #"{"text":"Nice!"}"#)
        #expect(request.value(forHTTPHeaderField: "X-Request-ID") == "abc")
    }

    @Test func `the memberwise initializer takes plain values and a nil header is not sent`() async throws {
        let request = try await sent(PostComment(postId: 1, notify: false, text: "x"))
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/posts/1/comments?notify=false")
        #expect(request.allHTTPHeaderFields == ["Accept": "application/json", "Content-Type": "application/json"])
    }

    struct Search: Endpoint {
        static var headers: [String: String] { ["Accept-Language": "fr", "X-Client": "endpoint"] }
        var endpoint: Restful { Restful(.get, "search") }
        @HeaderField("accept-language") var language: String? = nil
        @HeaderField("X-Retry") var attempt: Int = 1
        @HeaderField("X-Fields") var fields: [String] = []
        @HeaderField("If-Modified-Since") var since: Date? = nil
        @QueryItem var term: String
        let page: Int
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a header property wins over endpoint and server headers of the same name in any case`() async throws {
        let request = try await sent(
            Search(language: "de", term: "swift", page: 2),
            serverHeaders: ["ACCEPT-LANGUAGE": "en", "X-Client": "server", "x-retry": "server"])
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/search?term=swift&page=2")
        #expect(request.allHTTPHeaderFields == [
            "accept-language": "de", "X-Client": "endpoint", "X-Retry": "1", "Accept": "application/json",
        ])
    }

    @Test func `without a property value the endpoint header applies, then the server's`() async throws {
        let request = try await sent(Search(term: "t", page: 1), serverHeaders: ["User-Agent": "App/1"])
        #expect(request.value(forHTTPHeaderField: "Accept-Language") == "fr")
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "App/1")
    }

    @Test func `header values follow the query rules, and lists are comma-separated`() async throws {
        let request = try await sent(Search(
            attempt: 3, fields: ["id", "name"], since: Date(timeIntervalSince1970: 1_700_000_000), term: "t", page: 1))
        #expect(request.value(forHTTPHeaderField: "X-Retry") == "3")
        #expect(request.value(forHTTPHeaderField: "X-Fields") == "id, name")
        #expect(request.value(forHTTPHeaderField: "If-Modified-Since") == "2023-11-14T22:13:20Z")
    }

    @Test(arguments: ["abc\r\nX-Admin: 1", "abc\nX-Admin: 1", "a\u{7F}"])
    func `a header property with CR, LF or a control character is refused before sending`(value: String) async throws {
        let transport = RecordingTransport()
        let error = try await #require(throws: EndpointError.self) {
            try await PostComment(postId: 1, notify: true, requestID: value, text: "x").call(on: .stub(transport))
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.description.hasPrefix("POST /api/v1/posts/{postId}/comments: the value of header X-Request-ID contains"))
        #expect(transport.requests.isEmpty)
    }

    struct BadName: Endpoint {
        let endpoint = Restful(.get, "x")
        @HeaderField("X Request") var id: String? = "1"
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `an invalid header name on a property is refused before sending`() async throws {
        let transport = RecordingTransport()
        let error = try await #require(throws: EndpointError.self) { try await BadName().call(on: .stub(transport)) }
        #expect(error.description == #"GET /api/v1/x: the header name "X Request" is not a valid HTTP token."#)
        #expect(transport.requests.isEmpty)
    }

    struct Nested: Endpoint {
        struct Point: Encodable, Sendable { let x: Int }
        let endpoint = Restful(.get, "x")
        @HeaderField("X-Point") var point = Point(x: 1)
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `an object cannot be a header`() async throws {
        let error = try await #require(throws: EndpointError.self) { try await Nested().call(on: .stub(RecordingTransport())) }
        #expect(error.description.contains("The header X-Point takes a single value or a list, not an object. (at point.x)"))
    }

    struct Archive: Endpoint {
        let endpoint = Restful(.delete, "items/{id}", body: .json)
        let id: String
        @QueryItem var force: Bool
        let reason: String
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a DELETE given a body format sends its properties in the body`() async throws {
        let request = try await sent(Archive(id: "a/b", force: true, reason: "spam"))
        #expect(request.httpMethod == "DELETE")
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/items/a%2Fb?force=true")
        #expect(request.bodyText == #"{"reason":"spam"}"#)
    }

    struct GetWithBody: Endpoint {
        let endpoint = Restful(.get, "x", body: .form)
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a GET with a body format is refused`() async throws {
        let error = try await #require(throws: EndpointError.self) { try await GetWithBody().call(on: .stub(RecordingTransport())) }
        #expect(error.description == "GET /api/v1/x: a GET request cannot carry a body (URLSession refuses it); remove body: from its Restful value.")
    }
}
