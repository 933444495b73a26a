import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a call again when it fails in a way that may pass: a retryable status (408, 429, 500,
/// 502, 503, 504 by default) or a transient transport error (timeout, lost connection, …).
///
/// - Only retryable calls are repeated: idempotent methods (`GET`, `HEAD`, `PUT`, `DELETE`,
///   `OPTIONS`) and endpoints that declare ``Endpoint/isSafeToRetry``. A `POST` is sent once.
/// - Waits grow exponentially from `initialDelay` (×`multiplier`, at most `maximumDelay`), with
///   jitter: each wait is drawn between `(1 - jitter)` and 1 times its nominal length.
/// - A `Retry-After` header (seconds or an HTTP date) sets the wait instead, capped at
///   `maximumRetryAfter`.
/// - Cancelling the calling task ends a wait at once with `CancellationError`.
///
/// ```swift
/// server.middlewares = [RetryPolicy(maximumAttempts: 4, initialDelay: 0.2)]
/// ```
///
/// Place it before authorization in ``APIServer/middlewares`` so that each attempt is authorized
/// afresh.
public struct RetryPolicy: EndpointMiddleware {
    /// Attempts in all, the first included. Defaults to 3.
    public var maximumAttempts: Int
    /// The wait before the first retry, in seconds. Defaults to 0.5.
    public var initialDelay: TimeInterval
    /// How much each wait grows. Defaults to 2.
    public var multiplier: Double
    /// The longest computed wait, in seconds. Defaults to 30.
    public var maximumDelay: TimeInterval
    /// How much of each wait is random, from 0 (none) to 1 (anywhere from zero). Defaults to 0.5.
    public var jitter: Double
    /// The longest wait a `Retry-After` header can ask for, in seconds. Defaults to 60.
    public var maximumRetryAfter: TimeInterval
    /// Statuses worth another attempt.
    public var retryableStatuses: Set<Int>
    /// Transport errors worth another attempt.
    public var retryableErrors: Set<URLError.Code>

    /// The statuses retried by default: 408, 429, 500, 502, 503, 504.
    public static let defaultRetryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// The transport errors retried by default: timeouts, lost or refused connections, no network,
    /// DNS failures.
    public static let defaultRetryableErrors: Set<URLError.Code> = [
        .timedOut, .networkConnectionLost, .cannotConnectToHost, .notConnectedToInternet,
        .dnsLookupFailed, .cannotFindHost,
    ]

    /// Creates a policy.
    ///
    /// ```swift
    /// let retry = RetryPolicy(maximumAttempts: 5, initialDelay: 1, retryableStatuses: [503])
    /// ```
    public init(
        maximumAttempts: Int = 3,
        initialDelay: TimeInterval = 0.5,
        multiplier: Double = 2,
        maximumDelay: TimeInterval = 30,
        jitter: Double = 0.5,
        maximumRetryAfter: TimeInterval = 60,
        retryableStatuses: Set<Int> = RetryPolicy.defaultRetryableStatuses,
        retryableErrors: Set<URLError.Code> = RetryPolicy.defaultRetryableErrors
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = min(max(jitter, 0), 1)
        self.maximumRetryAfter = maximumRetryAfter
        self.retryableStatuses = retryableStatuses
        self.retryableErrors = retryableErrors
    }

    /// Sends the request, and again after a wait while it fails in a retryable way.
    ///
    /// - Throws: ``EndpointError/Kind/invalidRequest`` before sending anything when a setting is
    ///   nonsensical: a negative or NaN delay, multiplier or jitter.
    public func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        if let problem = configurationProblem {
            throw EndpointError.unusable("RetryPolicy", problem, request: request)
        }
        guard context.isRetryable else { return try await next(request, body) }
        var attempt = 1
        while true {
            let wait: TimeInterval
            do {
                let answer = try await next(request, body)
                guard attempt < maximumAttempts, retryableStatuses.contains(answer.1.statusCode) else {
                    return answer
                }
                wait = Self.retryAfter(answer.1.value(forHTTPHeaderField: "Retry-After")).map { min($0, maximumRetryAfter) }
                    ?? delay(beforeRetry: attempt)
            } catch let error as URLError where attempt < maximumAttempts && retryableErrors.contains(error.code) {
                wait = delay(beforeRetry: attempt)
            }
            try await Task.sleep(nanoseconds: Seconds.clampedNanoseconds(wait))
            attempt += 1
        }
    }

    /// The wait before retry number `retry` (1 for the first), with jitter; infinite settings give
    /// an infinite wait (which `intercept` clamps), never NaN.
    func delay(beforeRetry retry: Int, random: Double = Double.random(in: 0...1)) -> TimeInterval {
        let nominal = min(initialDelay * pow(multiplier, Double(retry - 1)), maximumDelay)
        let wait = nominal * (1 - jitter * random)
        return wait.isNaN ? nominal : wait  // ∞ × 0 when jitter and the draw are both 1
    }

    /// What makes this policy unusable, or `nil`.
    var configurationProblem: String? {
        if let problem = Seconds.problem(initialDelay, named: "initialDelay")
            ?? Seconds.problem(maximumDelay, named: "maximumDelay")
            ?? Seconds.problem(maximumRetryAfter, named: "maximumRetryAfter") {
            return problem
        }
        if multiplier.isNaN || multiplier < 0 { return "multiplier is \(multiplier); give a number zero or more" }
        if jitter.isNaN { return "jitter is NaN; give a number from 0 to 1" }
        return nil
    }

    /// The wait a `Retry-After` value asks for, in seconds: a number of seconds or an HTTP date
    /// (RFC 9110 §10.2.3); `nil` when absent or unreadable.
    ///
    /// More digits than an `Int` holds are an infinite wait, for the caller to cap. Several values
    /// (two `Retry-After` lines, which Foundation joins with `, `) ask for the longest of them:
    /// the most conservative reading.
    static func retryAfter(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let wait = singleRetryAfter(value, now: now) { return wait }
        // An HTTP date has a comma of its own ("Sun, 06 Nov 1994 08:49:37 GMT"): a piece that is
        // not a number is read together with the next one.
        var pieces = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }[...]
        var longest: TimeInterval?
        while let piece = pieces.popFirst() {
            if let wait = singleRetryAfter(piece, now: now) {
                longest = max(longest ?? 0, wait)
            } else if let next = pieces.first, let wait = singleRetryAfter(piece + ", " + next, now: now) {
                pieces.removeFirst()
                longest = max(longest ?? 0, wait)
            }
        }
        return longest
    }

    private static func singleRetryAfter(_ value: String, now: Date) -> TimeInterval? {
        if let seconds = Int(value) { return TimeInterval(max(seconds, 0)) }
        if !value.isEmpty, value.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) { return .infinity }
        guard let date = HTTPDate.parse(value) else { return nil }
        return max(date.timeIntervalSince(now), 0)
    }
}
