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

/// Redaction by what a name means: every name independent testing found leaking, and names that
/// must stay readable.
@Suite struct RedactionTests {
    let redaction = Redaction(fields: [])

    @Test(arguments: [
        "password", "new_password", "newPassword", "user[password]", "user[new_password]", "passwd", "pwd",
        "auth_token", "session_token", "X-CSRF-Token", "csrf", "xsrf_token", "private_key", "privateKey", "jwt",
        "pin", "new_pin", "session_id", "sessionId", "access_key", "AWSAccessKeyId", "signature", "X-Signature",
        "sig", "otp", "totp", "code", "auth_code", "authorization_code", "verification_code", "api_key", "apiKey",
        "key", "X-API-Key", "client_secret", "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie",
        "refresh_token", "id_token", "X-Auth-Token", "credentials[card]", "card[cvc]", "Bearer",
    ])
    func `a name that means a secret is redacted`(name: String) {
        #expect(redaction.redacts(name))
    }

    @Test(arguments: [
        "identifier", "transaction_id", "country_code", "zip_code", "author", "authorId", "keyword", "monkey",
        "shipping", "footprint", "Idempotency-Key", "User-Agent", "Accept", "page", "per_page", "count",
    ])
    func `an ordinary name stays readable`(name: String) {
        #expect(!redaction.redacts(name))
    }

    @Test func `names the app adds match as whole names and as parts of bracketed names`() {
        let redaction = Redaction(fields: ["appid", "member_number"])
        #expect(redaction.redacts("appid"))
        #expect(redaction.redacts("AppID"))
        #expect(redaction.redacts("memberNumber"))
        #expect(redaction.redacts("user[member_number]"))
        #expect(!redaction.redacts("app"))
    }

    @Test func `bracketed names are redacted in queries and forms`() {
        #expect(redaction.redactedPairs("user%5Bname%5D=ana&user%5Bpassword%5D=p1&card[number]=4&card[cvc]=123")
            == "user%5Bname%5D=ana&user%5Bpassword%5D=<redacted>&card[number]=4&card[cvc]=<redacted>")
    }

    @Test func `URL user info is always redacted`() throws {
        let url = try #require(URL(string: "https://ana:pw-secret@api.example.com:8443/v1/x?q=1&token=t#frag"))
        #expect(redaction.redactedURL(url) == "https://<redacted>@api.example.com:8443/v1/x?q=1&token=<redacted>#frag")
        #expect(redaction.redactedURL(URL(string: "https://user@h.test/")) == "https://<redacted>@h.test/")
        #expect(redaction.redactedURL(URL(string: "https://h.test/a")) == "https://h.test/a")
    }

    @Test func `names registered for the call are redacted`() {
        let call = redaction.adding(CredentialNames(headers: ["x-tenant"], queryParameters: ["appid"]))
        #expect(call.redacts("appid"))
        #expect(call.redacts("X-Tenant"))
        #expect(call.pathAndQuery(of: URL(string: "https://h.test/w?appid=k&q=1")) == "/w?appid=<redacted>&q=1")
        #expect(!redaction.redacts("appid"))  // the logger's own redaction is unchanged
        #expect(!call.redacts("q"))
    }
}

/// What the logger prints when the secrets come from middlewares, URLs and streamed bodies.
@Suite struct RequestLoggerSecretTests {
    struct Weather: Endpoint {
        let endpoint = Restful(.get, "weather")
        let city: String
        typealias ReturnPayloadType = EmptyPayload
    }

    struct SignUp: Endpoint {
        let endpoint = Restful(.post, "users", body: .form)
        let user: [String: String]
        typealias ReturnPayloadType = EmptyPayload
    }

    func log(_ middlewares: [any EndpointMiddleware], origin: String = "https://api.example.com", call: (APIServer) async throws -> Void) async throws -> String {
        let log = LogCollector()
        var server = APIServer.stub(RecordingTransport(status: 204, body: ""), origin: origin)
        server.middlewares = middlewares + [RequestLogger(verbose: true, logsCURL: true, sink: log.append)]
        try await call(server)
        return log.text
    }

    @Test func `an API key under any parameter name is redacted`() async throws {
        let text = try await log([APIKeyAuthorization(queryParameter: "appid", value: "key-secret")]) { server in
            try await Weather(city: "Oslo").call(on: server)
        }
        #expect(!text.contains("key-secret"))
        #expect(text.contains("--> GET /api/v1/weather?city=Oslo&appid=<redacted>"))
    }

    @Test func `the password of URL user info never reaches the log`() async throws {
        let text = try await log([], origin: "https://ana:pw-secret@api.example.com") { server in
            try await Weather(city: "Oslo").call(on: server)
        }
        #expect(!text.contains("pw-secret"))
        #expect(text.contains("curl 'https://<redacted>@api.example.com/api/v1/weather?city=Oslo'"))
    }

    @Test func `bracketed form fields are redacted`() async throws {
        let text = try await log([]) { server in
            try await SignUp(user: ["name": "ana", "new_password": "pw-secret"]).call(on: server)
        }
        #expect(!text.contains("pw-secret"))
        #expect(text.contains("user%5Bname%5D=ana&user%5Bnew_password%5D=<redacted>"))
    }

    struct Upload: Endpoint {
        let endpoint = Restful(.post, "uploads", body: .multipart)
        let file: MultipartFile
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a body streamed from a file is logged with its size`() async throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("ek-\(UUID().uuidString).bin")
        try Data(repeating: 7, count: 5_000).write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let text = try await log([]) { server in try await Upload(file: MultipartFile(contentsOf: source)).call(on: server) }
        let line = String(try #require(text.split(separator: "\n").first))
        let (prefix, suffix) = ("--> POST /api/v1/uploads (", "-byte body)")
        #expect(line.hasPrefix(prefix) && line.hasSuffix(suffix), "no size in \(line)")
        let size = try #require(Int(line.dropFirst(prefix.count).dropLast(suffix.count)))
        #expect(size > 5_000 && size < 5_400)  // the file plus the part headers and boundaries
    }
}
