import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Honours the rate limits a server announces before it answers 429: once an answer says that no
/// requests are left until a reset, calls to that server wait for the reset instead of sending a
/// request known to fail.
///
/// It reads GitHub's `X-RateLimit-Remaining` and `X-RateLimit-Reset`, OpenAI's
/// `x-ratelimit-remaining-requests` and `x-ratelimit-reset-requests`, the IETF's `RateLimit`
/// fields (and the older `RateLimit-Remaining` and `RateLimit-Reset`), and `Retry-After` on a 429
/// or 503 answer. A call that would wait longer than `maximumWait` fails at once with
/// ``EndpointError/Kind/rateLimited``, and nothing is sent; `maximumWait: 0` never waits.
///
/// ```swift
/// server.middlewares = [RateLimitPolicy(maximumWait: 30), HTTPBearerAuthorization(token: token)]
/// ```
///
/// A hostile or broken server cannot stall the app: a reset further away than `longestReset`
/// (an hour by default) counts as `longestReset`, however many digits it has; two `Retry-After`
/// values count as the longer; negative or non-numeric values are ignored. A budget of zero with no reset is ignored too, since nothing says when to try again.
/// Waiting is cancellable: cancelling the call ends its wait with `CancellationError`.
///
/// The budget is kept per origin, and shared by every server whose ``APIServer/middlewares`` hold
/// this policy. It is checked when the call arrives and again when its request leaves the chain,
/// so either order beside a ``Throttle`` holds: a call that waited in the Throttle's queue while
/// answers spent the budget waits for the reset before it is sent. Place it before authorization.
public struct RateLimitPolicy: EndpointMiddleware {
    /// The longest a call waits for a reset, in seconds; beyond it the call fails at once.
    public let maximumWait: TimeInterval
    /// The furthest reset believed, in seconds: a later one counts as this long.
    public let longestReset: TimeInterval
    private let budgets = Locked<[String: Date]>([:])

    /// A policy that waits up to `maximumWait` seconds for a reset.
    ///
    /// ```swift
    /// let failFast = RateLimitPolicy(maximumWait: 0)
    /// ```
    public init(maximumWait: TimeInterval = 60, longestReset: TimeInterval = 3600) {
        self.maximumWait = maximumWait
        self.longestReset = longestReset
    }

    /// Waits while the server's budget is spent, sends the request, and notes the budget its
    /// answer announces.
    ///
    /// - Throws: ``EndpointError/Kind/rateLimited`` when the wait would pass `maximumWait`;
    ///   ``EndpointError/Kind/invalidRequest`` for a negative or NaN setting; `CancellationError`
    ///   when the call is cancelled while it waits.
    public func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        if let problem = Seconds.problem(maximumWait, named: "maximumWait") ?? Seconds.problem(longestReset, named: "longestReset") {
            throw EndpointError.unusable("RateLimitPolicy", problem, request: request)
        }
        let origin = Redirect.origin(of: context.origin)
        try await waitForBudget(of: origin, request: request)
        // Checked again as the request leaves, and the answer read as it arrives: placed before a
        // Throttle, the call may have waited in its queue while other answers spent the budget,
        // and the next call in that queue must not leave before this answer is read.
        return try await next.withTransportHooks(
            beforeSending: { [self] request in try await waitForBudget(of: origin, request: request) },
            answered: { [self] response in note(RateLimitHeaders(response, longestReset: longestReset), for: origin) }
        )(request, body)
    }

    /// Returns once `origin`'s budget is not known to be spent, waiting for its reset if that
    /// comes within `maximumWait`.
    private func waitForBudget(of origin: String, request: URLRequest) async throws {
        while let until = budgets.withLock({ $0[origin] }) {
            let wait = until.timeIntervalSinceNow
            if wait > maximumWait {
                throw EndpointError(
                    kind: .rateLimited, route: EndpointError.route(of: request),
                    reason: "the server's rate limit for \(origin) is spent for \(Self.seconds(wait)) more, longer than the RateLimitPolicy's maximumWait of \(Self.seconds(maximumWait)); nothing was sent",
                    request: request)
            }
            guard wait > 0 else { return }
            try await Task.sleep(nanoseconds: Seconds.clampedNanoseconds(wait))
        }
    }

    /// Records what an answer said: spent until a reset, or budget left.
    private func note(_ headers: RateLimitHeaders, for origin: String) {
        guard let remaining = headers.remaining else { return }
        budgets.withLock { budgets in
            if remaining > 0 {
                budgets[origin] = nil
            } else if let reset = headers.reset {
                let until = Date(timeIntervalSinceNow: reset)
                budgets[origin] = max(budgets[origin] ?? until, until)
            }
            if budgets.count > 1000 { budgets = budgets.filter { $0.value.timeIntervalSinceNow > 0 } }
        }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        String(format: "%.1f s", value)
    }
}
