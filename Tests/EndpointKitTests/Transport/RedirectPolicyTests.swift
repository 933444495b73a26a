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

/// The redirect rules, one answer at a time.
@Suite struct RedirectPolicyTests {
    func decide(from url: String, status: Int = 302, location: String, method: String = "GET", body: Data? = nil,
                credentials: CredentialNames = CredentialNames()) -> Redirect.Decision {
        var current = URLRequest(url: URL(string: url)!)
        current.httpMethod = method
        current.httpBody = body
        current.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        current.setValue("idem-1", forHTTPHeaderField: "Idempotency-Key")
        let response = HTTPURLResponse(url: URL(string: url)!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Location": location])!
        var proposed = current
        proposed.url = URL(string: "https://rewritten.invalid/")  // what URLSession would send; never trusted
        return Redirect.decide(after: response, current: current, proposed: proposed, uploadsFile: false, credentials: credentials)
    }

    @Test(arguments: ["http://h.test/x", "HTTP://other.test:8080/"])
    func `https is never downgraded to http`(location: String) {
        let decision = decide(from: "https://h.test/a", location: location)
        guard case .refuse(_, let reason) = decision else { Issue.record("\(decision)"); return }
        #expect(reason == "it would downgrade https to http")
    }

    @Test(arguments: ["ftp://h.test/x", "file:///etc/passwd", "javascript:alert(1)", "mailto:a@b.c"])
    func `schemes other than http and https are refused`(location: String) {
        guard case .refuse(let refused, let reason) = decide(from: "http://h.test/a", location: location) else {
            Issue.record("followed \(location)"); return
        }
        #expect(refused == location)
        #expect(reason == "only http and https redirects are followed")
    }

    @Test func `Location is resolved against the redirecting URL and followed as the server named it`() {
        guard case .follow(let next) = decide(from: "http://h.test/a/b/c?q=1", location: "../d?e=2") else { Issue.record("not followed"); return }
        #expect(next.url?.absoluteString == "http://h.test/a/d?e=2")
        #expect(next.value(forHTTPHeaderField: "Authorization") == "Bearer t")  // same origin
    }

    @Test(arguments: [
        ("/new place/\u{E9}?q=a b", "http://h.test/new%20place/%C3%A9?q=a%20b"),
        ("http://[::1]:8080/x%2Fy#top", "http://[::1]:8080/x%2Fy#top"),
        ("/100%", "http://h.test/100%25"),
    ])
    func `a Location with characters a URL may not hold is escaped, not refused or rewritten`(
        location: String, expected: String
    ) {
        guard case .follow(let next) = decide(from: "http://h.test/a", location: location) else {
            Issue.record("not followed"); return
        }
        #expect(next.url?.absoluteString == expected)
        // What `URL(string:)` is given: valid as it is, so iOS 15–16 parse it as Linux does.
        let escaped = PercentEncoding.escapingDisallowed(in: location[...], isReference: true)
        #expect(expected.hasSuffix(escaped))
    }

    @Test func `another origin gets no credentials but everything else`() {
        let scope = CredentialNames(headers: ["X-Key"], queryParameters: ["appid"])
        var request = URLRequest(url: URL(string: "https://a.test/x")!)
        request.setValue("k", forHTTPHeaderField: "X-Key")
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        request.setValue("c=1", forHTTPHeaderField: "Cookie")
        request.setValue("idem", forHTTPHeaderField: "Idempotency-Key")
        request.url = URL(string: "https://b.test/y?appid=k&keep=1&appid=again")
        let stripped = Redirect.removingCredentials(request, leaving: URL(string: "https://a.test/x")!, credentials: scope)
        #expect(stripped?.allHTTPHeaderFields == ["Idempotency-Key": "idem"])
        #expect(stripped?.url?.absoluteString == "https://b.test/y?keep=1")
        let samePort = Redirect.removingCredentials(request, leaving: URL(string: "https://b.test:443/z")!, credentials: scope)
        #expect(samePort == request)
    }
}

/// Numbers that used to crash (`UInt64(seconds * 1e9)`) or make no sense.
@Suite struct HugeNumberTests {
    struct Ping: Endpoint {
        let endpoint = Restful(.get, "ping")
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `every server has a deadline by default`() {
        #expect(APIServer(origin: URL(string: "https://h.test")!).timeout == 60)
        #expect(APIServer.defaultMaximumResponseSize == 16 << 20)
    }

