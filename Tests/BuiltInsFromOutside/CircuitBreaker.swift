import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A middleware EndpointKit does not ship, written as an app would write it, with a per-endpoint
// setting of its own: proof that a middleware outside the module declares an option, an endpoint
// sets it, and the middleware reads it, with no requirement added to `Endpoint`.

/// Whether an endpoint's calls go through the ``CircuitBreaker``: counted when they fail, refused
/// while it is open. `true` unless the endpoint says otherwise.
enum GuardedByBreakerKey: EndpointOptionKey {
    static var defaultValue: Bool { true }
}

extension EndpointOptions {
    /// Whether this endpoint's calls go through the circuit breaker.
    var isGuardedByBreaker: Bool {
        get { self[GuardedByBreakerKey.self] }
        set { self[GuardedByBreakerKey.self] = newValue }
    }
}

/// Opens after `threshold` failures in a row (a thrown error or a 5xx answer): while it is open,
/// guarded calls fail at once with nothing sent; the first guarded call after `cooldown` seconds is
/// sent as a trial, and its success closes the breaker.
final class CircuitBreaker: EndpointMiddleware {
    private struct State {
        var failures = 0
        var openedAt: Date?
    }

    private let threshold: Int
    private let cooldown: TimeInterval
    private let state = Locked(State())

    init(threshold: Int, cooldown: TimeInterval) {
        self.threshold = max(1, threshold)
        self.cooldown = cooldown
    }

    func intercept(_ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next) async throws -> (MessageBody, HTTPURLResponse) {
        guard context.options.isGuardedByBreaker else { return try await next(request, body) }
        let isOpen = state.withLock { state -> Bool in
            guard let openedAt = state.openedAt else { return false }
            guard Date().timeIntervalSince(openedAt) >= cooldown else { return true }
            state.openedAt = nil
            state.failures = threshold - 1  // one trial: a failure opens it again
            return false
        }
        if isOpen {
            throw EndpointError(kind: .transportFailed, route: "\(context.method) \(context.pathTemplate)",
                                reason: "the circuit breaker is open after \(threshold) failures in a row; nothing was sent")
        }
        do {
            let answer = try await next(request, body)
            record(failure: answer.1.statusCode >= 500)
            return answer
        } catch {
            record(failure: true)
            throw error
        }
    }

    private func record(failure: Bool) {
        state.withLock { state in
            guard failure else { state.failures = 0; return }
            state.failures += 1
            if state.failures >= threshold { state.openedAt = Date() }
        }
    }
}
