import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `ReplayTransport` without a network: it records from a `StubTransport`, then replays with none.
/// (The integration tests record from a real server on 127.0.0.1.)
@Suite struct ReplayTransportTests {
    struct SignIn: Endpoint {
        static var requiresAuthorization: Bool { false }
        let endpoint = Restful(.post, "sign_in")
        let username: String
        let password: String
        let remember: Bool
        struct ReturnPayloadType: Decodable, Sendable, Equatable { let accessToken: String; let userId: Int }
    }

    struct Search: Endpoint {
        let endpoint = Restful(.get, "search")
        let q: String
        let apiKey: String
        struct ReturnPayloadType: Decodable, Sendable, Equatable { let hits: [String] }
    }

    struct Counter: Endpoint {
        let endpoint = Restful(.get, "counter")
        struct ReturnPayloadType: Decodable, Sendable, Equatable { let value: Int }
    }

    struct Logo: Endpoint {
        let endpoint = Restful(.get, "logo")
        typealias ReturnPayloadType = Data
    }

    struct DeleteCheer: Endpoint {
        var endpoint: Restful { Restful(.delete, "cheers/{id}") }
        let id: Int
        typealias ReturnPayloadType = EmptyPayload
    }

    struct APIError: Decodable, Sendable, Equatable { let error: String }

    /// A fresh directory, removed when `body` ends.
    func withDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    func server(_ transport: any HTTPTransport, middlewares: [any EndpointMiddleware] = []) -> APIServer {
        APIServer(origin: URL(string: "https://api.test")!, transport: transport, errorPayloadType: APIError.self, middlewares: middlewares)
    }

