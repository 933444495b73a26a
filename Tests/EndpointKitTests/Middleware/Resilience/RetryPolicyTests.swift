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

/// Retries: which calls, which failures, how long to wait.
@Suite struct RetryPolicyTests {
    struct Item: Endpoint {
        let endpoint = Restful(.get, "item")
        typealias ReturnPayloadType = EmptyPayload
    }

    struct Create: Endpoint {
        let endpoint = Restful(.post, "items")
        let name: String
        typealias ReturnPayloadType = EmptyPayload
    }

    struct CreateIdempotently: Endpoint {
        static var isSafeToRetry: Bool { true }
        let endpoint = Restful(.post, "items")
        @HeaderField("Idempotency-Key") var key: String? = "k1"
        let name: String
        typealias ReturnPayloadType = EmptyPayload
    }

    static let quick = RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, jitter: 0)

    /// Fails `failures` times with `status` (or `error`), then answers 204.
    static func flaky(_ failures: Int, status: Int = 503, headers: [String: String] = [:], error: URLError? = nil) -> ScriptedTransport {
        ScriptedTransport { _, index in
            guard index >= failures else {
                if let error { throw error }
                return .init(status: status, headers: headers, body: "")
            }
            return .init(status: 204, body: "")
        }
    }

    func server(_ transport: ScriptedTransport, _ policy: RetryPolicy = RetryPolicyTests.quick) -> APIServer {
        var server = APIServer.stub(transport)
        server.middlewares = [policy]
        return server
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func `retryable statuses are retried until success`(status: Int) async throws {
        let transport = Self.flaky(2, status: status)
        try await Item().call(on: server(transport))
        #expect(transport.requests.count == 3)
    }

    @Test func `attempts stop at the maximum and the last answer is returned`() async throws {
        let transport = Self.flaky(10)
        let error = try await #require(throws: EndpointError.self) { try await Item().call(on: server(transport)) }
        #expect(error.statusCode == 503)
        #expect(transport.requests.count == 3)
    }

    @Test(arguments: [400, 401, 404, 501])
    func `other statuses are not retried`(status: Int) async throws {
        let transport = Self.flaky(1, status: status)
        await #expect(throws: EndpointError.self) { try await Item().call(on: server(transport)) }
        #expect(transport.requests.count == 1)
    }

    @Test func `transient transport errors are retried, others are not`() async throws {
        let lost = Self.flaky(2, error: URLError(.networkConnectionLost))
        try await Item().call(on: server(lost))
        #expect(lost.requests.count == 3)
        let badURL = Self.flaky(2, error: URLError(.badURL))
        await #expect(throws: EndpointError.self) { try await Item().call(on: server(badURL)) }
        #expect(badURL.requests.count == 1)
    }

    @Test func `POST is sent once unless the endpoint says it is safe to retry`() async throws {
        let post = Self.flaky(1)
        await #expect(throws: EndpointError.self) { try await Create(name: "a").call(on: server(post)) }
        #expect(post.requests.count == 1)
        let safe = Self.flaky(1)
        try await CreateIdempotently(name: "a").call(on: server(safe))
        #expect(safe.requests.count == 2)
        #expect(safe.requests.map(\.bodyText) == [#"{"name":"a"}"#, #"{"name":"a"}"#])
    }

    @Test func `waits grow exponentially up to the maximum, with jitter below the nominal wait`() {
        let policy = RetryPolicy(initialDelay: 0.5, multiplier: 2, maximumDelay: 3, jitter: 0.5)
        #expect(policy.delay(beforeRetry: 1, random: 0) == 0.5)
        #expect(policy.delay(beforeRetry: 2, random: 0) == 1)
        #expect(policy.delay(beforeRetry: 3, random: 0) == 2)
        #expect(policy.delay(beforeRetry: 4, random: 0) == 3)
        #expect(policy.delay(beforeRetry: 2, random: 1) == 0.5)
        #expect(policy.delay(beforeRetry: 2, random: 0.5) == 0.75)
    }

    @Test func `Retry-After is read as seconds or as an HTTP date`() throws {
        let now = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(now.timeIntervalSince1970 == 784_111_777)
        #expect(RetryPolicy.retryAfter("120", now: now) == 120)
        #expect(RetryPolicy.retryAfter(" 0 ", now: now) == 0)
        #expect(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:49:40 GMT", now: now) == 3)
        #expect(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:49:30 GMT", now: now) == 0)  // in the past
        #expect(RetryPolicy.retryAfter("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfter(nil, now: now) == nil)
    }

    /// Two `Retry-After` lines reach the policy joined by `, `; before, neither was read. More
    /// digits than an `Int` holds were unreadable too; now they are a wait for the caller to cap.
    @Test func `several Retry-After values ask for the longest, and 400 digits are an infinite wait`() throws {
        let now = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(RetryPolicy.retryAfter("1, 3600", now: now) == 3600)
        #expect(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:49:40 GMT, 1", now: now) == 3)
        #expect(RetryPolicy.retryAfter("1, Sun, 06 Nov 1994 08:50:37 GMT", now: now) == 60)
        #expect(RetryPolicy.retryAfter("soon, 7", now: now) == 7)
        #expect(RetryPolicy.retryAfter("soon, later", now: now) == nil)
        #expect(RetryPolicy.retryAfter(String(repeating: "9", count: 400), now: now) == .infinity)
    }

    @Test func `Retry-After sets the wait, capped`() async throws {
        let transport = Self.flaky(1, status: 429, headers: ["Retry-After": "1"])
        let started = Date()
        try await Item().call(on: server(transport))
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 1 && waited < 20, "waited \(waited) s")  // not the 0.01 s backoff, not stuck

        let capped = Self.flaky(1, status: 503, headers: ["Retry-After": "3600"])
        let cappedStart = Date()
        var policy = Self.quick
        policy.maximumRetryAfter = 0.2
        try await Item().call(on: server(capped, policy))
        #expect(Date().timeIntervalSince(cappedStart) < 20)  // capped at 0.2 s, not 3,600
        #expect(capped.requests.count == 2)
    }

    @Test func `cancelling the call ends a backoff wait at once`() async throws {
        let transport = Self.flaky(5)
        let server = server(transport, RetryPolicy(initialDelay: 30, jitter: 0))
        let task = Task { try await Item().call(on: server) }
        // Cancel during the 30 s backoff, after the first attempt, however busy the machine is.
        while transport.requests.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
        try await Task.sleep(nanoseconds: 50_000_000)
        let cancelled = Date()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(Date().timeIntervalSince(cancelled) < 10)  // the wait was 30 s
        #expect(transport.requests.count == 1)
    }
}
