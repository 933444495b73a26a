import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The rest of a middleware chain after one middleware: the middlewares after it, then the
/// transport. A middleware calls it as a function, and says what the rest must know (a
/// credential it set, a shorter time, hooks around the transport) by calling a changed copy:
///
/// ```swift
/// var signed = request
/// signed.setValue(session.secret, forHTTPHeaderField: "X-Session")
/// return try await next.withCredential(header: "X-Session")(signed, body)
/// ```
///
/// It is a value: each copy carries what was registered on it, so a registration holds for the
/// calls made through that copy and no other, and a copy may be kept and called later or again.
public struct NextStep: Sendable {
    typealias Send = @Sendable (URLRequest, MessageBody?, AttemptFacts) async throws -> (MessageBody, HTTPURLResponse)

    /// What this copy hands the rest of the chain besides the request and its body.
    package var facts: AttemptFacts
    private let send: Send

    init(facts: AttemptFacts, send: @escaping Send) {
        self.facts = facts
        self.send = send
    }

    /// A rest of the chain that is `send`: for a test of a middleware, the transport it calls.
    ///
    /// ```swift
    /// let next = NextStep { request, _ in (.data(Data()), HTTPURLResponse(url: request.url!, statusCode: 204, httpVersion: nil, headerFields: nil)!) }
    /// let answer = try await middleware.intercept(request, body: nil, context: context, next: next)
    /// ```
    public init(_ send: @escaping @Sendable (URLRequest, MessageBody?) async throws -> (MessageBody, HTTPURLResponse)) {
        self.init(facts: AttemptFacts()) { request, body, _ in try await send(request, body) }
    }

    /// Sends `request` and `body` through the rest of the chain: the response's body and head.
    ///
    /// ```swift
    /// let (answer, response) = try await next(request, body)
    /// ```
    public func callAsFunction(_ request: URLRequest, _ body: MessageBody?) async throws -> (MessageBody, HTTPURLResponse) {
        try await send(request, body, facts)
    }

    /// The rest of the chain with the header `name` registered as a credential: it is then left
    /// out of a redirect to another origin, redacted by a ``RequestLogger`` further in, and never
    /// shown to a model in a tool result. The built-in authorization middlewares register what
    /// they set the same way.
    ///
    /// ```swift
    /// return try await next.withCredential(header: "X-Session")(signed, body)
    /// ```
    public func withCredential(header name: String) -> NextStep {
        changed { $0.credentials.headers.insert(name.lowercased()) }
    }

    /// The rest of the chain with the query parameter `name` registered as a credential, as
    /// ``withCredential(header:)`` does for a header.
    ///
    /// ```swift
    /// return try await next.withCredential(queryParameter: "sig")(signed, body)
    /// ```
    public func withCredential(queryParameter name: String) -> NextStep {
        changed { $0.credentials.queryParameters.insert(name) }
    }

    /// The rest of the chain with at most `seconds` for the attempt: a middleware that made the
    /// call wait (a queue) takes the time waited off, so that the call's timeout runs from the
    /// call. It never lengthens the time: the shorter of `seconds` and the time this copy had
    /// (``MiddlewareContext/timeRemaining``) applies.
    ///
    /// ```swift
    /// let left = context.timeRemaining.map { max($0 - waited, 0.001) }
    /// return try await next.withTimeRemaining(left)(request, body)
    /// ```
    public func withTimeRemaining(_ seconds: TimeInterval?) -> NextStep {
        guard let seconds, seconds < facts.timeout ?? .infinity else { return self }
        return changed { $0.timeout = seconds }
    }

    /// The rest of the chain with two hooks at its very end, around the transport, for each
    /// attempt: `beforeSending` once every middleware after this one has passed the request on
    /// (a queue included), and `answered` as the answer's head arrives, before any middleware sees
    /// it. Throwing from `beforeSending` sends nothing.
    ///
    /// A rate-limit budget checked here is checked as the request leaves, not when it was queued:
    ///
    /// ```swift
    /// return try await next.withTransportHooks(
    ///     beforeSending: { _ in try await budget.waitForRoom() },
    ///     answered: { response in budget.update(from: response) }
    /// )(request, body)
    /// ```
    public func withTransportHooks(
        beforeSending: @escaping @Sendable (URLRequest) async throws -> Void,
        answered: @escaping @Sendable (HTTPURLResponse) -> Void
    ) -> NextStep {
        changed { $0.hooks.append(AttemptFacts.AttemptHook(beforeSending: beforeSending, answered: answered)) }
    }

    private func changed(_ change: (inout AttemptFacts) -> Void) -> NextStep {
        var copy = self
        change(&copy.facts)
        return copy
    }
}
