// The loopback server runs as a child `Process`, which exists on macOS and Linux only: on iOS, tvOS
// and watchOS these tests compile to nothing.
#if os(macOS) || os(Linux)
import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Throttling, server rate limits and coalesced GETs against the real loopback server. Timing is
/// asserted only where the library guarantees it (a lower bound: nothing leaves early), with
/// upper bounds far above what a loaded machine needs.
@Suite struct PacingTests {
    let loopback: LoopbackServer
    init() async throws { loopback = try await LoopbackServer.ready() }

    /// The loopback server for looking at what it saw, through the shared transport: polling
    /// through a new session each time would leave hundreds of sessions behind.
    var observer: APIServer { loopback.server() }

    /// The loopback server with `middlewares` and a transport of its own, so that other tests'
    /// calls do not queue in front of these.
    func server(_ middlewares: [any EndpointMiddleware]) -> APIServer {
        var server = loopback.server(transport: IntegrationTransport.make())
        server.middlewares = middlewares
        return server
    }

    struct Echoed: Endpoint {
        var endpoint: Restful { Restful(.get, "echo/\(key)/\(index)") }
        let key: String
        let index: Int
        typealias ReturnPayloadType = Echo
        enum CodingKeys: CodingKey {}
    }

    struct Attempts: Endpoint {
        var endpoint: Restful { Restful(.get, "attempts/\(key)") }
        let key: String
        struct ReturnPayloadType: Decodable, Sendable { let attempts: Int; let times: [Double] }
        enum CodingKeys: CodingKey {}
    }

    // MARK: - Throttle

    @Test func `calls through a throttle leave in call order and never faster than its pace`() async throws {
        let key = UUID().uuidString
        // One in flight at a time as well, so that the server sees the requests in the order
        // they left, whatever the machine's load does to each one's way there.
        let throttle = Throttle(requests: 1, per: 0.4, maximumInFlight: 1)
        let api = server([throttle])
        let start = Date()
        var calls: [Task<Echo, any Error>] = []
        for index in 0..<6 {
            calls.append(Task { try await Echoed(key: key, index: index).call(on: api) })
            // The next call is made once this one is in the throttle (sent, or queued), so that
            // call order is known.
            try await waitUntil("call \(index) is in the throttle") { try await seen(key).count + throttle.queued >= index + 1 }
        }
        for call in calls { _ = try await call.value }
        let elapsed = Date().timeIntervalSince(start)
        // One per 0.4 s: the sixth call cannot leave before 2 s have passed since the first.
        #expect(elapsed >= 2.0)
        #expect(elapsed < 60)
        #expect(try await seen(key) == (0..<6).map { "/echo/\(key)/\($0)" })
    }

