@testable import EndpointKit
import EndpointKitTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A `RateLimitPolicy` beside a `Throttle`, in either order, against a limiter that allows
/// `limit` requests per fixed window and answers 429 past it, as slowapi's "5 per 2 seconds" does.
@Suite struct PacingOrderTests {
    final class FixedWindowLimiter: WholeRequestTransport {
        private struct State {
            var windowEnd: Date?
            var used = 0
            var accepted = 0
            var refused = 0
        }
        let limit: Int
        let window: TimeInterval
        private let state = Locked(State())
        var accepted: Int { state.withLock { $0.accepted } }
        var refused: Int { state.withLock { $0.refused } }

        init(limit: Int, window: TimeInterval) {
            self.limit = limit
            self.window = window
        }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            let (status, headers) = state.withLock { state -> (Int, [String: String]) in
                let now = Date()
                if let end = state.windowEnd, now < end {} else {
                    state.windowEnd = now.addingTimeInterval(window)
                    state.used = 0
                }
                let reset = String(format: "%.3f", state.windowEnd!.timeIntervalSince(now) + 0.001)
                guard state.used < limit else {
                    state.refused += 1
                    return (429, ["Retry-After": "\(Int(window.rounded(.up)))", "RateLimit-Remaining": "0", "RateLimit-Reset": reset])
                }
                state.used += 1
                state.accepted += 1
                return (200, ["RateLimit-Remaining": "\(limit - state.used)", "RateLimit-Reset": reset])
            }
            // The answer takes a moment, so the queue is never empty when it arrives.
            try await Task.sleep(nanoseconds: 5_000_000)
            let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1",
                                           headerFields: headers.merging(["Content-Type": "application/json"]) { $1 })!
            return (Data("{}".utf8), response)
        }
    }

    struct Ping: Endpoint {
        let endpoint = Restful(.get, "ping")
        typealias ReturnPayloadType = EmptyPayload
    }

    /// Before, with the policy first (README's order), the calls queued in the Throttle had passed
    /// the policy before any answer spoke of the budget: the sixth request went 5 ms after an answer
    /// said none was left, and was refused.
    @Test(arguments: [true, false])
    func `twelve calls at once spend the budget and wait for the reset, whichever comes first`(policyFirst: Bool) async throws {
        let limiter = FixedWindowLimiter(limit: 5, window: 0.5)
        let policy = RateLimitPolicy(maximumWait: 30)
        let throttle = Throttle(maximumInFlight: 1)
        let server = APIServer(origin: URL(string: "https://api.example.com")!, transport: limiter,
                            middlewares: policyFirst ? [policy, throttle] : [throttle, policy])
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<12 {
                group.addTask { (try? await Ping().call(on: server)) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 12)
        #expect(limiter.refused == 0)
        #expect(limiter.accepted == 12)
    }
}
