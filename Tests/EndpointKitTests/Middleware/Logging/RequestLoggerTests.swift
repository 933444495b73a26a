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

/// Log lines, verbose mode, cURL rendering and redaction.
@Suite struct RequestLoggerTests {
    struct PurchaseCheer: Endpoint {
        let endpoint = Restful(.post, "purchase_cheer", version: 2)
        let identifier: String
        let transactionId: UInt64
        let password: String
        let pin: String
        struct ReturnPayloadType: Decodable, Sendable { let balance: Int }
    }

    struct Search: Endpoint {
        let endpoint = Restful(.get, "search")
        let term: String
        let accessToken: String
        typealias ReturnPayloadType = EmptyPayload
    }

    /// Replaces the digits of durations, so lines compare exactly.
    func stable(_ line: String) -> String {
        line.replacingOccurrences(of: #"\(\d+ ms"#, with: "(N ms", options: .regularExpression)
    }

    func logged(verbose: Bool = false, logsCURL: Bool = false, transport: any HTTPTransport, extraMiddleware: [any EndpointMiddleware] = [],
                _ call: (APIServer) async throws -> Void) async throws -> [String] {
        let log = LogCollector()
        var server = APIServer.stub(transport)
        server.headers = ["User-Agent": "App/1", "Cookie": "session=abc"]
        server.middlewares = extraMiddleware + [RequestLogger(verbose: verbose, logsCURL: logsCURL, redacting: ["pin"], sink: log.append)]
        try? await call(server)
        return log.lines.map(stable)
    }

    @Test func `one line per request and per response`() async throws {
        let transport = RecordingTransport(body: #"{"balance":200}"#)
        let lines = try await logged(transport: transport) { server in
            _ = try await PurchaseCheer(identifier: "cheer.large", transactionId: 7, password: "hunter2", pin: "1234").call(on: server)
        }
        let body = try #require(transport.requests.first?.httpBody)
        #expect(lines == [
            "--> POST /api/v2/purchase_cheer (\(body.count)-byte body)",
            "<-- 200 OK POST /api/v2/purchase_cheer (N ms, 15-byte body)",
        ])
    }

    @Test func `failures are logged with the reason`() async throws {
        let lines = try await logged(transport: FailingTransport(error: URLError(.cannotConnectToHost))) { server in
            try await Search(term: "a", accessToken: "t").call(on: server)
        }
        #expect(lines.count == 2)
        #expect(lines[1].hasPrefix("<-- failed GET /api/v1/search?term=a&access_token=<redacted> (N ms): could not connect to the server"))
    }

    @Test func `verbose mode shows headers and bodies with secrets redacted`() async throws {
        let transport = RecordingTransport(headers: ["Content-Type": "application/json", "Set-Cookie": "id=secret-cookie", "X-Trace": "t1"],
                                           body: #"{"balance":200,"refresh_token":"secret-refresh"}"#)
        let lines = try await logged(verbose: true, transport: transport, extraMiddleware: [], { server in
            var server = server
            server.middlewares.insert(HTTPBearerAuthorization(token: "secret-bearer"), at: 0)
            server.middlewares.insert(APIKeyAuthorization(header: "X-API-Key", value: "secret-key"), at: 0)
            _ = try await PurchaseCheer(identifier: "c", transactionId: 1, password: "secret-password", pin: "secret-pin").call(on: server)
        })
        let text = lines.joined(separator: "\n")
        for secret in ["secret-bearer", "secret-key", "secret-password", "secret-pin", "secret-cookie", "secret-refresh", "session=abc"] {
            #expect(!text.contains(secret), "\(secret) leaked")
        }
        #expect(text.contains("    Authorization: <redacted>"))
        #expect(text.lowercased().contains("    x-api-key: <redacted>"))  // URLRequest may recase the name
        #expect(text.contains("    Cookie: <redacted>"))
        #expect(text.contains("    User-Agent: App/1"))
        #expect(text.contains(#"    {"identifier":"c","password":"<redacted>","pin":"<redacted>","transaction_id":1}"#))
        #expect(text.contains("    Set-Cookie: <redacted>"))
        #expect(text.contains("    X-Trace: t1"))
        #expect(text.contains(#"    {"balance":200,"refresh_token":"<redacted>"}"#))
    }

    @Test func `form bodies, query parameters and long bodies are redacted and cut`() {
        let redaction = Redaction(fields: ["otp"])
        #expect(redaction.body(Data("user=a&password=b&OTP=1&x=%20".utf8), contentType: "application/x-www-form-urlencoded", limit: 100)
            == "user=a&password=<redacted>&OTP=<redacted>&x=%20")
        #expect(redaction.pathAndQuery(of: URL(string: "https://x.test/a%20b?api_key=k&q=1&apiKey=2")) == "/a%20b?api_key=<redacted>&q=1&apiKey=<redacted>")
        #expect(redaction.body(Data(repeating: 0x61, count: 20), contentType: "text/plain", limit: 8) == "aaaaaaaa… (12 more bytes)")
        #expect(redaction.body(Data([0, 1, 2]), contentType: "application/octet-stream", limit: 8) == "(3 bytes of binary data)")
        #expect(redaction.body(Data(#"[{"token":"t","n":[{"secret":"s"}]}]"#.utf8), contentType: "application/json", limit: 100)
            == #"[{"n":[{"secret":"<redacted>"}],"token":"<redacted>"}]"#)
    }

    @Test func `a request renders as a redacted curl command`() throws {
        var request = URLRequest(url: URL(string: "https://api.example.com/api/v1/search?q=it's&api_key=k1")!)
        request.httpMethod = "POST"
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"name":"O'Brien","password":"p"}"#.utf8)
        #expect(RequestLogger().curlCommand(for: request) == #"""
            curl -X POST 'https://api.example.com/api/v1/search?q=it'\''s&api_key=<redacted>' -H 'Authorization: <redacted>' -H 'Content-Type: application/json' --data-binary '{"name":"O'\''Brien","password":"<redacted>"}'
            """#)
    }

    @Test func `logsCURL adds the command after the request line`() async throws {
        let lines = try await logged(logsCURL: true, transport: RecordingTransport()) { server in
            try await Search(term: "x", accessToken: "secret").call(on: server)
        }
        #expect(lines.count == 3)
        #expect(lines[1] == "curl 'https://api.example.com/api/v1/search?term=x&access_token=<redacted>' -H 'Accept: application/json' -H 'Cookie: <redacted>' -H 'User-Agent: App/1'")
    }

    @Test func `retried attempts are logged each when the logger is inside the retry policy`() async throws {
        let transport = ScriptedTransport { _, index in index == 0 ? .init(status: 503, body: "") : .init(status: 204, body: "") }
        let lines = try await logged(transport: transport, extraMiddleware: [RetryPolicy(initialDelay: 0.01, jitter: 0)]) { server in
            try await Search(term: "x", accessToken: "t").call(on: server)
        }
        #expect(lines == [
            "--> GET /api/v1/search?term=x&access_token=<redacted>",
            "<-- 503 Service Unavailable GET /api/v1/search?term=x&access_token=<redacted> (N ms, 0-byte body)",
            "--> GET /api/v1/search?term=x&access_token=<redacted>",
            "<-- 204 No Content GET /api/v1/search?term=x&access_token=<redacted> (N ms, 0-byte body)",
        ])
    }
}
