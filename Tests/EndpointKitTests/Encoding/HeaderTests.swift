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

/// Endpoint headers over server headers, and no header injection.
@Suite struct HeaderTests {
    struct Greeting: Endpoint {
        static var headers: [String: String] { ["accept-language": "fr", "X-Trace": "endpoint"] }
        var endpoint: Restful { Restful(.post, "greeting") }
        let name: String
        typealias ReturnPayloadType = EmptyPayload
    }

    func sent(_ endpoint: some Endpoint, serverHeaders: [String: String]) async throws -> URLRequest {
        let transport = RecordingTransport()
        _ = try await endpoint.call(on: APIServer(origin: URL(string: "https://x.test")!, transport: transport, headers: serverHeaders))
        return try transport.request
    }

    @Test func `endpoint headers replace server headers of the same name in any case`() async throws {
        let request = try await sent(Greeting(name: "a"), serverHeaders: [
            "Accept-Language": "en", "x-trace": "server", "User-Agent": "App/1", "content-type": "text/plain",
        ])
        #expect(request.allHTTPHeaderFields?.count == 5)
        #expect(request.value(forHTTPHeaderField: "Accept-Language") == "fr")
        #expect(request.value(forHTTPHeaderField: "X-Trace") == "endpoint")
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "App/1")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")  // the body is JSON
    }

    struct Plain: Endpoint {
        var endpoint: Restful { Restful(.get, "plain") }
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test(arguments: [
        (["X-Evil": "a\r\nSet-Cookie: x=1"], "the value of header X-Evil contains CR, which could inject headers"),
        (["X-Evil": "a\nb"], "the value of header X-Evil contains LF, which could inject headers"),
        (["X-Evil": "a\u{0}b"], "the value of header X-Evil contains control character 0x0, which could inject headers"),
        (["Bad Name": "v"], #"the header name "Bad Name" is not a valid HTTP token"#),
        (["X-A:b": "v"], #"the header name "X-A:b" is not a valid HTTP token"#),
        (["X-\r\nA": "v"], #"the header name "X-\r\nA" is not a valid HTTP token"#),
        (["": "v"], #"the header name "" is not a valid HTTP token"#),
    ])
    func `a header that could inject others is refused before sending`(headers: [String: String], problem: String) async throws {
        let transport = RecordingTransport()
        let error = try await #require(throws: EndpointError.self) {
            try await Plain().call(on: APIServer(origin: URL(string: "https://x.test")!, transport: transport, headers: headers))
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.description == "GET /api/v1/plain: \(problem).")
        #expect(transport.requests.isEmpty)
    }

    @Test func `token characters and tabs in values are allowed`() async throws {
        let request = try await sent(Plain(), serverHeaders: ["X-Ok!#$%&'*+-.^_`|~9": "a\tb é"])
        #expect(request.value(forHTTPHeaderField: "X-Ok!#$%&'*+-.^_`|~9") == "a\tb é")
    }
}