    @Test func `a throttle bounds the requests in flight`() async throws {
        let key = UUID().uuidString
        let api = server([Throttle(maximumInFlight: 2)])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 {
                // Each waits 1 s at the server, or less once three are there at once (which the
                // throttle never allows): without it, all six would be.
                group.addTask { _ = try await Slow(seconds: 1, key: key, until: 3).call(on: api) }
            }
            try await group.waitForAll()
        }
        let most = try await Concurrency(key: key).call(on: observer).max
        #expect(most >= 1 && most <= 2)
    }

    @Test func `a call cancelled in the throttle's queue leaves at once and sends nothing`() async throws {
        let key = UUID().uuidString
        let throttle = Throttle(requests: 1, per: 30)
        let api = server([throttle])
        _ = try await Echoed(key: key, index: 0).call(on: api)
        let queued = Task { try await Echoed(key: key, index: 1).call(on: api) }
        try await waitUntil("a call is queued") { throttle.queued == 1 }
        let cancelled = Date()
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        #expect(Date().timeIntervalSince(cancelled) < 20)  // not the 30 s the window holds it
        #expect(throttle.queued == 0)
        #expect(try await seen(key) == ["/echo/\(key)/0"])
    }

    @Test func `time in the throttle's queue counts toward the call's timeout`() async throws {
        let key = UUID().uuidString
        var api = server([Throttle(requests: 1, per: 60)])
        // The first call under the default timeout: on a loaded machine a fresh transport's first
        // connection may take longer than half a second. The second waits in the queue, whose
        // window is 60 s, so only the timeout can end it.
        _ = try await Echoed(key: key, index: 0).call(on: api)
        api.timeout = 0.5
        let error = try await #require(throws: EndpointError.self) { try await Echoed(key: key, index: 1).call(on: api) }
        #expect(error.kind == .transportFailed)
        #expect((error.underlyingError as? URLError)?.code == .timedOut)
        #expect(error.description.contains("waiting in the Throttle's queue"))
        #expect(try await seen(key) == ["/echo/\(key)/0"])
    }

    // MARK: - Server rate limits

    struct Limited: Endpoint {
        var endpoint: Restful { Restful(.get, "rate-limit/\(key)") }
        let key: String
        @QueryItem var style: String
        @QueryItem var reset: Double = 2
        struct ReturnPayloadType: Decodable, Sendable { let attempt: Int }
        enum CodingKeys: CodingKey { case style, reset }
    }

    @Test(arguments: ["github", "openai", "ietf", "retry-after"])
    func `a spent budget holds the next request until the reset`(style: String) async throws {
        let key = UUID().uuidString
        let api = server([RateLimitPolicy()])
        let first = Date()
        _ = try? await Limited(key: key, style: style).call(on: api)  // a 429 for retry-after
        #expect(try await Limited(key: key, style: style).call(on: api).attempt == 2)
        let times = try await Attempts(key: key).call(on: observer).times
        #expect(times.count == 2)
        // The first answer said: nothing left for 2 s. The second request waited for that.
        #expect(times[1] - times[0] >= 1.9)
        #expect(Date().timeIntervalSince(first) < 30)
    }

    @Test func `a budget spent for longer than the call may wait fails at once and sends nothing`() async throws {
        let key = UUID().uuidString
        let api = server([RateLimitPolicy(maximumWait: 1)])
        _ = try await Limited(key: key, style: "github", reset: 30).call(on: api)
        let error = try await #require(throws: EndpointError.self) { try await Limited(key: key, style: "github").call(on: api) }
        #expect(error.kind == .rateLimited)
        #expect(error.reason.contains("maximumWait of 1.0 s"))
        #expect(error.reason.contains("nothing was sent"))
        #expect(try await Attempts(key: key).call(on: observer).attempts == 1)
    }

    // MARK: - Coalescing

    struct Gate: Endpoint {
        var endpoint: Restful { Restful(method, "gate/\(key)") }
        var method: RequestMethod = .get
        let key: String
        struct ReturnPayloadType: Decodable, Sendable, Equatable { let key: String; let opened: Bool }
        enum CodingKeys: CodingKey {}
    }

    struct OpenGate: Endpoint {
        var endpoint: Restful { Restful(.get, "gate-open/\(key)") }
        let key: String
        typealias ReturnPayloadType = EmptyPayload
        enum CodingKeys: CodingKey {}
    }

    @Test func `fifty identical GETs in flight send one request and all get the payload`() async throws {
        let key = UUID().uuidString
        let coalescing = RequestCoalescing()
        let api = server([coalescing])
        let calls = (0..<50).map { _ in Task { [api] in try await Gate(key: key).call(on: api) } }
        try await waitUntil("50 calls share a request") { coalescing.waiting == 50 }
        // One caller gives up; the others still get the answer.
        calls[7].cancel()
        await #expect(throws: CancellationError.self) { try await calls[7].value }
        _ = try await OpenGate(key: key).call(on: observer)
        for (index, call) in calls.enumerated() where index != 7 {
            #expect(try await call.value == .init(key: key, opened: true))
        }
        #expect(try await seen("/gate/\(key)").count == 1)
    }

    /// The shared request runs for every caller waiting for it: the caller that started it leaving
    /// neither cuts it off nor has it sent again (issue 53: the server saw two requests, the
    /// first cut, and the waiters paid the latency twice).
    @Test func `when the caller that started a shared GET leaves, the server still sees one request`() async throws {
        let key = UUID().uuidString
        let coalescing = RequestCoalescing()
        let api = server([coalescing])
        let first = Task { [api] in try await Gate(key: key).call(on: api) }
        try await waitUntil("the first call's request is at the server") { try await seen("/gate/\(key)").count == 1 }
        let others = (0..<19).map { _ in Task { [api] in try await Gate(key: key).call(on: api) } }
        try await waitUntil("20 calls share the request") { coalescing.waiting == 20 }
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        _ = try await OpenGate(key: key).call(on: observer)
        for call in others { #expect(try await call.value == .init(key: key, opened: true)) }
        #expect(try await seen("/gate/\(key)").count == 1)
        #expect(coalescing.waiting == 0)
    }

    /// README's setup, against the real server: coalescing after authorization and before the
    /// Throttle. With coalescing at the end of the chain (before it was a middleware) the same
    /// setup sent 13 requests for 50 calls.
    @Test func `behind README's Throttle, fifty identical GETs send one request`() async throws {
        let key = UUID().uuidString
        let coalescing = RequestCoalescing()
        let api = server([
            RetryPolicy(),
            RateLimitPolicy(maximumWait: 30),
            HTTPBearerAuthorization(token: "t"),
            coalescing,
            Throttle(requests: 10, per: 1, maximumInFlight: 4),
        ])
        let calls = (0..<50).map { _ in Task { [api] in try await Gate(key: key).call(on: api) } }
        try await waitUntil("50 calls share a request") { coalescing.waiting == 50 }
        try await waitUntil("the shared request is at the server") { try await seen("/gate/\(key)").count == 1 }
        _ = try await OpenGate(key: key).call(on: observer)
        for call in calls { #expect(try await call.value == .init(key: key, opened: true)) }
        #expect(try await seen("/gate/\(key)").count == 1)
    }

    @Test func `POSTs are never coalesced`() async throws {
        let key = UUID().uuidString
        let api = server([RequestCoalescing()])
        let calls = (0..<3).map { _ in Task { [api] in try await Gate(method: .post, key: key).call(on: api) } }
        try await waitUntil("3 POSTs are at the server") { try await seen("/gate/\(key)").count == 3 }
        _ = try await OpenGate(key: key).call(on: observer)
        for call in calls { #expect(try await call.value.opened) }
    }

    @Test func `GETs with different credentials are not coalesced`() async throws {
        let key = UUID().uuidString
        let alice = server([HTTPBearerAuthorization(token: "alice"), RequestCoalescing()])
        var bob = alice
        bob.middlewares[0] = HTTPBearerAuthorization(token: "bob")
        let calls = [Task { [alice] in try await Gate(key: key).call(on: alice) }, Task { [bob] in try await Gate(key: key).call(on: bob) }]
        try await waitUntil("2 GETs are at the server") { try await seen("/gate/\(key)").count == 2 }
        _ = try await OpenGate(key: key).call(on: observer)
        for call in calls { #expect(try await call.value.opened) }
    }

    // MARK: - Helpers

    func seen(_ key: String) async throws -> [String] {
        let prefix = key.hasPrefix("/") ? key : "/echo/\(key)/"
        return try await Seen(prefix: prefix).call(on: observer).paths
    }
}

/// Polls `condition` until it holds, failing after `seconds` (a hang the test reports, rather
/// than one that stops the run).
private func waitUntil(_ what: String, within seconds: Double = 20, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while try await !condition() {
        guard Date() < deadline else {
            Issue.record("still waiting after \(seconds) s until \(what)")
            throw CancellationError()
        }
        try await Task.sleep(nanoseconds: 2_000_000)
    }
}

/// `GET /slow?seconds=…&key=…&until=…`: an answer after `seconds`, or as soon as `until` calls
/// for `key` have been waiting at once; the server counts calls per key.
private struct Slow: Endpoint {
    var endpoint: Restful { Restful(.get, "slow") }
    let seconds: Double
    let key: String
    let until: Int
    struct ReturnPayloadType: Decodable, Sendable { let slept: Double }
}
#endif
