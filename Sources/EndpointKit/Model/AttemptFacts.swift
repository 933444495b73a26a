import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What one step of the middleware chain hands the steps after it and the transport, besides the
/// request and its body: the attempt's timeout, which headers and query parameters carry
/// credentials, hooks around the transport, and the call's observers.
///
/// A value: each ``NextStep`` carries its copy, changed only by the copies its public methods make
/// (``NextStep/withCredential(header:)``, ``NextStep/withTimeRemaining(_:)``,
/// ``NextStep/withTransportHooks(beforeSending:answered:)``), and hands it to the step after, whose
/// ``MiddlewareContext`` reads it.
package struct AttemptFacts: Sendable {
    /// How long one attempt may take once it leaves the chain, in seconds; `nil` for no limit.
    var timeout: TimeInterval?
    /// Header names (lowercased) and query parameter names that authorization middlewares set.
    var credentials = CredentialNames()
    /// Run around the transport for each attempt, outermost first (see ``AttemptHook``).
    var hooks: [AttemptHook] = []
    /// Told how much of the request body has been sent.
    var uploadProgress: (@Sendable (TransferProgress) -> Void)?
    /// Told of each request as it leaves the chain, with the credentials registered then: how a
    /// tool call learns which secrets to keep from the model.
    var observeAttempt: (@Sendable (URLRequest, CredentialNames) -> Void)?

    /// What a middleware runs at the very end of the chain, around the transport: after every
    /// middleware (a `Throttle`'s queue included) and before anything above sees the answer.
    struct AttemptHook: Sendable {
        /// Before the request is handed to the transport; throwing sends nothing.
        let beforeSending: @Sendable (URLRequest) async throws -> Void
        /// As the answer's head arrives from the transport.
        let answered: @Sendable (HTTPURLResponse) -> Void
    }

}
