import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The variations of one call, passed into its one pipeline (`Endpoint.perform(on:options:)`):
/// what `call(at:)`, pages, upload progress and LLM tool calls each ask of an ordinary call. A
/// streamed payload type takes the same pipeline up to the transport.
package struct CallOptions: Sendable {
    /// Where to send the call instead of the endpoint's own path and query (`call(at:)`, a page's
    /// `next` link).
    package var url: URL?
    /// Told how much of the request body has gone out.
    package var uploadProgress: (@Sendable (TransferProgress) -> Void)?
    /// Told of each request as it leaves the middleware chain, with the credentials registered
    /// then (how a tool call keeps them from the model).
    package var observeAttempt: (@Sendable (URLRequest, CredentialNames) -> Void)?
    /// Sees the body the payload was decoded from.
    package var receivedBody: (@Sendable (Data) -> Void)?

    package init(
        url: URL? = nil, uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil,
        observeAttempt: (@Sendable (URLRequest, CredentialNames) -> Void)? = nil, receivedBody: (@Sendable (Data) -> Void)? = nil
    ) {
        self.url = url
        self.uploadProgress = uploadProgress
        self.observeAttempt = observeAttempt
        self.receivedBody = receivedBody
    }
}
