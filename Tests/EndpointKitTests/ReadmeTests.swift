import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

// README's samples that are not in Examples/, compiled and run here so they cannot drift.

private struct PurchaseCheer: Endpoint {
    let endpoint = Restful(.post, "purchase_cheer", version: 2)   // POST /api/v2/purchase_cheer
    let identifier: String
    let transactionId: UInt64
    struct ReturnPayloadType: Decodable, Sendable { let balance: Int }
}

private struct DeleteCheer: Endpoint {
    var endpoint: Restful { Restful(.delete, "cheers/{id}") }
    let id: Int
    typealias ReturnPayloadType = EmptyPayload
}

private struct ExportReport: Endpoint {
    static var timeout: TimeInterval? { 300 }
    static var maximumResponseSize: Int? { 512 << 20 }
    var endpoint: Restful { Restful(.get, "reports/{id}/export") }
    let id: Int
    typealias ReturnPayloadType = Data
}

private struct CannedTransport: HTTPTransport {
    var body = #"{"balance":200}"#
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil,
                                       headerFields: ["Content-Type": "application/json"])!
        return (Data(body.utf8), response)
    }
}

private struct PostComment: Endpoint {
    let endpoint = Restful(.post, "posts/{postId}/comments")   // POST /api/v1/posts/7/comments?notify=true
    let postId: Int
    @QueryItem var notify: Bool
    @HeaderField("X-Request-ID") var requestID: String? = nil    // X-Request-ID: abc
    let text: String                                             // {"text":"Nice!"}
    typealias ReturnPayloadType = EmptyPayload
}

private struct Greeting: Endpoint {
    static var headers: [String: String] { ["Accept-Language": "fr"] }   // over the server's
    var endpoint: Restful { Restful(.get, "greeting") }
    @HeaderField("Accept-Language") var language: String? = nil         // over both, when set
    typealias ReturnPayloadType = String
}

private struct SignIn: Endpoint {
    let endpoint = Restful(.post, "oauth/token", body: .form)   // grant_type=password&username=…
    var grantType = "password"
    let username: String
    let password: String
    struct ReturnPayloadType: Decodable, Sendable { let accessToken: String }
}

private struct UploadPhoto: Endpoint {
    let endpoint = Restful(.post, "albums/{albumId}/photos", body: .multipart)
    let albumId: Int
    let caption: String                 // a text part
    let photo: MultipartFile            // a file part: name "photo", its file name and type
    typealias ReturnPayloadType = EmptyPayload
}

private struct PutAvatar: Endpoint {
    let endpoint = Restful(.put, "users/{id}/avatar", body: .raw(contentType: "image/png"))
    let id: Int
    let png: Data                       // sent byte for byte
    typealias ReturnPayloadType = EmptyPayload
}

private struct APIError: Decodable, Sendable {
    struct Detail: Decodable, Sendable { let code: String; let message: String }
    let error: Detail                                      // {"error": {"code": …, "message": …}}
}

private struct OAuthError: Decodable, Sendable { let error: String; let errorDescription: String? }
extension SignIn {                                         // this endpoint answers OAuth-style errors
    static var errorPayloadType: (any (Decodable & Sendable).Type)? { OAuthError.self }
}

private struct RequestID: Middleware {
    func intercept(
        _ request: URLRequest, context: MiddlewareContext, next: Middleware.Next
    ) async throws -> (Data, HTTPURLResponse) {
        var request = request
        request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Request-ID")
        let (body, response) = try await next(request)
        if context.endpointName == "PurchaseCheer", response.statusCode == 402 { /* … */ }
        return (body, response)
    }
}

private struct RefreshToken: Endpoint {
    static var requiresAuthorization: Bool { false }
    let endpoint = Restful(.post, "oauth/refresh")
    let refreshToken: String
    struct ReturnPayloadType: Decodable, Sendable {
        let accessToken: String
        let refreshToken: String
        let expiresIn: Double
    }
}

