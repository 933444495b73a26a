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

/// Redirects as URLSession on Linux gets them wrong, and as EndpointKit fixes them.
@Suite struct RedirectTests {
    let loopback: LoopbackServer
    init() async throws { loopback = try await LoopbackServer.ready() }

    struct Post: Endpoint {
        let endpoint: Restful
        let identifier: String
        let amount: Int
        typealias ReturnPayloadType = Echo
    }

    static let secretHeaders = [
        "User-Agent": APIServer.userAgent, "Authorization": "Bearer s3cret", "Cookie": "session=abc",
    ]

    @Test(arguments: [307, 308])
    func `a redirected POST arrives with its body and method`(status: Int) async throws {
        let echo = try await Post(endpoint: Restful(.post, "redirect/\(status)/landed/here"), identifier: "é+&", amount: 5)
            .call(on: loopback.server(headers: Self.secretHeaders))
        #expect(echo.method == "POST")
        #expect(echo.target == "/landed/here")
        #expect(try jsonObject(echo.body) == ["identifier": "é+&", "amount": 5])
        #expect(echo.headers["content-type"] == "application/json")
        #expect(echo.headers["authorization"] == "Bearer s3cret")  // same origin keeps credentials
    }

    @Test(arguments: [307, 308])
    func `a POST redirected to another origin keeps its body but not its credentials`(status: Int) async throws {
        let echo = try await Post(endpoint: Restful(.post, "redirect-away/\(status)/elsewhere"), identifier: "x", amount: 1)
            .call(on: loopback.server(headers: Self.secretHeaders))
        #expect(echo.target == "/elsewhere")
        #expect(echo.headers["host"] == "127.0.0.1:\(loopback.otherPort)")
        #expect(try jsonObject(echo.body) == ["identifier": "x", "amount": 1])
        #expect(echo.headers["authorization"] == nil)
        #expect(echo.headers["cookie"] == nil)
    }

    struct Get: Endpoint {
        let endpoint: Restful
        typealias ReturnPayloadType = Echo
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func `a GET redirected to another origin drops its credentials`(status: Int) async throws {
        let echo = try await Get(endpoint: Restful(.get, "redirect-away/\(status)/public"))
            .call(on: loopback.server(headers: Self.secretHeaders))
        #expect(echo.headers["host"] == "127.0.0.1:\(loopback.otherPort)")
        #expect(echo.target == "/public")
        #expect(echo.headers["authorization"] == nil)
        #expect(echo.headers["cookie"] == nil)
        #expect(echo.headers["accept"] == "application/json")
    }

    @Test func `a GET redirected within the origin keeps its credentials`() async throws {
        let echo = try await Get(endpoint: Restful(.get, "redirect/302/inside"))
            .call(on: loopback.server(headers: Self.secretHeaders))
        #expect(echo.target == "/inside")
        #expect(echo.headers["authorization"] == "Bearer s3cret")
    }

    struct Hops: Endpoint {
        var endpoint: Restful { Restful(.post, "redirect-to") }
        @QueryItem var status: Int
        @QueryItem var location: String
        let amount: Int
        typealias ReturnPayloadType = Echo
    }

    /// After a 302 has turned the POST into a GET, a 307 repeats that GET, not the POST; and its
    /// relative Location is resolved against the URL that answered 307, not the first one.
    @Test func `a 302 then a 307 repeats the GET and resolves Location against the redirecting URL`() async throws {
        let echo = try await Hops(status: 302, location: "/sub/redirect-to?status=307&location=landed", amount: 9)
            .call(on: loopback.server())
        #expect(echo.method == "GET")
        #expect(echo.target == "/sub/landed")
        #expect(echo.body == "")
    }

    @Test func `a 307 then a 307 with a relative Location keeps the body and resolves each hop`() async throws {
        let echo = try await Hops(status: 307, location: "/deep/er/redirect-to?status=307&location=../landed", amount: 9)
            .call(on: loopback.server())
        #expect(echo.method == "POST")
        #expect(echo.target == "/deep/landed")
        #expect(try jsonObject(echo.body) == ["amount": 9])
    }

    @Test func `a redirect loop ends with a clear error`() async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await Post(endpoint: Restful(.post, "redirect/307/redirect/307/redirect/307/x"), identifier: "x", amount: 1)
                .call(on: loopback.server(transport: IntegrationTransport.make(maximumRedirects: 2)))
        }
        #expect(error.kind == .transportFailed)
        #expect((error.underlyingError as? URLError)?.code == .httpTooManyRedirects)
    }

    /// URLSession follows GET redirects by itself, on Apple platforms all of them: the limit is
    /// counted in the session delegate, so it holds for every status and every method.
    @Test(arguments: [301, 302, 303, 307, 308])
    func `maximumRedirects limits redirects URLSession follows by itself`(status: Int) async throws {
        let server = loopback.server(transport: IntegrationTransport.make(maximumRedirects: 2))
        let three = Restful(.get, "redirect/\(status)/redirect/\(status)/redirect/\(status)/echo/x")
        let error = try await #require(throws: EndpointError.self) {
            try await Fetch(endpoint: three).call(on: server)
        }
        #expect(error.kind == .transportFailed)
        #expect((error.underlyingError as? URLError)?.code == .httpTooManyRedirects)
        // Two hops are within the limit.
        let two = try await Fetch(endpoint: Restful(.get, "redirect/\(status)/redirect/\(status)/echo/x")).call(on: server)
        #expect(two.method == "GET")
        #expect(two.target == "/echo/x")
    }

    struct Fetch: Endpoint {
        let endpoint: Restful
        typealias ReturnPayloadType = Echo
    }
}
#endif