    @Test(arguments: [Double.infinity, 1e11, 1e300, Double.greatestFiniteMagnitude])
    func `a huge or infinite timeout means no limit, not a crash`(timeout: Double) async throws {
        var server = APIServer.stub(RecordingTransport(status: 204, body: ""))
        server.timeout = timeout
        try await Ping().call(on: server)
    }

    @Test(arguments: [-1, -Double.infinity, Double.nan])
    func `a negative or NaN timeout is an invalid request`(timeout: Double) async throws {
        let transport = RecordingTransport()
        var server = APIServer.stub(transport)
        server.timeout = timeout
        let error = try await #require(throws: EndpointError.self) { try await Ping().call(on: server) }
        #expect(error.kind == .invalidRequest)
        #expect(error.description.contains("the timeout is"))
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: [
        RetryPolicy(initialDelay: -1), RetryPolicy(initialDelay: .nan), RetryPolicy(maximumDelay: -5),
        RetryPolicy(multiplier: .nan), RetryPolicy(jitter: .nan), RetryPolicy(maximumRetryAfter: -1),
    ])
    func `a nonsensical retry policy is an invalid request`(policy: RetryPolicy) async throws {
        let transport = RecordingTransport()
        var server = APIServer.stub(transport)
        server.middlewares = [policy]
        let error = try await #require(throws: EndpointError.self) { try await Ping().call(on: server) }
        #expect(error.kind == .invalidRequest)
        #expect(error.description.contains("the RetryPolicy cannot be used"))
        #expect(transport.requests.isEmpty)
    }

    @Test func `waits are never NaN and clamp to a hundred years`() {
        let policy = RetryPolicy(initialDelay: 1e300, maximumDelay: .infinity, jitter: 1)
        #expect(policy.delay(beforeRetry: 3, random: 1) == 0)          // jitter 1 may draw a zero wait
        #expect(policy.delay(beforeRetry: 40, random: 1) == .infinity)  // ∞ × 0 would be NaN
        #expect(Seconds.clampedNanoseconds(.infinity) == 3_153_600_000_000_000_000)
        #expect(Seconds.clampedNanoseconds(.nan) == 0)
        #expect(Seconds.clampedNanoseconds(-3) == 0)
        #expect(Seconds.clampedNanoseconds(1.5) == 1_500_000_000)
        #expect(Seconds.nanoseconds(1e11) == nil)
    }

    @Test(arguments: [
        (RetryPolicy(initialDelay: 1e300, maximumDelay: .infinity), ScriptedTransport.Answer(status: 503, headers: [:], body: "")),
        (RetryPolicy(maximumRetryAfter: .infinity), ScriptedTransport.Answer(status: 503, headers: ["Retry-After": "99999999999"], body: "")),
        (RetryPolicy(maximumRetryAfter: .infinity), ScriptedTransport.Answer(status: 429, headers: ["Retry-After": "999999999999999999999999"], body: "")),
    ])
    func `an endless wait ends when the call is cancelled, without a crash`(policy: RetryPolicy, answer: ScriptedTransport.Answer) async throws {
        let transport = ScriptedTransport { _, _ in answer }
        var server = APIServer.stub(transport)
        server.middlewares = [policy]
        let call = Task { try await Ping().call(on: server) }
        while transport.requests.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
        try await Task.sleep(nanoseconds: 50_000_000)
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(transport.requests.count == 1 || answer.headers["Retry-After"]?.count ?? 0 > 20)
    }
}
