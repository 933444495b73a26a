// Only EndpointKit's public API: what an app's tests and previews can use.
import EndpointKit
import EndpointKitContract
import EndpointKitTesting
import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `StubTransport`: typed and byte stubs, errors, sequences, delays, middlewares, recording,
/// unstubbed calls and isolation between tests.
@Suite struct StubTransportTests {
    struct PurchaseCheer: Endpoint {
        let endpoint = Restful(.post, "purchase_cheer", version: 2)
        let identifier: String
        let transactionId: UInt64
        typealias ReturnPayloadType = Balance
    }

    /// Not `Encodable`, and refuses to be decoded: a typed stub must hand it over as it is.
    struct Balance: Decodable, Sendable, Equatable {
        let balance: Int
        init(balance: Int) { self.balance = balance }
        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a typed stub was decoded"))
        }
    }

    struct ListBranches: Endpoint {
        var endpoint: Restful { Restful(.get, "repos/{owner}/{repo}/branches") }
        let owner: String
        let repo: String
        struct Branch: Decodable, Sendable, Equatable { let name: String; let isProtected: Bool }
        typealias ReturnPayloadType = [Branch]
    }

    struct DeleteCheer: Endpoint {
        var endpoint: Restful { Restful(.delete, "cheers/{id}") }
        let id: Int
        typealias ReturnPayloadType = EmptyPayload
    }

    struct Me: Endpoint {
        let endpoint = Restful(.get, "me")
        struct ReturnPayloadType: Decodable, Sendable, Equatable { let name: String }
    }

    struct APIError: Decodable, Sendable, Equatable { let error: String }

    let origin = URL(string: "https://api.test")!

    func server(_ stubs: StubTransport, middlewares: [any EndpointMiddleware] = [], timeout: TimeInterval? = 60) -> APIServer {
        APIServer(origin: origin, transport: stubs, errorPayloadType: APIError.self, middlewares: middlewares, timeout: timeout)
    }

    // MARK: - Typed values and bytes

    @Test func `a typed stub hands over its value without decoding, and records the typed call`() async throws {
        let stubs = StubTransport()
        stubs.on(PurchaseCheer.self) { call in .init(balance: call.transactionId == 1 ? 200 : 0) }
        let balances = try await APIServer.withDefault(server(stubs)) {
            [try await PurchaseCheer(identifier: "a", transactionId: 1).response.balance,
             try await PurchaseCheer(identifier: "b", transactionId: 2).response.balance]
        }
        #expect(balances == [200, 0])
        #expect(stubs.calls(to: PurchaseCheer.self).map(\.transactionId) == [1, 2])
        #expect(stubs.calls(to: PurchaseCheer.self).map(\.identifier) == ["a", "b"])
        #expect(stubs.calls(to: Me.self).isEmpty)
        let request = try #require(stubs.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://api.test/api/v2/purchase_cheer")
        #expect(request.httpBody.map { String(decoding: $0, as: UTF8.self) }.map(Self.sortedJSON)
            == #"{"identifier":"a","transaction_id":1}"#)
    }

    @Test func `a typed value keeps its status and headers for callWithMetadata`() async throws {
        let stubs = StubTransport()
        stubs.on(Me.self, .value(.init(name: "Ada"), status: 201, headers: ["ETag": "\"v7\""]))
        let reply = try await Me().callWithMetadata(on: server(stubs))
        #expect(reply.payload == .init(name: "Ada"))
        #expect(reply.statusCode == 201)
        #expect(reply.value(forHeader: "etag") == "\"v7\"")
    }

    @Test func `a bytes stub goes through the real decoder, snake_case keys included`() async throws {
        let stubs = StubTransport()
        stubs.on(ListBranches.self, json: #"[{"name":"main","is_protected":true},{"name":"dev","is_protected":false}]"#)
        let branches = try await ListBranches(owner: "apple", repo: "swift").call(on: server(stubs))
        #expect(branches == [.init(name: "main", isProtected: true), .init(name: "dev", isProtected: false)])
        #expect(stubs.requests.map { $0.url?.absoluteString } == ["https://api.test/api/v1/repos/apple/swift/branches"])
    }

    @Test func `a bytes stub that does not match the payload fails as a server's answer would`() async throws {
        let stubs = StubTransport()
        stubs.on(ListBranches.self, json: #"[{"name":"main"}]"#)
        let error = await #expect(throws: EndpointError.self) {
            try await ListBranches(owner: "apple", repo: "swift").call(on: server(stubs))
        }
        #expect(error?.kind == .decodingFailed)
        #expect(error?.reason.contains(#"the key "isProtected" is missing at [0]"#) == true)
    }

    @Test func `a body of another content type is read as a server's would be`() async throws {
        struct Readme: Endpoint {
            let endpoint = Restful(.get, "readme")
            typealias ReturnPayloadType = String
        }
        let stubs = StubTransport()
        stubs.on(Readme.self, .body(Data("caf\u{E9}".utf8), headers: ["Content-Type": "text/plain; charset=utf-8"]))
        #expect(try await Readme().call(on: server(stubs)) == "café")
        stubs.on(Me.self, .body(Data("<html>".utf8), headers: ["Content-Type": "text/html"]))
        let error = await #expect(throws: EndpointError.self) { try await Me().call(on: server(stubs)) }
        #expect(error?.kind == .unexpectedContentType)
    }

    @Test func `a computed answer is chosen per call: a typed value for some, an error answer for others`() async throws {
        let stubs = StubTransport()
        stubs.on(PurchaseCheer.self, .computed { call in
            call.identifier.isEmpty ? .json(#"{"error":"identifier is required"}"#, status: 422) : .value(.init(balance: 200))
        })
        #expect(try await PurchaseCheer(identifier: "a", transactionId: 1).call(on: server(stubs)).balance == 200)
        let error = await #expect(throws: EndpointError.self) {
            try await PurchaseCheer(identifier: "", transactionId: 1).call(on: server(stubs))
        }
        #expect(error?.statusCode == 422)
        #expect(error?.errorPayload(as: APIError.self) == APIError(error: "identifier is required"))
    }

    // MARK: - Errors

    @Test func `an error stub gives the EndpointError a real answer would, typed error payload included`() async throws {
        let stubs = StubTransport()
        stubs.on(DeleteCheer.self, status: 404, json: #"{"error":"gone"}"#)
        let error = await #expect(throws: EndpointError.self) { try await DeleteCheer(id: 7).call(on: server(stubs)) }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.statusCode == 404)
        #expect(error?.route == "DELETE /api/v1/cheers/{id}")
        #expect(error?.request?.url?.path == "/api/v1/cheers/7")
        #expect(error?.errorPayload(as: APIError.self) == APIError(error: "gone"))
        #expect(error?.responseBody == Data(#"{"error":"gone"}"#.utf8))
        #expect(error?.response?.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test(arguments: [URLError.Code.notConnectedToInternet, .timedOut])
    func `a transport failure becomes a transportFailed error with the URLError underneath`(code: URLError.Code) async throws {
        let stubs = StubTransport()
        stubs.on(Me.self, .failure(URLError(code)))
        let error = await #expect(throws: EndpointError.self) { try await Me().call(on: server(stubs)) }
        #expect(error?.kind == .transportFailed)
        #expect((error?.underlyingError as? URLError)?.code == code)
    }

    @Test func `an error thrown by a reply fails the call; an EndpointError stays as it is`() async throws {
        struct Offline: Error {}
        let stubs = StubTransport()
        stubs.on(Me.self) { _ in throw Offline() }
        let error = await #expect(throws: EndpointError.self) { try await Me().call(on: server(stubs)) }
        #expect(error?.kind == .transportFailed)
        #expect(error?.underlyingError is Offline)

        let own = EndpointError(kind: .authorizationFailed, route: "GET /api/v1/me", reason: "signed out")
        stubs.on(Me.self) { _ in throw own }
        let passed = await #expect(throws: EndpointError.self) { try await Me().call(on: server(stubs)) }
        #expect(passed?.kind == .authorizationFailed)
        #expect(passed?.reason == "signed out")
    }

    // MARK: - Sequences and delays

    @Test func `answers come in order and the last one repeats: a 503 then a 200 under RetryPolicy`() async throws {
        let stubs = StubTransport()
        stubs.on(Me.self, .status(503, headers: ["Retry-After": "0"]), .json(#"{"name":"Ada"}"#))
        let server = server(stubs, middlewares: [RetryPolicy(initialDelay: 0)])
        #expect(try await Me().call(on: server) == .init(name: "Ada"))
        #expect(stubs.calls(to: Me.self).count == 2)
        #expect(try await Me().call(on: server) == .init(name: "Ada"))
        #expect(stubs.calls(to: Me.self).count == 3)
    }

    @Test func `without a retry policy the 503 of a sequence reaches the caller`() async throws {
        let stubs = StubTransport()
        stubs.on(Me.self, answers: [.status(503), .json(#"{"name":"Ada"}"#)])
        let error = await #expect(throws: EndpointError.self) { try await Me().call(on: server(stubs)) }
        #expect(error?.statusCode == 503)
        #expect(try await Me().call(on: server(stubs)) == .init(name: "Ada"))
    }

    @Test(.timeLimit(.minutes(1)))
    func `a delayed answer ends at once when the calling task is cancelled`() async throws {
        let stubs = StubTransport()
        stubs.on(Me.self, .json(#"{"name":"Ada"}"#).delayed(by: .infinity))
        let server = server(stubs, timeout: nil)
        let call = Task { try await Me().call(on: server) }
        while stubs.requests.isEmpty { await Task.yield() }  // the call is waiting in the stub
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
    }

    @Test(.timeLimit(.minutes(1)))
    func `a delay longer than the timeout fails the attempt with a timeout`() async throws {
        let stubs = StubTransport()
        stubs.on(Me.self, .json(#"{"name":"Ada"}"#).delayed(by: .infinity))
        let error = await #expect(throws: EndpointError.self) { try await Me().call(on: server(stubs, timeout: 0.05)) }
        #expect(error?.kind == .transportFailed)
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
    }

    @Test func `a short delay still answers`() async throws {
        let stubs = StubTransport()
        stubs.on(Me.self, .value(.init(name: "Ada")).delayed(by: 0.01))
        #expect(try await Me().call(on: server(stubs)) == .init(name: "Ada"))
    }

    // MARK: - Middlewares and recording

    struct RefreshToken: Endpoint {
        static var requiresAuthorization: Bool { false }
        let endpoint = Restful(.post, "oauth/token")
        let refreshToken: String
        struct ReturnPayloadType: Decodable, Sendable { let accessToken: String }
    }

    @Test func `a stubbed 401 runs the refresh flow, and the requests show each Authorization header`() async throws {
        let stubs = StubTransport()
        stubs.on(Me.self, .json(#"{"error":"expired"}"#, status: 401), .value(.init(name: "Ada")))
        stubs.on(RefreshToken.self) { call in .init(accessToken: "new-for-\(call.refreshToken)") }
        let api = Locked<APIServer?>(nil)
        let auth = RefreshTokenAuthorization(store: InMemoryTokenStore(Tokens(accessToken: "old", refreshToken: "r1"))) { tokens in
            let reply = try await RefreshToken(refreshToken: tokens.refreshToken ?? "").call(on: api.value!)
            return Tokens(accessToken: reply.accessToken, refreshToken: tokens.refreshToken)
        }
        let server = server(stubs, middlewares: [auth])
        api.value = server
        #expect(try await Me().call(on: server) == .init(name: "Ada"))
        #expect(stubs.requests.map { $0.url?.path } == ["/api/v1/me", "/api/v1/oauth/token", "/api/v1/me"])
        #expect(stubs.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer old", nil, "Bearer new-for-r1"])
        #expect(stubs.calls(to: RefreshToken.self).map(\.refreshToken) == ["r1"])
    }

    @Test func `concurrent calls are all recorded, each with its own typed value`() async throws {
        let stubs = StubTransport()
        stubs.on(PurchaseCheer.self) { call in .init(balance: Int(call.transactionId) * 10) }
        let server = server(stubs)
        let balances = try await withThrowingTaskGroup(of: (UInt64, Int).self) { group in
            for id in UInt64(1)...200 {
                group.addTask { (id, try await PurchaseCheer(identifier: "c\(id)", transactionId: id).call(on: server).balance) }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(balances.count == 200)
        #expect(balances.allSatisfy { $0.value == Int($0.key) * 10 })
        #expect(Set(stubs.calls(to: PurchaseCheer.self).map(\.transactionId)) == Set(1...200))
        #expect(stubs.requests.count == 200)
    }

    @Test func `a multipart body streamed from a file is recorded with its bytes`() async throws {
        struct UploadPhoto: Endpoint {
            let endpoint = Restful(.post, "photos", body: .multipart)
            let photo: MultipartFile
            typealias ReturnPayloadType = EmptyPayload
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stub-\(UUID().uuidString).bin")
        try Data("file-bytes-\(UUID().uuidString)".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let stubs = StubTransport()
        stubs.on(UploadPhoto.self, .status(204))
        try await UploadPhoto(photo: MultipartFile(contentsOf: file)).call(on: server(stubs))
        let body = try #require(stubs.requests.first?.httpBody)
        let contents = try Data(contentsOf: file)
        #expect(body.range(of: contents) != nil)
    }

    // MARK: - Unstubbed calls

    @Test func `an endpoint with no stub fails loudly, naming it and the stubbed endpoints`() async throws {
        let stubs = StubTransport()
        stubs.on(Me.self, json: "{}")
        stubs.on(DeleteCheer.self, .status(204))
        let error = await #expect(throws: EndpointError.self) {
            try await PurchaseCheer(identifier: "a", transactionId: 1).call(on: server(stubs))
        }
        #expect(error?.kind == .notStubbed)
        #expect(error?.route == "POST /api/v2/purchase_cheer")
        #expect(error?.reason == "PurchaseCheer has no stub, so the call was not sent anywhere; the stubbed endpoints are DeleteCheer, Me. Add one with stubs.on(PurchaseCheer.self, …)")
        #expect(stubs.calls(to: PurchaseCheer.self).map(\.identifier) == ["a"])
    }

    @Test func `with no stubs at all the message says so, and an empty list removes a stub`() async throws {
        let stubs = StubTransport()
        stubs.on(Me.self, json: "{}")
        stubs.on(Me.self, answers: [])
        let error = await #expect(throws: EndpointError.self) { try await Me().call(on: server(stubs)) }
        #expect(error?.kind == .notStubbed)
        #expect(error?.reason.contains("the stubbed endpoints are none") == true)
    }

    @Test func `a later stub of the same endpoint replaces the earlier one`() async throws {
        let stubs = StubTransport()
        stubs.on(Me.self, .value(.init(name: "Ada")))
        stubs.on(Me.self, .value(.init(name: "Grace")))
        #expect(try await Me().call(on: server(stubs)) == .init(name: "Grace"))
    }

    // MARK: - Isolation

    /// Fifty cases run in parallel, each with its own transport behind `APIServer.default`.
    @Test(arguments: 0..<50)
    func `parallel tests with their own stubs never see each other's stubs or calls`(number: Int) async throws {
        let stubs = StubTransport()
        stubs.on(PurchaseCheer.self) { call in .init(balance: Int(call.transactionId)) }
        let balances = try await APIServer.withDefault(server(stubs)) {
            var balances: [Int] = []
            for round in 0..<5 {
                balances.append(try await PurchaseCheer(identifier: "t\(number)", transactionId: UInt64(number * 100 + round)).response.balance)
                await Task.yield()
            }
            return balances
        }
        #expect(balances == (0..<5).map { number * 100 + $0 })
        #expect(stubs.calls(to: PurchaseCheer.self).map(\.identifier) == Array(repeating: "t\(number)", count: 5))
    }

    // MARK: - Helpers

    /// A lock-guarded box, as a test would write one (EndpointKit's own is internal).
    final class Locked<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value
        init(_ value: Value) { stored = value }
        var value: Value {
            get { lock.lock(); defer { lock.unlock() }; return stored }
            set { lock.lock(); defer { lock.unlock() }; stored = newValue }
        }
    }

    /// A JSON object's text with its keys sorted, to compare bodies whatever the encoder's order.
    static func sortedJSON(_ text: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return text }
        return String(decoding: data, as: UTF8.self)
    }
}