@Suite struct ReadmeTests {
    @Test func `the middleware samples compile and run in order`() async throws {
        let log = LogCollector()
        let transport = ScriptedTransport { request, _ in
            if request.url?.path == "/api/v1/oauth/refresh" {
                return .init(body: #"{"access_token":"a2","refresh_token":"r2","expires_in":3600}"#)
            }
            return request.value(forHTTPHeaderField: "Authorization") == "Bearer a2" ? .init(body: #"{"balance":1}"#) : .init(status: 401)
        }
        var api = Server(origin: URL(string: "https://example.com")!, transport: transport)
        let signOuts = LogCollector()
        let auth = RefreshTokenAuthorization(store: InMemoryTokenStore()) { [api] tokens in
            let reply = try await RefreshToken(refreshToken: tokens.refreshToken ?? "").call(on: api)
            return Tokens(accessToken: reply.accessToken, refreshToken: reply.refreshToken,
                          expiresAt: Date().addingTimeInterval(reply.expiresIn))
        } onSignOut: { _ in
            signOuts.append("signed out")
        }
        api.middlewares = [RequestLogger(sink: log.append), RetryPolicy(), RequestID(), auth]
        api.timeout = 15
        try await auth.signIn(Tokens(accessToken: "a1", refreshToken: "r1"))
        let balance = try await PurchaseCheer(identifier: "x", transactionId: 1).call(on: api).balance
        #expect(balance == 1)
        #expect(transport.requests.map { $0.url!.path } == ["/api/v2/purchase_cheer", "/api/v1/oauth/refresh", "/api/v2/purchase_cheer"])
        // The refresh closure captured `api` before its middlewares were set, so only calls carry the ID.
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "X-Request-ID") != nil } == [true, false, true])
        #expect(log.lines.count == 2)
        #expect(signOuts.lines.isEmpty)
        try await auth.signOut()
        await auth.reset()
    }

    @Test func `the body and placement samples send what their comments say`() async throws {
        let transport = RecordingTransport()
        let server = Server(origin: URL(string: "https://example.com")!, transport: transport, headers: ["Accept-Language": "en"])
        try await Server.withDefault(server) {
            try await PostComment(postId: 7, notify: true, requestID: "abc", text: "Nice!").call()
            _ = try? await Greeting().call()
            _ = try? await Greeting(language: "de").call()
            _ = try? await SignIn(username: "ana", password: "pw").call()
            try await UploadPhoto(albumId: 3, caption: "Beach", photo: MultipartFile(Data([1]), filename: "beach.jpg", contentType: "image/jpeg")).call()
            try await PutAvatar(id: 1, png: Data([0x89])).call()
        }
        let requests = transport.requests
        #expect(requests.map { "\($0.httpMethod!) \($0.url!.absoluteString)" } == [
            "POST https://example.com/api/v1/posts/7/comments?notify=true",
            "GET https://example.com/api/v1/greeting",
            "GET https://example.com/api/v1/greeting",
            "POST https://example.com/api/v1/oauth/token",
            "POST https://example.com/api/v1/albums/3/photos",
            "PUT https://example.com/api/v1/users/1/avatar",
        ])
        #expect(requests[0].value(forHTTPHeaderField: "X-Request-ID") == "abc")
        #expect(requests[0].bodyText == #"{"text":"Nice!"}"#)
        #expect(requests[1].value(forHTTPHeaderField: "Accept-Language") == "fr")
        #expect(requests[2].value(forHTTPHeaderField: "Accept-Language") == "de")
        #expect(requests[3].bodyText == "grant_type=password&username=ana&password=pw")
        #expect(requests[4].value(forHTTPHeaderField: "Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(requests[5].httpBody == Data([0x89]))
    }

    @Test func `the typed error sample reads the API's error`() async throws {
        let body = #"{"error":{"code":"sold_out","message":"No more cheers"}}"#
        let server = Server(
            origin: URL(string: "https://example.com")!, transport: RecordingTransport(status: 409, body: body),
            errorPayloadType: APIError.self)
        let error = try await #require(throws: EndpointError.self) {
            try await PurchaseCheer(identifier: "a", transactionId: 1).call(on: server)
        }
        #expect(error.errorPayload(as: APIError.self)?.error.code == "sold_out")
        let oauth = try await #require(throws: EndpointError.self) {
            try await SignIn(username: "a", password: "b").call(on: Server(
                origin: URL(string: "https://example.com")!,
                transport: RecordingTransport(status: 400, body: #"{"error":"invalid_grant"}"#),
                errorPayloadType: APIError.self))
        }
        #expect(oauth.errorPayload(as: OAuthError.self)?.error == "invalid_grant")
    }

    @Test func `purchase returns the new balance`() async throws {
        let server = Server(origin: URL(string: "https://test.invalid")!, transport: CannedTransport())
        let balance = try await Server.withDefault(server) {
            try await PurchaseCheer(identifier: "a", transactionId: 1).response.balance
        }
        #expect(balance == 200)
    }

    @Test func `the configuration sample builds the URL it describes`() async throws {
        let encoder = Server.makeEncoder()
        encoder.outputFormatting = .sortedKeys
        let transport = RecordingTransport()
        let server = Server(
            origin: URL(string: "https://example.com/base")!,
            pathPrefix: "/api/v{version}",
            transport: transport,
            encoder: encoder,
            decoder: Server.makeDecoder(),
            headers: ["User-Agent": "Cheers/3.1", "Accept-Language": "en"]
        )
        try await Server.withDefault(server) {
            try await DeleteCheer(id: 7).call()
        }
        let request = try transport.request
        #expect(request.url?.absoluteString == "https://example.com/base/api/v1/cheers/7")
        #expect(request.value(forHTTPHeaderField: "Accept-Language") == "en")
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "Cheers/3.1")
    }

    @Test func `the limits sample limits what it says`() async throws {
        let fiveMegabytes = String(repeating: "x", count: 5 << 20)
        var api = Server(origin: URL(string: "https://example.com")!)
        api.timeout = 30                        // seconds per attempt (default 60); nil for none
        api.maximumResponseSize = 4 << 20       // bytes, after decompression (default 16 MiB)
        api.transport = RecordingTransport(headers: ["Content-Type": "text/csv"], body: fiveMegabytes)
        #expect(try await ExportReport(id: 1).call(on: api).count == 5 << 20)
        struct Report: Endpoint {
            var endpoint: Restful { Restful(.get, "reports/{id}") }
            let id: Int
            typealias ReturnPayloadType = Data
        }
        let error = try await #require(throws: EndpointError.self) { try await Report(id: 1).call(on: api) }
        #expect(error.kind == .responseTooLarge)
    }
}
