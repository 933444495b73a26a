import EndpointKit
import EndpointKitTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Reading rate-limit headers, hostile values included, and the policy's decisions in memory.
@Suite struct RateLimitHeadersTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    func read(_ headers: [String: String], status: Int = 200, longestReset: TimeInterval = 3600) -> RateLimitHeaders {
        let response = HTTPURLResponse(url: URL(string: "https://api.example.com/x")!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
        return RateLimitHeaders(response, now: Self.now, longestReset: longestReset)
    }

    @Test func `GitHub, OpenAI and IETF spellings`() {
        #expect(read(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1800000042"]) == .init(remaining: 0, reset: 42))
        #expect(read(["X-RateLimit-Remaining": "12", "X-RateLimit-Reset": "30"]) == .init(remaining: 12, reset: 30))
        #expect(read(["x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "6m0s"]) == .init(remaining: 0, reset: 360))
        #expect(read(["x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "1h2m3.5s"], longestReset: 7200) == .init(remaining: 0, reset: 3723.5))
        #expect(read(["x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "20ms"]) == .init(remaining: 0, reset: 0.02))
        #expect(read(["RateLimit": #""default";r=0;t=30, "burst";r=4;t=1"#]) == .init(remaining: 0, reset: 30))
        #expect(read(["RateLimit": "limit=100, remaining=0, reset=7"]) == .init(remaining: 0, reset: 7))
        #expect(read(["RateLimit-Remaining": "0", "RateLimit-Reset": "9"]) == .init(remaining: 0, reset: 9))
        #expect(read(["Retry-After": "5"], status: 429) == .init(remaining: 0, reset: 5))
        #expect(read(["Retry-After": "5"], status: 200) == .init(remaining: nil, reset: nil))
        #expect(read([:]) == .init(remaining: nil, reset: nil))
    }

    @Test func `hostile values are cut or ignored`() {
        // A reset far in the future counts as the longest one believed.
        #expect(read(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "99999999999999"]) == .init(remaining: 0, reset: 3600))
        #expect(read(["x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "99999999h"]) == .init(remaining: 0, reset: 3600))
        #expect(read(["Retry-After": "999999999"], status: 503, longestReset: 10) == .init(remaining: 0, reset: 10))
        // A reset in the past is now.
        #expect(read(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700000000"]) == .init(remaining: 0, reset: 0))
        // Negative, non-numeric, infinite and NaN values are ignored.
        for bad in ["-5", "soon", "inf", "nan", "1e400", "", " ", "0x10", "١٢"] {
            #expect(read(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": bad]) == .init(remaining: 0, reset: nil), "\(bad)")
            #expect(read(["X-RateLimit-Remaining": bad, "X-RateLimit-Reset": "5"]).remaining == nil, "\(bad)")
            #expect(read(["RateLimit": "\"p\";r=0;t=\(bad)"]) == .init(remaining: 0, reset: nil), "\(bad)")
        }
        #expect(read(["x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "5x"]).reset == nil)
        #expect(read(["x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": "m"]).reset == nil)
        #expect(read(["X-RateLimit-Remaining": "99999999999999999999999"]).remaining == .max)
    }

    /// Before, 400 digits overflowed to infinity and were ignored as unreadable: the next call
    /// went at once.
    @Test func `a reset of 400 digits is the longest reset, in every spelling`() {
        let far = String(repeating: "9", count: 400)
        #expect(read(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": far]) == .init(remaining: 0, reset: 3600))
        #expect(read(["RateLimit-Remaining": "0", "RateLimit-Reset": far]) == .init(remaining: 0, reset: 3600))
        #expect(read(["RateLimit": "\"default\";r=0;t=\(far)"]) == .init(remaining: 0, reset: 3600))
        #expect(read(["RateLimit": "limit=10, remaining=0, reset=\(far)"]) == .init(remaining: 0, reset: 3600))
        #expect(read(["x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": far + "s"]) == .init(remaining: 0, reset: 3600))
        #expect(read(["x-ratelimit-remaining-requests": "0", "x-ratelimit-reset-requests": far]) == .init(remaining: 0, reset: 3600))
        #expect(read(["Retry-After": far], status: 429) == .init(remaining: 0, reset: 3600))
    }

    /// Two `Retry-After` lines reach the policy as one value joined by `, `: the longest wait wins.
    @Test func `several Retry-After values ask for the longest`() {
        #expect(read(["Retry-After": "1, 3600"], status: 429, longestReset: 7200) == .init(remaining: 0, reset: 3600))
        #expect(read(["Retry-After": "3600, 1"], status: 429, longestReset: 7200) == .init(remaining: 0, reset: 3600))
    }

