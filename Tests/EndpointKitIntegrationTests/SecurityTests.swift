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

/// What a hostile redirect or a careless middleware can make EndpointKit send, on the wire.
@Suite struct SecurityTests {
    let loopback: LoopbackServer
    init() async throws { loopback = try await LoopbackServer.ready() }

    struct FTPLog: Endpoint {
        var endpoint: Restful { Restful(.get, "ftp-log") }
        struct ReturnPayloadType: Decodable, Sendable { let connections: Int; let commands: [String] }
    }

    /// Answers with `status` and exactly `location`.
    struct RedirectTo: Endpoint {
        let endpoint: Restful
        @QueryItem var status: Int
        @QueryItem var location: String
        var secret = "s3cret-body"
        typealias ReturnPayloadType = Echo
    }

    // MARK: - 1. Redirects to other schemes

    @Test(arguments: [307, 308])
    func `a redirect of a POST to ftp is refused and nothing reaches the FTP server`(status: Int) async throws {
        let location = "ftp://127.0.0.1:\(loopback.ftpPort)/upload-\(status)"
        let error = try await #require(throws: EndpointError.self) {
            try await RedirectTo(endpoint: Restful(.post, "redirect-to"), status: status, location: location).call(on: loopback.server())
        }
        #expect(error.kind == .redirectRefused)
        #expect(error.statusCode == status)
        #expect(error.description.contains(#"with Location "\#(location)", which was not followed because only http and https redirects are followed"#))
        let log = try await FTPLog().call(on: loopback.server())
        #expect(log.connections == 0)
        #expect(log.commands.isEmpty)
    }

    @Test(arguments: ["file:///etc/passwd", "FILE:/etc/passwd", "gopher://127.0.0.1/x", "data:text/plain,hi"])
    func `a redirect to a non-HTTP scheme is refused and not rewritten onto the origin`(location: String) async throws {
        let error = try await #require(throws: EndpointError.self) {
            try await RedirectTo(endpoint: Restful(.get, "redirect-to"), status: 302, location: location).call(on: loopback.server())
        }
        #expect(error.kind == .redirectRefused)
        #expect(error.description.contains(location))
        #expect(try await Seen(prefix: "/etc/passwd").call(on: loopback.server()).paths.isEmpty)
    }

    // MARK: - 2. Headers added by middlewares

    struct Ping: Endpoint {
        var endpoint: Restful { Restful(.get, "ping/\(marker)") }
        let marker: String
        typealias ReturnPayloadType = Echo
        enum CodingKeys: CodingKey {}
    }

    /// Sets one header, as any third-party middleware might.
    struct SetsHeader: EndpointMiddleware {
        let name: String
        let value: String
        func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
            var request = request
            request.setValue(value, forHTTPHeaderField: name)
            return try await next(request, body)
        }
    }

    @Test(arguments: [
        ("api-key name with CR/LF", [APIKeyAuthorization(header: "X-Key\r\nX-Injected", value: "k")] as [any EndpointMiddleware]),
        ("bearer token with CR/LF", [HTTPBearerAuthorization(token: "abc\r\nX-Injected: yes")]),
        ("API key with LF", [APIKeyAuthorization(header: "X-API-Key", value: "k\nX-Injected: yes")]),
        ("a middleware's header name with a space", [SetsHeader(name: "Bad Name", value: "1")]),
        ("a middleware's header name with CR/LF", [SetsHeader(name: "X-A\r\nX-Injected", value: "1")]),
    ])
    func `a header a middleware cannot send is an invalid request and nothing is sent`(
        label: String, middlewares: [any EndpointMiddleware]
    ) async throws {
        var server = loopback.server()
        server.middlewares = middlewares
        let marker = UUID().uuidString
        let error = try await #require(throws: EndpointError.self) { try await Ping(marker: marker).call(on: server) }
        #expect(error.kind == .invalidRequest, "\(label)")
        #expect(!error.description.contains("abc"), "the secret is not repeated in the error")
        #expect(try await Seen(prefix: "/ping/\(marker)").call(on: loopback.server()).paths.isEmpty, "\(label)")
    }

    // MARK: - 4. What crosses to another origin

    struct Charge: Endpoint {
        static var isSafeToRetry: Bool { true }
        let endpoint: Restful
        @QueryItem var status: Int
        @QueryItem var location: String
        @HeaderField("Idempotency-Key") var idempotencyKey: String? = nil
        @HeaderField("X-Trace") var trace: String? = nil
        let amount: Int
        typealias ReturnPayloadType = Echo
    }

    @Test(arguments: [302, 307])
    func `credentials stay behind on another origin and everything else follows`(status: Int) async throws {
        var server = loopback.server(headers: ["User-Agent": "T/1", "Cookie": "sid=1", "Proxy-Authorization": "Basic eA=="])
        server.middlewares = [
            HTTPBearerAuthorization(token: "bearer-secret"),
            APIKeyAuthorization(header: "X-Tenant-Secret", value: "header-secret"),
            APIKeyAuthorization(queryParameter: "appid", value: "query-secret"),
        ]
        // The server echoes the key it received into the Location, as some do.
        let location = "http://127.0.0.1:\(loopback.otherPort)/landed?appid=query-secret&page=2"
        let echo = try await Charge(
            endpoint: Restful(.post, "redirect-to"), status: status, location: location,
            idempotencyKey: "idem-1", trace: "t-1", amount: 5
        ).call(on: server)
        #expect(echo.headers["host"] == "127.0.0.1:\(loopback.otherPort)")
        #expect(echo.query == ["page": ["2"]])
        #expect(echo.target == "/landed?page=2")
        for stripped in ["authorization", "proxy-authorization", "cookie", "x-tenant-secret"] {
            #expect(echo.headers[stripped] == nil, "\(stripped) crossed to another origin")
        }
        #expect(echo.headers["idempotency-key"] == "idem-1")
        #expect(echo.headers["x-trace"] == "t-1")
        #expect(echo.headers["user-agent"] == "T/1")
        #expect(echo.method == (status == 307 ? "POST" : "GET"))
    }

    struct SetCookie: Endpoint {
        var endpoint: Restful { Restful(.get, "set-cookie") }
        let cookie: String
        typealias ReturnPayloadType = EmptyPayload
    }

    struct Who: Endpoint {
        var endpoint: Restful { Restful(.get, "who") }
        @HeaderField("Cookie") var cookie: String? = nil
        typealias ReturnPayloadType = Echo
    }

    @Test func `an explicit Cookie header is never replaced by the session's cookies`() async throws {
        let server = loopback.server(transport: URLSessionTransport())  // a jar of its own
        try await SetCookie(cookie: "jar=from-server").call(on: server)
        #expect(try await Who().call(on: server).headers["cookie"] == "jar=from-server")  // the jar works
        let sent = try await Who(cookie: "mine=explicit").call(on: server).headers["cookie"]
        #expect(sent == "mine=explicit")
    }
}
#endif
