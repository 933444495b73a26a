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

/// Access-token refresh: proactive, reactive, single flight, failure, sign-in/out.
@Suite struct RefreshTokenTests {
    struct Me: Endpoint {
        let endpoint = Restful(.get, "me")
        typealias ReturnPayloadType = EmptyPayload
    }

    struct Post: Endpoint {
        let endpoint = Restful(.post, "posts")
        let text: String
        typealias ReturnPayloadType = EmptyPayload
    }

    /// Accepts only `Bearer <valid>`; 401 otherwise.
    static func api(accepting valid: @escaping @Sendable () -> String) -> ScriptedTransport {
        ScriptedTransport { request, _ in
            request.value(forHTTPHeaderField: "Authorization") == "Bearer \(valid())"
                ? .init(status: 204, body: "") : .init(status: 401, body: #"{"error":"expired"}"#)
        }
    }

    /// A refresh function that counts its calls and hands out `fresh-N`.
    final class Refresher: Sendable {
        let count = Locked(0)
        let delay: UInt64
        init(delay: UInt64 = 0) { self.delay = delay }
        func refresh(_ tokens: Tokens) async throws -> Tokens {
            let number = count.withLock { value in value += 1; return value }
            if delay > 0 { try await Task.sleep(nanoseconds: delay) }
            return Tokens(accessToken: "fresh-\(number)", refreshToken: "r\(number)", expiresAt: Date().addingTimeInterval(3600))
        }
    }

    func server(_ transport: ScriptedTransport, _ auth: RefreshTokenAuthorization) -> APIServer {
        var server = APIServer.stub(transport)
        server.middlewares = [auth]
        return server
    }

    @Test func `an access token known to be expired is refreshed before the request`() async throws {
        let refresher = Refresher()
        let store = InMemoryTokenStore(Tokens(accessToken: "old", refreshToken: "r0", expiresAt: Date().addingTimeInterval(-5)))
        let auth = RefreshTokenAuthorization(store: store, refresh: refresher.refresh)
        let transport = Self.api { "fresh-1" }
        try await Me().call(on: server(transport, auth))
        #expect(refresher.count.value == 1)
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer fresh-1"])
        #expect(await store.tokens()?.accessToken == "fresh-1")
    }

    @Test func `a token expiring within the margin is refreshed too, a later one is not`() async throws {
        let refresher = Refresher()
        let soon = RefreshTokenAuthorization(
            store: InMemoryTokenStore(Tokens(accessToken: "old", refreshToken: "r0", expiresAt: Date().addingTimeInterval(10))),
            refreshMargin: 30, refresh: refresher.refresh)
        try await Me().call(on: server(Self.api { "fresh-1" }, soon))
        let later = RefreshTokenAuthorization(
            store: InMemoryTokenStore(Tokens(accessToken: "old", refreshToken: "r0", expiresAt: Date().addingTimeInterval(60))),
            refreshMargin: 30, refresh: refresher.refresh)
        try await Me().call(on: server(Self.api { "old" }, later))
        #expect(refresher.count.value == 1)
    }

    @Test func `a 401 refreshes and replays the request once, body intact`() async throws {
        let refresher = Refresher()
        let auth = RefreshTokenAuthorization(store: InMemoryTokenStore(Tokens(accessToken: "old", refreshToken: "r0")), refresh: refresher.refresh)
        let transport = Self.api { "fresh-1" }
        try await Post(text: "hello").call(on: server(transport, auth))
        #expect(refresher.count.value == 1)
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == ["Bearer old", "Bearer fresh-1"])
        #expect(transport.requests.map(\.bodyText) == [#"{"text":"hello"}"#, #"{"text":"hello"}"#])
    }

    @Test func `a second 401 after a refresh is returned, without another refresh`() async throws {
        let refresher = Refresher()
        let auth = RefreshTokenAuthorization(store: InMemoryTokenStore(Tokens(accessToken: "old", refreshToken: "r0")), refresh: refresher.refresh)
        let transport = Self.api { "never" }
        let error = try await #require(throws: EndpointError.self) { try await Me().call(on: server(transport, auth)) }
        #expect(error.statusCode == 401)
        #expect(refresher.count.value == 1)
        #expect(transport.requests.count == 2)
    }

    @Test func `without a refresh token a 401 is returned as it is`() async throws {
        let refresher = Refresher()
        let auth = RefreshTokenAuthorization(store: InMemoryTokenStore(Tokens(accessToken: "old")), refresh: refresher.refresh)
        let error = try await #require(throws: EndpointError.self) { try await Me().call(on: server(Self.api { "new" }, auth)) }
        #expect(error.statusCode == 401)
        #expect(refresher.count.value == 0)
    }