    /// Answers with a spent budget once, then with budget left; counts the requests.
    final class Budget: WholeRequestTransport {
        let headers: [String: String]
        let status: Int
        private let sent = Locked(0)
        var requests: Int { sent.value }
        init(_ headers: [String: String], status: Int = 200) {
            self.headers = headers
            self.status = status
        }
        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            let count = sent.withLock { $0 += 1; return $0 }
            let response = HTTPURLResponse(url: request.url!, statusCode: count == 1 ? status : 200, httpVersion: "HTTP/1.1",
                                           headerFields: count == 1 ? headers.merging(["Content-Type": "application/json"]) { $1 } : ["Content-Type": "application/json"])!
            return (Data("{}".utf8), response)
        }
    }

    struct Ping: Endpoint {
        let endpoint = Restful(.get, "ping")
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a reset an hour away fails the next call at once, typed, with nothing sent`() async throws {
        let transport = Budget(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "99999999999999"])
        let server = APIServer(origin: URL(string: "https://api.example.com")!, transport: transport, middlewares: [RateLimitPolicy(maximumWait: 60)])
        _ = try await Ping().call(on: server)
        let error = try await #require(throws: EndpointError.self) { try await Ping().call(on: server) }
        #expect(error.kind == .rateLimited)
        #expect(error.reason.hasPrefix("the server's rate limit for https://api.example.com is spent for 3600.0 s more"))
        #expect(error.localizedDescription == "Too many requests were made. Please try again later.")
        #expect(transport.requests == 1)
    }

    /// A 429 whose `Retry-After` has 400 digits, then a call: before, the value was ignored and
    /// the second request went out; now the budget is spent for `longestReset`.
    @Test(arguments: [
        ["Retry-After": String(repeating: "9", count: 400)],
        ["Retry-After": "1, 3600"],
        ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(repeating: "9", count: 400)],
    ])
    func `a reset too large to read fails the next call as rateLimited, with one request sent`(headers: [String: String]) async throws {
        let transport = Budget(headers, status: 429)
        let server = APIServer(origin: URL(string: "https://api.example.com")!, transport: transport, middlewares: [RateLimitPolicy()])
        let first = try await #require(throws: EndpointError.self) { try await Ping().call(on: server) }
        #expect(first.kind == .unacceptableStatus)
        let error = try await #require(throws: EndpointError.self) { try await Ping().call(on: server) }
        #expect(error.kind == .rateLimited)
        #expect(error.reason.hasPrefix("the server's rate limit for https://api.example.com is spent for 3600.0 s more") || error.reason.hasPrefix("the server's rate limit for https://api.example.com is spent for 3599."), "\(error.reason)")
        #expect(transport.requests == 1)
    }

    @Test(arguments: ["-5", "soon", "nan"])
    func `an unreadable reset does not hold the next call`(reset: String) async throws {
        let transport = Budget(["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset])
        let server = APIServer(origin: URL(string: "https://api.example.com")!, transport: transport, middlewares: [RateLimitPolicy(maximumWait: 0)])
        _ = try await Ping().call(on: server)
        _ = try await Ping().call(on: server)
        #expect(transport.requests == 2)
    }

    @Test func `nonsensical settings are refused before anything is sent`() async throws {
        let transport = Budget([:])
        for middleware in [RateLimitPolicy(maximumWait: -1), RateLimitPolicy(maximumWait: .nan)] as [any EndpointMiddleware] {
            let server = APIServer(origin: URL(string: "https://api.example.com")!, transport: transport, middlewares: [middleware])
            let error = try await #require(throws: EndpointError.self) { try await Ping().call(on: server) }
            #expect(error.kind == .invalidRequest)
        }
        for middleware in [Throttle(requests: 0, per: 1), Throttle(maximumInFlight: 0), Throttle(requests: 1, per: -1), Throttle(requests: 1, per: .infinity)] as [any EndpointMiddleware] {
            let server = APIServer(origin: URL(string: "https://api.example.com")!, transport: transport, middlewares: [middleware])
            let error = try await #require(throws: EndpointError.self) { try await Ping().call(on: server) }
            #expect(error.kind == .invalidRequest)
            #expect(error.reason.hasPrefix("the Throttle cannot be used"))
        }
        #expect(transport.requests == 0)
    }
}
