import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends identical GET and HEAD calls that are in flight at the same time once: the first call's
/// request goes on through the rest of the chain, and every caller gets its answer (each decodes
/// its own copy).
///
/// Two calls are identical when they come from the same endpoint with the same method, URL and
/// headers as they reach this middleware. Place it after your authorization middleware, so that
/// credentials are part of what must match and two users never share an answer, and before a
/// ``Throttle``, so that identical calls take one place in its queue between them:
///
/// ```swift
/// api.middlewares = [
///     RetryPolicy(),
///     HTTPBearerAuthorization(token: token),
///     RequestCoalescing(),                                  // identical GETs: one request
///     Throttle(requests: 10, per: 1, maximumInFlight: 4),
/// ]
/// ```
///
/// Other methods, calls with a body and streamed answers are never coalesced; an endpoint opts out
/// (or, with `RequestCoalescing(byDefault: false)`, in) with ``Endpoint/coalescesIdenticalRequests``.
/// The first caller sends the request, with its own observers (progress, attempts). Cancelling
/// a waiting caller leaves the others waiting; cancelling the first caller cancels its request,
/// and if others still wait, one of them sends the call again for the rest. Copies of the
/// middleware, and of a server holding it, share the calls in flight.
public struct RequestCoalescing: EndpointMiddleware {
    /// Whether the GETs of an endpoint that does not say (its `coalescesIdenticalRequests` is
    /// `nil`) are coalesced.
    public let byDefault: Bool
    private let coalescer = Coalescer()

    /// Coalesces identical GET and HEAD calls of every endpoint (`byDefault: true`), or only of
    /// those that opt in with `static var coalescesIdenticalRequests: Bool? { true }`.
    ///
    /// ```swift
    /// api.middlewares = [HTTPBearerAuthorization(token: token), RequestCoalescing(byDefault: false)]
    /// ```
    public init(byDefault: Bool = true) {
        self.byDefault = byDefault
    }

    /// How many calls share this middleware's requests in flight now, the callers who sent them
    /// included: for a log or a test.
    ///
    /// ```swift
    /// let coalescing = RequestCoalescing()
    /// print("\(coalescing.waiting) calls wait for a shared answer")
    /// ```
    public var waiting: Int { coalescer.waiting }

    /// Joins the request in flight that is identical to `request`, or sends it for everyone who
    /// joins while it is.
    public func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        guard context.method == .get || context.method == .head, !context.streamsResponse, body == nil,
              context.coalescesIdenticalRequests ?? byDefault,
              let key = Coalescer.key(for: request, endpoint: context.endpointName) else {
            return try await next(request, body)
        }
        return try await coalescer.answer(for: key) { try await next(request, nil) }
    }
}
