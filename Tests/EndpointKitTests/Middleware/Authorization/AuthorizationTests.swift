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

/// Bearer, Basic and API-key authorization.
@Suite struct AuthorizationTests {
    struct Me: Endpoint {
        let endpoint = Restful(.get, "me")
        let fields: String?
        typealias ReturnPayloadType = EmptyPayload
    }

    struct Status: Endpoint {
        static var requiresAuthorization: Bool { false }
        let endpoint = Restful(.get, "status")
        typealias ReturnPayloadType = EmptyPayload
    }

    struct Impersonate: Endpoint {
        let endpoint = Restful(.get, "me")
        @HeaderField("Authorization") var authorization: String? = "Bearer chosen"
        typealias ReturnPayloadType = EmptyPayload
    }

    func requests(with middleware: any EndpointMiddleware, _ calls: (APIServer) async throws -> Void) async throws -> [URLRequest] {
        let transport = RecordingTransport()
        var server = APIServer.stub(transport)
        server.middlewares = [middleware]
        try await calls(server)
        return transport.requests
    }

    @Test func `bearer tokens go to endpoints that require authorization, not to opted-out ones`() async throws {
        let sent = try await requests(with: HTTPBearerAuthorization(token: "t0k3n")) { server in
            try await Me(fields: nil).call(on: server)
            try await Status().call(on: server)
            try await Impersonate().call(on: server)
        }
        #expect(sent.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer t0k3n", nil, "Bearer chosen"])
    }

    @Test func `a token provider is asked for every request, and nil sends none`() async throws {
        let counter = Locked(0)
        let provider = HTTPBearerAuthorization {
            let count = counter.withLock { value in value += 1; return value }
            return count == 2 ? nil : "token-\(count)"
        }
        let sent = try await requests(with: provider) { server in
            for _ in 0..<3 { try await Me(fields: nil).call(on: server) }
        }
        #expect(sent.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer token-1", nil, "Bearer token-3"])
    }

    @Test func `basic credentials are UTF-8 and base64 encoded`() async throws {
        let sent = try await requests(with: HTTPBasicAuthorization(username: "ana", password: "pässwörd:1")) { server in
            try await Me(fields: nil).call(on: server)
        }
        // base64("ana:pässwörd:1") in UTF-8
        #expect(sent.first?.value(forHTTPHeaderField: "Authorization") == "Basic YW5hOnDDpHNzd8O2cmQ6MQ==")
    }

    @Test func `an API key goes in its header or its query parameter`() async throws {
        let header = try await requests(with: APIKeyAuthorization(header: "X-API-Key", value: "k 1")) { server in
            try await Me(fields: "id").call(on: server)
        }
        #expect(header.first?.value(forHTTPHeaderField: "X-API-Key") == "k 1")
        #expect(header.first?.url?.absoluteString == "https://api.example.com/api/v1/me?fields=id")

        let query = try await requests(with: APIKeyAuthorization(queryParameter: "api_key", value: "k&1=2")) { server in
            try await Me(fields: "id").call(on: server)
            try await Me(fields: nil).call(on: server)
            try await Status().call(on: server)
        }
        #expect(query.map { $0.url?.absoluteString } == [
            "https://api.example.com/api/v1/me?fields=id&api_key=k%261%3D2",
            "https://api.example.com/api/v1/me?api_key=k%261%3D2",
            "https://api.example.com/api/v1/status",
        ])
    }

    @Test(arguments: [
        "https://other.example.com/me", "http://api.example.com/me", "https://api.example.com:8443/me",
    ])
    func `credentials are never added for another origin`(url: String) async throws {
        let context = MiddlewareContext(operationID: "Me", method: .get, pathTemplate: "me", origin: URL(string: "https://api.example.com")!)
        let middlewares: [any EndpointMiddleware] = [
            HTTPBearerAuthorization(token: "t"), HTTPBasicAuthorization(username: "u", password: "p"),
            APIKeyAuthorization(header: "X-API-Key", value: "k"), APIKeyAuthorization(queryParameter: "key", value: "k"),
            RefreshTokenAuthorization(store: InMemoryTokenStore(Tokens(accessToken: "a"))) { $0 },
        ]
        for middleware in middlewares {
            let seen = Locked<URLRequest?>(nil)
            _ = try await middleware.intercept(URLRequest(url: URL(string: url)!), body: nil, context: context, next: NextStep { request, _ in
                seen.value = request
                return (.data(Data()), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: [:])!)
            })
            #expect(seen.value?.allHTTPHeaderFields?.isEmpty ?? true)
            #expect(seen.value?.url?.absoluteString == url)
        }
    }
}