    func files(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    func text(of file: String, in directory: URL) throws -> String {
        try String(decoding: Data(contentsOf: directory.appendingPathComponent(file)), as: UTF8.self)
    }

    @Test func `a recorded exchange is written as readable JSON and replayed with no transport`() async throws {
        try await withDirectory { directory in
            let stubs = StubTransport()
            stubs.on(DeleteCheer.self, status: 404, json: #"{"error":"gone"}"#)
            let recorder = ReplayTransport(directory: directory, mode: .record(wrapping: stubs))
            let recorded = await #expect(throws: EndpointError.self) { try await DeleteCheer(id: 7).call(on: server(recorder)) }
            #expect(recorded?.errorPayload(as: APIError.self) == APIError(error: "gone"))

            let names = try files(in: directory)
            #expect(names.count == 1)
            #expect(names.first?.hasPrefix("DELETE-api-v1-cheers-7-") == true)
            #expect(names.first?.hasSuffix("-1.json") == true)
            #expect(try text(of: names[0], in: directory) == """
                {
                  "operationID" : "ReplayTransportTests.DeleteCheer",
                  "request" : {
                    "headers" : {
                      "Accept" : "application/json",
                      "User-Agent" : "EndpointKit/0.1"
                    },
                    "method" : "DELETE",
                    "url" : "https://api.test/api/v1/cheers/7"
                  },
                  "response" : {
                    "body" : {
                      "json" : {
                        "error" : "gone"
                      }
                    },
                    "headers" : {
                      "Content-Type" : "application/json"
                    },
                    "status" : 404
                  }
                }
                """)

            let player = ReplayTransport(directory: directory, mode: .replay)
            let replayed = await #expect(throws: EndpointError.self) { try await DeleteCheer(id: 7).call(on: server(player)) }
            #expect(replayed?.kind == .unacceptableStatus)
            #expect(replayed?.statusCode == 404)
            #expect(replayed?.errorPayload(as: APIError.self) == APIError(error: "gone"))
            #expect(replayed?.responseBody == Data(#"{"error":"gone"}"#.utf8))
        }
    }

    @Test func `secrets are redacted in the files, by RequestLogger's rules and the names given`() async throws {
        try await withDirectory { directory in
            let stubs = StubTransport()
            stubs.on(SignIn.self, headers: ["Set-Cookie": "sid=cookie-secret-1"],
                     json: #"{"access_token":"token-secret-2","user_id":42}"#)
            stubs.on(Search.self, json: #"{"hits":["a","b"]}"#)
            let recorder = ReplayTransport(directory: directory, mode: .record(wrapping: stubs), redacting: ["q"])
            let server = server(recorder, middlewares: [HTTPBearerAuthorization(token: "bearer-secret-3")])
            let signedIn = try await SignIn(username: "ada", password: "password-secret-4", remember: true).call(on: server)
            #expect(signedIn == .init(accessToken: "token-secret-2", userId: 42))
            _ = try await Search(q: "query-secret-5", apiKey: "key-secret-6").call(on: server)

            let all = try files(in: directory).map { try text(of: $0, in: directory) }.joined()
            for secret in ["cookie-secret-1", "token-secret-2", "bearer-secret-3", "password-secret-4", "query-secret-5", "key-secret-6"] {
                #expect(!all.contains(secret), "\(secret) was written to a recording")
            }
            #expect(all.contains(#""Authorization" : "<redacted>""#))
            #expect(all.contains(#""Set-Cookie" : "<redacted>""#))
            #expect(all.contains(#""access_token" : "<redacted>""#))
            #expect(all.contains(#""password" : "<redacted>""#))
            #expect(all.contains(#""username" : "ada""#))
            #expect(all.contains("search?q=<redacted>&api_key=<redacted>"))

            // Replayed: secret values are compared redacted, so other secrets match the recording.
            let player = ReplayTransport(directory: directory, mode: .replay, redacting: ["q"])
            let replayServer = self.server(player, middlewares: [HTTPBearerAuthorization(token: "another-token")])
            let again = try await SignIn(username: "ada", password: "another-password", remember: true).call(on: replayServer)
            #expect(again == .init(accessToken: "<redacted>", userId: 42))
            #expect(try await Search(q: "other", apiKey: "other").call(on: replayServer).hits == ["a", "b"])
        }
    }

    @Test func `a credential an authorization middleware registered is redacted, whatever its name`() async throws {
        try await withDirectory { directory in
            let stubs = StubTransport()
            stubs.on(Counter.self, json: #"{"value":1}"#)
            let recorder = ReplayTransport(directory: directory, mode: .record(wrapping: stubs))
            let key = APIKeyAuthorization(queryParameter: "appid", value: "appid-secret-1")
            let header = APIKeyAuthorization(header: "X-Tenant", value: "tenant-secret-2")
            _ = try await Counter().call(on: server(recorder, middlewares: [key, header]))

            let all = try files(in: directory).map { try text(of: $0, in: directory) }.joined()
            #expect(!all.contains("appid-secret-1"))
            #expect(!all.contains("tenant-secret-2"))
            #expect(all.contains("counter?appid=<redacted>"))
            #expect(all.contains(#""X-Tenant" : "<redacted>""#))

            // Replayed with another key: it matches, because the key is compared redacted.
            let player = ReplayTransport(directory: directory, mode: .replay)
            let again = APIKeyAuthorization(queryParameter: "appid", value: "another")
            #expect(try await Counter().call(on: server(player, middlewares: [again, header])).value == 1)
        }
    }

    @Test func `a request matches by method, URL and body; JSON key order does not matter`() async throws {
        try await withDirectory { directory in
            let stubs = StubTransport()
            stubs.on(SignIn.self, json: #"{"access_token":"t","user_id":1}"#)
            let recorder = ReplayTransport(directory: directory, mode: .record(wrapping: stubs))
            _ = try await SignIn(username: "ada", password: "p", remember: true).call(on: server(recorder))

            let player = ReplayTransport(directory: directory, mode: .replay)
            // The same body with its keys in another order (an encoder with sorted keys).
            let sorted = APIServer.makeEncoder()
            sorted.outputFormatting = .sortedKeys
            var sortedServer = server(player)
            sortedServer.encoder = sorted
            #expect(try await SignIn(username: "ada", password: "p", remember: true).call(on: sortedServer).userId == 1)

            let otherBody = await #expect(throws: EndpointError.self) {
                try await SignIn(username: "grace", password: "p", remember: true).call(on: server(player))
            }
            #expect(otherBody?.kind == .notStubbed)
            #expect(otherBody?.route == "POST /api/v1/sign_in")
            #expect(otherBody?.reason.contains(#"no recording in \#(directory.path) matches POST https://api.test/api/v1/sign_in with body {"password":"<redacted>","remember":true,"username":"grace"}"#) == true)
            #expect(otherBody?.reason.contains(#"1 recording of POST https://api.test/api/v1/sign_in has another body, e.g. {"password":"<redacted>","remember":true,"username":"ada"}"#) == true)

            let otherURL = await #expect(throws: EndpointError.self) { try await Counter().call(on: server(player)) }
            #expect(otherURL?.kind == .notStubbed)
            #expect(otherURL?.reason.hasPrefix("no recording in \(directory.path) matches GET https://api.test/api/v1/counter, so nothing was sent") == true)
            #expect(stubs.calls(to: SignIn.self).count == 1)  // replay never reached the recorded transport
        }
    }

    @Test func `identical requests replay in the order recorded, the last repeating; recording again replaces them`() async throws {
        try await withDirectory { directory in
            let stubs = StubTransport()
            stubs.on(Counter.self, .json(#"{"value":1}"#), .json(#"{"value":2}"#), .json(#"{"value":3}"#))
            let recorder = ReplayTransport(directory: directory, mode: .record(wrapping: stubs))
            for _ in 1...3 { _ = try await Counter().call(on: server(recorder)) }
            #expect(try files(in: directory).map { $0.hasSuffix("-1.json") || $0.hasSuffix("-2.json") || $0.hasSuffix("-3.json") } == [true, true, true])

            let player = ReplayTransport(directory: directory, mode: .replay)
            var values: [Int] = []
            for _ in 1...5 { values.append(try await Counter().call(on: server(player)).value) }
            #expect(values == [1, 2, 3, 3, 3])

            // A new recording session of the same request replaces all three files.
            let again = StubTransport()
            again.on(Counter.self, json: #"{"value":9}"#)
            _ = try await Counter().call(on: server(ReplayTransport(directory: directory, mode: .record(wrapping: again))))
            #expect(try files(in: directory).count == 1)
            #expect(try await Counter().call(on: server(ReplayTransport(directory: directory, mode: .replay))).value == 9)
        }
    }

    @Test func `text and binary bodies replay byte for byte`() async throws {
        try await withDirectory { directory in
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0x10, 0x00])
            let stubs = StubTransport()
            stubs.on(Logo.self, .body(png, headers: ["Content-Type": "image/png"]))
            let recorder = ReplayTransport(directory: directory, mode: .record(wrapping: stubs))
            let recorded = try await Logo().call(on: server(recorder))
            #expect(recorded == png)
            #expect(try text(of: files(in: directory)[0], in: directory).contains(#""base64" : "iVBORwD/EAA=""#))
            let replayed = try await Logo().call(on: server(ReplayTransport(directory: directory, mode: .replay)))
            #expect(replayed == png)
        }
    }

    @Test func `a broken recording fails with the file's name and what is wrong`() async throws {
        try await withDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent("GET-counter-1.json")
            try Data(#"{"request":{"method":"GET"},"response":{"status":200}}"#.utf8).write(to: file)
            let error = await #expect(throws: EndpointError.self) {
                try await Counter().call(on: server(ReplayTransport(directory: directory, mode: .replay)))
            }
            #expect(error?.kind == .notStubbed)
            #expect(error?.reason == #"the recording \#(file.path) cannot be replayed: its request needs a "method" and a "url" string"#)
        }
    }

    @Test func `replaying from a directory that does not exist says so`() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)")
        let error = await #expect(throws: EndpointError.self) {
            try await Counter().call(on: server(ReplayTransport(directory: directory, mode: .replay)))
        }
        #expect(error?.kind == .notStubbed)
        #expect(error?.reason.hasPrefix("the recordings cannot be read: \(directory.path) is not a readable directory") == true)
    }

    @Test func `a failure of the recorded transport is thrown and not recorded`() async throws {
        try await withDirectory { directory in
            let stubs = StubTransport()
            stubs.on(Counter.self, .failure(URLError(.cannotConnectToHost)))
            let error = await #expect(throws: EndpointError.self) {
                try await Counter().call(on: server(ReplayTransport(directory: directory, mode: .record(wrapping: stubs))))
            }
            #expect((error?.underlyingError as? URLError)?.code == .cannotConnectToHost)
            #expect(!FileManager.default.fileExists(atPath: directory.path))
        }
    }
}
