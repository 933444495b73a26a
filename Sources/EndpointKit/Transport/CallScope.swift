import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Facts about the current call that a `URLRequest` cannot carry, for middlewares deeper in the
/// chain and for the ``TransportContext`` made at its end: the attempt's timeout, and which headers
/// and query parameters carry credentials.
///
/// It is a task-local value that middlewares change only through ``MiddlewareContext``'s public
/// methods: each authorization middleware adds the names it sets around the rest of the chain
/// (``MiddlewareContext/withCredential(header:_:)``), so a ``RequestLogger`` after it redacts them
/// and the transport strips them from redirects to another origin; a ``Throttle`` shortens the
/// timeout by the time it queued (``MiddlewareContext/withTimeRemaining(_:_:)``).
package struct CallScope: Sendable {
    /// How long one attempt may take once it leaves the chain, in seconds; `nil` for no limit.
    var timeout: TimeInterval?
    /// Told how much of the request body has been sent.
    var uploadProgress: (@Sendable (TransferProgress) -> Void)?
    /// Header names (lowercased) and query parameter names that authorization middlewares set.
    package var credentials = CredentialNames()
    /// Told of each request as it leaves the middleware chain, with the scope in force there (the
    /// credentials registered): how a tool call learns which secrets to keep from the model.
    package var observeAttempt: (@Sendable (URLRequest, CallScope) -> Void)?
    /// Run at the end of the middleware chain, around the transport, for each attempt: after every
    /// middleware (a `Throttle`'s queue included) and before anything above sees the answer. A
    /// `RateLimitPolicy` placed before a `Throttle` checks the budget here as the request leaves,
    /// and reads the answer's budget before the Throttle lets the next call go.
    package var attemptHooks: [AttemptHook] = []

    /// What ``attemptHooks`` run.
    package struct AttemptHook: Sendable {
        /// Before the request is handed to the transport; throwing sends nothing.
        let beforeSending: @Sendable (URLRequest) async throws -> Void
        /// As the answer's head arrives from the transport.
        let answered: @Sendable (HTTPURLResponse) -> Void
    }

    @TaskLocal package static var current = CallScope()

    /// Runs `operation` with `header` registered as a credential.
    static func withCredential<Result>(
        header: String, _ operation: () async throws -> Result
    ) async rethrows -> Result {
        var scope = current
        scope.credentials.headers.insert(header.lowercased())
        return try await $current.withValue(scope, operation: operation)
    }

    /// Runs `operation` with the query parameter `name` registered as a credential.
    static func withCredential<Result>(
        queryParameter name: String, _ operation: () async throws -> Result
    ) async rethrows -> Result {
        var scope = current
        scope.credentials.queryParameters.insert(name)
        return try await $current.withValue(scope, operation: operation)
    }
}
