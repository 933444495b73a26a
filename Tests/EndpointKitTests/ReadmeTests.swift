import EndpointKit
import EndpointKitTestSupport
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

// What the documentation's samples do when run: the samples themselves are compiled from README.md
// and the DocC articles into
// DocSamples/ (see .ci/readme-samples), so these tests use the documentation's own types.

@Suite struct ReadmeTests {
    @Test func `the middleware samples compile and run in order`() async throws {
        let log = LogCollector()
        let transport = ScriptedTransport { request, _ in
            if request.url?.path == "/api/v1/oauth/refresh" {
                return .init(body: #"{"access_token":"a2","refresh_token":"r2","expires_in":3600}"#)
            }
            return request.value(forHTTPHeaderField: "Authorization") == "Bearer a2" ? .init(body: #"{"balance":1}"#) : .init(status: 401)
        }
        var api = APIServer(origin: URL(string: "https://example.com")!, transport: transport)
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
        let server = APIServer(origin: URL(string: "https://example.com")!, transport: transport, headers: ["Accept-Language": "en"])
        try await APIServer.withDefault(server) {
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
        let server = APIServer(
            origin: URL(string: "https://example.com")!, transport: RecordingTransport(status: 409, body: body),
            errorPayloadType: APIError.self)
        let error = try await #require(throws: EndpointError.self) {
            try await PurchaseCheer(identifier: "a", transactionId: 1).call(on: server)
        }
        #expect(error.errorPayload(as: APIError.self)?.error.code == "sold_out")
        let oauth = try await #require(throws: EndpointError.self) {
            try await SignIn(username: "a", password: "b").call(on: APIServer(
                origin: URL(string: "https://example.com")!,
                transport: RecordingTransport(status: 400, body: #"{"error":"invalid_grant"}"#),
                errorPayloadType: APIError.self))
        }
        #expect(oauth.errorPayload(as: OAuthError.self)?.error == "invalid_grant")
    }

    @Test func `the configuration sample builds the URL it describes`() async throws {
        let encoder = APIServer.makeEncoder()
        encoder.outputFormatting = .sortedKeys
        let transport = RecordingTransport()
        let server = APIServer(
            origin: URL(string: "https://example.com/base")!,
            pathPrefix: "/api/v{version}",
            transport: transport,
            encoder: encoder,
            decoder: APIServer.makeDecoder(),
            headers: ["User-Agent": "Cheers/3.1", "Accept-Language": "en"]
        )
        try await APIServer.withDefault(server) {
            try await DeleteCheer(id: 7).call()
        }
        let request = try transport.request
        #expect(request.url?.absoluteString == "https://example.com/base/api/v1/cheers/7")
        #expect(request.value(forHTTPHeaderField: "Accept-Language") == "en")
        #expect(request.value(forHTTPHeaderField: "User-Agent") == "Cheers/3.1")
    }

    @Test func `the limits sample limits what it says`() async throws {
        let fiveMegabytes = String(repeating: "x", count: 5 << 20)
        var api = APIServer(origin: URL(string: "https://example.com")!)
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
