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
/// (or, with `RequestCoalescing(byDefault: false)`, in) with
/// ``EndpointOptions/coalescesIdenticalRequests`` in its ``Endpoint/options``.
/// The request goes out once, in a task of its own, with the first caller's context and observers
/// (progress, attempts), on behalf of every caller waiting for it: a caller that is cancelled
/// leaves, the first one included, and the others still get the answer; the request is cancelled
/// only when the last caller leaves. Copies of the middleware, and of a server holding it, share
/// the calls in flight.
public struct RequestCoalescing: EndpointMiddleware {
    /// Whether the GETs of an endpoint that does not say (its
    /// ``EndpointOptions/coalescesIdenticalRequests`` is `nil`) are coalesced.
    public let byDefault: Bool
    private let coalescer = Coalescer()

    /// Coalesces identical GET and HEAD calls of every endpoint (`byDefault: true`), or only of
    /// those that opt in with `static var options: EndpointOptions { .init { $0.coalescesIdenticalRequests = true } }`.
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
              context.options.coalescesIdenticalRequests ?? byDefault,
              let key = Coalescer.key(for: request, operation: context.operationID) else {
            return try await next(request, body)
        }
        return try await coalescer.answer(for: key) { try await next(request, nil) }
    }
}

/// Whether an endpoint's identical GETs in flight share one request (``RequestCoalescing``).
public enum CoalescesIdenticalRequestsKey: EndpointOptionKey {
    /// `nil`: the middleware's ``RequestCoalescing/byDefault`` decides.
    public static var defaultValue: Bool? { nil }
}

extension EndpointOptions {
    /// Whether identical GET and HEAD calls of this endpoint in flight at the same time share one
    /// request, when it differs from the default of the server's ``RequestCoalescing``
    /// middleware; `nil` (the default) leaves it to the middleware. Without that middleware,
    /// nothing is coalesced.
    ///
    /// ```swift
    /// static var options: EndpointOptions { .init { $0.coalescesIdenticalRequests = false } }
    /// ```
    public var coalescesIdenticalRequests: Bool? {
        get { self[CoalescesIdenticalRequestsKey.self] }
        set { self[CoalescesIdenticalRequestsKey.self] = newValue }
    }
}