    @Test(arguments: [true, false])
    func `100 concurrent calls needing a refresh share exactly one`(expiryKnown: Bool) async throws {
        let refresher = Refresher(delay: 50_000_000)
        let expiry = expiryKnown ? Date().addingTimeInterval(-1) : nil
        let auth = RefreshTokenAuthorization(
            store: InMemoryTokenStore(Tokens(accessToken: "old", refreshToken: "r0", expiresAt: expiry)), refresh: refresher.refresh)
        let server = server(Self.api { "fresh-1" }, auth)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<100 { group.addTask { try await Me().call(on: server) } }
            try await group.waitForAll()
        }
        #expect(refresher.count.value == 1)
    }

    @Test func `a failed refresh is thrown to every waiter, signs out once, and never loops`() async throws {
        let refreshes = Locked(0)
        let signOuts = Locked<[EndpointError]>([])
        let store = InMemoryTokenStore(Tokens(accessToken: "old", refreshToken: "revoked"))
        let auth = RefreshTokenAuthorization(store: store) { _ in
            refreshes.withLock { $0 += 1 }
            try await Task.sleep(nanoseconds: 50_000_000)
            throw URLError(.userAuthenticationRequired)
        } onSignOut: { error in
            signOuts.withLock { $0.append(error) }
        }
        let transport = Self.api { "never" }
        let server = server(transport, auth)
        let errors = await withTaskGroup(of: (any Error)?.self) { group in
            for _ in 0..<20 { group.addTask { do { try await Me().call(on: server); return nil } catch { return error } } }
            return await group.reduce(into: [any Error]()) { if let error = $1 { $0.append(error) } }
        }
        #expect(errors.count == 20)
        #expect(errors.allSatisfy { ($0 as? EndpointError)?.kind == .authorizationFailed })
        #expect(refreshes.value == 1)
        #expect(signOuts.value.count == 1)
        #expect(signOuts.value.first?.description.hasPrefix("token refresh: the access token could not be refreshed, so the session was signed out:") == true)
        #expect(await store.tokens() == nil)

        // Signed out: the next call goes without a token, and its 401 does not start a refresh.
        let before = transport.requests.count
        let error = try await #require(throws: EndpointError.self) { try await Me().call(on: server) }
        #expect(error.statusCode == 401)
        #expect(transport.requests.count == before + 1)
        #expect(transport.requests.last?.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(refreshes.value == 1)
    }

    @Test func `sign in, sign out and reset`() async throws {
        let store = InMemoryTokenStore()
        let auth = RefreshTokenAuthorization(store: store) { $0 }
        let transport = Self.api { "a1" }
        let server = server(transport, auth)
        await #expect(throws: EndpointError.self) { try await Me().call(on: server) }  // signed out: no token
        try await auth.signIn(Tokens(accessToken: "a1", refreshToken: "r1"))
        try await Me().call(on: server)
        #expect(await store.tokens()?.accessToken == "a1")
        try await auth.signOut()
        #expect(await store.tokens() == nil)
        await #expect(throws: EndpointError.self) { try await Me().call(on: server) }
        await store.update(Tokens(accessToken: "a1"))  // changed behind the middleware's back
        await #expect(throws: EndpointError.self) { try await Me().call(on: server) }  // still the cached "signed out"
        await auth.reset()
        try await Me().call(on: server)
        #expect(transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == [nil, "Bearer a1", nil, nil, "Bearer a1"])
    }

    struct Refresh: Endpoint {  // forgot `requiresAuthorization = false`
        let endpoint = Restful(.post, "refresh")
        let refreshToken: String
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a refresh endpoint that forgot to opt out does not wait for itself`() async throws {
        let transport = ScriptedTransport { request, _ in
            if request.url?.path == "/api/v1/refresh" { return .init(status: 204, body: "") }
            return request.value(forHTTPHeaderField: "Authorization") == "Bearer new" ? .init(status: 204, body: "") : .init(status: 401)
        }
        let box = Locked<APIServer?>(nil)
        let auth = RefreshTokenAuthorization(store: InMemoryTokenStore(Tokens(accessToken: "old", refreshToken: "r"))) { tokens in
            try await Refresh(refreshToken: tokens.refreshToken ?? "").call(on: box.value!)
            return Tokens(accessToken: "new", refreshToken: "r2")
        }
        box.value = server(transport, auth)
        defer { box.value = nil }  // the server holds the closure that holds the box: break the cycle
        try await Me().call(on: box.value!)
        #expect(transport.requests.map { "\($0.url!.path) \($0.value(forHTTPHeaderField: "Authorization") ?? "-")" } == [
            "/api/v1/me Bearer old", "/api/v1/refresh -", "/api/v1/me Bearer new",
        ])
    }

    @Test(.timeLimit(.minutes(1)))
    func `a call cancelled while it waits for a refresh stops waiting at once`() async throws {
        let gate = Gate()
        let store = InMemoryTokenStore(Tokens(accessToken: "old", refreshToken: "r0", expiresAt: Date().addingTimeInterval(-5)))
        let auth = RefreshTokenAuthorization(store: store) { _ in
            await gate.wait()  // a refresh that takes as long as the test wants
            return Tokens(accessToken: "fresh", refreshToken: "r1")
        }
        let transport = Self.api { "fresh" }
        let api = server(transport, auth)
        let call = Task { try await Me().call(on: api) }
        while await gate.waiting == 0 { try await Task.sleep(nanoseconds: 5_000_000) }  // the refresh has begun
        let clock = ContinuousClock()
        let cancelled = clock.now
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(clock.now - cancelled < .seconds(10), "the refresh never ends on its own")
        #expect(transport.requests.isEmpty)
        await gate.open()
    }

    /// Suspends callers until opened.
    actor Gate {
        private var waiters: [CheckedContinuation<Void, Never>] = []
        private var isOpen = false
        var waiting: Int { waiters.count }
        func wait() async {
            if isOpen { return }
            await withCheckedContinuation { waiters.append($0) }
        }
        func open() {
            isOpen = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
    }
}
