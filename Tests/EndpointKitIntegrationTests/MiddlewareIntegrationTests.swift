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

/// Authorization, token refresh, retries and logging against the real loopback server.
@Suite struct MiddlewareIntegrationTests {
    let loopback: LoopbackServer
    init() async throws { loopback = try await LoopbackServer.ready() }

    /// The loopback server with EndpointKit's default coders and `middlewares`. Timing tests pass
    /// a transport of their own, so that other tests' calls do not queue in front of theirs.
    func server(_ middlewares: [any EndpointMiddleware], transport: any HTTPTransport = IntegrationTransport.shared) -> APIServer {
        var server = loopback.server(transport: transport)
        server.decoder = APIServer.makeDecoder()
        server.middlewares = middlewares
        return server
    }

    // MARK: - Authorization as the server sees it

    struct WhoAmI: Endpoint {
        let endpoint = Restful(.get, "auth/whoami")
        struct ReturnPayloadType: Decodable, Sendable, Equatable {
            let scheme: String
            var token: String? = nil
            var user: String? = nil
            var password: String? = nil
            var key: String? = nil
        }
    }

    @Test func `bearer, basic and API keys arrive as the server expects them`() async throws {
        #expect(try await WhoAmI().call(on: server([HTTPBearerAuthorization(token: "t0k3n")])) == .init(scheme: "bearer", token: "t0k3n"))
        #expect(try await WhoAmI().call(on: server([HTTPBasicAuthorization(username: "ana", password: "pä:ss")]))
            == .init(scheme: "basic", user: "ana", password: "pä:ss"))
        #expect(try await WhoAmI().call(on: server([APIKeyAuthorization(header: "X-API-Key", value: "k1")])) == .init(scheme: "api-key-header", key: "k1"))
        #expect(try await WhoAmI().call(on: server([APIKeyAuthorization(queryParameter: "api_key", value: "k&2")])) == .init(scheme: "api-key-query", key: "k&2"))
        let error = try await #require(throws: EndpointError.self) { try await WhoAmI().call(on: server([])) }
        #expect(error.statusCode == 401)
    }

    struct Hop: Endpoint {
        var endpoint: Restful { Restful(.get, "redirect-away/302/echo/landed") }
        typealias ReturnPayloadType = Echo
    }

    @Test func `a token is not carried to another origin by a redirect`() async throws {
        var server = server([HTTPBearerAuthorization(token: "secret"), APIKeyAuthorization(header: "X-API-Key", value: "key")])
        server.decoder = JSONDecoder()
        let echo = try await Hop().call(on: server)
        #expect(echo.path == "/echo/landed")
        #expect(echo.headers["authorization"] == nil)
        #expect(echo.headers["x-api-key"] == nil)
        #expect(echo.headers["host"] != loopback.origin.host.map { "\($0):\(loopback.origin.port ?? 0)" })
    }

    // MARK: - Refresh tokens

    struct Me: Endpoint {
        var endpoint: Restful { Restful(.get, "tokens/\(realm)/me") }
        let realm: String
        struct ReturnPayloadType: Decodable, Sendable { let ok: Bool; let token: String }
        enum CodingKeys: CodingKey {}
    }

    struct RefreshToken: Endpoint {
        static var requiresAuthorization: Bool { false }
        var endpoint: Restful { Restful(.post, "tokens/\(realm)/refresh") }
        let realm: String
        let refreshToken: String
        struct ReturnPayloadType: Decodable, Sendable { let accessToken: String; let refreshToken: String; let expiresIn: Double }
        enum CodingKeys: CodingKey { case refreshToken }
    }

    struct Configure: Endpoint {
        static var requiresAuthorization: Bool { false }
        var endpoint: Restful { Restful(.post, "tokens/\(realm)/configure?refresh=\(refresh)&refresh_ok=\(refreshWorks ? 1 : 0)") }
        let realm: String
        let refresh: String
        let refreshWorks: Bool
        typealias ReturnPayloadType = EmptyPayload
        enum CodingKeys: CodingKey {}
    }

    struct Stats: Endpoint {
        static var requiresAuthorization: Bool { false }
        var endpoint: Restful { Restful(.get, "tokens/\(realm)/stats") }
        let realm: String
        struct ReturnPayloadType: Decodable, Sendable { let refreshes: Int; let meCalls: Int }
        enum CodingKeys: CodingKey {}
    }

    /// A refresh-token middleware whose refresh calls the loopback server's token endpoint.
    func refreshing(realm: String, store: InMemoryTokenStore, signOuts: Shared<Int> = Shared(0)) -> (APIServer, RefreshTokenAuthorization) {
        let plain = server([])
        let auth = RefreshTokenAuthorization(store: store) { tokens in
            let reply = try await RefreshToken(realm: realm, refreshToken: tokens.refreshToken ?? "").call(on: plain)
            return Tokens(accessToken: reply.accessToken, refreshToken: reply.refreshToken, expiresAt: Date().addingTimeInterval(reply.expiresIn))
        } onSignOut: { _ in
            signOuts.withLock { $0 += 1 }
        }
        return (server([auth]), auth)
    }

    @Test(arguments: [false, true])
    func `100 concurrent calls with an expired token cause exactly one refresh on the server`(expiryKnown: Bool) async throws {
        let realm = "concurrent-\(expiryKnown)-\(UUID().uuidString)"
        try await Configure(realm: realm, refresh: "refresh-0", refreshWorks: true).call(on: server([]))
        let store = InMemoryTokenStore(Tokens(
            accessToken: "access-0", refreshToken: "refresh-0", expiresAt: expiryKnown ? Date().addingTimeInterval(-60) : nil))
        let (api, _) = refreshing(realm: realm, store: store)

        let tokensSeen = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 { group.addTask { try await Me(realm: realm).call(on: api).token } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(tokensSeen.count == 100)
        #expect(Set(tokensSeen) == ["access-1"])
        let stats = try await Stats(realm: realm).call(on: server([]))
        #expect(stats.refreshes == 1)
        if expiryKnown {
            #expect(stats.meCalls == 100)  // refreshed before any call was sent
        } else {
            // Reactively: the calls sent before the refresh are refused once and replayed; those that
            // start while it runs wait for it. How many were early depends on the machine's speed;
            // that none is refused twice does not.
            #expect((101...200).contains(stats.meCalls), "\(stats.meCalls) calls reached the server")
        }
        #expect(await store.tokens()?.accessToken == "access-1")
    }

    @Test func `a failing refresh reaches the sign-out hook once and every caller gets the error`() async throws {
        let realm = "revoked-\(UUID().uuidString)"
        try await Configure(realm: realm, refresh: "refresh-0", refreshWorks: false).call(on: server([]))
        let store = InMemoryTokenStore(Tokens(accessToken: "access-0", refreshToken: "refresh-0"))
        let signOuts = Shared(0)
        let (api, _) = refreshing(realm: realm, store: store, signOuts: signOuts)

        let errors = await withTaskGroup(of: EndpointError?.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do { _ = try await Me(realm: realm).call(on: api); return nil } catch { return error as? EndpointError }
                }
            }
            return await group.reduce(into: [EndpointError?]()) { $0.append($1) }
        }
        #expect(errors.count == 20)
        #expect(errors.allSatisfy { $0?.kind == .authorizationFailed })
        #expect(errors.first??.description.contains("the server answered 400 Bad Request") == true)
        #expect(signOuts.value == 1)
        #expect(await store.tokens() == nil)
        #expect(try await Stats(realm: realm).call(on: server([])).refreshes == 1)
    }

    // MARK: - Retries

    struct Flaky: Endpoint {
        var endpoint: Restful { Restful(method, "flaky/\(key)") }
        var method: RequestMethod = .get
        let key: String
        @QueryItem var fail: Int
        @QueryItem var status = 503
        @QueryItem var retryAfter: Int? = nil
        @QueryItem var retryAfterDate: Int? = nil
        struct ReturnPayloadType: Decodable, Sendable { let attempts: Int }
        enum CodingKeys: CodingKey { case fail, status, retryAfter, retryAfterDate }
    }

    struct Attempts: Endpoint {
        var endpoint: Restful { Restful(.get, "attempts/\(key)") }
        let key: String
        struct ReturnPayloadType: Decodable, Sendable { let attempts: Int; let times: [Double] }
        enum CodingKeys: CodingKey {}
    }

    @Test func `a server that fails twice then succeeds is called three times`() async throws {
        let key = UUID().uuidString
        let api = server([RetryPolicy(maximumAttempts: 4, initialDelay: 0.05, jitter: 0)], transport: IntegrationTransport.make())
        #expect(try await Flaky(key: key, fail: 2).call(on: api).attempts == 3)
        let attempts = try await Attempts(key: key).call(on: api)
        #expect(attempts.attempts == 3)
        let gaps = zip(attempts.times.dropFirst(), attempts.times).map { $0 - $1 }
        #expect(gaps[0] >= 0.05 && gaps[1] >= 0.1)  // exponential: 0.05 s, then 0.1 s
    }

    /// Records when each attempt leaves the client and when its answer arrives.
    struct SendTimes: EndpointMiddleware {
        let sent = Shared<[Date]>([])
        let answered = Shared<[Date]>([])
        let retryAfter = Shared<[String]>([])
        /// From the first answer to the second attempt: the wait the retry policy chose.
        var wait: TimeInterval { sent.value[1].timeIntervalSince(answered.value[0]) }

        func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
            sent.withLock { $0.append(Date()) }
            defer { answered.withLock { $0.append(Date()) } }
            let (answer, response) = try await next(request, body)
            if let value = response.value(forHTTPHeaderField: "Retry-After") { retryAfter.withLock { $0.append(value) } }
            return (answer, response)
        }
    }

    @Test func `Retry-After in seconds and as an HTTP date is honoured`() async throws {
        let seconds = SendTimes()
        let key = UUID().uuidString
        var api = server([RetryPolicy(initialDelay: 0.01, jitter: 0), seconds], transport: IntegrationTransport.make())
        _ = try await Flaky(key: key, fail: 1, status: 429, retryAfter: 1).call(on: api)
        #expect(try await Attempts(key: key).call(on: api).attempts == 2)
        let secondsGap = seconds.wait
        #expect(secondsGap >= 1 && secondsGap < 10, "waited \(secondsGap) s")  // not the 0.01 s backoff

        let date = SendTimes()
        api.middlewares = [RetryPolicy(initialDelay: 0.01, jitter: 0), date]
        _ = try await Flaky(key: UUID().uuidString, fail: 1, status: 503, retryAfterDate: 2).call(on: api)
        // The date is absolute: however late the answer arrives on a busy machine, the second
        // attempt may not leave before it (HTTP dates have whole seconds; 0.1 s for rounding).
        let header = try #require(date.retryAfter.value.first)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        let retryDate = try #require(formatter.date(from: header), "\(header)")
        let second = date.sent.value[1]
        #expect(second.timeIntervalSince(retryDate) > -0.1, "sent \(retryDate.timeIntervalSince(second)) s before \(header)")
        #expect(second.timeIntervalSince(retryDate) < 10)
        print(String(format: "Retry-After: 1 → waited %.2f s; HTTP date 2 s ahead → waited %.2f s", secondsGap, date.wait))
    }

    @Test func `POST is not retried`() async throws {
        let key = UUID().uuidString
        let api = server([RetryPolicy(initialDelay: 0.01, jitter: 0)])
        let error = try await #require(throws: EndpointError.self) { try await Flaky(method: .post, key: key, fail: 2).call(on: api) }
        #expect(error.statusCode == 503)
        #expect(try await Attempts(key: key).call(on: api).attempts == 1)
    }

    @Test func `cancelling during a backoff wait ends the call at once`() async throws {
        let key = UUID().uuidString
        let api = server([RetryPolicy(initialDelay: 20, jitter: 0)])
        let call = Task { try await Flaky(key: key, fail: 5).call(on: api) }
        while try await Attempts(key: key).call(on: api).attempts == 0 { try await Task.sleep(nanoseconds: 20_000_000) }
        try await Task.sleep(nanoseconds: 100_000_000)
        let cancelled = Date()
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(Date().timeIntervalSince(cancelled) < 10)  // the backoff was 20 s
        #expect(try await Attempts(key: key).call(on: api).attempts == 1)
    }

    // MARK: - Timeouts

    struct Slow: Endpoint {
        var endpoint: Restful { Restful(.get, "slow") }
        let seconds: Double
        struct ReturnPayloadType: Decodable, Sendable { let slept: Double }
    }

    struct PatientSlow: Endpoint {
        // Far above the server's 0.6 s, as the server's 0.3 s is far below it: a 1 GB body read
        // by another test shares URLSession's one work queue and has held this answer for 5 s.
        static var timeout: TimeInterval? { 30 }
        var endpoint: Restful { Restful(.get, "slow") }
        let seconds: Double
        struct ReturnPayloadType: Decodable, Sendable { let slept: Double }
    }

    @Test func `a server timeout fails a slow answer, and an endpoint timeout overrides it`() async throws {
        var api = server([], transport: IntegrationTransport.make())
        api.timeout = 0.3
        let started = Date()
        let error = try await #require(throws: EndpointError.self) { try await Slow(seconds: 30).call(on: api) }
        #expect(error.kind == .transportFailed)
        #expect((error.underlyingError as? URLError)?.code == .timedOut)
        #expect(Date().timeIntervalSince(started) < 15)  // the timeout is 0.3 s, the server 30 s
        #expect(try await PatientSlow(seconds: 0.6).call(on: api).slept == 0.6)
    }

    // MARK: - Logging

    @Test func `captured logs hold no secrets`() async throws {
        let log = Shared<[String]>([])
        let logger = RequestLogger(verbose: true, logsCURL: true) { line in log.withLock { $0.append(line) } }
        let realm = "logged-\(UUID().uuidString)"
        try await Configure(realm: realm, refresh: "refresh-0", refreshWorks: true).call(on: server([]))
        let plain = server([logger])
        let auth = RefreshTokenAuthorization(store: InMemoryTokenStore(Tokens(accessToken: "access-0", refreshToken: "refresh-0"))) { tokens in
            let reply = try await RefreshToken(realm: realm, refreshToken: tokens.refreshToken ?? "").call(on: plain)
            return Tokens(accessToken: reply.accessToken, refreshToken: reply.refreshToken)
        }
        _ = try await Me(realm: realm).call(on: server([auth, logger]))
        _ = try await WhoAmI().call(on: server([APIKeyAuthorization(queryParameter: "api_key", value: "query-secret"), logger]))
        _ = try await WhoAmI().call(on: server([HTTPBasicAuthorization(username: "ana", password: "basic-secret"), logger]))
        let text = log.value.joined(separator: "\n")
        #expect(text.contains("--> GET /tokens/\(realm)/me"))
        #expect(text.contains("<-- 401 Unauthorized GET /tokens/\(realm)/me"))
        #expect(text.contains("<-- 200 OK GET /tokens/\(realm)/me"))
        for secret in ["access-0", "access-1", "refresh-0", "refresh-1", "query-secret", "basic-secret", "YW5hOmJhc2ljLXNlY3JldA=="] {
            #expect(!text.contains(secret), "\(secret) appears in the log")
        }
    }
}
#endif
