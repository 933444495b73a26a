#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Testing
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `GET /echo-page`: the loopback server echoes the request's credentials back, as JSON (decoded
/// as a payload), as an HTML error page or as plain text.
private struct EchoPage: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "echo-page") }
    let status: Int
    let format: String
    struct ReturnPayloadType: Codable, Sendable {
        let target: String
        let headers: [String: String]
        let quoted: [String: String]
        let lower: [String: String]
        let form: [String: String]
        let basic: String
    }
}

/// The same page read as text: a raw body the model sees whole.
private struct EchoText: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "echo-page") }
    let status: Int
    let format: String
    typealias ReturnPayloadType = String
}

/// The same page, declared with a payload it does not have: the body fails to decode.
private struct EchoMismatch: Endpoint, Decodable {
    var endpoint: Restful { Restful(.get, "echo-page") }
    let status: Int
    let format: String
    struct ReturnPayloadType: Codable, Sendable { let missing: Int }
}

@Suite(.serialized) struct ToolSecretTests {
    static let token = "tok/3n+Secret=="
    static let key = "k3y/with+chars&more"
    static let user = "ana-from-accounts"
    static let password = "p@ss:w0rd/x y"
    static let cookie = "session=c00kie/value+1"

    /// Every text a secret could be echoed as: what must never reach the model.
    static func forms(of secret: String) -> [String] {
        let encoded = secret.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")) ?? secret
        var forms = [secret, encoded, encoded.lowercased(), encoded.replacingOccurrences(of: "%20", with: "+")]
        if secret.contains("/") { forms.append(secret.replacingOccurrences(of: "/", with: "\\/")) }
        return forms
    }

    static var allSecretForms: [String] {
        let pair = "\(user):\(password)"
        let base64 = Data(pair.utf8).base64EncodedString()
        return [token, key, password, pair, "c00kie/value+1"].flatMap(forms) + [base64, base64.replacingOccurrences(of: "=", with: "")]
    }

    static let middlewares: [(String, [any EndpointMiddleware], [String: String])] = [
        ("bearer", [HTTPBearerAuthorization(token: token)], [:]),
        ("api key header", [APIKeyAuthorization(header: "X-API-Key", value: key)], [:]),
        ("api key query", [APIKeyAuthorization(queryParameter: "api_key", value: key)], [:]),
        ("basic", [HTTPBasicAuthorization(username: user, password: password)], [:]),
        ("cookie set by the app", [], ["Cookie": cookie]),
        ("refresh token", [RefreshTokenAuthorization(store: InMemoryTokenStore(Tokens(accessToken: token, refreshToken: "r"))) { $0 }], [:]),
    ]

    @Test(arguments: 0..<middlewares.count, ["json", "html", "text"])
    func `no credential a middleware sent reaches the model, in any result`(index: Int, format: String) async throws {
        let (label, middlewares, headers) = Self.middlewares[index]
        let loopback = try await LoopbackServer.ready()
        var server = loopback.server()
        server.middlewares = middlewares
        server.headers.merge(headers) { $1 }
        let tools = EndpointTools([EchoPage.self, EchoText.self, EchoMismatch.self], on: server, maximumResultSize: 1 << 20)
        var results: [ToolResult] = []
        for status in [200, 401, 500] {
            for name in ["echo_page", "echo_text", "echo_mismatch"] {
                results.append(try await tools.result(name: name, arguments: #"{"status": \#(status), "format": "\#(format)"}"#))
            }
        }
        // The server did receive the secret: the test would prove nothing otherwise.
        let raw = try await EchoText(status: 200, format: "text").call(on: server)
        #expect(Self.allSecretForms.contains(where: raw.contains), "\(label): \(raw)")
        for result in results {
            for secret in Self.allSecretForms {
                #expect(!result.text.contains(secret), "\(label), \(format): \(secret) in \(result.text)")
            }
            #expect(result.text.contains("<redacted>"), "\(label), \(format): \(result.text)")
            #expect((try? JSONSerialization.jsonObject(with: Data(result.text.utf8), options: .fragmentsAllowed)) != nil, "\(result.text)")
        }
        // 401s and 500s, the mismatch's 200, and the JSON payload's 200 when the page is not JSON.
        #expect(results.filter(\.isError).count == (format == "json" ? 7 : 8))
        let text = try await tools.call(name: "echo_text", arguments: #"{"status": 200, "format": "\#(format)"}"#)
        #expect(!Self.allSecretForms.contains(where: text.contains) && text.contains("<redacted>"))
    }

    @Test func `a cut result never keeps part of a secret`() async throws {
        let loopback = try await LoopbackServer.ready()
        var server = loopback.server()
        server.middlewares = [HTTPBearerAuthorization(token: Self.token)]
        let uncut = EndpointTools([EchoText.self], on: server, maximumResultSize: 1 << 20)
        var cuts = 0
        for status in [200, 500] {
            let arguments = #"{"status": \#(status), "format": "text"}"#
            // The whole answer: how long it is depends on the headers the transport sends.
            let whole = try await uncut.result(name: "echo_text", arguments: arguments).text
            for limit in stride(from: 256, through: 1024, by: 37) {
                let result = try await EndpointTools([EchoText.self], on: server, maximumResultSize: limit)
                    .result(name: "echo_text", arguments: arguments)
                #expect(result.text.utf8.count <= limit)
                #expect(!result.text.contains("tok/3n") && !result.text.contains("tok%2F3n"), "\(result.text)")
                guard result.text != whole else { continue }  // it fits: the answer as it is
                cuts += 1
                let object = try? JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any]
                #expect(object?["truncated"] as? Bool == true, "\(result.text)")
            }
        }
        #expect(cuts >= 20)  // most of the 42 results were cut: the test saw what it is about
    }
}
#endif
